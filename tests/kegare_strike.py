"""One 穢れ attack on one target, drawn from its table and applied to a Fighter in place
(what the rules' step does for a single attack), for tests of the attack's pieces."""

from __future__ import annotations

import random

from saikoro.systems._kegare.simulator.fight import (
    Fighter,
    Move,
    Prepared,
    guard_for,
    hurt,
    marked,
    table,
)


def strike(prep: Prepared, rng: random.Random, a: Fighter, move: Move, d: Fighter) -> int:
    """``a`` attacks ``d`` with ``move``: the damage dealt (``d`` changed in place)."""
    once = prep.guard_uses == "once_per_turn"
    guard, d.guarded = guard_for(once, d.guards, d.kegare, d.marks, d.guarded)
    damage, lands = table(prep, a, move, d, guard).draw(rng.random())
    d.hp, d.kegare = hurt(d.hp, d.kegare, d.suffers, damage)
    if lands:
        d.marks, d.poison = marked(prep, move, d.hp, d.marks, d.poison, immune=d.immune)
    return max(damage, 0)
