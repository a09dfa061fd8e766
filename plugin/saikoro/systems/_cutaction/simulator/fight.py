"""Cut-action: the fight (``cutaction.cut``), cut by cut."""

from __future__ import annotations

from saikoro.balance._stats import Tally
from saikoro.balance._tactics import Policy
from saikoro.systems._cutaction.checks import InitiativeEntry, contest_wins, initiative_order
from saikoro.systems._cutaction.damage import resolve_damage

from .common import Char, Prepared, RandomDraw
from .shapes import CutAttack

__all__ = ["fight"]


def _choose(policy: Policy, foes: list[Char], draw: RandomDraw) -> Char:
    if policy.target == "random":
        return foes[int(draw.rand() * len(foes))]
    if policy.target == "most_dangerous":
        return max(foes, key=lambda c: (max((a.damage for a in c.attacks), default=0), -c.index))
    return min(foes, key=lambda c: (c.cond.hp, c.index))


def _usable(a: Char, t: Char) -> list[tuple[CutAttack, int]]:
    """Attacks ``a`` can make on ``t`` now, with their success value."""
    out = []
    for atk in a.attacks:
        if a.cover == "full":
            continue
        if atk.kind == "melee":
            if a.cover == "none" and a.row == t.row:
                out.append((atk, a.body))
        else:
            if t.cover == "full" and t.row != a.row:
                continue
            value = a.head // 2 if (t.cover == "half" and t.row != a.row) else a.head
            out.append((atk, value))
    return out


def _hit(prep: Prepared, draw: RandomDraw, atk: CutAttack, value: int, t: Char) -> int:
    check = draw.check(value)
    if not check.success:
        return 0
    auto = prep.exhausted_fail and t.cond.auto_fails()
    resist = None if auto else draw.check(t.body)
    result = resolve_damage(atk.damage, resist, failure=prep.resist_failure, auto_fail=auto)
    t.take(result)
    return result.hp_loss


def fight(
    prep: Prepared, draw: RandomDraw, everyone: list[Char], tally: Tally
) -> tuple[bool, int, int, int]:
    """The fight: (won, cuts, damage dealt, damage taken)."""
    dealt = taken = 0
    cut = 0
    fighters = [c for c in everyone if c.in_fight]
    if not any(not c.pc and c.name in prep.defeat for c in fighters):
        return True, 0, 0, 0
    order_rule = str(prep.options["failed_initiative_order"])
    contest_rule = str(prep.options["contest_rule"])
    while cut < prep.cuts:
        cut += 1
        entries = []
        for key, c in enumerate(fighters):
            if c.up:
                r = draw.check(c.body)
                entries.append(InitiativeEntry(str(key), r.achievement, r.fumble, c.pc))
        for e in initiative_order(entries, failed_order=order_rule):
            a = fighters[int(e.name)]
            if not a.up:
                continue
            foes = [c for c in fighters if c.up and c.pc != a.pc]
            if not foes:
                break
            policy = prep.pc_policy if a.pc else prep.enemy_policy
            options = {id(f): _usable(a, f) for f in foes}
            reachable = [f for f in foes if options[id(f)]]
            t = _choose(policy, reachable or foes, draw)
            usable = options[id(t)]
            if not usable and policy.close_in and not a.blockade and a.cover == "none":
                step = 1 if t.row > a.row else -1
                blockers = [
                    b for b in fighters if b.up and b.pc != a.pc and b.blockade and b.row == a.row
                ]
                free = not blockers or contest_wins(
                    draw.check(a.body),
                    [draw.check(b.body) for b in blockers],
                    rule=contest_rule,
                )
                if free and t.row != a.row:
                    a.row += step
                    usable = _usable(a, t)
            if not usable:
                continue
            atk, value = max(usable, key=lambda av: (av[0].damage, av[1]))
            loss = _hit(prep, draw, atk, value, t)
            if not t.up and not t.pc:
                tally.fallen.append(t.index)
            if a.pc:
                dealt += loss
            else:
                taken += loss
                tally.actions[f"{a.name}:{atk.name}"] += loss
        if all(not c.up for c in fighters if not c.pc and c.name in prep.defeat):
            return True, cut, dealt, taken
        if all(not c.up for c in fighters if c.pc):
            break
    return False, cut, dealt, taken
