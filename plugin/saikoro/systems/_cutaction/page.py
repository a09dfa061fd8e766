"""カットアクション (cutaction): ``CA`` checks by success value, ``CAD`` damage vs resist.

* A difficulty target shows ``CA<success value>>=<target>`` for success values 3 to 10
  (achievement = success value - die; the highest face is a fumble).
* An enemy attack shows ``CAD<damage>R<body>`` for PC body values 3 to 9: the HP lost
  after the body resist check, with the chance of an injury.
"""

from __future__ import annotations

from collections.abc import Sequence

from saikoro.scenario.model import PC, ScenarioModel
from saikoro.site import Grid, Metric, Personal, Profile

from .events import chase_target
from .model import CutactionAttack, CutactionEnemy, CutactionPC, CutactionTarget

__all__ = ["PROFILE", "CutactionProfile"]

VALUES = tuple(range(3, 11))
BODIES = tuple(range(3, 10))
AREA_LABELS = {
    "home-base": "自陣本営",
    "home": "自陣",
    "front": "前線",
    "enemy": "敵陣",
    "enemy-base": "敵陣本営",
}
COVER_LABELS = {"none": "なし", "half": "半遮蔽", "full": "全遮蔽"}
KIND_LABELS = {"action": "行為判定", "resist": "抵抗判定", "chase": "移動判定（チェイス）"}
VALUE_BOUNDS = (0, 30)
"""The success values a PC can have (the scenario definitions' bounds)."""
EXAMPLE_VALUE = 6
"""The success value of a difficulty target's example roll."""


def _check(value: int, goal: int) -> str:
    """The check of success value ``value`` for achievement ``goal``: ``CA6>=2``."""
    return f"CA{value}>={goal}"


class CutactionProfile(Profile[CutactionEnemy, CutactionTarget, CutactionAttack]):
    """The cutaction mapping."""

    system = "cutaction"

    def stats(self, enemy: CutactionEnemy) -> list[tuple[str, str]]:
        rows = [
            ("ボディ", str(enemy.body)),
            ("ヘッド", str(enemy.head)),
            ("体力", str(enemy.hp)),
        ]
        if enemy.area:
            rows.append(("配置", AREA_LABELS.get(enemy.area, enemy.area)))
        if enemy.cover:
            rows.append(("遮蔽", COVER_LABELS.get(enemy.cover, enemy.cover)))
        if enemy.blockade:
            rows.append(("封鎖", "する"))
        if enemy.vehicle:
            rows.append(("乗り物", enemy.vehicle))
        return rows

    def target_label(self, target: CutactionTarget) -> str:
        check = "ボディ" if target.check == "body" else "ヘッド"
        kind = KIND_LABELS.get(target.kind, "行為判定")
        if target.kind == "chase":
            goal = chase_target(target.target)
            return f"{check}の{kind} ／ 移動目標値 {target.target}（到着点 {goal}）"
        return f"{check}の{kind} ／ 目標値 {target.target}"

    def target_facts(self, target: CutactionTarget, scenario: object) -> list[tuple[str, str]]:
        """A chase: who flees and who pursues, the distance to reach, the table rolled."""
        if target.kind != "chase" or not isinstance(scenario, ScenarioModel):
            return []
        enemies = scenario.enemies
        runners = target.runners
        if runners is None:
            with_vehicle = tuple(
                e.id for e in enemies if isinstance(e, CutactionEnemy) and e.vehicle
            )
            runners = with_vehicle or tuple(e.id for e in enemies)
        names = "・".join(e.name for e in enemies if e.id in runners) or "なし"
        party = "PC全員"
        fleeing, pursuing = (names, party) if target.flees == "enemies" else (party, names)
        goal = chase_target(target.target)
        if target.table:
            table = target.table
        elif len(scenario.chase_tables) == 1:
            table = scenario.chase_tables[0].name
        else:
            table = "ルールブックのチェイスイベント表"
        rows = [
            ("逃げる側", fleeing),
            ("追う側", pursuing),
            (
                "到着点",
                f"{goal}（移動目標値 {target.target} の10倍）。"
                "逃げる側の先頭がここに着けば逃げ切り",
            ),
            ("ルート変更で振る表", table),
        ]
        others = [e.name for e in enemies if e.id not in runners]
        if others:
            rows.append(("チェイスの前に戦う相手", "・".join(others)))
        return rows

    def target_command(self, target: CutactionTarget) -> str | None:
        if target.kind == "chase":  # a distance goal: no roll reaches it at once
            return None
        return _check(EXAMPLE_VALUE, target.target)

    def target_personal(self, target: CutactionTarget) -> Personal | None:
        if target.kind == "chase":
            return None
        goal = target.target
        label = "ボディ" if target.check == "body" else "ヘッド"
        low, high = VALUE_BOUNDS
        return Personal(target.check, label, EXAMPLE_VALUE, low, high, lambda v: _check(v, goal))

    def target_party(self, target: CutactionTarget, pc: PC) -> tuple[int, str] | None:
        if not isinstance(pc, CutactionPC) or target.kind == "chase":
            return None
        value = pc.body if target.check == "body" else pc.head
        return value, _check(value, target.target)

    def target_grid(self, target: CutactionTarget) -> Grid | None:
        if target.kind == "chase":  # its meaning is the distance (target_facts)
            return None
        goal = target.target
        check = "ボディ" if target.check == "body" else "ヘッド"
        return Grid(
            title=f"{check}の成功値ごとの成功率（達成値 {goal} 以上）",
            columns=("成功 / ファンブル",),
            rows=tuple((f"成功値 {v}", (_check(v, goal),)) for v in VALUES),
            metrics=(Metric.SUCCESS, Metric.FUMBLE),
        )

    def attack_label(self, enemy: CutactionEnemy, attack: CutactionAttack) -> str:  # noqa: ARG002 - shared signature
        kind = "射撃" if attack.kind == "shooting" else "格闘"
        return f"{kind} ダメージ {attack.damage}"

    def attacks(self, enemy: CutactionEnemy) -> Sequence[CutactionAttack]:
        return enemy.attacks

    def attack_command(self, enemy: CutactionEnemy, attack: CutactionAttack) -> str | None:  # noqa: ARG002
        return f"CA{enemy.body}"

    def attack_grids(self, enemy: CutactionEnemy, attack: CutactionAttack) -> Sequence[Grid]:  # noqa: ARG002
        damage = attack.damage
        return (
            Grid(
                title="命中したときのPCの体力減少（ボディ抵抗判定込み）",
                columns=("体力減少",),
                rows=tuple((f"PCのボディ {b}", (f"CAD{damage}R{b}",)) for b in BODIES),
                metrics=(Metric.MEAN, Metric.AT_LEAST, Metric.EVENTS),
                thresholds=(1, max(1, damage // 2), damage),
                chart=(3, 0),
                note="命中はエネミーのボディ判定で決まる。抵抗に成功すれば達成値だけ軽減、"
                "失敗すれば全額を受けて同じ値の負傷。",
            ),
        )


PROFILE = CutactionProfile()
