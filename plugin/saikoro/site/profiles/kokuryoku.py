"""国力 (kokuryoku): supported middle-phase checks ``KKM`` and final-phase damage ``KKD``.

* A difficulty target shows ``KKM[a,a,...]>=<target>G<gain>`` by number of participants
  (1 to 5), each with ability 2, 3 or 4: success and the expected gain.
* An enemy with an attack power shows ``KKD<attack>VS<defence>`` against PC defence
  powers 0 to 6 (the damage when its attack wins), and its defence power the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from saikoro.site.profiles.base import Character, Data, Grid, Metric, Profile

__all__ = ["PROFILE", "KokuryokuProfile"]

ABILITY_LABELS = {"force": "武力", "perception": "知覚", "charisma": "カリスマ", "luck": "運"}
PARTICIPANTS = tuple(range(1, 6))
ABILITIES = (2, 3, 4)
DEFENCES = tuple(range(7))


def _kkm(ability: int, people: int, target: Data) -> str:
    values = ",".join([str(ability)] * people)
    gain = target.get("gain")
    return f"KKM[{values}]>={int(target['target'])}" + (f"G{int(gain)}" if gain else "")


class KokuryokuProfile(Profile):
    """The kokuryoku mapping."""

    system = "kokuryoku"

    def stats(self, enemy: Data) -> list[tuple[str, str]]:
        rows = []
        kind = enemy.get("kind")
        if kind:
            rows.append(("種別", "国" if kind == "nation" else "人物"))
        for key, label in (
            ("power", "国力"),
            ("love", "愛"),
            ("attack", "攻撃力"),
            ("defence", "防御力"),
        ):
            if enemy.get(key) is not None:
                rows.append((label, str(enemy[key])))
        rows.extend(
            (ABILITY_LABELS.get(str(k), str(k)), str(v))
            for k, v in (enemy.get("abilities") or {}).items()
        )
        return rows

    def target_label(self, target: Data) -> str:
        ability = target.get("ability")
        start = f"起点: {ABILITY_LABELS.get(str(ability), str(ability))} ／ " if ability else ""
        return f"{start}目標値 {target.get('target')} ／ 増加国力 {target.get('gain')}"

    def target_command(self, target: Data) -> str | None:
        return _kkm(3, 3, target)

    def target_grid(self, target: Data) -> Grid | None:
        return Grid(
            title="参加人数ごとの成功率と国力の期待値（全員が同じ能力値のとき）",
            columns=tuple(f"能力値 {a}" for a in ABILITIES),
            rows=tuple(
                (f"{n}人", tuple(_kkm(a, n, target) for a in ABILITIES)) for n in PARTICIPANTS
            ),
            metrics=(Metric.SUCCESS, Metric.GAIN),
            note="起点が振り、届かなければ支援の順に振り足す。失敗でも増加国力の半分（切り捨て）を得る。",
        )

    def enemy_grids(self, enemy: Data) -> Sequence[Grid]:
        attack = enemy.get("attack")
        if attack is None:
            return ()
        return (
            Grid(
                title="攻撃が通ったときのダメージ（PCの防御力別）",
                columns=("ダメージ",),
                rows=tuple((f"防御力 {d}", (f"KKD{int(attack)}VS{d}",)) for d in DEFENCES),
                metrics=(Metric.MEAN, Metric.AT_LEAST),
                thresholds=(1, 5, 10),
                chart=(3, 0),
                note="攻撃力＋ダイスから防御力＋ダイスを引いた値（0未満は0）。",
            ),
        )

    def palette(self, enemy: Data) -> tuple[str, ...]:
        lines = [
            f"KK{int(v)} {ABILITY_LABELS.get(str(k), str(k))}"
            for k, v in (enemy.get("abilities") or {}).items()
        ]
        if enemy.get("attack") is not None:
            lines.append(f"KKD{int(enemy['attack'])} 攻撃")
        return tuple(lines)

    def character(self, enemy: Data) -> Character:
        status = []
        for key, label in (("power", "国力"), ("love", "愛")):
            if enemy.get(key) is not None:
                status.append((label, int(enemy[key]), int(enemy[key])))
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
            commands=self.palette(enemy),
            memo=str(enemy.get("notes", "") or ""),
        )


PROFILE = KokuryokuProfile()
