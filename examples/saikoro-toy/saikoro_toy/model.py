"""The toy system's typed scenario model: what validation builds from a valid file.

Each key of a toy scenario is declared here once: a field of a :func:`model` class made
with :func:`key`, its annotation the Python type, its default the key's (none: the file
must give it), and the rest of its definition (the bounds of ``Int(2, 12)``, its words).
The scenario definition (``scenario.py``) is made from these classes.
"""

from __future__ import annotations

from saikoro.scenario import Int
from saikoro.scenario.model import PC, DifficultyTarget, Enemy, ScenarioModel, key, model

__all__ = ["MODEL", "ToyEnemy", "ToyPC", "ToyScenario", "ToyTarget"]


@model
class ToyTarget(DifficultyTarget):
    """A check: the dice must reach ``target``."""

    target: int = key(kind=Int(2, 12), ja="目標値", en="target")


@model
class ToyEnemy(Enemy):
    """An enemy with hit points."""

    hp: int = key(kind=Int(1, 99), ja="HP", en="hit points")


@model
class ToyPC(PC):
    """A PC of ``party:`` (its name only: the toy's checks need no stats)."""


@model
class ToyScenario(ScenarioModel):
    """A toy scenario: the shared keys, with the toy's targets, enemies and PCs."""

    difficulty_targets: tuple[ToyTarget, ...] = ()
    enemies: tuple[ToyEnemy, ...] = ()
    party: tuple[ToyPC, ...] | None = None


MODEL = ToyScenario
