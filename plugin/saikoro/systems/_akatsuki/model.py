"""君ヨ、暁ノ大地ニ死スベシ: ability levels by name, specialties, awakening cards.

Every key of an akatsuki scenario is declared here once (:func:`~saikoro.scenario.model.key`);
the definition (:mod:`.scenario`) is made from these classes.
"""

from __future__ import annotations

from collections.abc import Mapping

from saikoro.scenario import Int, Str
from saikoro.scenario.model import PC, DifficultyTarget, Enemy, ScenarioModel, key, model

__all__ = ["MODEL", "AkatsukiEnemy", "AkatsukiPC", "AkatsukiScenario", "AkatsukiTarget"]

ABILITY_NAME = Str(max_length=20)
"""An ability's name (体躯, 技巧...: a scenario names its own)."""


@model
class AkatsukiEnemy(Enemy):
    """An akatsuki enemy: ability name -> level."""

    abilities: Mapping[str, int] = key(
        keys=ABILITY_NAME,
        kind=Int(1, 20),
        max_items=20,
        ja="能力名→レベル(5が人並み、9以上は超人)",
        en="ability -> level (5 ordinary, 9+ superhuman)",
    )
    specialties: tuple[str, ...] = key(
        kind=Str(max_length=40),
        max_items=20,
        default=(),
        ja="得意分野(スタイル)。ゾロ目の効果が働く",
        en="specialties (styles with doublets)",
    )
    cards: int = key(kind=Int(0, 99), default=0, ja="覚醒札の枚数", en="awakening cards")


@model
class AkatsukiTarget(DifficultyTarget):
    """A check of ``ability`` with its difficulty and modifiers."""

    ability: str = key(kind=ABILITY_NAME, ja="使う能力", en="the ability")
    style: str | None = key(kind=Str(max_length=40), default=None, ja="スタイル", en="style")
    difficulty: int = key(
        kind=Int(-10, 1),
        default=0,
        ja="基本難易度(+1 簡単 / 0 普通 / -1 手強い / -2 困難 / -3 至難 / -4 常人の領域外)",
        en="base difficulty (+1 easy ... -4 beyond ordinary people)",
    )
    preparation: int = key(
        kind=Int(0, 3), default=0, ja="下準備の修正(+1〜+3)", en="preparation (+1..+3)"
    )
    support: int = key(
        kind=Int(0, 4),
        default=0,
        ja="補佐の修正(1人+1、専門家・超人+2、2人まで)",
        en="supporters' bonus (+1 each, +2 for experts, two at most)",
    )
    level: int | None = key(
        kind=Int(1, 20),
        default=None,
        ja="想定する能力レベル(省略時5)",
        en="assumed ability level (default 5)",
    )


@model
class AkatsukiPC(PC):
    """An akatsuki PC (``party:``)."""

    abilities: Mapping[str, int] = key(
        keys=ABILITY_NAME, kind=Int(1, 20), max_items=20, ja="能力名→レベル", en="ability -> level"
    )
    specialties: tuple[str, ...] = key(
        kind=Str(max_length=40),
        max_items=20,
        default=(),
        ja="得意分野(スタイル)",
        en="specialties (styles)",
    )
    cards: int = key(kind=Int(0, 99), default=0, ja="覚醒札の枚数", en="awakening cards")


@model
class AkatsukiScenario(ScenarioModel):
    """An akatsuki scenario."""

    difficulty_targets: tuple[AkatsukiTarget, ...] = ()
    enemies: tuple[AkatsukiEnemy, ...] = ()
    party: tuple[AkatsukiPC, ...] | None = None


MODEL = AkatsukiScenario
"""The model of akatsuki scenarios (its system's ``model`` part)."""
