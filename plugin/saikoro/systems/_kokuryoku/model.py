"""国力: nations and characters, power or love as the gauge, four abilities, skills.

Every key of a kokuryoku scenario is declared here once
(:func:`~saikoro.scenario.model.key`); the definition (:mod:`.scenario`) is made from these
classes.
"""

from __future__ import annotations

from saikoro.scenario import NAME, TEXT, Choice, Enum, Int, Str
from saikoro.scenario.model import (
    PC,
    DifficultyTarget,
    Enemy,
    Model,
    ScenarioModel,
    choices_of,
    key,
    model,
)

__all__ = [
    "ABILITIES",
    "MODEL",
    "KokuryokuAbilities",
    "KokuryokuEnemy",
    "KokuryokuPC",
    "KokuryokuScenario",
    "KokuryokuSkill",
    "KokuryokuTarget",
]

KINDS = (
    Choice("nation", "国(国力ゲージを持つ)", "nation (has a power gauge)"),
    Choice("character", "人物(愛を持つ)", "character (has love points)"),
)


@model
class KokuryokuAbilities(Model):
    """The four abilities, each optional."""

    force: int | None = key(kind=Int(0, 20), default=None, ja="武力", en="force")
    perception: int | None = key(kind=Int(0, 20), default=None, ja="知覚", en="perception")
    charisma: int | None = key(kind=Int(0, 20), default=None, ja="カリスマ", en="charisma")
    luck: int | None = key(kind=Int(0, 20), default=None, ja="運", en="luck")


ABILITIES = choices_of(KokuryokuAbilities)
"""The four abilities, as a check names them (``ability: force``)."""


@model
class KokuryokuSkill(Model):
    """A skill: name, timing, effect."""

    name: str = key(kind=NAME, ja="スキル名", en="name")
    timing: str | None = key(kind=Str(max_length=40), default=None, ja="タイミング", en="timing")
    effect: str | None = key(kind=TEXT, default=None, ja="効果", en="effect")


@model
class KokuryokuEnemy(Enemy):
    """A nation (``power``) or character (``love``)."""

    id: str = key(ja="ID", en="id")
    kind: str = key(
        kind=Enum(KINDS), default="character", ja="国か人物か", en="nation or character"
    )
    power: int | None = key(
        kind=Int(1, 9999),
        default=None,
        ja="国力(国のゲージ、0で敗北)",
        en="national power (0 loses)",
    )
    love: int | None = key(
        kind=Int(1, 999), default=None, ja="愛(人物のHP、0で戦闘不能)", en="love (a character's HP)"
    )
    abilities: KokuryokuAbilities = key(default=KokuryokuAbilities(), ja="能力値", en="abilities")
    attack: int = key(kind=Int(0, 999), default=0, ja="攻撃力", en="attack power")
    defence: int = key(kind=Int(0, 999), default=0, ja="防御力", en="defence power")
    skills: tuple[KokuryokuSkill, ...] = key(max_items=20, default=(), ja="スキル", en="skills")
    notes: str | None = key(default=None, ja="メモ", en="notes")


@model
class KokuryokuTarget(DifficultyTarget):
    """A check reaching ``target`` gains ``gain`` power."""

    name: str = key(ja="判定させたい状況", en="the situation")
    target: int = key(
        kind=Int(1, 999),
        ja="目標値(支援判定の達成値と合計)",
        en="target (totals of the check and its supports)",
    )
    gain: int = key(
        kind=Int(0, 999),
        ja="成功時の増加国力(失敗時は半分、切り捨て)",
        en="power gained (half, rounded down, on failure)",
    )
    ability: str | None = key(
        kind=Enum(ABILITIES),
        default=None,
        ja="GMが指定する起点の能力(省略時は自由)",
        en="starting ability set by the GM (default: free)",
    )


@model
class KokuryokuPC(PC):
    """A kokuryoku PC (``party:``)."""

    kind: str = key(
        kind=Enum(KINDS), default="character", ja="国か人物か", en="nation or character"
    )
    power: int | None = key(
        kind=Int(1, 9999), default=None, ja="国力(国のゲージ)", en="national power"
    )
    love: int | None = key(
        kind=Int(1, 999), default=None, ja="愛(人物のHP)", en="love (a character's HP)"
    )
    abilities: KokuryokuAbilities = key(default=KokuryokuAbilities(), ja="能力値", en="abilities")
    attack: int = key(kind=Int(0, 999), default=0, ja="攻撃力", en="attack power")
    defence: int = key(kind=Int(0, 999), default=0, ja="防御力", en="defence power")


@model
class KokuryokuScenario(ScenarioModel):
    """A kokuryoku scenario."""

    difficulty_targets: tuple[KokuryokuTarget, ...] = ()
    enemies: tuple[KokuryokuEnemy, ...] = ()
    party: tuple[KokuryokuPC, ...] | None = None


MODEL = KokuryokuScenario
"""The model of kokuryoku scenarios (its system's ``model`` part)."""
