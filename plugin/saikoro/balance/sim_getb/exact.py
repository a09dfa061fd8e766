"""GETB: one exchange (one PC, one enemy, one round, one attack each) solved exactly."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from saikoro.dice import LimitError
from saikoro.systems.getb.damage import CheckSpec as DamageSpec
from saikoro.systems.getb.final import final_damage_odds
from saikoro.systems.getb.states import Combatant

from .play import dice_against as _dice
from .units import Move, Prepared, Unit, distance, power

__all__ = ["exact"]


def _choice(
    unit: Unit, c: Combatant, dist: int, allow: bool, *, foe: Unit, weak_die: bool
) -> Move | None:
    """The attack :func:`~.play.battle` makes on ``foe`` at ``dist`` (``None``: none)."""
    usable = [
        m
        for m in unit.moves
        if m.reach[0] <= dist <= m.reach[1] and c.can_pay(m.cost, allow_ap_shortfall=allow)
    ]
    if not usable:
        return None
    return max(usable, key=lambda m: (power(m, _dice(m, foe.weak, weak_die)), m.melee))


def _exchange(prep: Prepared) -> tuple[Combatant, Combatant, Unit, Unit, bool] | None:
    """The one-exchange duel's parts, when ``prep`` is one (else ``None``)."""
    if prep.rounds != 1 or len(prep.units) != 2:
        return None
    pc, en = prep.units
    if not pc.pc or en.pc:
        return None
    dist = distance(pc.start, en.start)
    allow = prep.rules.option("ap_shortfall") == "allow"
    cs = [c.round_start() for c in prep.combatants]
    for u, c, foe in zip(prep.units, cs, (en, pc), strict=True):
        move = _choice(u, c, dist, allow, foe=foe, weak_die=prep.weak_die)
        if move is None:
            return None
        left = prep.rules.pay(c, move.cost)
        if _choice(u, left, dist, allow, foe=foe, weak_die=prep.weak_die) is not None:
            return None  # it could attack twice: not one exchange
    order = prep.rules.initiative(cs)
    return cs[0], cs[1], pc, en, order[0].pc


def exact(prep: Prepared) -> tuple[Fraction | None, dict[str, Fraction]]:
    """One exchange (one PC, one enemy, one round, one attack each) solved exactly.

    Uses :func:`~saikoro.systems.getb.final.final_damage_odds` for each attack (a weak
    element adds its die as in :func:`~.play.battle`). Whole battles are too large to solve.
    """
    parts = _exchange(prep)
    if parts is None:
        return None, {}
    c_pc, c_en, u_pc, u_en, pc_first = parts
    dist = distance(u_pc.start, u_en.start)
    allow = prep.rules.option("ap_shortfall") == "allow"
    m_pc = _choice(u_pc, c_pc, dist, allow, foe=u_en, weak_die=prep.weak_die)
    m_en = _choice(u_en, c_en, dist, allow, foe=u_pc, weak_die=prep.weak_die)
    if m_pc is None or m_en is None:
        return None, {}
    damage_fails = prep.rules.option("damage_fumble") == "fail"
    guard_fails = prep.rules.option("guard_fumble") == "fail"

    def hit(move: Move, defender: Unit, st_left: int, guards: bool) -> Mapping[int | str, Fraction]:
        guard = (
            DamageSpec(defender.guard_dice, defender.guard_modifier)
            if guards and st_left >= 1 and defender.guard_dice
            else None
        )
        return final_damage_odds(
            DamageSpec(_dice(move, defender.weak, prep.weak_die), move.modifier),
            guard,
            tie=prep.tie,
            damage_fumble_fails=damage_fails,
            guard_fumble_fails=guard_fails,
        ).distribution

    en_st = c_en.st - (m_en.cost.st if not pc_first else 0)
    try:
        kill = hit(m_pc, u_en, en_st, prep.enemy_policy.guard)
        taken = hit(m_en, u_pc, c_pc.st, prep.pc_policy.guard)
    except LimitError:  # too many dice to enumerate: no exact answer
        return None, {}
    p_kill = sum((p for d, p in kill.items() if isinstance(d, int) and d >= c_en.hp), Fraction(0))
    if pc_first:
        return p_kill, {"P(一撃で倒す)": p_kill}
    survive = sum((p for d, p in taken.items() if isinstance(d, int) and d < c_pc.hp), Fraction(0))
    return survive * p_kill, {"P(一撃で倒す)": p_kill, "P(先手を耐える)": survive}
