"""君ヨ、暁ノ大地ニ死スベシ (akatsuki): roll-under ``AK`` checks per ability level.

A difficulty target shows ``AK<level>D<difficulty>P<preparation>H<supporters>`` for a
range of ability levels, without and with the specialty (``Z``: doublets count). The
superhuman-only band (difficulty -4 or worse) is shown for levels 9 and up.
"""

from __future__ import annotations

from collections.abc import Sequence

from saikoro.scenario.model import PC
from saikoro.site import Attack, Grid, Metric, Personal, Profile

from .model import AkatsukiEnemy, AkatsukiPC, AkatsukiTarget

__all__ = ["PROFILE", "AkatsukiProfile", "target_command"]

TYPICAL_LEVEL = 5
LEVEL_BOUNDS = (1, 20)
"""The ability levels a PC can have (the scenario definitions' bounds)."""


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


def target_command(target: AkatsukiTarget, level: int, *, specialty: bool = False) -> str:
    """The ``AK`` command of a difficulty target at ability ``level``.

    >>> t = AkatsukiTarget(name="t", ability="武勇", difficulty=-1, preparation=1, support=2)
    >>> target_command(t, 5)
    'AK5D-1P1H11'
    """
    parts = [f"AK{level}", "Z" if specialty else ""]
    if target.difficulty:
        parts.append(f"D{target.difficulty:+d}")
    if target.preparation:
        parts.append(f"P{target.preparation}")
    parts.append(_supporters(target.support))
    return "".join(parts)


def _level(target: AkatsukiTarget) -> int:
    """The ability level the target is written for (a typical one when it names none)."""
    return target.level or TYPICAL_LEVEL


def _levels(target: AkatsukiTarget) -> Sequence[int]:
    if target.difficulty <= -4:
        return tuple(range(9, 15))
    base = _level(target)
    low = max(1, min(base, TYPICAL_LEVEL) - 3)
    return tuple(range(low, max(base, TYPICAL_LEVEL) + 4))


class AkatsukiProfile(Profile[AkatsukiEnemy, AkatsukiTarget, Attack]):
    """The akatsuki mapping."""

    system = "akatsuki"

    def stats(self, enemy: AkatsukiEnemy) -> list[tuple[str, str]]:
        rows = [(k, str(v)) for k, v in enemy.abilities.items()]
        if enemy.specialties:
            rows.append(("得意分野", "・".join(enemy.specialties)))
        rows.append(("覚醒札", str(enemy.cards)))
        return rows

    def target_label(self, target: AkatsukiTarget) -> str:
        bits = [f"能力: {target.ability}"]
        if target.style:
            bits.append(f"スタイル: {target.style}")
        labels = (
            (target.difficulty, "難易度"),
            (target.preparation, "下準備"),
            (target.support, "補佐"),
        )
        for value, label in labels:
            if value:
                bits.append(f"{label} {value:+d}")
        return " ／ ".join(bits)

    def target_command(self, target: AkatsukiTarget) -> str | None:
        return target_command(target, _level(target))

    def target_personal(self, target: AkatsukiTarget) -> Personal | None:
        low, high = LEVEL_BOUNDS
        return Personal(
            target.ability,
            target.ability,
            _level(target),
            low,
            high,
            lambda level: target_command(target, level),
        )

    def target_party(self, target: AkatsukiTarget, pc: PC) -> tuple[int, str] | None:
        if not isinstance(pc, AkatsukiPC) or target.ability not in pc.abilities:
            return None
        level = pc.abilities[target.ability]
        # the specialty's doublets count when the PC's specialty is the target's style
        # (as the simulator has it)
        specialty = target.style is not None and target.style in pc.specialties
        return level, target_command(target, level, specialty=specialty)

    def target_grid(self, target: AkatsukiTarget) -> Grid | None:
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

    def attacks(self, enemy: AkatsukiEnemy) -> Sequence[Attack]:  # noqa: ARG002
        return ()  # checks by ability level (enemy_grids), no attack list

    def skills(self, enemy: AkatsukiEnemy) -> Sequence[tuple[str, str]]:  # noqa: ARG002
        return ()

    def enemy_grids(self, enemy: AkatsukiEnemy) -> Sequence[Grid]:
        abilities = enemy.abilities
        if not abilities:
            return ()
        return (
            Grid(
                title="能力ごとの判定（難易度 普通）",
                columns=("通常", "得意分野"),
                rows=tuple(
                    (name, (f"AK{level}", f"AK{level}Z")) for name, level in abilities.items()
                ),
                metrics=(Metric.SUCCESS, Metric.EVENTS),
            ),
        )


PROFILE = AkatsukiProfile()
