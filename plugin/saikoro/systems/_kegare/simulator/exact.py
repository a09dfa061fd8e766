"""A 穢れ duel solved exactly: a Markov chain over (PC HP, enemy HP, 穢れ, enemy 穢れ) per turn.

One PC against one enemy, no statuses, fixed positions. The attacks are the engine's
exact odds (:func:`~saikoro.systems._kegare.checks.attack_odds`) of the same
specifications the simulation resolves, the enemy's defence skill (its ``guard``) and
always-on damage cut included. Both sides' recovery checks, the 穢れ each down adds and
加護's +2 at the end of each turn are part of the chain; the enemy's 穢れ has the track's
effects only under ``corruption_effects=all`` (else it only switches its skills on).
When the random status table (ruling ``random_status``) could come into play — a side
that suffers the track standing at 穢れ 6 to 9 at the start of a turn — no exact value
is given.
"""

from __future__ import annotations

from fractions import Fraction

from saikoro.balance._weights import common_denominator, reduce, scaled
from saikoro.systems._kegare.checks import attack_odds as kegare_attack_odds
from saikoro.systems._kegare.status import Combatant, kegare_on_down, recovery_modifier, turn_order

from .fight import (
    Fighter,
    Prepared,
    after_cut,
    best_skill,
    fighters,
    read_skill,
    spec,
)
from .shapes import KegareEnemy, KegarePC

__all__ = ["EXACT_STEPS", "EXACT_WORK", "exact"]

EXACT_WORK = 200_000
"""Largest HP x enemy HP x turns of a duel solved exactly (a first, cheap gate)."""

EXACT_STEPS = 10_000_000
"""Most transitions (one state's two attacks) the chain may take before the duel is left
to the simulation: HP x HP x turns underestimates the chain, whose states are multiplied
by both sides' 穢れ and branch into every pair of damage results (34 HP against 10 over 20
turns: 8.6 million, about 4 s). Counted, not timed, so whether a duel is solved never
depends on the machine."""

RANDOM_STATUS_FROM = 6
"""穢れ from which the random status table is rolled at the start of each turn."""

_State = tuple[int, int, int, int]
"""(PC HP, enemy HP, PC 穢れ, enemy 穢れ) of the exact duel."""


def _duel(prep: Prepared) -> tuple[KegarePC, KegareEnemy] | None:
    if len(prep.pcs) != 1 or len(prep.enemies) != 1:
        return None
    pc, en = prep.pcs[0], prep.enemies[0]
    if any(read_skill(s).status for s in en.skills):
        return None
    if prep.pc_policy.close_in and pc.position != "near":
        return None
    if prep.guard_uses != "every" and any(read_skill(s).guard for s in en.other_skills):
        return None
    if pc.hp * en.hp * prep.turns > EXACT_WORK:
        return None
    return pc, en


def _add(into: dict[_State, int], key: _State, w: int) -> None:
    into[key] = into.get(key, 0) + w


def exact(prep: Prepared) -> tuple[Fraction | None, dict[str, Fraction]]:
    """P(win) of a duel, exactly; anything larger than a duel returns ``None``."""
    duel = _duel(prep)
    if duel is None:
        return None, {}
    pcs, enemies = fighters(prep)
    a, e = pcs[0], enemies[0]
    skill = best_skill(e, a)
    suffers = prep.corruption == "all"  # the enemy suffers the track (the PC always does)
    firsts: dict[tuple[int, int], bool] = {}

    def pc_first(k: int, ek: int) -> bool:
        # the order is fixed each turn from the initiative, 穢れ 7+ making it 0 (the
        # enemy's only when it suffers the track: ruling corruption_effects)
        if (k, ek) not in firsts:
            both = [Combatant(a.name, a.initiative, True, False, k)]
            both.append(Combatant(e.name, e.initiative, False, False, ek if suffers else 0))
            firsts[(k, ek)] = turn_order(both, rounding=prep.rounding)[0].pc
        return firsts[(k, ek)]

    dists: dict[tuple[int, int], tuple[dict[int, Fraction], dict[int, Fraction]]] = {}

    def damage(att: Fighter, d: Fighter) -> dict[int, Fraction]:
        s = att.skills[0] if att.pc else skill
        probs = kegare_attack_odds(spec(prep, att, s, d, d.guard())).damage.probabilities()
        cut = d.cut()
        out: dict[int, Fraction] = {}
        for dmg, p in probs.items():
            k = after_cut(dmg, cut, prep.min_damage)
            out[k] = out.get(k, Fraction(0)) + p
        return out

    def odds(k: int, ek: int) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
        if (k, ek) not in dists:
            a.kegare, e.kegare = k, ek
            dists[(k, ek)] = (damage(a, e), damage(e, a))
        return dists[(k, ek)]

    rise, erise = (2 if a.blessed else 0), (2 if e.blessed else 0)

    def hurt(hp: int, k: int, dmg: int, track: bool = True) -> tuple[int, int]:
        if hp > 0 and hp - dmg <= 0:
            return hp - dmg, k + kegare_on_down(k if track else 0)
        return hp - dmg, k

    def recover(hp: int, k: int, track: bool = True) -> list[tuple[int, int]]:
        """The HP after the recovery check, in sixths (a side up rolls none: 6/6)."""
        if hp > 0 or (track and k >= 10):
            return [(hp, 6)]
        m = recovery_modifier(kegare=k if track else 0)
        out: dict[int, int] = {}
        for face in range(1, 7):
            up = hp + max(0, face + m)
            out[up] = out.get(up, 0) + 1
        return list(out.items())

    def table_rolled(hp: int, ehp: int, k: int, ek: int) -> bool:
        if prep.random_status == "none":
            return False
        return (hp > 0 and RANDOM_STATUS_FROM <= k < 10) or (
            suffers and ehp > 0 and RANDOM_STATUS_FROM <= ek < 10
        )

    # Integer weights over one denominator per turn (``scale``), reduced by their common
    # divisor once a turn: the same arithmetic as Fractions without a gcd per product,
    # which long duels (large denominators) spend most of their time in.
    alive: dict[_State, int] = {(a.hp, e.hp, 0, 0): 1}
    scale = 1
    win = Fraction(0)
    steps = 0
    for _ in range(prep.turns):
        if not alive:
            break
        if any(table_rolled(*state) for state in alive):
            return None, {}
        # every state has both sides standing, so both attacks of a turn use its own 穢れ
        pairs = {(k, ek) for _, _, k, ek in alive}
        den = common_denominator(p for kk in pairs for d in odds(*kk) for p in d.values())
        ints = {kk: tuple(scaled(d, den) for d in odds(*kk)) for kk in pairs}
        ended: dict[_State, int] = {}
        for (hp, ehp, k, ek), w in alive.items():
            mine, theirs = ints[(k, ek)]
            if pc_first(k, ek):
                for d1, p1 in mine.items():
                    ehp1, ek1 = hurt(ehp, ek, d1, suffers)
                    if ehp1 <= 0:
                        _add(ended, (hp, ehp1, k, ek1), w * p1 * den)
                        continue
                    for d2, p2 in theirs.items():
                        hp2, k2 = hurt(hp, k, d2)
                        _add(ended, (hp2, ehp1, k2, ek1), w * p1 * p2)
                    steps += len(theirs)
            else:
                for d1, p1 in theirs.items():
                    hp1, k1 = hurt(hp, k, d1)
                    if hp1 <= 0:
                        _add(ended, (hp1, ehp, k1, ek), w * p1 * den)
                        continue
                    for d2, p2 in mine.items():
                        ehp2, ek2 = hurt(ehp, ek, d2, suffers)
                        _add(ended, (hp1, ehp2, k1, ek2), w * p1 * p2)
                    steps += len(mine)
        scale *= den * den * 36  # both attacks, then both recovery dice (d6 each)
        won = 0
        nxt: dict[_State, int] = {}
        for (hp, ehp, k, ek), w in ended.items():
            for hp2, p in recover(hp, k):
                for ehp2, q in recover(ehp, ek, suffers):
                    k2, ek2 = k + rise, ek + erise
                    weight = w * p * q
                    if ehp2 <= 0 or (suffers and ek2 >= 10):
                        won += weight
                    elif hp2 > 0 and k2 < 10:
                        _add(nxt, (hp2, ehp2, k2, ek2), weight)
        win += Fraction(won, scale)
        scale, alive = reduce(scale, nxt)
        if steps > EXACT_STEPS:
            return None, {}
    return win, {}
