"""One simulated 穢れ battle, turn by turn (the flow ``kegare.turn``), on :mod:`.fight`.

At the start of each turn every standing character that suffers the 穢れ track and stands
at 穢れ 6 to 9 rolls the random status table (ruling ``random_status``); then the acting
order is fixed (initiative after 麻痺 and 穢れ 7+, PCs first on ties). Each standing
character acts once, in that order:

* a PC with ``close_in`` first steps one position nearer (its auxiliary action), then
  attacks the enemy its target policy picks (unless another enemy covers that one);
* an enemy picks a PC by its policy and the attack skill the party expects to lose the
  most HP to (:func:`~.fight.pick`; a 全体攻撃 meets every standing PC with one attack
  roll); an enemy without an attack skill passes.

A hit deals its damage first, then its statuses land unless it downed the target (ruling
``downing_hit_effects``). At the turn's end: poison ticks (the fallen too), the recovery
check of everyone down, the status-recovery check of everyone with a status (the downed
too: ruling ``status_check_down``), then 加護 raises 穢れ by 2. The battle is won when
every enemy of ``defeat`` is down (or out for good) at a turn's end, lost (a wipe) when
every PC is, and timed out at the turn limit.
"""

from __future__ import annotations

import random

from saikoro.balance import Tally

from .fight import (
    STATUSES,
    Prepared,
    after_cut,
    choose,
    cover,
    cure,
    cure_due,
    cured,
    give,
    nearer,
    order,
    pick,
    poison_due,
    poison_ticks,
    recovery_dice,
    recovery_due,
    rise,
    sample,
    strike,
    struck,
    table_due,
    two_d6,
)

__all__ = ["battle"]


def battle(prep: Prepared, rng: random.Random, tally: Tally) -> None:
    """One battle, recorded in ``tally``."""
    pcs = [p.copy() for p in prep.pcs]
    enemies = [e.copy() for e in prep.enemies]
    everyone = pcs + enemies
    downed = [False] * len(pcs)
    dealt = taken = 0
    end = "timeout"
    turn = 0
    pc_policy, enemy_policy = prep.pc_policy, prep.enemy_policy
    while turn < prep.turns:
        turn += 1
        for f in everyone:
            f.guarded = False
            if table_due(prep, f):
                give(f, STATUSES[int(rng.random() * len(STATUSES))])
        for a in order(prep, everyone):
            if not a.up:
                continue
            if a.pc:
                foes = [e for e in enemies if e.up]
                if not foes:
                    break
                if pc_policy.close_in:
                    a.position = nearer(a.position)
                target = cover(prep, choose(pc_policy, foes, rng), foes)
                dealt += strike(prep, rng, a, a.moves[0], (target,), tally=tally)
            else:
                foes = [p for p in pcs if p.up]
                if not foes:
                    break
                target = choose(enemy_policy, foes, rng)
                move = pick(prep, a, target, foes, turn)
                if move is not None:
                    taken += strike(
                        prep, rng, a, move, foes if move.area else (target,), tally=tally
                    )
        for f in everyone:
            if poison_due(f):
                tick = sample(poison_ticks(f.poison, prep.min_damage)).draw(rng)
                damage = after_cut(tick, f.cut(), prep.min_damage)
                struck(f, damage)
                if f.pc:
                    taken += damage
                    if f.poisoner:
                        tally.actions[f.poisoner] += damage
                else:
                    dealt += damage
        for f in everyone:
            if not f.up:
                if f.pc:
                    downed[f.index] = True
                elif f.index not in tally.fallen:  # the order they first fell in
                    tally.fallen.append(f.index)
            if recovery_due(f):
                f.hp += sample(recovery_dice(f.has("curse"), f.felt)).draw(rng)
        for f in everyone:
            if cure_due(prep, f) and cured(prep, f, two_d6(rng)):
                cure(f)
        for f in everyone:
            rise(f)
        if all(not e.up for e in enemies if e.key in prep.defeat):
            end = "win"
            break
        if not any(p.up for p in pcs):
            end = "wipe"
            break
    kegare = {"corruption": max((p.kegare for p in pcs), default=0)}
    tally.record(
        win=end == "win",
        end=end,
        rounds=turn,
        downed=downed,
        dealt=dealt,
        taken=taken,
        facts=kegare,
    )
