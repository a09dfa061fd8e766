"""国力 enemies for VTTs: ability checks and final-phase attack/defence as ``1D10+n``.

The die is the system's (options ``die`` and ``die_count``), so a table that rules
2D6 gets ``2D6+n``. The damage (attack total minus the defender's total) is told in
the note.

>>> enemy = {"name": "港町連合", "kind": "nation", "power": 110, "abilities": {"force": 3},
...          "attack": 4, "defence": 5}
>>> [line.text.split(" ※")[0] for line in palette(enemy)]
['1D10+3 武力', '1D10+4 攻撃', '1D10+5 防御']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from saikoro.scenario.defs.kokuryoku import ABILITIES
from saikoro.systems import System, get

from .model import Character
from .palette import PaletteLine, signed

__all__ = ["ABILITY_LABELS", "character", "palette"]

Data = Mapping[str, Any]

ABILITY_LABELS = {c.value: c.ja for c in ABILITIES}
"""Ability names as the scenario definitions give them (武力, 知覚, カリスマ, 運)."""


def palette(enemy: Data, system: System | None = None) -> list[PaletteLine]:
    """Each ability's check, then the attack and the defence of the final phase."""
    system = system or get("kokuryoku")
    dice = f"{int(system.option('die_count'))}D{int(system.option('die'))}"
    floor = int(system.option("damage_floor"))
    lines = [
        PaletteLine(
            f"{dice}{signed(int(value))}",
            ABILITY_LABELS.get(str(key), str(key)),
            "",
            system_command=f"KK{int(value)}",
        )
        for key, value in (enemy.get("abilities") or {}).items()
    ]
    attack = int(enemy.get("attack", 0) or 0)
    defence = int(enemy.get("defence", 0) or 0)
    lines.append(
        PaletteLine(
            f"{dice}{signed(attack)}",
            "攻撃",
            f"ダメージ=合計-防御側の合計(下限{floor})",
            system_command=f"KKD{attack}",
        )
    )
    # A defence total is the defence power plus the same die as any check: KK rolls it.
    lines.append(
        PaletteLine(
            f"{dice}{signed(defence)}",
            "防御",
            "攻撃側の合計から引く(同値は攻撃側の勝ち)",
            system_command=f"KK{defence}",
        )
    )
    return lines


def character(enemy: Data) -> Character:
    """National power or love as gauges; abilities, attack and defence as parameters."""
    status = [
        (label, int(enemy[key]), int(enemy[key]))
        for key, label in (("power", "国力"), ("love", "愛"))
        if enemy.get(key) is not None
    ]
    params = [
        (ABILITY_LABELS.get(str(k), str(k)), str(v))
        for k, v in (enemy.get("abilities") or {}).items()
    ]
    params += [
        (label, str(enemy[key]))
        for key, label in (("attack", "攻撃力"), ("defence", "防御力"))
        if enemy.get(key) is not None
    ]
    return Character(
        name=str(enemy.get("name", "")),
        initiative=int(enemy.get("power", 0) or 0),
        status=tuple(status),
        params=tuple(params),
    )
