"""穢れ: enemies with attack/defence/initiative, position, skills and immunities.

Every key of a kegare scenario is declared here once (:func:`~saikoro.scenario.model.key`);
the definition (:mod:`.scenario`) is made from these classes.
"""

from __future__ import annotations

from saikoro.scenario import NAME, TEXT, Choice, Enum, Int
from saikoro.scenario.model import PC, DifficultyTarget, Enemy, Model, ScenarioModel, key, model

__all__ = [
    "MODEL",
    "POSITIONS",
    "SKILL_KINDS",
    "STATUSES",
    "TARGETS",
    "KegareEnemy",
    "KegarePC",
    "KegareScenario",
    "KegareSkill",
    "KegareTarget",
]

POSITIONS = (
    Choice("far", "遠距離(攻撃判定に互いに-4)", "far (-4 to attacks both ways)"),
    Choice("mid", "中距離(攻撃判定に互いに-2)", "middle (-2 to attacks both ways)"),
    Choice("near", "近距離(補正なし)", "near (no modifier)"),
)
SKILL_KINDS = (
    Choice("attack", "攻撃", "attack"),
    Choice("support", "支援", "support"),
    Choice("defence", "防御", "defence"),
    Choice("passive", "常駐", "always on"),
)
TARGETS = (
    Choice("single", "単体", "one target"),
    Choice("all", "全体(敵対する全員)", "every opponent"),
    Choice("self", "自身", "self"),
)
STATUSES = (
    Choice("poison", "毒", "poison"),
    Choice("paralysis", "麻痺", "paralysis"),
    Choice("weakness", "脱力", "weakness (attack down)"),
    Choice("daze", "自失", "daze (defence down)"),
    Choice("confusion", "混乱", "confusion"),
    Choice("charm", "魅了", "charm"),
    Choice("curse", "呪い", "curse"),
)


@model
class KegareSkill(Model):
    """A skill: kind, target, range, base damage."""

    name: str = key(kind=NAME, ja="スキル名", en="skill name")
    kind: str = key(kind=Enum(SKILL_KINDS), ja="種類", en="kind")
    target: str = key(kind=Enum(TARGETS), default="single", ja="対象", en="target")
    ranged: bool = key(
        default=False,
        ja="遠距離攻撃(ポジション補正を無視)",
        en="ranged (ignores position modifiers)",
    )
    damage: int | None = key(kind=Int(0, 999), default=None, ja="基本ダメージ", en="base damage")
    effect: str | None = key(
        kind=TEXT,
        default=None,
        ja="効果。シミュレーションが読む: 攻撃スキルは状態異常の名前"
        "(毒(LV2)・麻痺・脱力・自失・混乱・魅了・呪い)、防御・常駐スキルは"
        "「ダメージ-N」「穢れがN以上のあいだ」「…への攻撃を代わりに受ける」。"
        "どう読んだかは saikoro validate とページが示す",
        en="effect; the simulation reads status names (毒(LV2), 麻痺, 脱力, 自失, 混乱, "
        "魅了, 呪い) in an attack skill's, and ダメージ-N, 穢れがN以上のあいだ and "
        "…を代わりに受ける in a defence or always-on skill's; saikoro validate and the "
        "page show what was read",
    )


@model
class KegareEnemy(Enemy):
    """A 穢れ enemy."""

    hp: int = key(kind=Int(1, 9999), ja="HP", en="hit points")
    attack: int = key(kind=Int(-20, 99), ja="攻撃値(2D6に足す)", en="attack value")
    defence: int = key(kind=Int(-20, 99), ja="防御値(2D6に足す)", en="defence value")
    initiative: int = key(kind=Int(0, 99), ja="行動値", en="initiative")
    position: str = key(kind=Enum(POSITIONS), default="near", ja="ポジション", en="position")
    blessed: bool = key(
        default=False,
        ja="加護を持つ(ターン終了ごとに穢れ+2)",
        en="has a blessing (corruption +2 each turn)",
    )
    skills: tuple[KegareSkill, ...] = key(max_items=20, default=(), ja="スキル", en="skills")
    immune: tuple[str, ...] = key(
        kind=Enum(STATUSES), max_items=7, default=(), ja="無効な状態異常", en="status immunities"
    )


@model
class KegareTarget(DifficultyTarget):
    """A check: 2D6 + ``bonus`` against ``target``."""

    target: int = key(
        kind=Int(-99, 99),
        ja="目標値(2D6+修正がこれ以上で成功)",
        en="target (2D6 + bonus must reach it)",
    )
    bonus: int = key(kind=Int(-20, 20), default=0, ja="2D6に足す修正", en="bonus added to 2D6")


@model
class KegarePC(PC):
    """A 穢れ PC (``party:``)."""

    hp: int = key(kind=Int(1, 9999), ja="HP", en="hit points")
    attack: int = key(kind=Int(-20, 99), ja="攻撃値", en="attack value")
    defence: int = key(kind=Int(-20, 99), ja="防御値", en="defence value")
    initiative: int = key(kind=Int(0, 99), ja="行動値", en="initiative")
    position: str = key(kind=Enum(POSITIONS), default="near", ja="ポジション", en="position")
    damage: int = key(kind=Int(0, 999), default=5, ja="攻撃スキルの基本ダメージ", en="base damage")
    ranged: bool = key(default=False, ja="遠距離攻撃を使う", en="attacks are ranged")
    blessed: bool = key(default=False, ja="加護を持つ", en="has a blessing")


@model
class KegareScenario(ScenarioModel):
    """A 穢れ scenario."""

    difficulty_targets: tuple[KegareTarget, ...] = ()
    enemies: tuple[KegareEnemy, ...] = ()
    party: tuple[KegarePC, ...] | None = None


MODEL = KegareScenario
"""The model of kegare scenarios (its system's ``model`` part)."""
