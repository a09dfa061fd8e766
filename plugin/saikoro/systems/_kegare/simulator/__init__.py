"""穢れ: turns of attack against defence, status effects, recovery and the 穢れ track.

Follows ``kegare.turn``. At the start of each turn every standing character at 穢れ 6
to 9 rolls the random status table (ruling ``random_status``: by default one of the
seven status effects, each equally likely); then the acting order is fixed
(:func:`~saikoro.systems._kegare.status.turn_order`: initiative after 麻痺 and 穢れ 7+,
PCs first on ties, ruling ``paralysis_rounding``). Each standing character acts once:

* a PC with ``close_in`` first steps one position nearer (its auxiliary action), then
  attacks an enemy chosen by its target policy with its attack (``damage``, ``ranged``),
  unless another enemy covers that one (:func:`~.kegare_fight.cover`);
* an enemy uses the attack skill that promises the most damage (the position modifier
  counted for non-ranged skills) against a PC chosen by its policy, or every PC for a
  ``target: all`` skill; a hit gives the status its effect names (毒 at the level named,
  else 1) unless the target is immune or already down.

Attacks are :func:`~saikoro.systems._kegare.checks.resolve` (every special result, the
scenario's rulings), with the target's defence skill as the engine's ``guard`` and its
always-on damage cut after (see :mod:`.kegare_fight` for the phrases read). HP 0 or less
is 戦闘不能 (穢れ +1, or +2 from 3 on). At the turn's end: 毒 damage, then 再起判定 for
those down (1D6 added to HP, curse and 穢れ modifiers; 穢れ 10 stays down; enemies too,
as the rule names every character), then 異常回復判定 (10 - statuses on 2D6: one status
cured, the most harmful first: :data:`~.kegare_fight.CURE_ORDER`), then 加護 raises
穢れ by 2. ``win``: every enemy in ``balance.defeat`` (default: all) is down at the end
of a turn within the round limit (20 turns when none is given); the battle is lost when
every PC is down after the recovery checks.

The 穢れ track's effects (the +2 on going down from 3, the check and recovery penalties,
the random status table, initiative 0, halving, 穢れ 10 as out for good) fall on PCs only
by default (ruling ``corruption_effects=pcs``); an enemy's 穢れ still rises and switches
its skills on (:attr:`~.kegare_fight.Fighter.felt`). ``all`` gives enemies the track too.

A duel is solved exactly (:mod:`.kegare_exact`).
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
from saikoro.systems._kegare.checks import check_penalty
from saikoro.systems._kegare.status import (
    Combatant,
    kegare_on_down,
    recovery_modifier,
    status_recovery_target,
    turn_order,
)

from . import shapes
from .exact import exact
from .fight import (
    CURE_ORDER,
    MEMO_LIMIT,
    STATUSES,
    Fighter,
    Prepared,
    best_skill,
    choose,
    cover,
    d6,
    fighters,
    hit,
    two_d6,
    unmodelled,
)

__all__ = [
    "FLOWS",
    "Fighter",
    "Prepared",
    "battle",
    "exact",
    "notes",
    "prepare",
    "status_recovery",
]

FLOWS = ("kegare.turn", "kegare.attack")
"""The system flows this simulator follows."""

DEFAULT_TURNS = 20
"""Turn limit when the main mission gives none."""

RANDOM_STATUS_FROM = 6
"""穢れ from which the random status table is rolled at the start of each turn."""

_NEARER = {"far": "mid", "mid": "near", "near": "near"}


def prepare(enc: Encounter, tactics: Tactics) -> Prepared:
    """Read the options and the defeat condition."""
    o = enc.options
    ids = frozenset(enc.defeat) or frozenset(e.id for e in shapes.enemies(enc))
    return Prepared(
        pcs=shapes.members(enc),
        enemies=shapes.enemies(enc),
        defeat=ids,
        turns=enc.round_limit or DEFAULT_TURNS,
        pc_policy=tactics.pc,
        enemy_policy=tactics.enemy,
        min_damage=int(o["min_damage"]),
        position_stack=str(o["position_stack"]),
        critical_guard=str(o["critical_guard"]),
        status_rule=str(o["status_recovery"]),
        random_status=str(o["random_status"]),
        guard_uses=str(o["defence_skill_uses"]),
        rounding=str(o["paralysis_rounding"]),
        corruption=str(o["corruption_effects"]),
    )


def _random_status(prep: Prepared, rng: random.Random, f: Fighter) -> None:
    """The random status table at the start of a turn (穢れ 6 to 9, standing)."""
    if prep.random_status == "none" or not f.up or not RANDOM_STATUS_FROM <= f.felt < 10:
        return
    status = STATUSES[int(rng.random() * len(STATUSES))]
    if status not in f.immune:
        f.statuses[status] = max(1, f.statuses.get(status, 0))


def status_recovery(prep: Prepared, rng: random.Random, f: Fighter) -> str | None:
    """The status-recovery check (異常回復判定): 2D6 (穢れ 5+: -1) against 10 - statuses
    (ruling ``status_recovery``); on success the first status in
    :data:`~.kegare_fight.CURE_ORDER` is cured and returned."""
    need = status_recovery_target(len(f.statuses))
    value = two_d6(rng) + check_penalty(f.felt)
    ok = value > need if prep.status_rule == "above" else value >= need
    if not ok:
        return None
    cured = min(f.statuses, key=CURE_ORDER.index)
    del f.statuses[cured]
    return cured


_ORDERS: dict[tuple[object, ...], tuple[int, ...]] = {}


def _order(prep: Prepared, everyone: list[Fighter]) -> list[Fighter]:
    """The turn's acting order (:func:`~saikoro.systems._kegare.status.turn_order`),
    remembered per process by what it depends on."""
    key = (
        prep.rounding,
        *((f.initiative, f.pc, "paralysis" in f.statuses, f.felt) for f in everyone),
    )
    found = _ORDERS.get(key)
    if found is None:
        if len(_ORDERS) >= MEMO_LIMIT:
            _ORDERS.clear()
        combatants = [
            Combatant(str(i), f.initiative, f.pc, "paralysis" in f.statuses, f.felt)
            for i, f in enumerate(everyone)
        ]
        found = tuple(int(c.name) for c in turn_order(combatants, rounding=prep.rounding))
        _ORDERS[key] = found
    return [everyone[i] for i in found]


def battle(prep: Prepared, rng: random.Random, tally: Tally) -> None:
    """One battle, turn by turn."""
    pcs, enemies = fighters(prep)
    everyone = pcs + enemies
    downed = [False] * len(pcs)
    dealt = taken = 0
    win = False
    turn = 0
    while turn < prep.turns:
        turn += 1
        for f in everyone:
            f.guarded = False
            _random_status(prep, rng, f)
        for a in _order(prep, everyone):
            if a.out:
                continue
            if a.pc:
                foes = [e for e in enemies if not e.out]
                if not foes:
                    break
                if prep.pc_policy.close_in and a.position:
                    a.position = _NEARER[a.position]
                d = cover(prep, choose(prep.pc_policy, foes, rng), foes)
                dealt += hit(prep, rng, a, a.skills[0], d, tally=tally)
            else:
                foes = [p for p in pcs if not p.out]
                if not foes:
                    break
                d = choose(prep.enemy_policy, foes, rng)
                skill = best_skill(a, d)
                for target in foes if skill.area else [d]:
                    taken += hit(prep, rng, a, skill, target, tally=tally)
        # turn end: poison, recovery checks, status recovery, the kegare rise
        for f in everyone:
            level = f.statuses.get("poison")
            if level and f.felt < 10:
                dmg = max(prep.min_damage, sum(d6(rng) for _ in range(level)) - 2)
                if dmg > 0:
                    was_up = f.up
                    f.hp -= dmg
                    if f.pc:
                        taken += dmg
                    else:
                        dealt += dmg
                    if was_up and not f.up:
                        f.kegare += kegare_on_down(f.felt)
        for f in everyone:
            if not f.up:
                if f.pc:
                    downed[f.index] = True
                else:
                    tally.fallen.append(f.index)
                if f.felt < 10:
                    m = recovery_modifier(cursed="curse" in f.statuses, kegare=f.felt)
                    f.hp += max(0, d6(rng) + m)
        for f in everyone:
            if f.statuses and f.up:
                status_recovery(prep, rng, f)
            if f.blessed:
                f.kegare += 2
        if all(e.out for e in enemies if e.name in prep.defeat):
            win = True
            break
        if all(p.out for p in pcs):
            break
    kegare = {"corruption": max((p.kegare for p in pcs), default=0)}
    tally.record(win=win, rounds=turn, downed=downed, dealt=dealt, taken=taken, facts=kegare)


def notes(prep: Prepared) -> tuple[str, ...]:
    """What is not modelled."""
    out = [
        "PCのスキル（書式に無い）・支援スキル・受容と拒絶は使わない。",
        "脱力・自失はキャラクターのレベルが書式に無いので効果なし、魅了は支援スキルを使わないので効果なし。",
    ]
    skills = unmodelled(prep.enemies)
    if skills:
        out.append("効果の文章を扱わないスキル：" + "、".join(skills) + "。")
    if prep.random_status == "uniform":
        out.append("ランダム異常表は7つの状態異常から等確率（毒はLV1）とみなす（random_status）。")
    return tuple(out)


class KegareSimulator(Simulator[Prepared]):
    """The kegare simulator: the functions above, with the system's words."""

    system = "kegare"
    flows = FLOWS
    tactics = ("focus", "random")
    tactics_reason = (
        "PCは倒せる相手から倒す。エネミーの狙いはGMの裁量なので無作為にし、特定のPC"
        "だけが狙われる偏りを避ける。"
    )
    default_rounds = DEFAULT_TURNS
    round_unit = "ターン"
    rounds_caption = "かかったターン数"
    rounds_column = "ターン"

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

    def facts(self, enc: Encounter) -> frozenset[str]:
        del enc
        return frozenset({"corruption"})


SIMULATOR = KegareSimulator()
