"""国力 enemies for VTTs: ability checks and final-phase attack/defence as ``1D10+n``.

The die is the system's (options ``die`` and ``die_count``), so a table that rules
2D6 gets ``2D6+n``. The damage (attack total minus the defender's total) is told in
the note.

>>> from saikoro.scenario.model import enemy_model
>>> enemy = enemy_model("kokuryoku", {"id": "m", "name": "港町連合", "kind": "nation",
...     "power": 110, "abilities": {"force": 3}, "attack": 4, "defence": 5})
>>> [line.text.split(" ※")[0] for line in palette(enemy)]
['1D10+3 武力', '1D10+4 攻撃', '1D10+5 防御']
"""

from __future__ import annotations

from saikoro.export import Character, PaletteLine, signed
from saikoro.scenario.model import PC, Enemy
from saikoro.systems import System, get

from .model import ABILITIES, KokuryokuEnemy, KokuryokuPC

__all__ = ["ABILITY_LABELS", "character", "palette", "pc_as_enemy"]


ABILITY_LABELS = {c.value: c.ja for c in ABILITIES}
"""Ability names as the scenario definitions give them (武力, 知覚, カリスマ, 運)."""


def _own(enemy: Enemy) -> KokuryokuEnemy:
    if not isinstance(enemy, KokuryokuEnemy):
        raise TypeError(f"not a kokuryoku enemy: {type(enemy).__name__}")
    return enemy


def _abilities(enemy: KokuryokuEnemy) -> list[tuple[str, int]]:
    """The abilities the enemy has, in the definition's order."""
    a = enemy.abilities
    values = (a.force, a.perception, a.charisma, a.luck)
    return [(c.value, v) for c, v in zip(ABILITIES, values, strict=True) if v is not None]


def palette(enemy: Enemy, system: System | None = None) -> list[PaletteLine]:
    """Each ability's check, then the attack and the defence of the final phase."""
    enemy = _own(enemy)
    system = system or get("kokuryoku")
    dice = f"{int(system.option('die_count'))}D{int(system.option('die'))}"
    floor = int(system.option("damage_floor"))
    lines = [
        PaletteLine(
            f"{dice}{signed(value)}",
            ABILITY_LABELS[key],
            "",
            system_command=f"KK{value}",
        )
        for key, value in _abilities(enemy)
    ]
    attack = enemy.attack
    defence = enemy.defence
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


def character(enemy: Enemy) -> Character:
    """National power or love as gauges; abilities, attack and defence as parameters."""
    enemy = _own(enemy)
    status = [
        (label, value, value)
        for value, label in ((enemy.power, "国力"), (enemy.love, "愛"))
        if value is not None
    ]
    params = [(ABILITY_LABELS[k], str(v)) for k, v in _abilities(enemy)]
    params += [("攻撃力", str(enemy.attack)), ("防御力", str(enemy.defence))]
    return Character(
        name=enemy.name,
        initiative=enemy.power or 0,
        status=tuple(status),
        params=tuple(params),
    )


def pc_as_enemy(pc: PC) -> dict[str, object]:
    """A PC (a nation or a character) written as an enemy, for its palette."""
    if not isinstance(pc, KokuryokuPC):
        raise TypeError(f"not a kokuryoku PC: {type(pc).__name__}")
    return {
        "kind": pc.kind,
        "power": pc.power,
        "love": pc.love,
        "abilities": {c.value: getattr(pc.abilities, c.value) for c in ABILITIES},
        "attack": pc.attack,
        "defence": pc.defence,
    }
