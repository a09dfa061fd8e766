"""GETB: one exchange (one PC, one enemy, one round, one attack each) solved exactly."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from saikoro.dice import LimitError
from saikoro.systems._getb.damage import CheckSpec as DamageSpec
from saikoro.systems._getb.final import final_damage_odds
from saikoro.systems._getb.states import Combatant

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

    Uses :func:`~saikoro.systems._getb.final.final_damage_odds` for each attack (a weak
    element adds its die as in :func:`~.play.battle`). Whole battles are too large to solve.
    """
    parts = _exchange(prep)
    if parts is None:
        return None, {}
    c_pc, c_en, u_pc, u_en, pc_first = parts
    dist = distance(u_pc.start, u_en.start)
    allow = prep.rules.option("ap_shortfall") == "allow"
    m_en = _choice(u_en, c_en, dist, allow, foe=u_pc, weak_die=prep.weak_die)
    if not pc_first and prep.pc_policy.guard and c_pc.st >= 1 and u_pc.guard_dice:
        # the PC guards the first blow: that ST is gone before its own attack
        pc_now = replace(c_pc, st=c_pc.st - 1)
        m_pc = _choice(u_pc, pc_now, dist, allow, foe=u_en, weak_die=prep.weak_die)
        if m_pc is None and m_en is not None:
            return Fraction(0), {}
    else:
        m_pc = _choice(u_pc, c_pc, dist, allow, foe=u_en, weak_die=prep.weak_die)
    if m_pc is None or m_en is None:
        return None, {}
    damage_fails = prep.rules.option("damage_fumble") == "fail"
    guard_fails = prep.rules.option("guard_fumble") == "fail"

    def hit(move: Move, defender: Unit, st_left: int, guards: bool, hp: int) -> Fraction | None:
        """P(the final damage is ``hp`` or more); ``None`` when cut-off chains leave it open."""
        guard = (
            DamageSpec(defender.guard_dice, defender.guard_modifier)
            if guards and st_left >= 1 and defender.guard_dice
            else None
        )
        attack = DamageSpec(_dice(move, defender.weak, prep.weak_die), move.modifier)
        odds = final_damage_odds(
            attack,
            guard,
            tie=prep.tie,
            damage_fumble_fails=damage_fails,
            guard_fumble_fails=guard_fails,
        )
        dist: Mapping[int | str, Fraction] = odds.distribution
        p = sum((q for d, q in dist.items() if isinstance(d, int) and d >= hp), Fraction(0))
        if not odds.truncated:
            return p
        # chains too long to follow reach at least cut_minimum: they kill when that beats
        # the best guard (no 10s: a 10 is a perfect guard) by hp
        top = 0 if guard is None else max(0, guard.dice * 9 + guard.modifier)
        if attack.spread().cut_minimum - top >= max(1, hp) and odds.truncated_success:
            return p + odds.truncated
        return None

    en_st = c_en.st - (m_en.cost.st if not pc_first else 0)
    try:
        p_kill = hit(m_pc, u_en, en_st, prep.enemy_policy.guard, c_en.hp)
        p_down = hit(m_en, u_pc, c_pc.st, prep.pc_policy.guard, c_pc.hp)
    except LimitError:  # too many dice to enumerate: no exact answer
        return None, {}
    if p_kill is None:
        return None, {}
    if pc_first:
        return p_kill, {"P(一撃で倒す)": p_kill}
    if p_down is None:
        return None, {}
    survive = 1 - p_down
    return survive * p_kill, {"P(一撃で倒す)": p_kill, "P(先手を耐える)": survive}
