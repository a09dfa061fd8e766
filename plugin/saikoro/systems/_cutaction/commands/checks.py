"""Check commands: ``CA`` (check), ``CAI`` (initiative, one or several characters),
``CAR`` (recovery), ``CAC`` (contest) and ``CAO`` (obstruction in a chase).

>>> from saikoro.dice import DiceSource
>>> from saikoro.systems._cutaction.rulings import Settings
>>> m = CHECK.fullmatch("CAI7")
>>> roll_check("CAI7", m, DiceSource(dice=[(10, 2)]), Settings()).text
'(CAI7) ＞ 2 ＞ 行動値5 ＞ 成功'
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

from saikoro.dice import DiceSource, LimitError, Odds, ParseError, Roll
from saikoro.systems._cutaction.checks import (
    CheckResult,
    InitiativeEntry,
    check_results,
    contest_odds,
    contest_wins,
    initiative_order,
    obstruct_dist,
    obstruct_retreat,
    resolve_check,
    roll_dist,
)
from saikoro.systems._cutaction.expr import evaluate
from saikoro.systems._cutaction.rulings import Settings

from .common import (
    NUM,
    SEP,
    check_roll,
    describe,
    dice_of,
    int_keys,
    sorted_ints,
    sv_note,
    word,
)

__all__ = [
    "CHECK",
    "CONTEST",
    "INITIATIVE",
    "odds_check",
    "odds_contest",
    "odds_initiative",
    "roll_check",
    "roll_contest",
    "roll_initiative",
]

CHECK = re.compile(rf"CA(?P<kind>[IRM]?)(?P<sv>{NUM})(?:>=(?P<target>{NUM}))?")
"""``CA7``, ``CA7>=3``, ``CAI7``, ``CAR7``, ``CAM7``."""
CONTEST = re.compile(rf"CA(?P<kind>[CO])(?P<args>{NUM}(?:,{NUM})+)")
"""``CAC7,5``, ``CAC7,5,6``, ``CAO7,6``."""
INITIATIVE = re.compile(rf"CAI(?P<args>P?{NUM}(?:,P?{NUM})+)")
"""``CAI7,P5,6``: initiative of several characters (``P`` marks a PC)."""
MAX_PASSIVE = 8
"""Most passive checks (blockers) a contest may name."""
MAX_INITIATIVE_ROLL = 20
"""Most characters an initiative roll may name."""
MAX_INITIATIVE_ODDS = 4
"""Most characters whose acting orders are enumerated exactly."""


def _target(m: re.Match[str]) -> int:
    """The ``>=`` target, 0 when absent; never below 0 (ruling ``negative_achievement``)."""
    target = evaluate(m.group("target")) if m.group("target") else 0
    if target < 0:
        raise ParseError(
            f"{m.string}: 目標値は0以上です（マイナス達成値は失敗なので、"
            f"{target} 以上を成功とは数えません）"
        )
    return target


def _value(kind: str, r: CheckResult, settings: Settings) -> int:
    """The main number: recovery (``R``), chase movement (``M``) or the achievement."""
    if kind == "R":
        return r.achievement if r.success else 0
    if kind == "M" and not r.success and settings.failed_move == "zero":
        return 0
    return r.achievement


def roll_check(command: str, m: re.Match[str], source: DiceSource, settings: Settings) -> Roll:
    """Roll ``CA``, ``CAI``, ``CAR`` or ``CAM``."""
    kind, raw = m.group("kind"), m.group("sv")
    sv = evaluate(raw)
    target = _target(m)
    r, dice_text = check_roll(settings, sv, source, target)
    parts = [f"({command})", *sv_note(raw, sv), dice_text]
    value = _value(kind, r, settings)
    if kind == "I":
        parts += ["ファンブル", "行動不能"] if r.fumble else [f"行動値{r.achievement}", word(r)]
    else:
        parts += [f"達成値{r.achievement}", word(r)]
        if kind == "R":
            parts.append(f"回復{value}")
        if kind == "M":
            parts.append(f"移動{value:+d}" + (" 行動不能" if r.fumble else ""))
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


def roll_contest(command: str, m: re.Match[str], source: DiceSource, settings: Settings) -> Roll:
    """Roll ``CAC`` or ``CAO``: the active side first, then each passive side."""
    values = _contest_values(m)
    active, active_text = check_roll(settings, values[0], source)
    passive = [check_roll(settings, v, source) for v in values[1:]]
    rule = settings.contest_rule
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
        distance = settings.obstruct_distance
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


def odds_check(command: str, m: re.Match[str], settings: Settings) -> Odds:
    """Odds of ``CA`` (達成値), ``CAI`` (行動値), ``CAR`` (回復量) or ``CAM`` (移動量)."""
    kind = m.group("kind")
    sv = evaluate(m.group("sv"))
    target = _target(m)
    dist: dict[int | str, Fraction] = {}
    success = fumble = negative = Fraction(0)
    for r, p in check_results(sv, target=target, dice=dice_of(settings)):
        key = _value(kind, r, settings)
        dist[key] = dist.get(key, Fraction(0)) + p
        success += p if r.success else 0
        fumble += p if r.fumble else 0
        negative += p if r.achievement < 0 else 0
    events = {"マイナス達成値": negative}
    if kind == "I":
        events = {"行動不能": fumble, "失敗(成功者の後に行動)": 1 - success - fumble}
    elif kind == "M":
        events = {"行動不能": fumble, "マイナス達成値": negative}
    return Odds(
        command,
        sorted_ints(dist),
        success=success,
        fumble=fumble,
        events=events,
        label={"I": "行動値", "R": "回復量", "M": "移動量"}.get(kind, "達成値"),
    )


def odds_contest(command: str, m: re.Match[str], settings: Settings) -> Odds:
    """Odds of ``CAC`` (勝利/敗北) or ``CAO`` (後退距離)."""
    values = _contest_values(m)
    rule = settings.contest_rule
    c = contest_odds(values[0], values[1:], dice=dice_of(settings), rule=rule)
    events = {"同値(受動側の勝ち)": c.tie, "受動側ファンブル": c.passive_fumble}
    if m.group("kind") == "O":
        d = obstruct_dist(
            values[0],
            values[1],
            dice=dice_of(settings),
            rule=rule,
            distance=settings.obstruct_distance,
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


# -- initiative of several characters --------------------------------------------------


def _initiative_args(m: re.Match[str], limit: int) -> list[tuple[int, bool]]:
    args = m.group("args").split(",")
    if len(args) > limit:
        raise LimitError(f"イニシアチブは{limit}人までです", bound="initiative size")
    return [(evaluate(a.removeprefix("P")), a.startswith("P")) for a in args]


def _order(results: list[tuple[CheckResult, bool]], settings: Settings) -> tuple[str, str]:
    """``("1→3→2", "4")``: the acting order and who fumbled (1-based positions)."""
    entries = [
        InitiativeEntry(str(i), r.achievement, r.fumble, pc)
        for i, (r, pc) in enumerate(results, start=1)
    ]
    order = initiative_order(entries, failed_order=settings.failed_initiative_order)
    lost = ",".join(e.name for e in entries if e.fumble)
    return "→".join(e.name for e in order) or "なし", lost


def roll_initiative(command: str, m: re.Match[str], source: DiceSource, settings: Settings) -> Roll:
    """Roll ``CAI7,P5,6``: each character's initiative, then the acting order."""
    results = []
    parts = [f"({command})"]
    shown = []
    for i, (sv, pc) in enumerate(_initiative_args(m, MAX_INITIATIVE_ROLL), start=1):
        r, text = check_roll(settings, sv, source)
        results.append((r, pc))
        shown.append(
            f"{i}:{text}(ファンブル)" if r.fumble else f"{i}:{text}(行動値{r.achievement})"
        )
    order, lost = _order(results, settings)
    parts += [",".join(shown), f"行動順 {order}"]
    if lost:
        parts.append(f"行動不能 {lost}")
    return Roll(command, SEP.join(parts), value=order, outcome=order)


def odds_initiative(command: str, m: re.Match[str], settings: Settings) -> Odds:
    """Odds of each acting order (and of each character acting first or losing the cut)."""
    chars = _initiative_args(m, MAX_INITIATIVE_ODDS)
    rolls = roll_dist(dice_of(settings))
    tables = [
        [(resolve_check(sv, t, dice=dice_of(settings)), w) for t, w in rolls.items()]
        for sv, _ in chars
    ]
    dist: dict[str, int] = {}
    first = [0] * len(chars)
    lost = [0] * len(chars)
    for combo in itertools.product(*tables):
        w = 1
        for _, q in combo:
            w *= q
        order, _ = _order([(r, pc) for (r, _), (_, pc) in zip(combo, chars, strict=True)], settings)
        dist[order] = dist.get(order, 0) + w
        if order != "なし":
            first[int(order.split("→")[0]) - 1] += w
        for i, (r, _) in enumerate(combo):
            lost[i] += w if r.fumble else 0
    total = rolls.denominator ** len(chars)
    events = {f"{i}が最初に行動": Fraction(f, total) for i, f in enumerate(first, start=1)}
    events |= {f"{i}が行動不能": Fraction(f, total) for i, f in enumerate(lost, start=1)}
    ordered: dict[int | str, Fraction] = {
        k: Fraction(w, total) for k, w in sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))
    }
    return Odds(command, ordered, events=events, label="行動順")
