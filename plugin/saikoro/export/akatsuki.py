"""暁 enemies for VTTs: each ability's check as BCDice's roll-under ``2D6<=t``.

The target comes from the system (:class:`~saikoro.systems.akatsuki.checks.CheckSpec`:
the ability level at normal difficulty). BCDice decides success exactly (2D6 at or
under the target; a target under 2 fails by itself); the doublets of a specialty and
the achievement (target minus the roll) are told in the note.

>>> enemy = {"name": "略奪団長", "abilities": {"体躯": 7, "技巧": 6}, "specialties": ["白兵"],
...          "cards": 2}
>>> [line.text.split(" ※")[0] for line in palette(enemy)]
['2D6<=7 体躯', '2D6<=6 技巧']
>>> palette(enemy)[0].system_command, palette(enemy)[0].compare
('AK7', 'success')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from saikoro.systems import System
from saikoro.systems.akatsuki.checks import CheckSpec

from .model import Character
from .palette import PaletteLine

__all__ = ["character", "palette"]

Data = Mapping[str, Any]


def palette(enemy: Data, system: System | None = None) -> list[PaletteLine]:  # noqa: ARG001
    """One check per ability, at normal difficulty (modifiers change the target)."""
    specialties = "・".join(str(s) for s in enemy.get("specialties") or ())
    doublets = f"／得意分野({specialties})ならゾロ目の効果" if specialties else ""
    lines = []
    for name, level in (enemy.get("abilities") or {}).items():
        target = CheckSpec(level=int(level)).target
        lines.append(
            PaletteLine(
                f"2D6<={target}",
                str(name),
                f"達成度={target}-出目{doublets}",
                system_command=f"AK{int(level)}",
                compare="success",
            )
        )
    return lines


def character(enemy: Data) -> Character:
    """Awakening cards as a gauge, ability levels as parameters."""
    cards = int(enemy.get("cards", 0) or 0)
    return Character(
        name=str(enemy.get("name", "")),
        status=(("覚醒札", cards, max(cards, 1)),),
        params=tuple((str(k), str(v)) for k, v in (enemy.get("abilities") or {}).items()),
    )
