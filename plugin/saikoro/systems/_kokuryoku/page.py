"""国力 (kokuryoku): supported middle-phase checks ``KKM`` and final-phase damage ``KKD``.

* A difficulty target shows ``KKM[a,a,...]>=<target>G<gain>`` by number of participants
  (1 to 5), each with ability 2, 3 or 4: success and the expected gain.
* An enemy with an attack power shows ``KKD<attack>VS<defence>`` against PC defence
  powers 0 to 6 (the damage when its attack wins), and its defence power the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from saikoro.scenario.model import PC
from saikoro.site import Attack, Grid, Metric, Personal, Profile, given

from .model import ABILITIES as DEFINED_ABILITIES
from .model import KokuryokuEnemy, KokuryokuPC, KokuryokuTarget

__all__ = ["PROFILE", "KokuryokuProfile"]

ABILITY_LABELS = {c.value: c.ja for c in DEFINED_ABILITIES}
"""Ability names as the scenario definitions give them."""
PARTICIPANTS = tuple(range(1, 6))
ABILITIES = (2, 3, 4)
DEFENCES = tuple(range(7))
ABILITY_BOUNDS = (0, 20)
"""The values a PC's ability can have (the scenario definitions' bounds)."""


def _kkm(ability: int, people: int, target: KokuryokuTarget) -> str:
    values = ",".join([str(ability)] * people)
    gain = target.gain
    return f"KKM[{values}]>={target.target}" + (f"G{gain}" if gain else "")


class KokuryokuProfile(Profile[KokuryokuEnemy, KokuryokuTarget, Attack]):
    """The kokuryoku mapping."""

    system = "kokuryoku"

    def stats(self, enemy: KokuryokuEnemy) -> list[tuple[str, str]]:
        rows = []
        if enemy.kind:
            rows.append(("種別", "国" if enemy.kind == "nation" else "人物"))
        for value, label in (
            (enemy.power, "国力"),
            (enemy.love, "愛"),
            (enemy.attack, "攻撃力"),
            (enemy.defence, "防御力"),
        ):
            if value is not None:
                rows.append((label, str(value)))
        rows.extend((ABILITY_LABELS.get(k) or k, str(v)) for k, v in given(enemy.abilities))
        return rows

    def target_label(self, target: KokuryokuTarget) -> str:
        ability = target.ability
        start = f"起点: {ABILITY_LABELS.get(ability, ability)} ／ " if ability else ""
        return f"{start}目標値 {target.target} ／ 増加国力 {target.gain}"

    def target_command(self, target: KokuryokuTarget) -> str | None:
        return _kkm(3, 3, target)

    def target_personal(self, target: KokuryokuTarget) -> Personal | None:
        # the reader as the starter, alone (supporters are added in the free roller)
        ability = target.ability
        if not ability:
            return None
        label = ABILITY_LABELS.get(ability, ability)
        low, high = ABILITY_BOUNDS
        return Personal(ability, label, 3, low, high, lambda a: _kkm(a, 1, target))

    def target_party(self, target: KokuryokuTarget, pc: PC) -> tuple[int, str] | None:
        ability = target.ability
        if not ability or not isinstance(pc, KokuryokuPC) or pc.kind == "nation":
            return None
        value = getattr(pc.abilities, ability, None)
        if not isinstance(value, int):
            return None
        return value, _kkm(value, 1, target)

    def attacks(self, enemy: KokuryokuEnemy) -> Sequence[Attack]:  # noqa: ARG002
        return ()  # damage by attack power (enemy_grids), no attack list

    def skills(self, enemy: KokuryokuEnemy) -> list[tuple[str, str]]:
        """Every skill, named with its timing (「一斉砲撃（タイミング：メジャー）」)."""
        return [
            (f"{s.name}（タイミング：{s.timing}）" if s.timing else s.name, s.effect or "")
            for s in enemy.skills
        ]

    def target_grid(self, target: KokuryokuTarget) -> Grid | None:
        gain = target.gain
        rows = tuple((f"{n}人", tuple(_kkm(a, n, target) for a in ABILITIES)) for n in PARTICIPANTS)
        columns = tuple(f"能力値 {a}" for a in ABILITIES)
        if not gain:
            return Grid(
                title="参加人数ごとの成功率（全員が同じ能力値のとき）",
                columns=columns,
                rows=rows,
                metrics=(Metric.SUCCESS,),
                note="起点が振り、届かなければ支援の順に振り足す。",
            )
        return Grid(
            title="参加人数ごとの成功率と国力の期待値（全員が同じ能力値のとき）",
            columns=columns,
            rows=rows,
            metrics=(Metric.SUCCESS, Metric.GAIN),
            note=f"起点が振り、届かなければ支援の順に振り足す。国力は成功なら +{gain}、"
            f"失敗でも半分（切り捨て）の +{gain // 2}。期待値はその平均。",
        )

    def enemy_grids(self, enemy: KokuryokuEnemy) -> Sequence[Grid]:
        attack = enemy.attack
        if attack is None:
            return ()
        return (
            Grid(
                title="攻撃が通ったときのダメージ（PCの防御力別）",
                columns=("ダメージ",),
                rows=tuple((f"防御力 {d}", (f"KKD{attack}VS{d}",)) for d in DEFENCES),
                metrics=(Metric.MEAN, Metric.AT_LEAST),
                thresholds=(1, 5, 10),
                chart=(3, 0),
                note="攻撃力＋ダイスから防御力＋ダイスを引いた値（0未満は0）。",
            ),
        )


PROFILE = KokuryokuProfile()
