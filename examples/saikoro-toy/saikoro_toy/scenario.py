"""The toy system's scenario definition: what its scenario files may hold, checked by
``saikoro validate`` with file, line and column (and exported as JSON Schema).

``ROOT`` is the whole scenario; ``SIDE_CHECKS`` the side-mission keys it offers;
``REFERENCE_PARTY`` the PCs a scenario is simulated with when it names none.
"""

from __future__ import annotations

from saikoro.scenario import (
    PC_NAME,
    Field,
    Int,
    Obj,
    enemy_obj,
    scenario_root,
    target_obj,
    with_party,
)

__all__ = ["REFERENCE_PARTY", "ROOT", "SIDE_CHECKS"]

TARGET = target_obj(
    Field("target", Int(2, 12), required=True, ja="目標値", en="target"),
)
ENEMY = enemy_obj(Field("hp", Int(1, 99), required=True, ja="HP", en="hit points"))
PC = Obj((PC_NAME,))  # a PC is its name: the toy's checks need no stats

SIDE_CHECKS: tuple[str, ...] = ("win", "targets", "targets_at_least")
"""The side-mission ``check:`` keys toy scenarios offer."""

ROOT = with_party(scenario_root("toy", TARGET, ENEMY, side_checks=SIDE_CHECKS), PC, defeat=False)
"""The whole toy scenario."""

REFERENCE_PARTY: tuple[dict[str, object], ...] = ({"name": "勇者"}, {"name": "魔法使い"})
"""The reference party's archetypes, in the order a party takes them."""
