"""The toy system's enemies for virtual tabletops: a character and its chat palette.

The VTTs' dice bot (BCDice's generic one) knows no toy command, so each palette line
is the generic command that rolls the same as the system's.
"""

from __future__ import annotations

from saikoro.export import Character, PaletteLine
from saikoro.systems import System

from . import check_dice
from .model import ToyEnemy

__all__ = ["character", "palette"]


def palette(enemy: ToyEnemy, system: System) -> list[PaletteLine]:
    """One line: the enemy's check against 7 (a toy enemy has no other roll)."""
    del enemy
    return [PaletteLine(f"{check_dice(system)}>=7", "判定", "", system_command="TOY7")]


def character(enemy: ToyEnemy) -> Character:
    """The enemy as a VTT character: its HP as a gauge."""
    return Character(name=enemy.name, status=(("HP", enemy.hp, enemy.hp),))
