"""カットアクション: cuts of initiative, movement between rows and attacks; then a chase.

The fight (``cutaction.cut``, :mod:`.fight`): every cut each standing character makes an
initiative body check (:func:`~saikoro.systems._cutaction.checks.initiative_order`:
successes first, fumbles lose the cut, PCs first on ties; ruling
``failed_initiative_order``). On its turn a character picks a target by its policy. A
melee attacker with ``close_in`` moves one row towards it (leaving a row an enemy
blockades takes a won body contest, :func:`~saikoro.systems._cutaction.checks.contest_wins`);
it attacks when it shares the target's row. A shooter attacks from where it stands, but
never a target in full cover from another row, and at half its head success value against
half cover from another row; characters in half cover do not melee, in full cover do not
attack. The attack is a check (body for melee, head for shooting, ruling saikoro's); on a
success the target makes a body resist check and takes
:func:`~saikoro.systems._cutaction.damage.resolve_damage` (ruling ``resist_failure``) on its
:class:`~saikoro.systems._cutaction.damage.Condition`. At 体力 0 or less a character is 消耗
and, every check but recovery failing, out of the fight. ``win`` for the fight: every enemy
in ``balance.defeat`` is down (default: every enemy without a vehicle when the scenario has
a chase, else all) within the round limit (10 cuts when none).

The chase (``cutaction.chase``, :mod:`.chase`), when a difficulty target is ``kind: chase``:
the standing PCs flee and the enemies with a vehicle pursue (everyone on foot when none has
one), on :class:`~saikoro.systems._cutaction.chase.Chase` with the goal 10 x the target.
Each cut opens with everyone's movement check (together); the leader changes the route (the
chase event table), everyone accelerates (加速) and, but the leader, obstructs (進路妨害)
an opposing runner in its area or behind it; a pursuer that reaches the leading PC tries
to capture it, and runners beyond -5 drop out (:mod:`.chase`). The PCs escape when a PC
reaches the goal, every pursuer drops out, or a PC leads when the chase ends otherwise.
``win`` is the fight won and the chase escaped. A chase with no fight before it and two
runners is solved exactly (:func:`exact`).

The attack effects written in the scenario are free text and not simulated: :func:`notes`
lists them.
"""

from __future__ import annotations

import random
from fractions import Fraction
from types import MappingProxyType

from saikoro.balance._budget import Budget
from saikoro.balance._model import Encounter
from saikoro.balance._simulator import Note, Simulator
from saikoro.balance._stats import Tally
from saikoro.balance._tactics import Tactics
from saikoro.systems._cutaction.checks import CheckResult

from . import chase
from .common import (
    AREAS,
    DEFAULT_CUTS,
    Prepared,
    RandomDraw,
    chars,
    chase_goal,
    prepare,
)
from .exact import EXACT_RUNNERS, exact
from .fight import fight

__all__ = [
    "AREAS",
    "DEFAULT_CUTS",
    "EXACT_RUNNERS",
    "FLOWS",
    "Prepared",
    "battle",
    "exact",
    "notes",
    "prepare",
]

FLOWS = ("cutaction.cut", "cutaction.chase")
"""The system flows this simulator follows."""


def _check(rng: random.Random, prep: Prepared, value: int) -> CheckResult:
    """One check drawn as the simulation draws it (the engine tests compare it)."""
    return RandomDraw(rng, prep.shape).check(value)


def battle(prep: Prepared, rng: random.Random, tally: Tally) -> None:
    """The fight, then the chase if the scenario has one."""
    draw = RandomDraw(rng, prep.shape)
    everyone = chars(prep)
    won, cuts, dealt, taken = fight(prep, draw, everyone, tally)
    escaped = True
    if won and prep.chase_goal is not None:
        escaped, chase_cuts = chase.run(prep, draw, everyone)
        cuts += chase_cuts
        tally.sums["escaped"] += escaped
        tally.sums["fight_won"] += 1
    downed = [not c.up for c in everyone if c.pc]
    facts = {"escaped": int(won and escaped)} if prep.chase_goal is not None else {}
    tally.record(
        win=won and escaped, rounds=cuts, downed=downed, dealt=dealt, taken=taken, facts=facts
    )


def notes(prep: Prepared) -> tuple[str, ...]:
    """What is not modelled (the scenario's attack effects by name)."""
    out = [
        "サポートアクション（アイテムの使用・受け渡しなど）・遮蔽の取り直し・回復判定"
        "（シーン行動）は扱わない。",
        "チェイスでは減速・飛び移り・振り落としを使わず、封鎖は追いついた追跡側の捕捉のとき"
        "だけ行う（加速は毎カット全員、進路妨害は先頭以外が行う）。チェイスイベントのダメージ（対向車・落下物）と"
        "さらなる追跡者は扱わず、シナリオ独自のランダム表ではなくルールのチェイスイベント表を使う。",
    ]
    out += [f"効果は扱わない: {text}" for text in prep.effects]
    return tuple(out)


class CutactionSimulator(Simulator[Prepared]):
    """The cutaction simulator: the functions above, with the system's words."""

    system = "cutaction"
    flows = FLOWS
    tactics = ("focus", "random")
    tactics_reason = (
        "PCは弱った相手から倒し、エネミーは狙いを散らす。遮蔽や封鎖はシナリオの配置どおり。"
    )
    default_rounds = DEFAULT_CUTS
    round_unit = "カット"
    rounds_caption = "かかったカット数（戦闘＋チェイス）"
    rounds_column = "カット"
    mean_labels = MappingProxyType(
        {"fight_won": "戦闘に勝った割合", "escaped": "チェイスで逃げ切った割合"}
    )

    def prepare(self, enc: Encounter, tactics: Tactics) -> Prepared:
        return prepare(enc, tactics)

    def battle(self, prep: Prepared, rng: random.Random, tally: Tally) -> None:
        battle(prep, rng, tally)

    def exact(self, prep: Prepared, budget: Budget) -> tuple[Fraction | None, dict[str, Fraction]]:
        del budget  # interim: the solvers keep their own bounds
        return exact(prep)

    NOTES = MappingProxyType({"text": "{text}"})  # interim: the old notes, as written

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        return tuple(self.note("text", text=text) for text in notes(prep))

    def nothing_to_play(self, enc: Encounter) -> str:
        return "" if enc.enemies or chase_goal(enc) is not None else "エネミーがいない"

    def facts(self, enc: Encounter) -> frozenset[str]:
        return frozenset({"escaped"}) if chase_goal(enc) is not None else frozenset()


SIMULATOR = CutactionSimulator()
