"""穢れ: turns of attack against defence, status effects, recovery and the 穢れ track.

Follows ``kegare.turn``: at the start of each turn the acting order is fixed
(:func:`~saikoro.systems.kegare.status.turn_order`: initiative after 麻痺 and 穢れ 7+,
PCs first on ties). Each standing character acts once:

* a PC with ``close_in`` first steps one position nearer (its auxiliary action), then
  attacks an enemy chosen by its target policy with its attack (``damage``, ``ranged``);
* an enemy uses the attack skill that promises the most damage (the position modifier
  counted for non-ranged skills) against a PC chosen by its policy, or every PC for a
  ``target: all`` skill; a hit gives the status its effect names (毒 is level 1) unless
  the target is immune.

Attacks are :func:`~saikoro.systems.kegare.checks.resolve` (every special result, the
scenario's rulings). HP 0 or less is 戦闘不能 (穢れ +1, or +2 from 3 on). At the turn's
end: 毒 damage, then 再起判定 for those down (1D6 added to HP, curse and 穢れ
modifiers; 穢れ 10 stays down; enemies too, as the rule names every character), then
異常回復判定 (10 - statuses on 2D6: one status
cured), then 加護 raises 穢れ by 2. ``win``: every enemy in ``balance.defeat`` (default:
all) is down at the end of a turn within the round limit (20 turns when none is given);
the battle is lost when every PC is down after the recovery checks.

A duel (one PC, one enemy, no statuses, no blessing, fixed positions) is solved exactly
as a Markov chain over (PC HP, enemy HP) per turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from saikoro.systems.kegare.checks import AttackSpec, Position, resolve
from saikoro.systems.kegare.checks import attack_odds as kegare_attack_odds
from saikoro.systems.kegare.status import (
    Combatant,
    kegare_on_down,
    recovery_modifier,
    status_recovery_target,
    turn_order,
)

from .model import Encounter, KegareEnemy, KegarePC, KegareSkill
from .stats import Tally
from .tactics import Policy, Tactics

__all__ = ["FLOWS", "Fighter", "Prepared", "battle", "exact", "notes", "prepare"]

FLOWS = ("kegare.turn", "kegare.attack")
"""The system flows this simulator follows."""

DEFAULT_TURNS = 20
"""Turn limit when the main mission gives none."""

EXACT_WORK = 200_000
"""Largest HP x enemy HP x turns of a duel solved exactly."""

_State = tuple[int, int, int, int]
"""(PC HP, enemy HP, PC 穢れ, enemy 穢れ) of the exact duel."""

_NEARER = {"far": "mid", "mid": "near", "near": "near"}


@dataclass
class Fighter:
    """A character's state in one battle."""

    name: str
    pc: bool
    index: int
    hp: int
    max_hp: int
    attack: int
    defence: int
    initiative: int
    position: str | None
    blessed: bool
    skills: tuple[KegareSkill, ...]
    immune: frozenset[str] = frozenset()
    kegare: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    danger: int = 0

    @property
    def up(self) -> bool:
        return self.hp > 0


@dataclass(frozen=True)
class Prepared:
    """The encounter, the tactics and the rules in force."""

    pcs: tuple[KegarePC, ...]
    enemies: tuple[KegareEnemy, ...]
    defeat: frozenset[str]
    turns: int
    pc_policy: Policy
    enemy_policy: Policy
    min_damage: int
    position_stack: str
    critical_guard: str
    status_rule: str


def prepare(enc: Encounter, tactics: Tactics) -> Prepared:
    """Read the options and the defeat condition."""
    o = enc.options
    ids = frozenset(enc.defeat) or frozenset(e.id for e in enc.enemies)
    return Prepared(
        pcs=enc.party.members,
        enemies=enc.enemies,
        defeat=ids,
        turns=enc.round_limit or DEFAULT_TURNS,
        pc_policy=tactics.pc,
        enemy_policy=tactics.enemy,
        min_damage=int(o["min_damage"]),
        position_stack=str(o["position_stack"]),
        critical_guard=str(o["critical_guard"]),
        status_rule=str(o["status_recovery"]),
    )


def _fighters(prep: Prepared) -> tuple[list[Fighter], list[Fighter]]:
    pcs = [
        Fighter(
            p.name,
            True,
            i,
            p.hp,
            p.hp,
            p.attack,
            p.defence,
            p.initiative,
            p.position,
            p.blessed,
            (KegareSkill("攻撃", p.damage, p.ranged),),
        )
        for i, p in enumerate(prep.pcs)
    ]
    enemies = [
        Fighter(
            e.id,
            False,
            i,
            e.hp,
            e.hp,
            e.attack,
            e.defence,
            e.initiative,
            e.position,
            e.blessed,
            e.skills,
            e.immune,
        )
        for i, e in enumerate(prep.enemies)
    ]
    for e in enemies:
        e.danger = e.attack + max(s.damage for s in e.skills)
    for p in pcs:
        p.danger = p.attack + p.skills[0].damage
    return pcs, enemies


def _d6(rng: random.Random) -> int:
    return int(rng.random() * 6) + 1


def _2d6(rng: random.Random) -> int:
    return int(rng.random() * 6) + int(rng.random() * 6) + 2


def _choose(policy: Policy, options: list[Fighter], rng: random.Random) -> Fighter:
    if policy.target == "random":
        return options[int(rng.random() * len(options))]
    if policy.target == "most_dangerous":
        return max(options, key=lambda f: (f.danger, -f.index))
    return min(options, key=lambda f: (f.hp, f.index))


def _pos(f: Fighter) -> Position | None:
    return Position(f.position) if f.position else None


def _spec(prep: Prepared, a: Fighter, skill: KegareSkill, d: Fighter) -> AttackSpec:
    return AttackSpec(
        attack=a.attack,
        defence=d.defence,
        damage=skill.damage,
        attacker_position=_pos(a),
        target_position=_pos(d),
        ranged=skill.ranged,
        weakened_level=0,
        dazed_level=0,
        attacker_kegare=a.kegare,
        defender_kegare=d.kegare,
        min_damage=prep.min_damage,
        position_stack=prep.position_stack,
        critical_guard=prep.critical_guard,
    )


def _best_skill(a: Fighter, target: Fighter | None) -> KegareSkill:
    def value(s: KegareSkill) -> int:
        if s.ranged or target is None:
            return s.damage
        a_pen = Position(a.position).penalty if a.position else 0
        t_pen = Position(target.position).penalty if target.position else 0
        return s.damage + a_pen + t_pen

    return max(a.skills, key=value)


def _hit(
    prep: Prepared, rng: random.Random, a: Fighter, skill: KegareSkill, d: Fighter, *, tally: Tally
) -> int:
    spec = _spec(prep, a, skill, d)
    roll = _2d6(rng)
    r = resolve(spec, roll, None if roll in (2, 12) else _2d6(rng))
    dmg = r.damage
    if r.outcome.name not in ("FUMBLE", "EVADE") and skill.status and skill.status not in d.immune:
        d.statuses[skill.status] = max(1, d.statuses.get(skill.status, 0))
    if dmg > 0:
        was_up = d.up
        d.hp -= dmg
        if was_up and not d.up:
            d.kegare += kegare_on_down(d.kegare)
        if not a.pc:
            tally.actions[f"{a.name}:{skill.name}"] += dmg
    return dmg


def battle(prep: Prepared, rng: random.Random, tally: Tally) -> None:
    """One battle, turn by turn."""
    pcs, enemies = _fighters(prep)
    everyone = pcs + enemies
    downed = [False] * len(pcs)
    dealt = taken = 0
    win = False
    turn = 0
    while turn < prep.turns:
        turn += 1
        order = turn_order(
            [
                Combatant(f.name, f.initiative, f.pc, "paralysis" in f.statuses, f.kegare)
                for f in everyone
            ]
        )
        by_name = {(f.pc, f.name): f for f in everyone}
        for c in order:
            a = by_name[(c.pc, c.name)]
            if not a.up or a.kegare >= 10:
                continue
            if a.pc:
                foes = [e for e in enemies if e.up and e.kegare < 10]
                if not foes:
                    break
                if prep.pc_policy.close_in and a.position:
                    a.position = _NEARER[a.position]
                d = _choose(prep.pc_policy, foes, rng)
                dealt += _hit(prep, rng, a, a.skills[0], d, tally=tally)
            else:
                foes = [p for p in pcs if p.up and p.kegare < 10]
                if not foes:
                    break
                d = _choose(prep.enemy_policy, foes, rng)
                skill = _best_skill(a, d)
                for target in foes if skill.area else [d]:
                    taken += _hit(prep, rng, a, skill, target, tally=tally)
        # turn end: poison, recovery checks, status recovery, the kegare rise
        for f in everyone:
            level = f.statuses.get("poison")
            if level and f.kegare < 10:
                dmg = max(prep.min_damage, sum(_d6(rng) for _ in range(level)) - 2)
                if dmg > 0:
                    was_up = f.up
                    f.hp -= dmg
                    if f.pc:
                        taken += dmg
                    else:
                        dealt += dmg
                    if was_up and not f.up:
                        f.kegare += kegare_on_down(f.kegare)
        for f in everyone:
            if not f.up:
                if f.pc:
                    downed[f.index] = True
                if f.kegare < 10:
                    m = recovery_modifier(cursed="curse" in f.statuses, kegare=f.kegare)
                    f.hp += max(0, _d6(rng) + m)
        for f in everyone:
            if f.statuses and f.up:
                need = status_recovery_target(len(f.statuses))
                value = _2d6(rng) + (-1 if f.kegare >= 5 else 0)
                ok = value > need if prep.status_rule == "above" else value >= need
                if ok:
                    f.statuses.pop(sorted(f.statuses)[0])
            if f.blessed:
                f.kegare += 2
        if all(not e.up or e.kegare >= 10 for e in enemies if e.name in prep.defeat):
            win = True
            break
        if all(not p.up or p.kegare >= 10 for p in pcs):
            break
    tally.record(win=win, rounds=turn, downed=downed, dealt=dealt, taken=taken)


def _duel(prep: Prepared) -> tuple[KegarePC, KegareEnemy] | None:
    if len(prep.pcs) != 1 or len(prep.enemies) != 1:
        return None
    pc, en = prep.pcs[0], prep.enemies[0]
    if pc.blessed or en.blessed or any(s.status for s in en.skills):
        return None
    if prep.pc_policy.close_in and pc.position != "near":
        return None
    if pc.hp * en.hp * prep.turns > EXACT_WORK:
        return None
    return pc, en


def exact(prep: Prepared) -> tuple[Fraction | None, dict[str, Fraction]]:
    """A duel solved exactly: a Markov chain over (HP, enemy HP, 穢れ, enemy 穢れ) per turn.

    Both sides' recovery checks (and the 穢れ each down adds) are part of the chain;
    anything larger than a duel returns ``None``.
    """
    duel = _duel(prep)
    if duel is None:
        return None, {}
    pcs, enemies = _fighters(prep)
    a, e = pcs[0], enemies[0]
    skill = _best_skill(e, a)
    firsts: dict[tuple[int, int], bool] = {}

    def pc_first(k: int, ek: int) -> bool:
        # the order is fixed each turn from the initiative, 穢れ 7+ making it 0
        if (k, ek) not in firsts:
            both = [Combatant(a.name, a.initiative, True, False, k)]
            both.append(Combatant(e.name, e.initiative, False, False, ek))
            firsts[(k, ek)] = turn_order(both)[0].pc
        return firsts[(k, ek)]

    dists: dict[tuple[int, int], tuple[dict[int, Fraction], dict[int, Fraction]]] = {}

    def odds(k: int, ek: int) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
        if (k, ek) not in dists:
            a.kegare, e.kegare = k, ek
            mine = kegare_attack_odds(_spec(prep, a, a.skills[0], e)).damage.probabilities()
            theirs = kegare_attack_odds(_spec(prep, e, skill, a)).damage.probabilities()
            dists[(k, ek)] = (mine, theirs)
        return dists[(k, ek)]

    def hurt(hp: int, k: int, dmg: int) -> tuple[int, int]:
        if hp > 0 and hp - dmg <= 0:
            return hp - dmg, k + kegare_on_down(k)
        return hp - dmg, k

    def recover(hp: int, k: int) -> list[tuple[int, Fraction]]:
        if hp > 0 or k >= 10:
            return [(hp, Fraction(1))]
        m = recovery_modifier(kegare=k)
        out: dict[int, Fraction] = {}
        for face in range(1, 7):
            up = hp + max(0, face + m)
            out[up] = out.get(up, Fraction(0)) + Fraction(1, 6)
        return list(out.items())

    alive: dict[_State, Fraction] = {(a.hp, e.hp, 0, 0): Fraction(1)}
    win = Fraction(0)
    for _ in range(prep.turns):
        ended: dict[_State, Fraction] = {}
        for (hp, ehp, k, ek), w in alive.items():
            mine, theirs = odds(k, ek)
            if pc_first(k, ek):
                for d1, p1 in mine.items():
                    ehp1, ek1 = hurt(ehp, ek, d1)
                    if ehp1 <= 0:
                        key: _State = (hp, ehp1, k, ek1)
                        ended[key] = ended.get(key, Fraction(0)) + w * p1
                        continue
                    for d2, p2 in odds(k, ek1)[1].items():
                        hp2, k2 = hurt(hp, k, d2)
                        key = (hp2, ehp1, k2, ek1)
                        ended[key] = ended.get(key, Fraction(0)) + w * p1 * p2
            else:
                for d1, p1 in theirs.items():
                    hp1, k1 = hurt(hp, k, d1)
                    if hp1 <= 0:
                        key = (hp1, ehp, k1, ek)
                        ended[key] = ended.get(key, Fraction(0)) + w * p1
                        continue
                    for d2, p2 in odds(k1, ek)[0].items():
                        ehp2, ek2 = hurt(ehp, ek, d2)
                        key = (hp1, ehp2, k1, ek2)
                        ended[key] = ended.get(key, Fraction(0)) + w * p1 * p2
        nxt: dict[_State, Fraction] = {}
        for (hp, ehp, k, ek), w in ended.items():
            for hp2, p in recover(hp, k):
                for ehp2, q in recover(ehp, ek):
                    if ehp2 <= 0:
                        win += w * p * q
                    elif hp2 > 0:
                        key = (hp2, ehp2, k, ek)
                        nxt[key] = nxt.get(key, Fraction(0)) + w * p * q
        alive = nxt
    return win, {}


def notes(_prep: Prepared) -> tuple[str, ...]:
    """What is not modelled."""
    return (
        "補助スキル・防御スキル・ランダム異常表（穢れ6以上）・受容と拒絶は使わない。",
        "脱力・自失はレベルが無いので効果なし、混乱・魅了は防御・支援スキルが無いので効果なし。",
    )
