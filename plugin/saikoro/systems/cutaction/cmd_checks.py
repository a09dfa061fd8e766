"""Check commands: ``CA`` (check), ``CAI`` (initiative), ``CAR`` (recovery),
``CAC`` (contest) and ``CAO`` (obstruction in a chase).

>>> from saikoro.dice import DiceSource
>>> from .rulings import OPTION_DEFAULTS as O
>>> m = CHECK.fullmatch("CAI7")
>>> roll_check(O, m, "CAI7", DiceSource(dice=[(10, 2)])).text
'(CAI7) ＞ 2 ＞ 行動値5 ＞ 成功'
"""

from __future__ import annotations

import re
from fractions import Fraction

from saikoro.dice import DiceSource, LimitError, Odds, Roll

from .checks import check_results, contest_odds, contest_wins, obstruct_dist, obstruct_retreat
from .cmd_common import (
    NUM,
    SEP,
    Options,
    check_roll,
    describe,
    dice_of,
    int_keys,
    sorted_ints,
    sv_note,
    word,
)
from .expr import evaluate

__all__ = ["CHECK", "CONTEST", "odds_check", "odds_contest", "roll_check", "roll_contest"]

CHECK = re.compile(rf"CA(?P<kind>[IR]?)(?P<sv>{NUM})(?:>=(?P<target>{NUM}))?")
"""``CA7``, ``CA7>=3``, ``CAI7``, ``CAR7``."""
CONTEST = re.compile(rf"CA(?P<kind>[CO])(?P<args>{NUM}(?:,{NUM})+)")
"""``CAC7,5``, ``CAC7,5,6``, ``CAO7,6``."""
MAX_PASSIVE = 8
"""Most passive checks (blockers) a contest may name."""


def roll_check(options: Options, m: re.Match[str], command: str, source: DiceSource) -> Roll:
    """Roll ``CA``, ``CAI`` or ``CAR``."""
    kind, raw = m.group("kind"), m.group("sv")
    sv = evaluate(raw)
    target = evaluate(m.group("target")) if m.group("target") else 0
    r, dice_text = check_roll(options, sv, source, target)
    parts = [f"({command})", *sv_note(raw, sv), dice_text]
    value: int = r.achievement
    if kind == "I":
        parts += ["ファンブル", "行動不能"] if r.fumble else [f"行動値{r.achievement}", word(r)]
    else:
        parts += [f"達成値{r.achievement}", word(r)]
        if kind == "R":
            value = r.achievement if r.success else 0
            parts.append(f"回復{value}")
    return Roll(
        command,
        SEP.join(parts),
        success=r.success,
        failure=not r.success,
        fumble=r.fumble,
        value=value,
        outcome=word(r),
    )


def _contest_values(m: re.Match[str]) -> list[int]:
    values = [evaluate(a) for a in m.group("args").split(",")]
    if len(values) - 1 > MAX_PASSIVE:
        raise LimitError(f"受動側は{MAX_PASSIVE}人までです", bound="contest size")
    if m.group("kind") == "O" and len(values) != 2:
        raise LimitError("進路妨害は1対1の対抗判定です", bound="contest size")
    return values


def roll_contest(options: Options, m: re.Match[str], command: str, source: DiceSource) -> Roll:
    """Roll ``CAC`` or ``CAO``: the active side first, then each passive side."""
    values = _contest_values(m)
    active, active_text = check_roll(options, values[0], source)
    passive = [check_roll(options, v, source) for v in values[1:]]
    rule = str(options["contest_rule"])
    win = contest_wins(active, [p for p, _ in passive], rule=rule)
    best = max((p for p, _ in passive), key=lambda p: p.rank)
    parts = [
        f"({command})",
        f"能動側 {describe(active, active_text)}",
        "受動側 " + ",".join(describe(p, t) for p, t in passive),
        "勝利" if win else "敗北",
    ]
    value = active.achievement - best.achievement
    if m.group("kind") == "O":
        distance = str(options["obstruct_distance"])
        value = obstruct_retreat(active, best, rule=rule, distance=distance)
        parts.append(f"後退{value}")
    return Roll(
        command,
        SEP.join(parts),
        success=win,
        failure=not win,
        fumble=active.fumble,
        value=value,
        outcome="勝利" if win else "敗北",
    )


def odds_check(options: Options, m: re.Match[str], command: str) -> Odds:
    """Odds of ``CA`` (達成値), ``CAI`` (行動値) or ``CAR`` (回復量)."""
    kind = m.group("kind")
    sv = evaluate(m.group("sv"))
    target = evaluate(m.group("target")) if m.group("target") else 0
    dist: dict[int | str, Fraction] = {}
    success = fumble = negative = Fraction(0)
    for r, p in check_results(sv, target=target, dice=dice_of(options)):
        key = (r.achievement if r.success else 0) if kind == "R" else r.achievement
        dist[key] = dist.get(key, Fraction(0)) + p
        success += p if r.success else 0
        fumble += p if r.fumble else 0
        negative += p if r.achievement < 0 else 0
    events = {"マイナス達成値": negative}
    if kind == "I":
        events = {"行動不能": fumble, "失敗(成功者の後に行動)": 1 - success - fumble}
    return Odds(
        command,
        sorted_ints(dist),
        success=success,
        fumble=fumble,
        events=events,
        label={"I": "行動値", "R": "回復量"}.get(kind, "達成値"),
    )


def odds_contest(options: Options, m: re.Match[str], command: str) -> Odds:
    """Odds of ``CAC`` (勝利/敗北) or ``CAO`` (後退距離)."""
    values = _contest_values(m)
    rule = str(options["contest_rule"])
    c = contest_odds(values[0], values[1:], dice=dice_of(options), rule=rule)
    events = {"同値(受動側の勝ち)": c.tie, "受動側ファンブル": c.passive_fumble}
    if m.group("kind") == "O":
        d = obstruct_dist(
            values[0],
            values[1],
            dice=dice_of(options),
            rule=rule,
            distance=str(options["obstruct_distance"]),
        )
        distribution = int_keys(d.probabilities())
        label = "後退距離"
    else:
        distribution = {"勝利": c.win, "敗北": c.lose}
        label = "対抗判定"
    return Odds(
        command,
        distribution,
        success=c.win,
        fumble=c.active_fumble,
        events=events,
        label=label,
    )
