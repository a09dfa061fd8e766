"""GETB enemies for VTTs: damage and guard chains as ``nU10[c]``, checks as ``1D10+a``.

The dice come from the system (:class:`~saikoro.systems._getb.states.Weapon` and
:class:`~saikoro.systems._getb.states.Shield` give the number of dice, the chain module
the critical value). BCDice's upper-dice roll ``nU10[10]`` rolls each die's chain of
tens to its end and sums everything: exactly GETB's damage and guard checks, except
that BCDice does not know the fumble (every die showing 1), which the note tells.

>>> from saikoro.scenario.model import enemy_model
>>> enemy = enemy_model("getb", {"id": "o", "name": "オウガテイル", "hp": 40, "ap": 6, "st": 3,
...     "abilities": {"strength": 4, "agility": 3, "intellect": 1, "endurance": 4},
...     "placement": "out3", "guard": {"shield": "buckler", "armor": 2},
...     "attacks": [{"name": "噛みつき", "weapon": "long-blade", "element": "physical",
...                  "power": 5}]})
>>> for line in palette(enemy):
...     print(line.command, line.label)
3U10[10]+9 噛みつき
2U10[10]+6 ガード
1D10+4 筋力判定
1D10+3 敏捷判定
1D10+1 知力判定
1D10+4 抵抗判定
>>> [line.system_command for line in palette(enemy)][:2]
['GDL+9', 'GGB+6']
"""

from __future__ import annotations

from saikoro.export import Character, MapSpec, PaletteLine, dial_map, signed
from saikoro.scenario.model import PC, Enemy
from saikoro.systems import System

from .chain import DEFAULT_CRITICAL
from .model import ABILITIES, GetbAbilities, GetbAttack, GetbEnemy, GetbPC
from .model import WEAPONS as WEAPON_CHOICES
from .states import SHIELDS, WEAPONS, Weapon

__all__ = [
    "CHECK_LABELS",
    "character",
    "enemy_cell",
    "palette",
    "pc_as_enemy",
    "room_map",
]

ABILITY_LABELS = {c.value: c.ja for c in ABILITIES}
"""Ability names as the scenario definitions give them (筋力, 敏捷, 知力, 耐久)."""
CHECK_LABELS = {
    "strength": "筋力判定",
    "agility": "敏捷判定",
    "intellect": "知力判定",
    "endurance": "抵抗判定",
}
"""The check each ability is rolled for (endurance: 抵抗判定, 1D10+耐久)."""
SKILL_DICE = 1
"""Damage dice of a ``skill`` attack without ``dice:`` (the same default as the pages)."""

COMPARE_OPTIONS = {"damage_fumble": "none", "guard_fumble": "none"}
"""The system options under which ``GD``/``GG`` roll exactly like ``nU10[10]+m``."""

_ATTACK_NOTE = "合計が達成値／全ダイス1はファンブル(攻撃失敗)／最終ダメージ=合計-ガード(最低1)"
_GUARD_NOTE = "合計が達成値／10が出たら完全防御(ダメージ0)／全ダイス1はガード失敗(0)"
_CHECK_NOTE = "出目10は自動成功・1は自動失敗"


def _own(enemy: Enemy) -> GetbEnemy:
    if not isinstance(enemy, GetbEnemy):
        raise TypeError(f"not a getb enemy: {type(enemy).__name__}")
    return enemy


def _abilities(abilities: GetbAbilities) -> list[tuple[str, int]]:
    """(ability, value) in the definition's order (筋力, 敏捷, 知力, 耐久)."""
    return [(c.value, int(getattr(abilities, c.value))) for c in ABILITIES]


def _ability_of(weapon: Weapon | None) -> str | None:
    if weapon is None:
        return None
    return "strength" if weapon.melee else "intellect"


def attack_dice(attack: GetbAttack) -> tuple[int, str]:
    """(number of damage dice, the dice part of the ``GD`` command) of an attack."""
    weapon = WEAPONS.get(attack.weapon)
    if attack.dice is not None:
        return attack.dice, str(attack.dice)
    if weapon is None:
        return SKILL_DICE, str(SKILL_DICE)
    return weapon.dice, weapon.code


def attack_modifier(enemy: GetbEnemy, attack: GetbAttack) -> int:
    """Power plus the ability the weapon uses (strength for blades, intellect for guns)."""
    ability = _ability_of(WEAPONS.get(attack.weapon))
    bonus = int(getattr(enemy.abilities, ability)) if ability else 0
    return attack.power + bonus


def _chain(dice: int, modifier: int) -> str:
    return f"{dice}U10[{DEFAULT_CRITICAL}]{signed(modifier)}"


def palette(enemy: Enemy, system: System | None = None) -> list[PaletteLine]:  # noqa: ARG001
    """Attacks (damage checks), the guard check and the four ability checks.

    No GETB option changes these dice (fumble rules change outcomes, told in the notes).
    """
    enemy = _own(enemy)
    lines = []
    for attack in enemy.attacks:
        dice, code = attack_dice(attack)
        if dice <= 0:  # no dice: the attack fails outright (the memo still lists it)
            continue
        modifier = attack_modifier(enemy, attack)
        lines.append(
            PaletteLine(
                _chain(dice, modifier),
                attack.name,
                _ATTACK_NOTE,
                system_command=f"GD{code}{modifier:+d}",
            )
        )
    guard = enemy.guard
    if guard is not None:
        shield = SHIELDS[guard.shield]
        bonus = guard.armor + enemy.abilities.strength
        lines.append(
            PaletteLine(
                _chain(shield.dice, bonus),
                "ガード",
                _GUARD_NOTE,
                system_command=f"GG{shield.code}{bonus:+d}",
            )
        )
    for key, value in _abilities(enemy.abilities):
        lines.append(
            PaletteLine(
                f"1D10{signed(value)}",
                CHECK_LABELS[key],
                _CHECK_NOTE,
                system_command=f"GB{value}",
            )
        )
    return lines


def character(enemy: Enemy) -> Character:
    """HP/AP/ST/OP gauges, abilities and armour as parameters, AP as initiative."""
    enemy = _own(enemy)
    status = [("HP", enemy.hp, enemy.hp)]
    status.extend(
        (label, value, value)
        for label, value in (("AP", enemy.ap), ("ST", enemy.st), ("OP", enemy.op))
        if value is not None
    )
    params = [(ABILITY_LABELS[k], str(v)) for k, v in _abilities(enemy.abilities)]
    if enemy.guard is not None:
        params.append(("装甲", str(enemy.guard.armor)))
    return Character(
        name=enemy.name,
        initiative=enemy.ap,
        status=tuple(status),
        params=tuple(params),
    )


def room_map() -> MapSpec:
    """The dial-clock map."""
    return dial_map(
        "getb-dial",
        "ダイアクロックマップ",
        centre="中央",
        inner_ring="インセル",
        outer_ring="アウトセル",
    )


def enemy_cell(enemy: Enemy) -> str:
    """The cell the enemy starts in (``placement``)."""
    return "centre" if _own(enemy).placement == "center" else _own(enemy).placement


def pc_as_enemy(pc: PC) -> dict[str, object]:
    """A PC written as an enemy (its weapon, its gun if it has one, its shield), for its
    palette; a PC has no starting cell (the GM places the party)."""
    if not isinstance(pc, GetbPC):
        raise TypeError(f"not a getb PC: {type(pc).__name__}")
    weapon = {c.value: c.ja.split("(")[0] for c in WEAPON_CHOICES}
    attacks: list[dict[str, object]] = [
        {"name": weapon[pc.weapon], "weapon": pc.weapon, "element": pc.element, "power": pc.power}
    ]
    if pc.gun_power is not None:
        attacks.append(
            {
                "name": "銃撃",
                "weapon": "shooting",
                "element": "physical",
                "power": pc.gun_power,
                "range": pc.gun_range,
            }
        )
    a = pc.abilities
    return {
        "abilities": {k: getattr(a, k) for k in ("strength", "agility", "intellect", "endurance")},
        "hp": pc.hp,
        "ap": pc.ap,
        "st": pc.st,
        "op": pc.op,
        "placement": "out12",
        "attacks": attacks,
        "guard": {"shield": pc.shield, "armor": pc.armor},
    }
