r"""Differential testing of saikoro's generic commands against the real BCDice.

BCDice 3.16.1 (npm ``bcdice`` 4.9.0, pinned in package.json) rolls every command with
its own randomizer in ONE Node.js process (``driver.cjs``); the dice it drew are
replayed into ``saikoro.roll(command, dice=...)``, and the text and the flags must be
the same. A command BCDice does not answer must not be answered by saikoro; a
command BCDice fails on (it throws) must be refused by saikoro with a ``DiceError``.

:func:`generate` writes random generic commands over every family: sums and
arithmetic, ``C()``, ``B``, ``R``, ``U``, ``TY``/``TZ``, ``D66``, ``choice``, repeats
(``x``/``rep``/``repeat``), the secret prefix, mixed case, full width, comments, chat
text and malformed input. A full-width case, or one that writes ``>=`` ``<=`` as
``≧`` ``≦``, is saikoro's own reading of what BCDice does not read (BCDice's DiceBot
takes only ASCII): it is checked against BCDice's answer to the ASCII command.

Known differences between bcdice-js and Ruby BCDice (the reference), where saikoro
follows Ruby:

- integers are JavaScript numbers: literals beyond 2^53 lose digits, and a negative
  zero prints as ``-0.0`` (``-0D6``); BCDice's text is read with ``-0.0`` as ``0``
  (:func:`ruby_text`) and the generator keeps numbers small;
- Opal's ``StringScanner`` mis-splits ``choice A  B`` (a run of spaces between
  items): bcdice-js drops or truncates items, Ruby splits on ``\s+``; the generator
  writes single spaces there (saikoro's reading is tested in ``test_dice_engine.py``);
- blank input makes BCDice (Ruby too) fail inside its preprocessor; saikoro answers
  nothing, which counts as agreement.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import saikoro
from saikoro.dice import DiceError

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).resolve().with_name("driver.cjs")
PACKAGE = ROOT / "node_modules" / "bcdice" / "package.json"
FLAGS = ("secret", "success", "failure", "critical", "fumble")
BCDICE_VERSION = "3.16.1"


class BCDiceUnavailableError(RuntimeError):
    """Node.js or the pinned npm ``bcdice`` is missing (``make setup`` installs it)."""


@dataclass(frozen=True)
class Case:
    """One command: what saikoro reads and what BCDice is asked (the same but for full width)."""

    command: str
    reference: str
    family: str

    @classmethod
    def same(cls, command: str, family: str) -> Case:
        return cls(command, command, family)


@dataclass
class Report:
    """Agreement counts, the mismatches and the time each side spent rolling."""

    total: int = 0
    agree: int = 0
    answered: int = 0
    refused: int = 0
    mismatches: list[str] = field(default_factory=list)
    bcdice_ms: float = 0.0
    saikoro_ms: float = 0.0
    by_family: dict[str, tuple[int, int]] = field(default_factory=dict)

    def summary(self) -> str:
        return (
            f"{self.agree}/{self.total} agree ({self.answered} answered by both, "
            f"{self.refused} refused by both, {len(self.mismatches)} differ)"
        )


def run_bcdice(commands: Sequence[str]) -> tuple[list[dict[str, object]], float]:
    """BCDice's answers to ``commands`` (one Node.js process) and its evaluation time in ms."""
    node = shutil.which("node")
    if node is None:
        raise BCDiceUnavailableError("node (Node.js) is not on PATH; it is needed to run BCDice")
    if not PACKAGE.is_file():
        raise BCDiceUnavailableError(
            f"the pinned npm package bcdice is missing ({PACKAGE.parent}): run `make setup`"
        )
    version = json.loads(PACKAGE.read_text(encoding="utf-8"))["version"]
    if version != "4.9.0":
        raise BCDiceUnavailableError(
            f"node_modules/bcdice is {version}, expected 4.9.0: run `make setup`"
        )
    payload = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in commands)
    proc = subprocess.run(
        [node, str(DRIVER)],
        input=payload,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=1800,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the BCDice driver failed ({proc.returncode}): {proc.stderr[-2000:]}")
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    head, answers, tail = lines[0], lines[1:-1], lines[-1]
    if head.get("version") != BCDICE_VERSION:
        raise BCDiceUnavailableError(f"BCDice reports version {head!r}, expected {BCDICE_VERSION}")
    if not tail.get("done") or len(answers) != len(commands):
        raise RuntimeError(f"the BCDice driver answered {len(answers)} of {len(commands)} commands")
    return answers, float(tail["ms"])


_NEGATIVE_ZERO = re.compile(r"(?<![\d.])-0\.0(?!\d)")


def ruby_text(text: str) -> str:
    """BCDice's text as Ruby BCDice prints it: bcdice-js computes in JavaScript numbers,
    where ``-0`` exists and prints as ``-0.0``; Ruby's integers have no negative zero.

    >>> ruby_text("(-0D6) ＞ -0[] ＞ -0.0"), ruby_text("1D6>=-0.0 ＞ 1.05")
    ('(-0D6) ＞ -0[] ＞ 0', '1D6>=0 ＞ 1.05')
    """
    return _NEGATIVE_ZERO.sub("0", text)


def _show(text: object) -> str:
    shown = repr(text)
    return shown if len(shown) <= 300 else shown[:300] + "..."


def check_case(case: Case, answer: dict[str, object]) -> tuple[str | None, str]:
    """``(problem or None, kind)`` for one case; kind is ``answered``, ``none`` or ``refused``."""
    where = f"[{case.family}] {case.command!r}"
    if answer.get("none"):
        try:
            result = saikoro.roll(case.command, dice=[])
        except DiceError as exc:
            return f"{where}: BCDice answers nothing, saikoro raises {exc!r}", "none"
        if result is not None:
            return f"{where}: BCDice answers nothing, saikoro prints {_show(result.text)}", "none"
        return None, "none"
    if "error" in answer:
        if not case.command.strip():
            # BCDice fails on blank input (Ruby too: nil.gsub); saikoro: not a command
            return (
                (None, "refused")
                if saikoro.roll(case.command) is None
                else (f"{where}: blank input answered", "refused")
            )
        try:
            result = saikoro.roll(case.command, dice=[])
        except DiceError:
            return None, "refused"
        shown = "nothing" if result is None else _show(result.text)
        return f"{where}: BCDice fails ({answer['error']}), saikoro answers {shown}", "refused"
    rands = answer["rands"]
    assert isinstance(rands, list)
    answer = {**answer, "text": ruby_text(str(answer["text"]))}
    dice = [(int(sides), int(value)) for value, sides in rands]
    try:
        result = saikoro.roll(case.command, dice=dice)
    except DiceError as exc:
        return f"{where}: BCDice prints {_show(answer['text'])}, saikoro raises {exc!r}", "answered"
    if result is None:
        return (
            f"{where}: BCDice prints {_show(answer['text'])}, saikoro answers nothing",
            "answered",
        )
    if result.text != answer["text"]:
        return (
            f"{where}: BCDice prints {_show(answer['text'])}, saikoro {_show(result.text)} "
            f"(dice {dice[:20]})",
            "answered",
        )
    for flag in FLAGS:
        if bool(getattr(result, flag)) != bool(answer[flag]):
            return f"{where}: flag {flag} is {getattr(result, flag)} in saikoro", "answered"
    if len(result.dice) != len(dice):
        return f"{where}: saikoro used {len(result.dice)} of BCDice's {len(dice)} dice", "answered"
    return None, "answered"


def compare(cases: Sequence[Case]) -> Report:
    """Roll every case in BCDice, replay it in saikoro, and count the agreements."""
    answers, bcdice_ms = run_bcdice([c.reference for c in cases])
    report = Report(total=len(cases), bcdice_ms=bcdice_ms)
    for case, answer in zip(cases, answers, strict=True):
        start = time.perf_counter()
        problem, kind = check_case(case, answer)
        report.saikoro_ms += (time.perf_counter() - start) * 1000
        done, good = report.by_family.get(case.family, (0, 0))
        report.by_family[case.family] = (done + 1, good + (problem is None))
        if problem is None:
            report.agree += 1
            report.answered += kind == "answered"
            report.refused += kind == "refused"
        else:
            report.mismatches.append(problem)
    return report


# -- the generator ------------------------------------------------------------------------

_SIDES = (1, 2, 3, 4, 6, 6, 6, 8, 10, 10, 12, 20, 100)
_CMP = (">=", "<=", ">", "<", "=", "<>", "!=", "=>", "=<", "==", "><", "=!")
_CHAT = (
    "こんにちは",
    "よろしくお願いします",
    "1D6は強い",
    "hello",
    "ok",
    "Dice",
    "test 2D6",
    "x",
    "S",
    "C",
    "choice",
    "repeat",
    "D",
    "2D6の結果",
    "（笑）",
    "D&D",
    "x5",
)
_MALFORMED_ALPHABET = "0123456789DdBbRrUuKkHhLlCcSsTtYyZz+-*/()[]<>=!?@^, "


class Generator:
    """Random generic BCDice commands from a seeded :class:`random.Random`."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # small building blocks
    def num(self, low: int = 0, high: int = 12) -> str:
        return str(self.rng.randint(low, high))

    def small_expr(self, depth: int = 0) -> str:
        """An arithmetic expression for counts, sides and targets."""
        r = self.rng.random()
        if depth > 1 or r < 0.55:
            return self.num(0, 9)
        if r < 0.7:
            return f"({self.small_expr(depth + 1)})"
        if r < 0.8:
            return f"-{self.small_expr(depth + 1)}"
        op = self.rng.choice(["+", "-", "*", "/", "/", "*"])
        suffix = self.rng.choice(["", "", "U", "R", "F", "C"]) if op == "/" else ""
        return f"{self.small_expr(depth + 1)}{op}{self.small_expr(depth + 1)}{suffix}"

    def count(self) -> str:
        r = self.rng.random()
        if r < 0.78:
            return self.num(0, 5)
        if r < 0.86:
            return f"({self.num(1, 3)}+{self.num(0, 2)})"
        if r < 0.93:
            rounding = self.rng.choice(["", "U", "R", "F", "C"])
            return f"({self.num(1, 9)}/{self.num(1, 4)}{rounding})"
        return f"({self.num(0, 2)}-{self.num(0, 3)})"

    def sides(self) -> str:
        r = self.rng.random()
        if r < 0.85:
            return str(self.rng.choice(_SIDES))
        if r < 0.95:
            return f"({self.num(1, 5)}*{self.num(1, 4)})"
        return self.rng.choice(["0", "10001", "(0-2)"])

    def cmp(self) -> str:
        return self.rng.choice(_CMP)

    def secret(self) -> str:
        return "S" if self.rng.random() < 0.12 else ""

    # families
    def dice_term(self) -> str:
        r = self.rng.random()
        if r < 0.08:
            return f"D{self.sides()}"
        if r < 0.14:
            return f"{self.count()}D"
        if r < 0.22:
            return f"{self.count()}D66"
        term = f"{self.count()}D{self.sides()}"
        f = self.rng.random()
        if f < 0.08:
            term += self.rng.choice(["KH", "KL", "DH", "DL"]) + self.rng.choice(
                ["", self.num(0, 4)]
            )
        elif f < 0.12:
            term += self.rng.choice(["MAX", "MIN"])
        return term

    def sum_expr(self, depth: int = 0) -> str:
        parts = [self.dice_term() if self.rng.random() < 0.8 else self.num(0, 10)]
        for _ in range(self.rng.choice([0, 0, 1, 1, 2, 3])):
            op = self.rng.choice(["+", "+", "-", "*", "/"])
            if self.rng.random() < 0.5:
                rhs = self.num(0, 10)
            elif self.rng.random() < 0.15 and depth < 2:
                rhs = f"({self.sum_expr(depth + 1)})"
            else:
                rhs = self.dice_term()
            parts.append(op + rhs)
            if op == "/" and self.rng.random() < 0.5:
                parts.append(self.rng.choice(["U", "R", "F", "C"]))
        text = "".join(parts)
        if self.rng.random() < 0.1:
            text = "-" + text
        if self.rng.random() < 0.06:
            text = f"({text})"
        return text

    def add(self) -> str:
        text = self.sum_expr()
        r = self.rng.random()
        if r < 0.45:
            target = self.rng.choice(
                [
                    self.num(0, 20),
                    self.num(0, 20),
                    "?",
                    self.small_expr(),
                    f"{self.num()}D6",
                    f"({self.num(0, 9)}+{self.num(0, 9)})",
                    f"-{self.num(0, 5)}",
                ]
            )
            text += self.cmp() + target
        return self.secret() + text

    def calc(self) -> str:
        def expr(depth: int) -> str:
            r = self.rng.random()
            if depth > 2 or r < 0.4:
                return self.num(0, 30)
            if r < 0.5:
                return f"({expr(depth + 1)})"
            if r < 0.58:
                return f"-{expr(depth + 1)}"
            if r < 0.62:
                return f"{expr(depth + 1)}^{self.num(0, 3)}"
            op = self.rng.choice(["+", "-", "*", "/", "/"])
            suffix = self.rng.choice(["", "U", "R", "F", "C", ""]) if op == "/" else ""
            return f"{expr(depth + 1)}{op}{expr(depth + 1)}{suffix}"

        body = expr(0)
        wrap = self.rng.random()
        if wrap < 0.85:
            text = f"C({body})"
        elif wrap < 0.92:
            text = f"C{body}"
        else:
            text = f"C({body}){self.rng.choice(['', '+1', ')', '>=3', 'D6'])}"
        return self.secret() + text

    def barabara(self) -> str:
        notes = [f"{self.count()}B{self.sides()}" for _ in range(self.rng.choice([1, 1, 1, 2, 3]))]
        text = "+".join(notes)
        if self.rng.random() < 0.6:
            text += self.cmp() + self.rng.choice([self.num(0, 10), self.small_expr()])
        return self.secret() + text

    def reroll(self) -> str:
        notes = [f"{self.count()}R{self.sides()}" for _ in range(self.rng.choice([1, 1, 2]))]
        text = "+".join(notes)
        r = self.rng.random()
        if r < 0.35:
            cond = self.rng.choice(["", ">=", ">", "<=", "<", "=", "<>"])
            text += f"[{cond}{self.num(0, 12)}]"
            if self.rng.random() < 0.7:
                text += self.cmp() + self.num(0, 12)
        elif r < 0.75:
            text += self.cmp() + self.num(0, 12)
            if self.rng.random() < 0.3:
                text += "@" + self.rng.choice(["", ">=", "<=", ">", "<"]) + self.num(0, 12)
        return self.secret() + text

    def upper(self) -> str:
        notes = [f"{self.count()}U{self.sides()}" for _ in range(self.rng.choice([1, 1, 2]))]
        text = "+".join(notes)
        r = self.rng.random()
        if r < 0.6:
            text += f"[{self.rng.choice([self.num(0, 12), self.small_expr()])}]"
        mod = self.rng.random()
        if mod < 0.25:
            text += self.rng.choice(["+", "-"]) + self.num(0, 10)
        elif mod < 0.3:
            text += f"+{self.num(0, 5)}*{self.num(0, 3)}"
        if self.rng.random() < 0.4:
            text += self.cmp() + self.num(0, 20)
        if r >= 0.6 and self.rng.random() < 0.7:
            text += "@" + self.num(0, 12)
        return self.secret() + text

    def tally(self) -> str:
        kind = self.rng.choice(["TY", "TZ"])
        sides = self.rng.choice([self.num(1, 10), "20", "21", "6", "(2+3)", "0"])
        return f"{self.secret()}{self.count()}{kind}{sides}"

    def d66(self) -> str:
        return self.secret() + "D66" + self.rng.choice(["", "", "A", "S", "D", "N", "X", "6"])

    def choice(self) -> str:
        pool = ["A", "B", "C", "りんご", "みかん", "x y", "2D6", " ", "", "a,b", "赤", "12"]
        n = self.rng.choice([1, 2, 2, 3, 4, 5])
        items = [self.rng.choice(pool) for _ in range(n)]
        if self.rng.random() < 0.12:
            items = [self.rng.choice(["A-F", "a-e", "1-10", "3-5", "F-A", "10-1", "A-e"])]
        takes = self.rng.choice(["", "", "", "2", "3", "0"])
        form = self.rng.random()
        if form < 0.4:
            text = f"choice{takes}[{','.join(items)}]"
        elif form < 0.7:
            text = f"choice{takes}({','.join(items)})"
        elif form < 0.95:  # single spaces: see the module docstring
            text = f"choice{takes} {' '.join(i for i in items if i.strip() and ' ' not in i)}"
        else:
            text = f"choice{takes}[{','.join(items)}"
        return self.secret() + text

    def repeat(self) -> str:
        word = self.rng.choice(["x", "rep", "repeat", "X", "REP", "Repeat"])
        times = self.rng.choice(["1", "2", "3", "2", "0", "101", ""])
        inner = self.rng.choice([self.add, self.calc, self.barabara, self.d66, self.choice])()
        if self.rng.random() < 0.08:
            inner = f"x{self.num(1, 3)} {inner}"
        if self.rng.random() < 0.06:
            inner = self.rng.choice(["BCDiceVersion", "hello", "C(2^3)"])
        space = self.rng.choice([" ", " ", "  ", "\t", ""])
        return f"{self.secret()}{word}{times}{space}{inner}"

    def chat(self) -> str:
        return self.rng.choice(_CHAT) + self.rng.choice(["", " 2D6", "！", "?"])

    def malformed(self) -> str:
        base = self.rng.choice([self.add, self.barabara, self.upper, self.reroll, self.calc])()
        chars = list(base)
        for _ in range(self.rng.randint(1, 3)):
            op = self.rng.random()
            pos = self.rng.randrange(len(chars) + 1)
            if op < 0.4 and chars:
                del chars[min(pos, len(chars) - 1)]
            elif op < 0.8:
                chars.insert(pos, self.rng.choice(_MALFORMED_ALPHABET))
            elif chars:
                i = min(pos, len(chars) - 1)
                chars.insert(i, chars[i])
        return "".join(chars)

    # variations applied to a command
    def mix_case(self, text: str) -> str:
        return "".join(c.swapcase() if self.rng.random() < 0.3 else c for c in text)

    def comment(self, text: str, single: bool = False) -> str:
        # a run of spaces, or U+3000 (which saikoro reads as a space), would split a
        # ``choice A B`` differently: see the module docstring
        sep = self.rng.choice([" ", "\t"] if single else [" ", "\t", "  ", "\u3000"])
        return text + sep + self.rng.choice(["攻撃", "命中判定 2D6", "#1", "(笑)", "x2 1D6"])

    def case(self) -> Case:
        families = [
            ("add", self.add, 26),
            ("calc", self.calc, 8),
            ("barabara", self.barabara, 9),
            ("reroll", self.reroll, 9),
            ("upper", self.upper, 9),
            ("tally", self.tally, 5),
            ("d66", self.d66, 4),
            ("choice", self.choice, 8),
            ("repeat", self.repeat, 8),
            ("chat", self.chat, 4),
            ("malformed", self.malformed, 10),
        ]
        family, make, _ = self.rng.choices(families, weights=[w for *_, w in families])[0]
        text = make()
        variant = self.rng.random()
        if family not in ("choice", "chat", "repeat") and variant < 0.15:
            text = self.mix_case(text)
        elif family not in ("choice", "chat") and variant < 0.22:
            text = self.comment(text, single=family == "repeat")
            family += "+comment"
        elif family not in ("choice", "repeat", "chat") and variant < 0.3:
            return Case(to_fullwidth(text), text, family + "+fullwidth")
        elif family not in ("choice", "chat") and variant < 0.36 and to_marks(text) != text:
            return Case(to_marks(text), text, family + "+marks")
        return Case.same(text, family)


def to_fullwidth(text: str) -> str:
    """The command as typed with a Japanese IME: ASCII and the space as full width."""
    out = []
    for ch in text:
        if ch == " ":
            out.append("\u3000")
        elif "!" <= ch <= "~":
            out.append(chr(ord(ch) + 0xFEE0))
        else:
            out.append(ch)
    return "".join(out)


def to_marks(text: str) -> str:
    """The command with ``>=`` and ``<=`` typed as an IME offers them: ``≧`` and ``≦``."""
    return text.replace(">=", "\u2267").replace("<=", "\u2266")


def generate(count: int, seed: int) -> list[Case]:
    """``count`` random generic commands (deterministic for a seed)."""
    gen = Generator(seed)
    return [gen.case() for _ in range(count)]


def edge_probes() -> list[Case]:
    """Hand-written probes: the defects of issue 10 and other corners, compared the same way."""
    deep = 3000
    probes: Iterable[str] = [
        # deep and long input (BCDice answers all of these)
        "(" * 198 + "1D6" + ")" * 198,
        "(" * deep + "1D6" + ")" * deep,
        "1D6" + "+1" * 985,
        "1D6" + "+1" * deep,
        "1D6" + "-1" * deep,
        "-" * deep + "1D6",
        "-" * 987 + "1D6",
        "-" * 986 + "1D6",
        "C(" + "(" * (deep - 1) + "1" + ")" * (deep - 1) + ")",
        "C(" + "-" * (deep - 1) + "1)",
        "C(1" + "+1" * (deep - 1) + ")",
        "C(" + "(1+" * 1499 + "1" + ")" * 1499 + ")",
        "(" * deep + "1" + ")" * deep + "D6",
        "1U6[6]+" + "1+" * (deep - 2) + "1",
        "2B6>" + "(" * (deep - 1) + "1" + ")" * (deep - 1),
        "1D6*" + "(" * (deep - 1) + "1D6" + ")" * (deep - 1),
        "(1+" * 1500 + "1D6" + ")" * 1500,
        "x2 " + "(" * 500 + "1D6" + ")" * 500,
        # no power operator
        "C(2^3)",
        "x2 C(2^3)",
        "C(10^5000)",
        "C(10^309)",
        "2D6^2",
        # repeats: only at the very start
        " x2 1D6",
        "\tx2 1D6",
        "x2  1D6",
        "x2\t1D6",
        "sx2 1D6",
        "Sx2 S1D6",
        "x2 x2 1D6",
        "x2 X2 1D6",
        "x0 1D6",
        "x101 1D6",
        "x2",
        "x2 ",
        "x2 hello",
        # BCDiceVersion
        "BCDiceVersion",
        "bcdiceversion",
        "BCDICEVERSION 1D6",
        " BCDiceVersion",
        "SBCDiceVersion",
        "BCDiceVersion2",
        "x2 BCDiceVersion",
        "x2 bcdiceversion",
        "rep3 BCDiceVersion",
        # dice that draw nothing, negative counts
        "10001U0[10]",
        "3U0[2]+2",
        "1U0[10]>=0",
        "2U6[6]+3U0[10]",
        "(0-1)U6[6]",
        "2U6+(0-1)U6[6]",
        "(0-1)U6[1]",
        "(0-1)B6",
        "(0-1)R6>=3",
        "(0-1)D6",
        "(0-1)TY6",
        "0U6[6]",
        "1U10001[10]",
        # rounding
        "C(7/2R)",
        "C(-7/2R)",
        "C(-7/2U)",
        "C(-7/2)",
        "C(1/0R)",
        "C(1/0U)",
        "C(1/0)",
        "C(5/2F)",
        "2D6/0R",
        "2D6/3R",
        "2D6/3U",
        "-2D6/3R",
        "(2+3)D(1+5)/2C",
        # long but within the bound
        "choice[" + ",".join(f"item{i}" for i in range(100)) + "]",
        "choice[" + ",".join(f"item{i}" for i in range(101)) + "]",
        "choice[1-100]",
        "choice[1-101]",
        "200D6",
        "201D6",
        "500D6",
        "1D10001",
        "100TY6",
        "3TY21",
    ]
    return [Case.same(p, "probe") for p in probes]
