"""暁 enemies for VTTs: each ability's check as BCDice's roll-under ``2D6<=t``.

The target comes from the system (:class:`~saikoro.systems._akatsuki.checks.CheckSpec`:
the ability level at normal difficulty). BCDice decides success exactly (2D6 at or
under the target; a target under 2 fails by itself); the doublets of a specialty and
the achievement (target minus the roll) are told in the note.

>>> from saikoro.scenario.model import enemy_model
>>> enemy = enemy_model("akatsuki", {"id": "c", "name": "略奪団長",
...     "abilities": {"体躯": 7, "技巧": 6}, "specialties": ["白兵"], "cards": 2})
>>> [line.text.split(" ※")[0] for line in palette(enemy)]
['2D6<=7 体躯', '2D6<=6 技巧']
>>> palette(enemy)[0].system_command, palette(enemy)[0].compare
('AK7', 'success')
"""

from __future__ import annotations

from saikoro.export import Character, PaletteLine
from saikoro.scenario.model import PC, Enemy
from saikoro.systems import System

from .checks import CheckSpec
from .model import AkatsukiEnemy, AkatsukiPC

__all__ = ["character", "palette", "pc_as_enemy"]


def _own(enemy: Enemy) -> AkatsukiEnemy:
    if not isinstance(enemy, AkatsukiEnemy):
        raise TypeError(f"not an akatsuki enemy: {type(enemy).__name__}")
    return enemy


def palette(enemy: Enemy, system: System | None = None) -> list[PaletteLine]:  # noqa: ARG001
    """One check per ability, at normal difficulty (modifiers change the target)."""
    enemy = _own(enemy)
    specialties = "・".join(enemy.specialties)
    doublets = f"／得意分野({specialties})ならゾロ目の効果" if specialties else ""
    lines = []
    for name, level in enemy.abilities.items():
        target = CheckSpec(level=level).target
        lines.append(
            PaletteLine(
                f"2D6<={target}",
                name,
                f"達成度={target}-出目{doublets}",
                system_command=f"AK{level}",
                compare="success",
            )
        )
    return lines


def character(enemy: Enemy) -> Character:
    """Awakening cards as a gauge, ability levels as parameters."""
    enemy = _own(enemy)
    cards = enemy.cards
    return Character(
        name=enemy.name,
        status=(("覚醒札", cards, max(cards, 1)),),
        params=tuple((k, str(v)) for k, v in enemy.abilities.items()),
    )


def pc_as_enemy(pc: PC) -> dict[str, object]:
    """A PC written as an enemy (the same abilities, specialties and cards), for its palette."""
    if not isinstance(pc, AkatsukiPC):
        raise TypeError(f"not an akatsuki PC: {type(pc).__name__}")
    return {
        "abilities": dict(pc.abilities),
        "specialties": list(pc.specialties),
        "cards": pc.cards,
    }
