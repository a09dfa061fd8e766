"""The toy system's scenario definition: what its scenario files may hold, checked by
``saikoro validate`` with file, line and column (and exported as JSON Schema).

``ROOT`` is the whole scenario, made from the model's keys (``model.py``); ``SIDE_CHECKS``
the side-mission keys it offers; ``REFERENCE_PARTY`` the PCs a scenario is simulated with
when it names none. A check across keys (a ``Check`` of ``saikoro.scenario``) would be
given here, by model class: ``checks={ToyTarget: (my_check,)}``.
"""

from __future__ import annotations

from saikoro.scenario import scenario_root

from .model import ToyScenario

__all__ = ["REFERENCE_PARTY", "ROOT", "SIDE_CHECKS"]

SIDE_CHECKS: tuple[str, ...] = ("win", "targets", "targets_at_least")
"""The side-mission ``check:`` keys toy scenarios offer."""

ROOT = scenario_root("toy", ToyScenario, side_checks=SIDE_CHECKS, defeat=False)
"""The whole toy scenario."""

REFERENCE_PARTY: tuple[dict[str, object], ...] = ({"name": "勇者"}, {"name": "魔法使い"})
"""The reference party's archetypes, in the order a party takes them."""
