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

from saikoro.site.pages.labels import status
from saikoro.site.profiles.base import Data, Grid, Metric, Profile

__all__ = ["PROFILE", "KegareProfile"]

POSITIONS = {"near": ("N", "近"), "mid": ("M", "中"), "far": ("F", "遠")}
DEFENCES = tuple(range(1, 7))
THRESHOLDS = (1, 5, 10)


def _attack_part(enemy: Data) -> str:
    position = POSITIONS.get(str(enemy.get("position") or ""))
    own = f"@{position[0]}" if position else ""
    return f"KGA{int(enemy.get('attack', 0))}{own}"


class KegareProfile(Profile):
    """The kegare mapping."""

    system = "kegare"

    def stats(self, enemy: Data) -> list[tuple[str, str]]:
        rows = [
            ("HP", str(enemy.get("hp"))),
            ("攻撃値", str(enemy.get("attack"))),
            ("防御値", str(enemy.get("defence"))),
            ("行動値", str(enemy.get("initiative"))),
        ]
        if enemy.get("position"):
            rows.append(("ポジション", POSITIONS.get(str(enemy["position"]), ("", ""))[1]))
        if enemy.get("blessed"):
            rows.append(("加護", "あり"))
        immune = enemy.get("immune")
        if immune:
            rows.append(("無効", "・".join(status(i) for i in immune)))
        return rows

    def target_label(self, target: Data) -> str:
        bonus = int(target.get("bonus", 0) or 0)
        return (
            f"2D6{bonus:+d} で目標値 {target.get('target')} 以上"
            if bonus
            else (f"2D6 で目標値 {target.get('target')} 以上")
        )

    def _check(self, bonus: int, goal: int) -> str:
        return f"2D6{bonus:+d}>={goal}" if bonus else f"2D6>={goal}"

    def target_command(self, target: Data) -> str | None:
        return self._check(int(target.get("bonus", 0) or 0), int(target["target"]))

    def target_grid(self, target: Data) -> Grid | None:
        bonus = int(target.get("bonus", 0) or 0)
        goal = int(target["target"])
        return Grid(
            title=f"修正ごとの成功率（目標値 {goal}）",
            columns=("成功",),
            rows=tuple(
                (f"修正 {b:+d}" + ("（記載どおり）" if b == bonus else ""), (self._check(b, goal),))
                for b in range(bonus - 2, bonus + 3)
            ),
            metrics=(Metric.SUCCESS,),
        )

    def attacks(self, enemy: Data) -> list[Data]:
        return [
            s
            for s in enemy.get("skills") or ()
            if isinstance(s, dict) and s.get("kind") == "attack" and s.get("damage") is not None
        ]

    def attack_label(self, enemy: Data, attack: Data) -> str:  # noqa: ARG002
        ranged = "遠距離・" if attack.get("ranged") else ""
        return f"{ranged}基本ダメージ {attack.get('damage')}"

    def attack_command(self, enemy: Data, attack: Data) -> str | None:  # noqa: ARG002
        # The enemy rolls its attack check; the PC answers with a defence check.
        return _attack_part(enemy)

    def attack_grids(self, enemy: Data, attack: Data) -> Sequence[Grid]:
        ranged = bool(attack.get("ranged"))
        head = _attack_part(enemy)
        tail = f"D{int(attack['damage'])}" + ("R" if ranged else "")
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
