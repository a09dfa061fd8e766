"""The browser's engine against the CLI's: thousands of commands, the same dice, the same text.

The roller runs the engine's own modules on MicroPython (lowered at build time, see
``saikoro.site._lowering``). Every command here is rolled by CPython with a seeded random
generator; the dice it drew are replayed into the browser's engine (the pinned
``micropython.wasm`` in Node.js, through the worker's own ``_mp_worker.roll`` and
``mphost.mjs``), and the answer must be the same: the text, the flags and the dice, or
the same refusal message, or both "not a command". Generic commands come from the BCDice
differential's generator (every family, full width, malformed input, the edge probes);
each system's from its documented examples with other numbers, case and width, random
ruling options and cut or doubled parts.

Not skipped without Node.js: ``make setup`` needs it too.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator

import pytest

import saikoro
from bcdice.differential import edge_probes, generate, to_fullwidth
from browser_engine import Case, run
from saikoro.dice import SaikoroError
from saikoro.systems import SYSTEM_IDS, OptionError, Ruling, system_class

SEED = 20261231
GENERIC = 3000
PER_SYSTEM = 1500


def _options(rng: random.Random, rulings: tuple[Ruling, ...]) -> dict[str, object]:
    out: dict[str, object] = {}
    for ruling in rulings:
        if not ruling.option or rng.random() < 0.6:
            continue
        default = ruling.default
        if ruling.choices:
            out[ruling.option_name] = rng.choice(ruling.choices)
        elif isinstance(default, bool):
            out[ruling.option_name] = not default
        elif isinstance(default, int):
            out[ruling.option_name] = max(0, default + rng.randint(-2, 3))
    return out


def _vary(rng: random.Random, example: str) -> str:
    """An example command with other numbers, and now and then other case, width or a cut."""
    text = re.sub(r"\d+", lambda m: str(max(0, int(m.group()) + rng.randint(-3, 4))), example)
    roll = rng.random()
    if roll < 0.1:
        text = text.lower()
    elif roll < 0.18:
        text = to_fullwidth(text)
    elif roll < 0.24:
        text = text[: rng.randint(1, max(1, len(text) - 1))]
    elif roll < 0.28:
        text = text + text[rng.randint(0, len(text) - 1) :]
    elif roll < 0.32:
        text = f"S{text}"
    elif roll < 0.36:
        text = f"x{rng.randint(1, 3)} {text}"
    elif roll < 0.4:
        text = f"{text} 攻撃する"
    return text


def system_cases(system_id: str, count: int, seed: int) -> list[tuple[str, str, str]]:
    """``count`` (command, system, options JSON) for one system (deterministic for a seed)."""
    cls = system_class(system_id)
    examples = [e for doc in cls.commands for e in doc.examples]
    rng = random.Random(f"{seed}-{system_id}")
    out = []
    for _ in range(count):
        options = _options(rng, cls.rulings)
        text = json.dumps(options, ensure_ascii=False, sort_keys=True) if options else ""
        out.append((_vary(rng, rng.choice(examples)), system_id, text))
    return out


class _Recorder(random.Random):
    """A seeded generator that remembers the dice it gave (``DiceSource`` draws with
    ``randint(1, sides)``): a command refused after some dice were drawn (a hit whose
    damage cannot be read) is replayed with the same dice."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.drawn: list[list[int]] = []

    def randint(self, a: int, b: int) -> int:
        value = super().randint(a, b)
        self.drawn.append([b, value])
        return value


def _cpython(command: str, system: str, options: str, seed: int) -> dict[str, object]:
    """What CPython's engine answers, in the worker's words (``_mp_worker._answer``), and
    under ``"drawn"`` the dice it drew."""
    try:
        configured = saikoro.get_system(system, **json.loads(options or "{}")) if system else None
    except OptionError as error:  # the worker's words for it
        return {
            "ok": False,
            "message": f"このシステムでは使えないルールオプションです（{error.ja}）",
        }
    rng = _Recorder(seed)
    try:
        result = saikoro.roll(command, system=configured, rng=rng)
    except (SaikoroError, ValueError) as error:
        return {"ok": False, "message": str(error), "drawn": rng.drawn}
    if result is None:
        return {"ok": False, "message": "コマンドとして認識できません", "drawn": rng.drawn}
    return {
        "ok": True,
        "text": result.text,
        "command": result.command,
        "success": bool(result.success),
        "failure": bool(result.failure),
        "critical": bool(result.critical),
        "fumble": bool(result.fumble),
        "secret": bool(result.secret),
        "dice": [list(die) for die in result.dice],
        "drawn": rng.drawn,
    }


def _all_cases() -> Iterator[tuple[str, str, str]]:
    for case in generate(GENERIC, SEED):
        yield case.command, "", ""
    for case in edge_probes():
        yield case.command, "", ""
    for system_id in SYSTEM_IDS:
        yield from system_cases(system_id, PER_SYSTEM, SEED)


DEEP = (
    "コマンドの入れ子が深すぎて、ブラウザでは振れません"
    "（括弧や項を減らすか、コマンドラインの saikoro roll で振ってください）"
)
"""The browser's refusal of deep nesting (``_mp_worker.DEEP``): MicroPython's stack holds
about 20 levels of parentheses, CPython's engine 3000."""

SHALLOW = 16
"""Nesting every command up to which the browser must roll as the CLI does."""


def _nesting(command: str) -> int:
    from saikoro.dice._limits import check_nesting
    from saikoro.dice._normalize import halfwidth

    try:
        return check_nesting(halfwidth(command))
    except SaikoroError:
        return 10**9


def _compare(cases: list[tuple[str, str, str]]) -> tuple[list[str], dict[str, int]]:
    expected = [_cpython(c, s, o, SEED + i) for i, (c, s, o) in enumerate(cases)]
    replay: list[Case] = []
    for (command, system, options), answer in zip(cases, expected, strict=True):
        drawn = answer.pop("drawn", [])
        replay.append((command, system, options, json.dumps(drawn) if drawn else ""))
    answers = run(replay)
    mismatches = []
    counts: dict[str, int] = {}
    for (command, system, options), want, got in zip(cases, expected, answers, strict=True):
        key = system or "generic"
        counts[key] = counts.get(key, 0) + 1
        if got == {"ok": False, "message": DEEP} and _nesting(command) > SHALLOW:
            counts["deep"] = counts.get("deep", 0) + 1
            continue
        if want != got:
            shown = command if len(command) <= 120 else command[:117] + "..."
            mismatches.append(f"{key} {shown!r} {options}\n  CLI:     {want}\n  browser: {got}")
    return mismatches, counts


@pytest.mark.slow
def test_browser_engine_rolls_as_the_cli() -> None:
    cases = list(_all_cases())
    mismatches, counts = _compare(cases)
    assert counts["generic"] >= GENERIC
    assert all(counts[s] == PER_SYSTEM for s in SYSTEM_IDS)
    assert not mismatches, f"{len(mismatches)} of {len(cases)} answers differ:\n" + "\n".join(
        mismatches[:30]
    )


def test_system_cases_use_every_documented_command() -> None:
    """Each system's cases start from every one of its documented examples."""
    for system_id in SYSTEM_IDS:
        examples = {e for doc in system_class(system_id).commands for e in doc.examples}
        heads = {re.sub(r"\d+", "#", e) for e in examples}
        made = {re.sub(r"\d+", "#", c) for c, _, _ in system_cases(system_id, PER_SYSTEM, SEED)}
        assert heads <= made, sorted(heads - made)


def test_worker_rolls_with_the_options() -> None:
    """The worker's Python (``_mp_worker.roll``) on MicroPython, as the browser runs it."""
    cases = [("KKM[3,3,3]>=15G4", "kokuryoku", '{"die":6}', "")] * 5
    cases += [("KK0", "kokuryoku", "", ""), ("1D6", "", '{"die":6}', "")]
    bad = ['{"die":"6"}', '{"nope":1}', "[6]"]
    cases += [("KK0", "kokuryoku", b, "") for b in bad]
    answers = run(cases, systems=["kokuryoku"])
    for six in answers[:5]:
        assert six["ok"] and str(six["text"]).startswith("(KKM[3,3,3]>=15G4) ＞"), six
        dice = six["dice"]
        assert isinstance(dice, list) and dice and {sides for sides, _ in dice} == {6}, six
    assert [sides for sides, _ in answers[5]["dice"]] == [10]  # type: ignore[attr-defined]
    assert answers[6]["ok"]  # generic: options unused
    # a bad option is the roll's error message, not an exception or an internal error
    for option, reply in zip(bad, answers[7:], strict=True):
        assert reply["ok"] is False and reply["message"], option
        assert "内部エラー" not in str(reply["message"]), (option, reply)
