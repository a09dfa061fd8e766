"""穢れ (kegare) scenarios: 2D6 checks, enemies with attack, defence, HP, initiative and position.

>>> two_d6_at_least(7)
Fraction(7, 12)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from saikoro.scenario import (
    BATTLE_CHECKS,
    NAME,
    PC_NAME,
    TEXT,
    Bool,
    Choice,
    Ctx,
    Enum,
    Field,
    Int,
    ListOf,
    Msg,
    Node,
    Obj,
    SideFact,
    enemy_obj,
    join_path,
    odds_hint,
    scenario_root,
    show_value,
    target_obj,
    warn_at,
    with_party,
)

from .effects import describe, read_effect, unread_state

__all__ = ["ROOT", "two_d6_at_least"]

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


@cache
def two_d6_at_least(need: int) -> Fraction:
    """Chance that 2D6 is at least ``need``."""
    wins = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= need)
    return Fraction(wins, 36)


def _check_target(dt: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    need = dt["target"] - dt["bonus"]
    if need > 12:
        warn_at(ctx, node, path, "target", Msg("twod6.impossible", (dt["target"], need)))
    elif need <= 2:
        msg = Msg("twod6.automatic", (dt["target"], need))
        warn_at(ctx, node, path, "target", msg, hint=odds_hint(two_d6_at_least(need)))


def _check_effect(skill: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """What the simulator reads from the skill's ``effect`` (a note at its line), and a
    warning where the text names a state the rules do not have."""
    effect = skill.get("effect")
    where = node.get("effect")
    if not isinstance(effect, str) or where is None:
        return
    epath = join_path(path, "effect")
    shown = show_value(effect)
    if skill.get("kind") == "support":
        ctx.note(where, epath, Msg("kegare.effect_support", (shown,)))
        return
    read = describe(read_effect(str(skill.get("kind")), effect))
    if read:
        ctx.note(where, epath, Msg("kegare.effect_read", (shown, read)))
        return
    state = unread_state(effect) if skill.get("kind") == "attack" else None
    if state is not None:
        msg = Msg("kegare.effect_state", (shown, state))
        ctx.warning(where, epath, msg, Msg("hint.kegare_statuses"))
    else:
        ctx.note(where, epath, Msg("kegare.effect_unread", (shown,)))


SKILL = Obj(
    (
        Field("name", NAME, required=True, ja="スキル名", en="skill name"),
        Field("kind", Enum(SKILL_KINDS), required=True, ja="種類", en="kind"),
        Field("target", Enum(TARGETS), default="single", ja="対象", en="target"),
        Field(
            "ranged",
            Bool(),
            default=False,
            ja="遠距離攻撃(ポジション補正を無視)",
            en="ranged (ignores position modifiers)",
        ),
        Field("damage", Int(0, 999), ja="基本ダメージ", en="base damage"),
        Field(
            "effect",
            TEXT,
            ja="効果。シミュレーションが読む: 攻撃スキルは状態異常の名前"
            "(毒(LV2)・麻痺・脱力・自失・混乱・魅了・呪い)、防御・常駐スキルは"
            "「ダメージ-N」「穢れがN以上のあいだ」「…への攻撃を代わりに受ける」。"
            "どう読んだかは saikoro validate とページが示す",
            en="effect; the simulation reads status names (毒(LV2), 麻痺, 脱力, 自失, 混乱, "
            "魅了, 呪い) in an attack skill's, and ダメージ-N, 穢れがN以上のあいだ and "
            "…を代わりに受ける in a defence or always-on skill's; saikoro validate and the "
            "page show what was read",
        ),
    ),
    checks=(_check_effect,),
)

ENEMY = enemy_obj(
    Field("hp", Int(1, 9999), required=True, ja="HP", en="hit points"),
    Field("attack", Int(-20, 99), required=True, ja="攻撃値(2D6に足す)", en="attack value"),
    Field("defence", Int(-20, 99), required=True, ja="防御値(2D6に足す)", en="defence value"),
    Field("initiative", Int(0, 99), required=True, ja="行動値", en="initiative"),
    Field("position", Enum(POSITIONS), default="near", ja="ポジション", en="position"),
    Field(
        "blessed",
        Bool(),
        default=False,
        ja="加護を持つ(ターン終了ごとに穢れ+2)",
        en="has a blessing (corruption +2 each turn)",
    ),
    Field("skills", ListOf(SKILL, max_items=20), default=list, ja="スキル", en="skills"),
    Field(
        "immune",
        ListOf(Enum(STATUSES), max_items=7),
        default=list,
        ja="無効な状態異常",
        en="status immunities",
    ),
)

TARGET = target_obj(
    Field(
        "target",
        Int(-99, 99),
        required=True,
        ja="目標値(2D6+修正がこれ以上で成功)",
        en="target (2D6 + bonus must reach it)",
    ),
    Field("bonus", Int(-20, 20), default=0, ja="2D6に足す修正", en="bonus added to 2D6"),
    checks=(_check_target,),
)


KEGARE_AT_MOST = SideFact(
    Field(
        "kegare_at_most",
        Int(0, 10),
        ja="終了時、どのPCの穢れもこの値以下",
        en="at the end, every PC's kegare is at most this",
    ),
    fact="corruption",
    compare="<=",
)
"""A side mission kept clean of 穢れ: the simulator records the highest PC's at the end."""

SIDE_CHECKS: tuple[str | SideFact, ...] = (*BATTLE_CHECKS, KEGARE_AT_MOST)
"""The side-mission ``check:`` keys this system's scenarios offer."""

ROOT = scenario_root("kegare", TARGET, ENEMY, side_checks=SIDE_CHECKS)
"""The whole kegare scenario."""


PC = Obj(
    (
        PC_NAME,
        Field("hp", Int(1, 9999), required=True, ja="HP", en="hit points"),
        Field("attack", Int(-20, 99), required=True, ja="攻撃値", en="attack value"),
        Field("defence", Int(-20, 99), required=True, ja="防御値", en="defence value"),
        Field("initiative", Int(0, 99), required=True, ja="行動値", en="initiative"),
        Field("position", Enum(POSITIONS), default="near", ja="ポジション", en="position"),
        Field("damage", Int(0, 999), default=5, ja="攻撃スキルの基本ダメージ", en="base damage"),
        Field("ranged", Bool(), default=False, ja="遠距離攻撃を使う", en="attacks are ranged"),
        Field("blessed", Bool(), default=False, ja="加護を持つ", en="has a blessing"),
    )
)

ROOT = with_party(ROOT, PC)


REFERENCE_PARTY: tuple[dict[str, object], ...] = (
    {
        "name": "前衛",
        "hp": 34,
        "attack": 5,
        "defence": 4,
        "initiative": 5,
        "position": "near",
        "damage": 7,
    },
    {
        "name": "射手",
        "hp": 26,
        "attack": 4,
        "defence": 2,
        "initiative": 7,
        "position": "mid",
        "damage": 5,
        "ranged": True,
    },
    {
        "name": "祓い手",
        "hp": 28,
        "attack": 4,
        "defence": 3,
        "initiative": 6,
        "position": "near",
        "damage": 6,
        "blessed": True,
    },
    {
        "name": "斥候",
        "hp": 24,
        "attack": 3,
        "defence": 3,
        "initiative": 9,
        "position": "mid",
        "damage": 5,
    },
)
"""The four archetypes of the reference party (``party:`` format), in the order a party
takes them: a party of *n* takes the first *n*, cycling with numbered names beyond four."""


def enemy_actions(enemy: dict[str, Any]) -> list[str]:
    """The actions a side mission's ``no_damage_from`` may name: its attack skills (an
    enemy without one passes its turns: ruling ``skillless_enemy``)."""
    return [str(s["name"]) for s in enemy.get("skills", []) if s.get("kind") == "attack"]
