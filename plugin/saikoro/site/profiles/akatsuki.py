"""君ヨ、暁ノ大地ニ死スベシ (akatsuki): roll-under ``AK`` checks per ability level.

A difficulty target shows ``AK<level>D<difficulty>P<preparation>H<supporters>`` for a
range of ability levels, without and with the specialty (``Z``: doublets count). The
superhuman-only band (difficulty -4 or worse) is shown for levels 9 and up.
"""

from __future__ import annotations

from collections.abc import Sequence

from saikoro.site.profiles.base import Data, Grid, Metric, Profile

__all__ = ["PROFILE", "AkatsukiProfile", "target_command"]

TYPICAL_LEVEL = 5


def _supporters(total: int) -> str:
    """Supporters adding ``total`` (1 per ordinary, 2 per expert; two at most)."""
    if total <= 0:
        return ""
    if total == 1:
        return "H1"
    if total == 2:
        return "H11"
    if total == 3:
        return "H21"
    return "H22"


def target_command(target: Data, level: int, *, specialty: bool = False) -> str:
    """The ``AK`` command of a difficulty target at ability ``level``.

    >>> target_command({"difficulty": -1, "preparation": 1, "support": 2}, 5)
    'AK5D-1P1H11'
    """
    parts = [f"AK{level}", "Z" if specialty else ""]
    difficulty = int(target.get("difficulty", 0) or 0)
    if difficulty:
        parts.append(f"D{difficulty:+d}")
    preparation = int(target.get("preparation", 0) or 0)
    if preparation:
        parts.append(f"P{preparation}")
    parts.append(_supporters(int(target.get("support", 0) or 0)))
    return "".join(parts)


def _levels(target: Data) -> Sequence[int]:
    if int(target.get("difficulty", 0) or 0) <= -4:
        return tuple(range(9, 15))
    base = int(target.get("level", TYPICAL_LEVEL) or TYPICAL_LEVEL)
    low = max(1, min(base, TYPICAL_LEVEL) - 3)
    return tuple(range(low, max(base, TYPICAL_LEVEL) + 4))


class AkatsukiProfile(Profile):
    """The akatsuki mapping."""

    system = "akatsuki"

    def stats(self, enemy: Data) -> list[tuple[str, str]]:
        rows = [(str(k), str(v)) for k, v in (enemy.get("abilities") or {}).items()]
        specialties = enemy.get("specialties")
        if specialties:
            rows.append(("得意分野", "・".join(str(s) for s in specialties)))
        if enemy.get("cards") is not None:
            rows.append(("覚醒札", str(enemy["cards"])))
        return rows

    def target_label(self, target: Data) -> str:
        bits = [f"能力: {target.get('ability')}"]
        if target.get("style"):
            bits.append(f"スタイル: {target['style']}")
        labels = (("difficulty", "難易度"), ("preparation", "下準備"), ("support", "補佐"))
        for key, label in labels:
            value = int(target.get(key, 0) or 0)
            if value:
                bits.append(f"{label} {value:+d}")
        return " ／ ".join(bits)

    def target_command(self, target: Data) -> str | None:
        level = int(target.get("level", TYPICAL_LEVEL) or TYPICAL_LEVEL)
        return target_command(target, level)

    def target_grid(self, target: Data) -> Grid | None:
        return Grid(
            title="能力レベルごとの成功率（得意分野ならゾロ目の効果あり）",
            columns=("通常", "得意分野"),
            rows=tuple(
                (
                    f"レベル {lv}",
                    (target_command(target, lv), target_command(target, lv, specialty=True)),
                )
                for lv in _levels(target)
            ),
            metrics=(Metric.SUCCESS, Metric.EVENTS),
        )

    def enemy_grids(self, enemy: Data) -> Sequence[Grid]:
        abilities = enemy.get("abilities") or {}
        if not abilities:
            return ()
        return (
            Grid(
                title="能力ごとの判定（難易度 普通）",
                columns=("通常", "得意分野"),
                rows=tuple(
                    (str(name), (f"AK{int(level)}", f"AK{int(level)}Z"))
                    for name, level in abilities.items()
                ),
                metrics=(Metric.SUCCESS, Metric.EVENTS),
            ),
        )


PROFILE = AkatsukiProfile()
