"""The system's commands: parsing, BCDice-style text and odds.

Check: ``AK<level>[tokens]``; opposed check: ``AK<R|I|C><side>/<side>`` where each side
is ``<level>[tokens]``. Tokens, in any order, each at most once (``±n`` may repeat):

- ``Z`` the style is the character's specialty (doublets take effect);
- ``D±n`` base difficulty (+1 easy ... -3; -4 or harsher only at level 9+);
- ``P n`` preparation +1..+3;
- ``H`` + one or two digits 1/2: supporters' bonuses (``H21`` an expert and a helper);
- ``B n`` awakening points spent before the roll;
- ``A n`` cards spent after the roll (always); ``U n`` up to n cards, only as needed;
- ``+n`` / ``-n`` other modifiers (weapon buffs, 高天力 ...).

>>> spec = parse_check("AK7ZD-1P2H21B3+1")
>>> spec.target, spec.specialty, spec.supporters, spec.boost_points
(15, True, (2, 1), 3)
>>> parse_check("2D6") is None
True
"""

from __future__ import annotations

import re

from saikoro.dice import DiceSource, Odds, ParseError, Roll

from .checks import AfterMode, CheckResult, CheckRules, CheckSpec, CheckSpecError, resolve_check
from .odds import check_odds, opposed_odds
from .opposed import BothFail, OpposedKind, OpposedResult, Winner, resolve_opposed
from .rulings import Settings

__all__ = [
    "check_text",
    "format_check",
    "format_opposed",
    "odds_command",
    "opposed_text",
    "parse_check",
    "parse_opposed",
    "roll_check",
    "roll_command",
    "roll_opposed",
]

_CHECK = re.compile(r"AK(\d.*)")
_OPPOSED = re.compile(r"AK([RIC])(\d[^/]*)/(\d[^/]*)")
_PART = r"Z|D[+-]?\d{1,2}|P\d|H[12]{1,2}|B\d{1,3}|[AU]\d{1,2}|[+-]\d{1,3}"
_TOKEN = re.compile(_PART)
_SIDE = re.compile(rf"(\d{{1,2}})((?:{_PART})*)")


def _side(text: str, command: str) -> CheckSpec:
    m = _SIDE.fullmatch(text)
    if m is None:
        raise ParseError(f"{command}: 判定の指定 {text!r} を読めません")
    fields: dict[str, object] = {"level": int(m.group(1))}
    modifier = 0
    seen: set[str] = set()
    for tok in _TOKEN.findall(m.group(2)):
        head = tok[0]
        if head in "+-":
            modifier += int(tok)
            continue
        group = "AU" if head in "AU" else head
        if group in seen:
            raise ParseError(f"{command}: {head} の指定が重複しています")
        seen.add(group)
        if head == "Z":
            fields["specialty"] = True
        elif head == "D":
            fields["difficulty"] = int(tok[1:])
        elif head == "P":
            fields["preparation"] = int(tok[1:])
        elif head == "H":
            fields["supporters"] = tuple(int(c) for c in tok[1:])
        elif head == "B":
            fields["boost_points"] = int(tok[1:])
        else:
            fields["after_cards"] = int(tok[1:])
            fields["after_mode"] = AfterMode.FIXED if head == "A" else AfterMode.AS_NEEDED
    fields["modifier"] = modifier
    try:
        return CheckSpec(**fields)  # type: ignore[arg-type]
    except CheckSpecError as e:
        raise ParseError(f"{command}: {e}") from e


def parse_check(command: str) -> CheckSpec | None:
    """The :class:`CheckSpec` of a check command, ``None`` if it is not one.

    >>> parse_check("AK5U2").after_mode.value
    'as_needed'
    """
    m = _CHECK.fullmatch(command)
    return None if m is None else _side(m.group(1), command)


def parse_opposed(command: str) -> tuple[OpposedKind, CheckSpec, CheckSpec] | None:
    """Kind, active side and passive side of an opposed command, else ``None``.

    >>> k, a, p = parse_opposed("AKR7Z/6H1")
    >>> k.label, a.target, a.specialty, p.target
    ('抵抗', 7, True, 7)
    """
    m = _OPPOSED.fullmatch(command)
    if m is None:
        if re.match(r"AK[RIC]\d", command):
            raise ParseError(f"{command}: 対抗判定は AK[R|I|C]<能動側>/<受動側> の形です")
        return None
    return OpposedKind(m.group(1)), _side(m.group(2), command), _side(m.group(3), command)


def format_check(spec: CheckSpec) -> str:
    """The canonical command text of a check (``parse_check`` reads it back).

    >>> format_check(CheckSpec(level=6, difficulty=-1, supporters=(2,), specialty=True))
    'AK6ZD-1H2'
    """
    return "AK" + _side_text(spec)


def format_opposed(kind: OpposedKind, active: CheckSpec, passive: CheckSpec) -> str:
    """The canonical command text of an opposed check.

    >>> format_opposed(OpposedKind.RESIST, CheckSpec(level=7), CheckSpec(level=6, preparation=1))
    'AKR7/6P1'
    """
    return f"AK{kind.value}{_side_text(active)}/{_side_text(passive)}"


def _side_text(spec: CheckSpec) -> str:
    out = [str(spec.level)]
    if spec.specialty:
        out.append("Z")
    if spec.difficulty:
        out.append(f"D{spec.difficulty:+d}")
    if spec.preparation:
        out.append(f"P{spec.preparation}")
    if spec.supporters:
        out.append("H" + "".join(str(b) for b in spec.supporters))
    if spec.boost_points:
        out.append(f"B{spec.boost_points}")
    if spec.after_cards:
        out.append(("A" if spec.after_mode is AfterMode.FIXED else "U") + str(spec.after_cards))
    if spec.modifier:
        out.append(f"{spec.modifier:+d}")
    return "".join(out)


def _segments(result: CheckResult, supporters: int) -> list[str]:
    parts = [f"目標値{result.target}"]
    if not result.rolled:
        word = result.status.value
        if result.status.value == "判定不可":
            word += "（基本難易度-4以下は超人のみ）"
        return [*parts, word]
    d1, d2 = result.dice
    parts.append(f"{d1 + d2}[{d1},{d2}]")
    if result.cards_spent:
        parts += [f"事後ブースト+{result.cards_spent}", f"目標値{result.final_target}"]
    if result.doublet:
        parts.append("ゾロ目")
    parts.append(result.status.value)
    if result.success:
        parts.append(f"達成度{result.achievement}")
    if result.cards_gained:
        gain = f"覚醒札{result.cards_gained}枚獲得"
        if supporters:
            gain += f"（サポーター{supporters}人も各{result.cards_gained}枚）"
        parts.append(gain)
    return parts


def check_text(command: str, spec: CheckSpec, result: CheckResult) -> str:
    """BCDice-style text of a check.

    >>> spec = CheckSpec(level=7, specialty=True, supporters=(1,))
    >>> check_text("AK7ZH1", spec, resolve_check(spec, 3, 3))  # doctest: +NORMALIZE_WHITESPACE
    '(AK7ZH1) ＞ 目標値8 ＞ 6[3,3] ＞ ゾロ目 ＞ 成功 ＞ 達成度3 ＞
     覚醒札1枚獲得（サポーター1人も各1枚）'
    """
    return " ＞ ".join([f"({command})", *_segments(result, len(spec.supporters))])


def opposed_text(command: str, active: CheckSpec, passive: CheckSpec, res: OpposedResult) -> str:
    """BCDice-style text of an opposed check.

    >>> a, p = CheckSpec(level=7), CheckSpec(level=6)
    >>> res = resolve_opposed(OpposedKind.RESIST, resolve_check(a, 2, 3), resolve_check(p, 4, 4))
    >>> opposed_text("AKR7/6", a, p, res)
    '(AKR7/6) ＞ 能動側 目標値7 5[2,3] 成功 達成度2 ／ 受動側 目標値6 8[4,4] 失敗 ＞ 能動側の勝ち'
    """
    a_part = " ".join(["能動側", *_segments(res.active, len(active.supporters))])
    p_part = " ".join(["受動側", *_segments(res.passive, len(passive.supporters))])
    parts = [f"({command})", f"{a_part} ／ {p_part}"]
    if not res.active.success and not res.passive.success:
        parts.append("両者失敗")
    if res.reason == "目標値":
        parts.append("達成度同値・目標値で決着")
    elif res.reason in ("抵抗", "妨害", "競争"):
        parts.append(f"達成度・目標値とも同値（{res.reason}）")
    parts.append(res.winner.value)
    return " ＞ ".join(parts)


def _roll_side(spec: CheckSpec, source: DiceSource, rules: CheckRules) -> CheckResult:
    if spec.allowed and spec.target >= 2:
        d1, d2 = source.roll(6), source.roll(6)
        return resolve_check(spec, d1, d2, rules)
    return resolve_check(spec, 0, 0, rules)


def roll_check(command: str, spec: CheckSpec, source: DiceSource, rules: CheckRules) -> Roll:
    """Roll one check (no dice are drawn when it fails or is refused before rolling)."""
    r = _roll_side(spec, source, rules)
    return Roll(
        command=command,
        text=check_text(command, spec, r),
        success=r.success,
        failure=not r.success,
        value=r.achievement,
        outcome=r.status.value,
    )


def roll_opposed(
    command: str,
    parsed: tuple[OpposedKind, CheckSpec, CheckSpec],
    source: DiceSource,
    rules: CheckRules,
    both_fail: BothFail,
) -> Roll:
    """Roll an opposed check: the active side's two dice first, then the passive side's."""
    kind, a, p = parsed
    ra = _roll_side(a, source, rules)
    rp = _roll_side(p, source, rules)
    res = resolve_opposed(kind, ra, rp, both_fail)
    return Roll(
        command=command,
        text=opposed_text(command, a, p, res),
        success=res.winner is Winner.ACTIVE,
        failure=res.winner is Winner.PASSIVE,
        outcome=res.winner.value,
    )


def roll_command(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    """Roll ``command`` if it is one of the system's commands."""
    opposed = parse_opposed(command)
    if opposed is not None:
        return roll_opposed(command, opposed, source, settings.check, settings.both_fail)
    spec = parse_check(command)
    if spec is not None:
        return roll_check(command, spec, source, settings.check)
    return None


def odds_command(command: str, settings: Settings) -> Odds | None:
    """Exact odds of ``command`` if it is one of the system's commands.

    >>> odds_command("AK7", Settings()).success
    Fraction(7, 12)
    """
    opposed = parse_opposed(command)
    if opposed is not None:
        kind, a, p = opposed
        return opposed_odds(
            a, p, kind, rules=settings.check, both_fail=settings.both_fail, command=command
        )
    spec = parse_check(command)
    if spec is not None:
        return check_odds(spec, settings.check, command=command)
    return None
