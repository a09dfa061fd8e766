"""カットアクション enemies for VTTs: roll-under checks ``1D10<=v`` (or ``2D6<=v``).

The dice are the system's (option ``check_dice``, :func:`dice_shape`): a check
succeeds when the die is at most the success value, and the highest face is a fumble,
a failure whatever the value. So the generic command caps the value one under the
highest face: ``1D10<=min(v, 9)`` has exactly the system's chance of success. The
achievement (success value minus the die) and the damage are told in the note.

>>> from saikoro.scenario.model import enemy_model
>>> enemy = enemy_model("cutaction", {"id": "b", "name": "幹部", "body": 6, "head": 7, "hp": 14,
...          "attacks": [{"name": "拳銃", "kind": "shooting", "damage": 4}]})
>>> [line.text.split(" ※")[0] for line in palette(enemy)]
['1D10<=6 拳銃', '1D10<=6 ボディ判定', '1D10<=7 ヘッド判定', '1D10<=6 イニシアチブ']
>>> x = enemy_model("cutaction", {"id": "x", "name": "x", "body": 12, "head": 1, "hp": 1})
>>> palette(x)[0].command
'1D10<=9'
"""

from __future__ import annotations

from saikoro.export import Character, MapSpec, PaletteLine, rows_map
from saikoro.scenario.model import PC, Enemy
from saikoro.systems import System, get

from .checks import dice_shape
from .model import AREAS, ATTACK_KINDS, CutactionEnemy, CutactionPC

__all__ = ["character", "enemy_cell", "palette", "pc_as_enemy", "pc_cell", "room_map"]


def _own(enemy: Enemy) -> CutactionEnemy:
    if not isinstance(enemy, CutactionEnemy):
        raise TypeError(f"not a cutaction enemy: {type(enemy).__name__}")
    return enemy


def palette(enemy: Enemy, system: System | None = None) -> list[PaletteLine]:
    """Each attack (the body check that makes it), body and head checks, initiative."""
    enemy = _own(enemy)
    system = system or get("cutaction")
    dice = str(system.option("check_dice"))
    count, sides = dice_shape(dice)
    top = count * sides

    def check(value: int) -> str:
        return f"{dice}<={min(value, top - 1)}"

    body = enemy.body
    head = enemy.head

    def base(value: int) -> str:
        return f"達成値={value}-出目／{top}はファンブル"

    lines = [
        PaletteLine(
            check(body),
            attack.name,
            f"{base(body)}／防御側を上回れば命中: ダメージ{attack.damage}",
            system_command=f"CA{body}",
            compare="success",
        )
        for attack in enemy.attacks
    ]
    lines.append(PaletteLine(check(body), "ボディ判定", base(body), f"CA{body}", "success"))
    lines.append(PaletteLine(check(head), "ヘッド判定", base(head), f"CA{head}", "success"))
    lines.append(
        PaletteLine(
            check(body),
            "イニシアチブ",
            f"行動値={body}-出目／失敗は成功者の後・{top}は行動不能",
            system_command=f"CAI{body}",
            compare="success",
        )
    )
    return lines


def character(enemy: Enemy) -> Character:
    """体力 as a gauge, body and head success values as parameters."""
    enemy = _own(enemy)
    hp = enemy.hp
    return Character(
        name=enemy.name,
        status=(("体力", hp, hp),),
        params=(("ボディ", str(enemy.body)), ("ヘッド", str(enemy.head))),
    )


def room_map() -> MapSpec:
    """The battle area: its five rows, the enemy's headquarters on top."""
    rows = tuple((c.value, c.ja) for c in reversed(AREAS))
    return rows_map("cutaction-rows", "戦闘エリア", rows)


def enemy_cell(enemy: Enemy) -> str:
    """The row the enemy starts in."""
    return _own(enemy).area


def pc_cell(pc: PC) -> str | None:
    """The row the PC starts in."""
    return pc.area if isinstance(pc, CutactionPC) else None


def pc_as_enemy(pc: PC) -> dict[str, object]:
    """A PC written as an enemy (its attack named by its kind), for its palette."""
    if not isinstance(pc, CutactionPC):
        raise TypeError(f"not a cutaction PC: {type(pc).__name__}")
    kind = {c.value: c.ja for c in ATTACK_KINDS}[pc.attack]
    return {
        "body": pc.body,
        "head": pc.head,
        "hp": pc.hp,
        "reaction": pc.reaction,
        "area": pc.area,
        "attacks": [{"name": kind, "kind": pc.attack, "damage": pc.damage}],
    }
