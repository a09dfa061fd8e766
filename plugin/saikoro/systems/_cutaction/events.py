"""The chase event table (1D10), the small rules of its events and what each does to a chase.

The ten events are numbered in the order the rule text lists them (ruling
``chase_event_order``); their effects are described in our own words.

>>> chase_event(4).name
'対向車'
>>> falling_area(7), falling_area(7, rounding="down")
(-4, -3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .errors import CutActionError

if TYPE_CHECKING:
    from .chase import Chase
    from .checks import CheckResult

__all__ = [
    "CHASE_EVENTS",
    "END_DEAD_END",
    "FALLING_DAMAGE",
    "RUNNER_CHECKS",
    "ChaseEvent",
    "EventOutcome",
    "RunnerEffect",
    "apply_event",
    "chase_event",
    "chase_target",
    "curve_retreat",
    "event_number",
    "falling_area",
    "oncoming_damage",
    "runner_effect",
]

FALLING_DAMAGE = 5
"""The damage of 落下物 to everyone in the area it falls on (physical: resisted)."""
END_DEAD_END = "行き止まり"
"""Why a chase ended at event 10 (the ``finished`` end of :func:`.chase.end_reason`)."""
RUNNER_CHECKS = frozenset({2, 4, 5, 6})
"""The events for which every runner makes a check (:func:`runner_effect`)."""


@dataclass(frozen=True)
class ChaseEvent:
    """One entry of the chase event table (described in our own words).

    Attributes:
        number: the 1D10 result (ruling ``chase_event_order``).
        name: the event's name.
        effect: what happens.
        check: the check the runners make (``""`` when none).
    """

    number: int
    name: str
    effect: str
    check: str = ""


CHASE_EVENTS: tuple[ChaseEvent, ...] = (
    ChaseEvent(
        1,
        "小道",
        "道幅がなく、誰もいま居るエリアから出られない(全員のエリアを封鎖。"
        "カットの終わりまで続くのは裁定 chase_events_detail)。",
    ),
    ChaseEvent(
        2, "連続カーブ", "全員が敏捷の判定。達成値が3に届かなければ、その不足分だけ後退。", "敏捷"
    ),
    ChaseEvent(
        3,
        "悪路",
        "路面が悪い。移動判定の成功値が-2(加速の判定にも、次のルート変更まで続くのは"
        "裁定 chase_events_detail)。",
    ),
    ChaseEvent(
        4,
        "対向車",
        "全員がボディ判定。失敗した者は今カットの自分の移動達成値に等しいダメージ。",
        "ボディ",
    ),
    ChaseEvent(5, "ジャンプ", "道が途切れている。全員がボディ判定し、失敗した者は脱落。", "ボディ"),
    ChaseEvent(6, "スリップ", "全員がボディ判定し、失敗した者はこのカット行動できない。", "ボディ"),
    ChaseEvent(7, "落下物", "さらに1D10を振って2で割り、そのエリアにいる全員に5点のダメージ。"),
    ChaseEvent(8, "道が閉ざされる", "最後尾のエリアにいる者が全員脱落。"),
    ChaseEvent(
        9,
        "さらなる追跡者",
        "公道なら最後尾に公安機関が現れる。停止指示を無視すると「指名手配」のバッドステータスアイテムを得る。",
    ),
    ChaseEvent(10, "行き止まり", "先へ進めない。チェイスはここで終わる。"),
)
"""The ten chase events, 1..10 in the order the rule text lists them."""


def chase_event(roll: int) -> ChaseEvent:
    """The event for a 1D10 result."""
    if not 1 <= roll <= 10:
        raise CutActionError("the chase event table takes a 1D10 result")
    return CHASE_EVENTS[roll - 1]


def event_number(name: str) -> int:
    """The number of the rule book's event called ``name``.

    >>> event_number("行き止まり")
    10
    """
    for ev in CHASE_EVENTS:
        if ev.name == name:
            return ev.number
    raise CutActionError(f"no chase event is called {name!r}")


@dataclass(frozen=True)
class RunnerEffect:
    """What an event does to one runner after its check (:func:`runner_effect`).

    Attributes:
        retreat: how far it falls back (連続カーブ).
        damage: physical damage it takes, resisted with a body check (対向車).
        drop: it drops out (ジャンプ).
        idle: it cannot act this cut (スリップ).
    """

    retreat: int = 0
    damage: int = 0
    drop: bool = False
    idle: bool = False


def runner_effect(number: int, check: CheckResult, *, move: int = 0) -> RunnerEffect:
    """What event ``number`` does to a runner whose check for it gave ``check``.

    Only the events of :data:`RUNNER_CHECKS` ask every runner for a check (2: agility, the
    others: body); ``move`` is the runner's movement achievement this cut (対向車).

    >>> from saikoro.systems._cutaction.checks import resolve_check
    >>> runner_effect(2, resolve_check(4, 3))       # achievement 1: short of 3 by 2
    RunnerEffect(retreat=2, damage=0, drop=False, idle=False)
    >>> failed = resolve_check(4, 7)
    >>> runner_effect(4, failed, move=6).damage, runner_effect(5, failed).drop
    (6, True)
    """
    if number not in RUNNER_CHECKS:
        raise CutActionError(f"event {number} asks no runner for a check")
    if number == 2:
        return RunnerEffect(retreat=curve_retreat(check.achievement))
    if check.success:
        return RunnerEffect()
    if number == 4:
        return RunnerEffect(damage=oncoming_damage(move))
    if number == 5:
        return RunnerEffect(drop=True)
    return RunnerEffect(idle=True)


def falling_area(roll: int, *, rounding: str = "up") -> int:
    """Relative distance (0 = the leader's area) hit by falling objects for a 1D10 ``roll``.

    ``rounding`` is the ruling ``falling_area``: 1D10÷2 rounded up (default) or down.

    >>> [falling_area(r) for r in range(1, 11)]
    [-1, -1, -2, -2, -3, -3, -4, -4, -5, -5]
    >>> [falling_area(r, rounding="down") for r in range(1, 11)]
    [0, -1, -1, -2, -2, -3, -3, -4, -4, -5]
    """
    if not 1 <= roll <= 10:
        raise CutActionError("falling objects take a 1D10 result")
    if rounding == "down":
        return -(roll // 2)
    if rounding == "up":
        return -((roll + 1) // 2)
    raise CutActionError(f"unknown rounding {rounding!r}")


def curve_retreat(achievement: int, target: int = 3) -> int:
    """How far a runner falls back on 連続カーブ: the shortfall below the target.

    >>> curve_retreat(1), curve_retreat(5), curve_retreat(-2)
    (2, 0, 5)
    """
    return max(0, target - achievement)


def oncoming_damage(move_achievement: int) -> int:
    """Damage from 対向車 after a failed body check: this cut's movement achievement (>= 0)."""
    return max(0, move_achievement)


def chase_target(move_target: int) -> int:
    """The chase's goal for a stage or set move: ten times the move's target.

    >>> chase_target(3)
    30
    """
    return 10 * move_target


def apply_event(
    chase: Chase,
    number: int,
    *,
    checks: Mapping[str, CheckResult] | None = None,
    moves: Mapping[str, int] | None = None,
    fall_roll: int | None = None,
    rounding: str = "up",
) -> EventOutcome:
    """What chase event ``number`` (a route change) does to ``chase``.

    Args:
        chase: the chase before the event.
        number: the 1D10 result on the chase event table.
        checks: the runners' checks for events that ask for one (2, 4, 5, 6).
        moves: this cut's movement achievement by runner (event 4, 対向車).
        fall_roll: the extra 1D10 of event 7 (落下物).
        rounding: ruling ``falling_area``.

    Raises:
        CutActionError: ``number`` is not on the table, or event 7 has no ``fall_roll``.
    """
    chase_event(number)
    checks = checks or {}
    damage: dict[str, int] = {}
    idle: set[str] = set()
    out = replace(chase, bad_road=number == 3)
    if number in RUNNER_CHECKS:  # everyone's check; the falls, then the drops, together
        for name, r in checks.items():
            if out.runner(name).dropped:
                continue
            effect = runner_effect(number, r, move=(moves or {}).get(name, 0))
            if effect.retreat:
                out = out._retreat(name, effect.retreat)
            if number == 4 and not r.success:  # hit by the oncoming traffic (0 damage too)
                damage[name] = effect.damage
            if effect.drop:
                out = out._drop(name)
            if effect.idle:
                idle.add(name)
    elif number == 1:
        out = replace(out, narrow=True)
    elif number == 7:
        if fall_roll is None:
            raise CutActionError("falling objects need the extra 1D10 (fall_roll)")
        area = falling_area(fall_roll, rounding=rounding)
        damage = dict.fromkeys(chase.in_area(area), FALLING_DAMAGE)
    elif number == 8:
        out = out.close_road()
    elif number == 10:
        out = replace(out, finished=END_DEAD_END)
    return EventOutcome(out._settled(), damage, frozenset(idle))


@dataclass(frozen=True)
class EventOutcome:
    """What a chase event did.

    Attributes:
        chase: the chase afterwards.
        damage: damage to deal by runner (physical: resisted with a body check).
        idle: runners who cannot act this cut (スリップ).
    """

    chase: Chase
    damage: dict[str, int]
    idle: frozenset[str]
