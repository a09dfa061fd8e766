"""GETB (GOD EATER TABLE BURST): checks ``GB``, damage ``GD``, guard ``GG``, attack ``GF``.

* A difficulty target shows ``GB<ability>>=<target>`` for ability values 1 to 8.
* An enemy attack shows ``GF<weapon>+<power+ability>/<shield>+<guard bonus>``: the final
  damage against a PC who declines to guard (放棄, ``/-``) or guards with a buckler,
  shield or tower shield, at a typical guard bonus (armour + strength = 6).
  The roll button rolls the damage check ``GD<weapon>+<power+ability>`` (the PC rolls
  the guard).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from saikoro.scenario.model import PC
from saikoro.site import Grid, Metric, Personal, Profile, given

from .model import ABILITIES, GetbAttack, GetbEnemy, GetbPC, GetbTarget
from .vtt import CHECK_LABELS

__all__ = ["CHECK_LABELS", "GUARD_BONUSES", "PROFILE", "GetbProfile", "cell_word"]

ABILITY_LABELS = {c.value: c.ja for c in ABILITIES}
"""Ability names as the scenario definitions give them (【耐久】 is rolled as 〈抵抗判定〉)."""
WEAPON_CODES = {"short-blade": "S", "long-blade": "L", "buster-blade": "B", "shooting": "G"}
WEAPON_LABELS = {
    "short-blade": "ショートブレード",
    "long-blade": "ロングブレード",
    "buster-blade": "バスターブレード",
    "shooting": "射撃",
    "skill": "スキル",
}
ELEMENT_LABELS = {"physical": "物理", "fire": "炎", "ice": "氷", "thunder": "雷", "divine": "神"}
SHIELD_CODES = {"buckler": "B", "shield": "S", "tower": "T"}
SHIELD_LABELS = {"buckler": "バックラー", "shield": "シールド", "tower": "タワー"}
ABILITY_RANGE = tuple(range(1, 9))
"""Ability values a difficulty target is shown for."""
ABILITY_BOUNDS = (0, 30)
"""The values a PC's ability can have (the scenario definitions' bounds)."""
EXAMPLE_ABILITY = 3
"""The ability of a difficulty target's example roll."""
GUARD_BONUSES = ((6, "標準的なPC"),)
"""(armour + strength, label) of the PCs an attack is shown against: a typical PC
(armour 3, strength 3)."""
THRESHOLDS = (1, 5, 10, 20)

_CELL = re.compile(r"^(in|out)(\d+)$")


def cell_word(cell: str) -> str:
    """A cell of the dial clock as a reader reads it: ``centre`` -> 中央, ``in4`` ->
    インセル4, ``out10`` -> アウトセル10 (anything else as written).

    >>> cell_word("out3"), cell_word("centre"), cell_word("in12")
    ('アウトセル3', '中央', 'インセル12')
    """
    if cell in {"centre", "center"}:
        return "中央"
    match = _CELL.match(cell)
    if match is None:
        return cell
    ring, number = match.groups()
    return f"{'インセル' if ring == 'in' else 'アウトセル'}{number}"


def _ability_for(weapon: str) -> str | None:
    if weapon == "shooting":
        return "intellect"
    if weapon.endswith("blade"):
        return "strength"
    return None


def attack_spec(enemy: GetbEnemy, attack: GetbAttack) -> str:
    """The damage-check part of a command: ``L+9`` (dice code or count + fixed part)."""
    weapon = attack.weapon
    code = str(attack.dice) if attack.dice is not None else WEAPON_CODES.get(weapon, "1")
    ability = _ability_for(weapon)
    fixed = attack.power + (int(getattr(enemy.abilities, ability)) if ability else 0)
    return f"{code}{fixed:+d}"


def _check(ability: int, goal: int) -> str:
    """The check of ``ability`` against the target number ``goal``: ``GB5>=8``."""
    return f"GB{ability}>={goal}"


class GetbProfile(Profile[GetbEnemy, GetbTarget, GetbAttack]):
    """The GETB mapping."""

    system = "getb"

    def stats(self, enemy: GetbEnemy) -> list[tuple[str, str]]:
        rows = [(ABILITY_LABELS.get(k) or k, str(v)) for k, v in given(enemy.abilities)]
        for value, label in (
            (enemy.hp, "HP"),
            (enemy.ap, "AP"),
            (enemy.st, "ST"),
            (enemy.op, "OP"),
        ):
            if value is not None:
                rows.append((label, str(value)))
        if enemy.placement:
            rows.append(("配置", cell_word(enemy.placement)))
        guard = enemy.guard
        if guard:
            shield = SHIELD_LABELS.get(guard.shield, guard.shield)
            rows.append(("ガード", f"{shield} 装甲{guard.armor}"))
        if enemy.weak:
            rows.append(("弱点", "・".join(ELEMENT_LABELS.get(w, w) for w in enemy.weak)))
        return rows

    def target_label(self, target: GetbTarget) -> str:
        check = target.check
        return f"{CHECK_LABELS.get(check, f'{check}判定')} 目標値 {target.target}"

    def target_command(self, target: GetbTarget) -> str | None:
        return _check(EXAMPLE_ABILITY, target.target)

    def target_personal(self, target: GetbTarget) -> Personal | None:
        goal = target.target
        label = ABILITY_LABELS.get(target.check, target.check)
        low, high = ABILITY_BOUNDS
        return Personal(target.check, label, EXAMPLE_ABILITY, low, high, lambda a: _check(a, goal))

    def target_party(self, target: GetbTarget, pc: PC) -> tuple[int, str] | None:
        if not isinstance(pc, GetbPC):
            return None
        ability = int(getattr(pc.abilities, target.check))
        return ability, _check(ability, target.target)

    def target_grid(self, target: GetbTarget) -> Grid | None:
        goal = target.target
        ability = ABILITY_LABELS.get(target.check, target.check)
        return Grid(
            title=f"{ability}の値ごとの成功率（1D10+{ability}≧{goal}）",
            columns=("成功 / クリティカル / ファンブル",),
            rows=tuple((f"{ability} {a}", (_check(a, goal),)) for a in ABILITY_RANGE),
            metrics=(Metric.SUCCESS, Metric.CRITICAL, Metric.FUMBLE),
        )

    def attack_label(self, enemy: GetbEnemy, attack: GetbAttack) -> str:  # noqa: ARG002
        weapon = WEAPON_LABELS.get(attack.weapon, attack.weapon)
        element = ELEMENT_LABELS.get(attack.element, attack.element)
        return f"{weapon}・{element}属性 威力{attack.power} 射程{attack.range}"

    def attacks(self, enemy: GetbEnemy) -> Sequence[GetbAttack]:
        return enemy.attacks

    def attack_command(self, enemy: GetbEnemy, attack: GetbAttack) -> str | None:
        return f"GD{attack_spec(enemy, attack)}"

    def attack_grids(self, enemy: GetbEnemy, attack: GetbAttack) -> Sequence[Grid]:
        spec = attack_spec(enemy, attack)
        columns = ("放棄", *SHIELD_LABELS.values())
        rows = []
        for bonus, label in GUARD_BONUSES:
            cells = [f"GF{spec}/-"]
            cells += [f"GF{spec}/{code}{bonus:+d}" for code in SHIELD_CODES.values()]
            rows.append((f"{label}（装甲+筋力 {bonus}）", tuple(cells)))
        return (
            Grid(
                title="PCへの最終ダメージ（盾の種類別）",
                columns=columns,
                rows=tuple(rows),
                metrics=(Metric.MEAN, Metric.AT_LEAST, Metric.CRITICAL, Metric.FUMBLE),
                chart=(0, 2),
                thresholds=THRESHOLDS,
                note="放棄はガード判定なし。C/F はダメージ判定のクリティカル／ファンブル。"
                "装甲+筋力はガード判定の達成値に加わる値。",
            ),
        )


PROFILE = GetbProfile()
