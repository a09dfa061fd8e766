"""What a system profile tells the scenario pages: which commands to show, and how.

A profile maps the system-specific parts of a scenario (enemies, difficulty targets) to
engine commands. The pages compute every shown probability by running those commands
through ``saikoro.odds`` — the same command goes on the roll button.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from saikoro.export import Character

__all__ = ["Character", "Grid", "Metric", "Profile"]

Data = Mapping[str, Any]


class Metric(enum.Enum):
    """A number shown in a grid cell, computed from the cell command's odds."""

    SUCCESS = "success"
    """P(success)."""
    CRITICAL = "critical"
    """P(critical)."""
    FUMBLE = "fumble"
    """P(fumble)."""
    MEAN = "mean"
    """The expected value of the main quantity (e.g. damage)."""
    AT_LEAST = "at_least"
    """P(main quantity >= k) for each k in :attr:`Grid.thresholds`."""
    CHART = "chart"
    """A small chart of the distribution."""
    GAIN = "gain"
    """The expected gain of the events named ``<word>+N`` (kokuryoku: 国力+N)."""
    EVENTS = "events"
    """Every named event of the odds (system result words: 粉砕, 回避 ...)."""


@dataclass(frozen=True)
class Grid:
    """A table of commands: one row per situation, one column per opponent/ability value.

    Attributes:
        title: caption, in Japanese.
        columns: column headings.
        rows: (row heading, one command per column; ``""`` for an empty cell).
        metrics: what each cell shows.
        thresholds: the ``k`` of :attr:`Metric.AT_LEAST`.
        note: a sentence under the table (assumptions such as typical armour).
        chart: (row, column) of the cell whose distribution is drawn under the table.
    """

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...]
    metrics: tuple[Metric, ...] = (Metric.SUCCESS, Metric.CRITICAL, Metric.FUMBLE)
    thresholds: tuple[int, ...] = ()
    note: str = ""
    chart: tuple[int, int] | None = None


class Profile:
    """The default profile: a system without a dedicated mapping shows data, not odds."""

    system: str = ""

    def stats(self, enemy: Data) -> list[tuple[str, str]]:
        """(label, value) rows of an enemy's stat block (plain text, escaped by the page)."""
        rows = []
        for key, value in enemy.items():
            if key in {"id", "name", "attacks", "skills", "memo", "description"}:
                continue
            rows.append((key, _plain(value)))
        return rows

    def target_command(self, target: Data) -> str | None:  # noqa: ARG002 - overridden by systems
        """The command of a difficulty target's roll button (a typical character)."""
        return None

    def target_grid(self, target: Data) -> Grid | None:  # noqa: ARG002 - overridden by systems
        """Odds of a difficulty target across the values a character can have."""
        return None

    def target_label(self, target: Data) -> str:
        """One line describing the target (check and target number)."""
        return " / ".join(f"{k}: {_plain(v)}" for k, v in target.items() if k != "name")

    def attack_label(self, enemy: Data, attack: Data) -> str:  # noqa: ARG002 - overridden by systems
        """One line describing an attack."""
        return " / ".join(f"{k}: {_plain(v)}" for k, v in attack.items() if k != "name")

    def attack_command(self, enemy: Data, attack: Data) -> str | None:  # noqa: ARG002 - overridden by systems
        """The command of an attack's roll button."""
        return None

    def attack_grids(self, enemy: Data, attack: Data) -> Sequence[Grid]:  # noqa: ARG002 - overridden by systems
        """Damage distributions of an attack against the system's defences."""
        return ()

    def attacks(self, enemy: Data) -> list[Data]:
        """The enemy's attacks (each shown with its odds)."""
        return [a for a in enemy.get("attacks") or () if isinstance(a, Mapping)]

    def enemy_grids(self, enemy: Data) -> Sequence[Grid]:  # noqa: ARG002 - overridden
        """Odds tables of an enemy as a whole (systems whose enemies have no attack list)."""
        return ()


def _plain(value: object) -> str:
    """A YAML value as one line of plain text."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {_plain(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)
