"""穢れ (kegare): attacks ``KGA`` against PC defences and positions; checks on 2D6.

* A difficulty target is 2D6 + bonus against the target: shown for the written bonus
  and two steps either side (situational modifiers).
* An enemy's attack skill's roll button is the attack check ``KGA<attack>@<position>``;
  its table shows ``KGA<attack>@<own position>VS<defence>@<PC position>
  D<damage>[R]``: rows are PC defence values 1 to 6, columns the PC's position
  (near / mid / far; one column for ranged attacks, which ignore positions). Cells give
  expected damage, P(damage >= k), critical / fumble and every special result.
"""

from __future__ import annotations

from collections.abc import Sequence

from saikoro.site import Grid, Metric, Profile

from .effects import describe, read_effect
from .model import SKILL_KINDS, STATUSES, TARGETS, KegareEnemy, KegareSkill, KegareTarget

__all__ = ["PROFILE", "KegareProfile"]

POSITIONS = {"near": ("N", "近"), "mid": ("M", "中"), "far": ("F", "遠")}
DEFENCES = tuple(range(1, 7))
THRESHOLDS = (1, 5, 10)
KIND_WORDS = {c.value: c.ja for c in SKILL_KINDS}
TARGET_WORDS = {c.value: c.ja.replace("(", "（").replace(")", "）") for c in TARGETS}
STATUS_WORDS = {c.value: c.ja for c in STATUSES}
"""The status effects an enemy can be immune to, as a reader reads them (毒, 麻痺...)."""


def skill_line(skill: KegareSkill) -> str:
    """A skill's kind, target and range in words: 「攻撃 ／ 対象：全体（敵対する全員）」."""
    parts = [KIND_WORDS.get(skill.kind, skill.kind)]
    if skill.kind != "passive" or skill.target != "single":
        parts.append(f"対象：{TARGET_WORDS.get(skill.target, skill.target)}")
    if skill.ranged:
        parts.append("遠距離（ポジションの修正なし）")
    return " ／ ".join(parts)


def _attack_part(enemy: KegareEnemy) -> str:
    position = POSITIONS.get(enemy.position)
    own = f"@{position[0]}" if position else ""
    return f"KGA{enemy.attack}{own}"


def _shown_name(s: KegareSkill) -> str:
    """A skill not shown as an attack, named with its kind, target, range and damage."""
    damage = f" ／ 基本ダメージ {s.damage}" if s.damage is not None else ""
    return f"{s.name}（{skill_line(s)}{damage}）"


class KegareProfile(Profile[KegareEnemy, KegareTarget, KegareSkill]):
    """The kegare mapping."""

    system = "kegare"

    def stats(self, enemy: KegareEnemy) -> list[tuple[str, str]]:
        rows = [
            ("HP", str(enemy.hp)),
            ("攻撃値", str(enemy.attack)),
            ("防御値", str(enemy.defence)),
            ("行動値", str(enemy.initiative)),
        ]
        if enemy.position:
            rows.append(("ポジション", POSITIONS.get(enemy.position, ("", ""))[1]))
        if enemy.blessed:
            rows.append(("加護", "あり"))
        if enemy.immune:
            rows.append(("無効", "・".join(STATUS_WORDS.get(i, i) for i in enemy.immune)))
        return rows

    def target_label(self, target: KegareTarget) -> str:
        bonus = target.bonus
        return (
            f"2D6{bonus:+d} で目標値 {target.target} 以上"
            if bonus
            else (f"2D6 で目標値 {target.target} 以上")
        )

    def _check(self, bonus: int, goal: int) -> str:
        return f"2D6{bonus:+d}>={goal}" if bonus else f"2D6>={goal}"

    def target_command(self, target: KegareTarget) -> str | None:
        return self._check(target.bonus, target.target)

    def target_grid(self, target: KegareTarget) -> Grid | None:
        bonus = target.bonus
        goal = target.target
        return Grid(
            title=f"修正ごとの成功率（目標値 {goal}）",
            columns=("成功",),
            rows=tuple(
                (f"修正 {b:+d}" + ("（記載どおり）" if b == bonus else ""), (self._check(b, goal),))
                for b in range(bonus - 2, bonus + 3)
            ),
            metrics=(Metric.SUCCESS,),
        )

    def attacks(self, enemy: KegareEnemy) -> list[KegareSkill]:
        return [s for s in enemy.skills if s.kind == "attack" and s.damage is not None]

    def skills(self, enemy: KegareEnemy) -> list[tuple[str, str]]:
        """Every skill not shown as an attack, named with its kind, target and range."""
        attacks = self.attacks(enemy)
        out = []
        for s in enemy.skills:
            if any(s is a for a in attacks):
                continue
            out.append((_shown_name(s), s.effect or ""))
        return out

    def readings(self, enemy: KegareEnemy) -> dict[str, str]:
        """What the balance simulation reads each skill's effect as (「猛毒にする」: 毒 LV1),
        by the name the page shows it under (an attack's name; another skill's with its
        kind, as :meth:`skills` names it)."""
        attacks = self.attacks(enemy)
        out = {}
        for s in enemy.skills:
            if not s.effect:
                continue
            name = s.name if any(s is a for a in attacks) else _shown_name(s)
            if s.kind == "support":
                out[name] = "支援スキルは使わない（効果なしとして計算）"
                continue
            read = describe(read_effect(s.kind, s.effect))
            out[name] = read or "扱わない（効果なしとして計算）"
        return out

    def attack_label(self, enemy: KegareEnemy, attack: KegareSkill) -> str:  # noqa: ARG002
        return f"{skill_line(attack)} ／ 基本ダメージ {attack.damage}"

    def attack_command(self, enemy: KegareEnemy, attack: KegareSkill) -> str | None:  # noqa: ARG002
        # The enemy rolls its attack check; the PC answers with a defence check.
        return _attack_part(enemy)

    def attack_grids(self, enemy: KegareEnemy, attack: KegareSkill) -> Sequence[Grid]:
        ranged = attack.ranged
        head = _attack_part(enemy)
        tail = f"D{attack.damage}" + ("R" if ranged else "")
        if ranged:
            columns: tuple[str, ...] = ("ポジション無視",)
            codes: tuple[str, ...] = ("",)
        else:
            columns = tuple(f"PCが{label}距離" for _, label in POSITIONS.values())
            codes = tuple(f"@{code}" for code, _ in POSITIONS.values())
        rows = tuple(
            (f"PCの防御値 {d}", tuple(f"{head}VS{d}{code}{tail}" for code in codes))
            for d in DEFENCES
        )
        return (
            Grid(
                title="PCが受けるダメージ（防御値・ポジション別）",
                columns=columns,
                rows=rows,
                metrics=(Metric.MEAN, Metric.AT_LEAST, Metric.EVENTS),
                thresholds=THRESHOLDS,
                chart=(2, 0),
                note="攻撃判定 2D6+攻撃値 と防御判定 2D6+防御値 の差でダメージが増減する。"
                "エネミー自身のポジションの修正も含む。",
            ),
        )


PROFILE = KegareProfile()
