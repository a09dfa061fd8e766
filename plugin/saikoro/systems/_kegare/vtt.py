"""穢れ enemies for VTTs: attack checks as ``2D6+n``, recovery checks on 1D6 and 2D6.

The modifiers come from the system: :class:`~saikoro.systems._kegare.AttackSpec` adds
the enemy's own position to its attack check (ranged attacks ignore positions),
:func:`~saikoro.systems._kegare.position_penalty` gives what the target's position adds,
and the recovery checks use the system's modifiers and target numbers. BCDice rolls
the attack check; the comparison with the PC's defence check (and the special results)
is told in the note.

>>> from saikoro.scenario.model import enemy_model
>>> enemy = enemy_model("kegare", {"id": "t", "name": "祟り神", "hp": 30, "attack": 6,
...     "defence": 4, "initiative": 5, "position": "mid",
...     "skills": [{"name": "祟り火", "kind": "attack", "damage": 8}]})
>>> [line.text.split(" ※")[0] for line in palette(enemy)]
['2D6+4 祟り火', '2D6+4 防御判定', '1D6 再起判定', '2D6>=9 異常回復判定']
>>> palette(enemy)[0].system_command
'KGA6@M'
"""

from __future__ import annotations

from saikoro.export import Character, PaletteLine, signed
from saikoro.scenario.model import PC, Enemy
from saikoro.systems import System, get

from . import AttackSpec, Position, position_penalty
from .model import KegareEnemy, KegarePC
from .status import recovery_modifier, status_recovery_target

__all__ = ["character", "palette", "pc_as_enemy"]


_CODES = {Position.NEAR: "N", Position.MID: "M", Position.FAR: "F"}


def _own(enemy: Enemy) -> KegareEnemy:
    if not isinstance(enemy, KegareEnemy):
        raise TypeError(f"not a kegare enemy: {type(enemy).__name__}")
    return enemy


def _position(enemy: KegareEnemy) -> Position | None:
    return Position(enemy.position) if enemy.position else None


def _target_note(own: Position | None, stack: str) -> str:
    """What the target's position adds to the attack check (derived from the system)."""
    base = position_penalty(own, None, stack=stack)
    parts = []
    for target in Position:
        extra = position_penalty(own, target, stack=stack) - base
        if extra:
            parts.append(f"{target.label}{extra:+d}")
    return "対象が" + "・".join(parts) if parts else ""


def palette(enemy: Enemy, system: System | None = None) -> list[PaletteLine]:
    """Each attack skill's attack check, the defence check and the two recovery checks."""
    enemy = _own(enemy)
    system = system or get("kegare")
    stack = str(system.option("position_stack"))
    own = _position(enemy)
    attack = enemy.attack
    lines = []
    for skill in enemy.skills:
        if skill.kind != "attack":
            continue
        ranged = skill.ranged
        spec = AttackSpec(attack=attack, attacker_position=own, ranged=ranged, position_stack=stack)
        damage = skill.damage
        notes = [f"ダメージ{damage}±防御判定値との差" if damage is not None else "攻撃判定"]
        notes.append("出目12はクリティカル(+12)・2はファンブル")
        where = "遠距離攻撃" if ranged else _target_note(own, stack)
        if where:
            notes.append(where)
        code = f"@{_CODES[own]}" if own is not None and not ranged else ""
        lines.append(
            PaletteLine(
                f"2D6{signed(spec.attack_bonus)}",
                skill.name,
                "／".join(notes),
                system_command=f"KGA{attack}{code}",
            )
        )
    lines.append(
        PaletteLine(
            f"2D6{signed(enemy.defence)}",
            "防御判定",
            "同値は完全防御・10以上上回れば回避",
            compare="",
        )
    )
    lines.append(
        PaletteLine(
            f"1D6{signed(recovery_modifier())}",
            "再起判定",
            "出目だけHP回復(呪い-2・穢れ4以上-3・5以上さらに-1)",
            system_command="KGR",
        )
    )
    target = status_recovery_target(1)
    above = system.option("status_recovery") == "above"
    lines.append(
        PaletteLine(
            f"2D6{'>' if above else '>='}{target}",
            "異常回復判定",
            "状態異常1つのとき。n個なら目標値10-n",
            system_command="KGS1",
        )
    )
    return lines


def character(enemy: Enemy) -> Character:
    """HP and the 穢れ track as gauges; attack, defence and initiative values."""
    enemy = _own(enemy)
    hp = enemy.hp
    return Character(
        name=enemy.name,
        initiative=enemy.initiative,
        status=(("HP", hp, hp), ("穢れ", 0, 10)),
        params=(
            ("攻撃値", str(enemy.attack)),
            ("防御値", str(enemy.defence)),
            ("行動値", str(enemy.initiative)),
        ),
    )


def pc_as_enemy(pc: PC) -> dict[str, object]:
    """A PC written as an enemy whose one attack skill is the PC's attack, for its palette."""
    if not isinstance(pc, KegarePC):
        raise TypeError(f"not a kegare PC: {type(pc).__name__}")
    return {
        "hp": pc.hp,
        "attack": pc.attack,
        "defence": pc.defence,
        "initiative": pc.initiative,
        "position": pc.position,
        "blessed": pc.blessed,
        "skills": [{"name": "攻撃", "kind": "attack", "damage": pc.damage, "ranged": pc.ranged}],
    }
