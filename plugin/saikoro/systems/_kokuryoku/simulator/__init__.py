"""国力: the middle-phase checks, then the final phase's rounds of attack and defence.

Middle phase (``kokuryoku.middle_check``): every difficulty target is tried once, in
order. The starter is the PC best at the target's ability (any ability when none is
set: each character uses its highest); the others support, best first, until the
target is reached (``cooperative``). The nation gains the full ``gain`` on success, half
(rounded down) on failure. The PCs' nation starts the final phase with its ``power``
plus those gains.

Final phase (``kokuryoku.final_round`` / ``kokuryoku.attack``): each round the side with
more power goes first (ruling ``equal_power`` on ties). Every character acts once a
round. With the ``guard`` tactic a side keeps half its characters (rounded down, the best
defenders) back to react; the others attack, one by one, each with its own attack check
(highest ability) and damage roll (attack power + its nation's attack + dice) — a single
attack always targets the national power gauge. Each attack is met by the next unused
defender of the other side (its check against the attack's; ties go to the attacker;
then defence power + its nation's defence + dice); when none is left the reaction is
declined and the damage is not reduced. Defenders left over once every attack of the
other side has one support the defence checks instead (their checks added to the
defender's, spread over the attacks in turn). Damage never falls below ``damage_floor``. A side
with no characters is its nation acting alone (abilities 0). The side whose gauge reaches
0 loses at once; ``win`` is P(the enemy nation's gauge reaches 0 within the round limit —
the main mission's ``rounds``, 3 when not given).

Both phases are solved exactly when small (gauge states x rounds).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from saikoro.balance._budget import Budget
from saikoro.balance._model import Encounter
from saikoro.balance._simulator import Note, Simulator
from saikoro.balance._stats import Tally
from saikoro.balance._tactics import Tactics
from saikoro.systems._kokuryoku.checks import attack as attack_odds
from saikoro.systems._kokuryoku.checks import cooperative, first_player, gain_for

from . import shapes
from .shapes import KokuryokuMember, KokuryokuTarget

__all__ = ["FLOWS", "Prepared", "Side", "battle", "exact", "notes", "prepare"]

FLOWS = ("kokuryoku.middle_check", "kokuryoku.final_round", "kokuryoku.attack")
"""The system flows this simulator follows."""

DEFAULT_ROUNDS = 3
"""Round limit when the main mission gives none."""

DEFAULT_POWER = 50
"""A nation's power when neither the scenario nor the party gives one."""

EXACT_WORK = 3_000_000
"""Largest (gauge states x damage outcomes x rounds) solved exactly."""


Defence = tuple[tuple[int, ...], int]
"""A reaction: the defence check's abilities (the defender's, then supporters'), defence power."""


@dataclass(frozen=True)
class Side:
    """One side of the final phase.

    Attributes:
        power: starting national power (PCs: before the middle phase).
        attackers: (ability, attack power incl. the nation's) of each attacker, in order.
        defenders: (ability, defence power incl. the nation's) of each defender, in order.
    """

    power: int
    attackers: tuple[tuple[int, int], ...]
    defenders: tuple[tuple[int, int], ...]
    skills: tuple[str, ...] = ()


@dataclass(frozen=True)
class Prepared:
    """Both sides, the middle-phase plans and the rules."""

    pcs: Side
    npcs: Side
    pc_attacks: tuple[tuple[tuple[int, int], Defence | None], ...]
    npc_attacks: tuple[tuple[tuple[int, int], Defence | None], ...]
    middle: tuple[tuple[KokuryokuTarget, tuple[int, ...]], ...]
    rounds: int
    die: int
    count: int
    floor: int
    tie: str


def _side(members: tuple[KokuryokuMember, ...], guard: bool, default_power: int) -> Side:
    nations = [m for m in members if m.kind == "nation"]
    nation = nations[0] if nations else KokuryokuMember("国", "nation", default_power, {}, 0, 0)
    chars = [m for m in members if m.kind == "character"] or [
        KokuryokuMember(nation.name, "character", None, {}, 0, 0)
    ]
    keep = len(chars) // 2 if guard else 0
    by_defence = sorted(chars, key=lambda c: (-c.defence, -c.best))
    defenders = by_defence[:keep]
    attackers = sorted((c for c in chars if c not in defenders), key=lambda c: (-c.attack, -c.best))
    return Side(
        power=nation.power or default_power,
        attackers=tuple((c.best, c.attack + nation.attack) for c in attackers),
        defenders=tuple((c.best, c.defence + nation.defence) for c in defenders),
        skills=tuple(f"{s}（{m.name}）" for m in members for s in m.skills),
    )


def prepare(enc: Encounter, tactics: Tactics) -> Prepared:
    """Both sides and the middle-phase order of checks."""
    pcs = _side(shapes.members(enc), tactics.pc.guard, DEFAULT_POWER)
    npcs = _side(shapes.enemies(enc), tactics.enemy.guard, DEFAULT_POWER)
    chars = [m for m in shapes.members(enc) if m.kind == "character"]
    middle = []
    for t in shapes.targets(enc):
        if not chars:
            break

        def score(c: KokuryokuMember, t: KokuryokuTarget = t) -> int:
            return c.abilities.get(t.ability, 0) if t.ability else c.best

        order = sorted(chars, key=lambda c: -score(c))
        starter = score(order[0])
        middle.append((t, (starter, *(c.best for c in order[1:]))))
    o = enc.options
    return Prepared(
        pcs=pcs,
        npcs=npcs,
        pc_attacks=tuple(_sequence(pcs, npcs)),
        npc_attacks=tuple(_sequence(npcs, pcs)),
        middle=tuple(middle),
        rounds=enc.round_limit or DEFAULT_ROUNDS,
        die=int(o["die"]),
        count=int(o["die_count"]),
        floor=int(o["damage_floor"]),
        tie=str(o["equal_power"]),
    )


def _roll(rng: random.Random, die: int, count: int) -> int:
    return sum(int(rng.random() * die) + 1 for _ in range(count))


def _attack(
    prep: Prepared, rng: random.Random, attacker: tuple[int, int], defender: Defence | None
) -> int:
    ability, power = attacker
    if defender is not None:
        check = ability + _roll(rng, prep.die, prep.count)
        guard = sum(a + _roll(rng, prep.die, prep.count) for a in defender[0])
        if guard > check:
            return 0
        hit = power + _roll(rng, prep.die, prep.count)
        return max(prep.floor, hit - defender[1] - _roll(rng, prep.die, prep.count))
    return max(prep.floor, power + _roll(rng, prep.die, prep.count))


def _sequence(a: Side, d: Side) -> list[tuple[tuple[int, int], Defence | None]]:
    """Side ``a``'s attacks in a round, each with the reaction that meets it.

    Attack *i* meets defender *i*; defenders beyond the attacks support the defence
    checks, the first spare one the first attack, the next the second, and so on.
    """
    met = min(len(a.attackers), len(d.defenders))
    helpers: list[list[int]] = [[] for _ in range(met)]
    for k, (ability, _) in enumerate(d.defenders[met:]):
        if met:
            helpers[k % met].append(ability)
    out: list[tuple[tuple[int, int], Defence | None]] = []
    for i, atk in enumerate(a.attackers):
        if i < met:
            ability, power = d.defenders[i]
            out.append((atk, ((ability, *helpers[i]), power)))
        else:
            out.append((atk, None))
    return out


def battle(prep: Prepared, rng: random.Random, tally: Tally) -> None:
    """The middle phase, then the final phase's rounds."""
    power = prep.pcs.power
    reached = 0
    hits: list[bool] = []
    for t, abilities in prep.middle:
        s = 0
        for ab in abilities:
            s += ab + _roll(rng, prep.die, prep.count)
            if s >= t.target:
                break
        ok = s >= t.target
        hits.append(ok)
        reached += ok
        power += gain_for(ok, t.gain)
    tally.sums["national_power"] += power
    tally.sums["middle_reached"] += reached
    mine, theirs = power, prep.npcs.power
    win = False
    played = 0
    dealt = taken = 0
    for _ in range(prep.rounds):
        played += 1
        first = first_player(mine, theirs, prep.tie)
        if first is None:
            first = "PC" if rng.random() < 0.5 else "NPC"
        order = ("PC", "NPC") if first == "PC" else ("NPC", "PC")
        over = False
        for who in order:
            if who == "PC":
                for atk, dfn in prep.pc_attacks:
                    dmg = _attack(prep, rng, atk, dfn)
                    theirs -= dmg
                    dealt += dmg
                    if theirs <= 0:
                        win = over = True
                        break
            else:
                for atk, dfn in prep.npc_attacks:
                    dmg = _attack(prep, rng, atk, dfn)
                    mine -= dmg
                    taken += dmg
                    tally.actions["攻撃"] += dmg
                    if mine <= 0:
                        over = True
                        break
            if over:
                break
        if over:
            break
    tally.record(
        win=win,
        rounds=played,
        downed=[False] * tally.pcs,
        dealt=dealt,
        taken=taken,
        passed=[i for i, ok in enumerate(hits) if ok],
        facts={"power": mine},
    )
    if mine <= 0:
        tally.sums["own_nation_fell"] += 1


def _attack_dist(prep: Prepared, atk: tuple[int, int], dfn: Defence | None) -> dict[int, Fraction]:
    return attack_odds(
        [atk[0]],
        None if dfn is None else list(dfn[0]),
        atk[1],
        0 if dfn is None else dfn[1],
        floor=prep.floor,
        die=prep.die,
        count=prep.count,
    ).damage.probabilities()


def exact(prep: Prepared) -> tuple[Fraction | None, dict[str, Fraction]]:
    """The middle phase's odds and the final phase's P(win), exactly when small."""
    figures: dict[str, Fraction] = {}
    start: dict[int, Fraction] = {prep.pcs.power: Fraction(1)}
    for t, abilities in prep.middle:
        p = cooperative(list(abilities), t.target, die=prep.die, count=prep.count).success
        figures[f"P({t.name})"] = p
        nxt: dict[int, Fraction] = {}
        for power, w in start.items():
            for ok, q in ((True, p), (False, 1 - p)):
                if q:
                    k = power + gain_for(ok, t.gain)
                    nxt[k] = nxt.get(k, Fraction(0)) + w * q
        start = nxt
    figures["E(国力)"] = sum((k * w for k, w in start.items()), Fraction(0))
    mine = [_attack_dist(prep, a, d) for a, d in prep.pc_attacks]
    theirs = [_attack_dist(prep, a, d) for a, d in prep.npc_attacks]
    outcomes = sum(len(x) for x in mine + theirs)
    if max(start) * prep.npcs.power * outcomes * prep.rounds > EXACT_WORK:
        return None, figures
    alive: dict[tuple[int, int], Fraction] = {(k, prep.npcs.power): w for k, w in start.items()}
    win = Fraction(0)
    for _ in range(prep.rounds):
        split: dict[tuple[int, int, bool], Fraction] = {}
        for (m, e), w in alive.items():
            first = first_player(m, e, prep.tie)
            if first is None:
                for pc_first in (True, False):
                    key = (m, e, pc_first)
                    split[key] = split.get(key, Fraction(0)) + w / 2
            else:
                key = (m, e, first == "PC")
                split[key] = split.get(key, Fraction(0)) + w
        nxt2: dict[tuple[int, int], Fraction] = {}
        for pc_first in (True, False):
            states = {(m, e): w for (m, e, f), w in split.items() if f == pc_first}
            steps = [(True, d) for d in mine] + [(False, d) for d in theirs]
            if not pc_first:
                steps = [(False, d) for d in theirs] + [(True, d) for d in mine]
            for ours, dist in steps:
                after: dict[tuple[int, int], Fraction] = {}
                for (m, e), w in states.items():
                    for dmg, p in dist.items():
                        m2, e2 = (m, e - dmg) if ours else (m - dmg, e)
                        if e2 <= 0:
                            win += w * p
                        elif m2 > 0:
                            after[(m2, e2)] = after.get((m2, e2), Fraction(0)) + w * p
                states = after
            for pair, w in states.items():
                nxt2[pair] = nxt2.get(pair, Fraction(0)) + w
        alive = nxt2
    return win, figures


def notes(prep: Prepared) -> tuple[str, ...]:
    """What is not modelled."""
    out = [
        "回復・バフ・複数攻撃による人物（愛）への攻撃、攻撃判定への支援は扱わない"
        "（支援は余った防御役の防御判定だけ）。",
    ]
    skills = (*prep.pcs.skills, *prep.npcs.skills)
    if skills:
        out.append("効果の文章を扱わないスキル：" + "、".join(skills) + "。")
    return tuple(out)


class KokuryokuSimulator(Simulator[Prepared]):
    """The kokuryoku simulator: the functions above, with the system's words."""

    system = "kokuryoku"
    flows = FLOWS
    tactics = ("focus", "focus")
    tactics_reason = (
        "単体攻撃は国力ゲージを狙うので対象選びはない。守り（防御役を温存する）を既定にし"
        "、双方とも同じ方針で比べる。"
    )
    default_rounds = DEFAULT_ROUNDS
    pcs_go_down = False
    danger_is_side = True
    mean_labels = MappingProxyType(
        {
            "national_power": "最終フェーズ開始時の国力(平均)",
            "middle_reached": "目標値に届いた中間フェーズの判定(平均)",
            "own_nation_fell": "自国の国力が0になった割合",
        }
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

    def facts(self, enc: Encounter) -> frozenset[str]:
        del enc
        return frozenset({"power"})


SIMULATOR = KokuryokuSimulator()
