"""カットアクション: body/head success values, rows of the battle area, cover, attacks, chases.

Every key of a cutaction scenario is declared here once
(:func:`~saikoro.scenario.model.key`); the definition (:mod:`.scenario`) is made from these
classes.
"""

from __future__ import annotations

from collections.abc import Mapping

from saikoro.scenario import ID, NAME, TEXT, Choice, Enum, Int
from saikoro.scenario.model import (
    PC,
    ChaseEntry,
    ChaseTable,
    DifficultyTarget,
    Enemy,
    Model,
    ScenarioModel,
    key,
    model,
)

from .events import CHASE_EVENTS

__all__ = [
    "AREAS",
    "ATTACK_KINDS",
    "MODEL",
    "CutactionAttack",
    "CutactionChaseEntry",
    "CutactionChaseTable",
    "CutactionEnemy",
    "CutactionPC",
    "CutactionScenario",
    "CutactionTarget",
]

CHECKS = (
    Choice("body", "ボディ", "body"),
    Choice("head", "ヘッド", "head"),
)
AREAS = (
    Choice("home-base", "自陣本営", "own headquarters"),
    Choice("home", "自陣", "own side"),
    Choice("front", "前線", "front line"),
    Choice("enemy", "敵陣", "enemy side"),
    Choice("enemy-base", "敵陣本営", "enemy headquarters"),
)
KINDS = (
    Choice("action", "行動判定", "action check"),
    Choice("resist", "抵抗判定", "resistance check"),
    Choice("chase", "チェイスの移動(目標値の10倍が到着点)", "chase (goal is ten times the target)"),
)
ATTACK_KINDS = (
    Choice("melee", "格闘", "melee"),
    Choice("shooting", "射撃", "shooting"),
)
COVERS = (
    Choice("none", "なし", "none"),
    Choice("half", "半遮蔽", "half cover"),
    Choice("full", "完全遮蔽", "full cover"),
)
FLEES = (
    Choice("party", "PCが逃げ、エネミーが追う", "the PCs flee, the enemies pursue"),
    Choice("enemies", "エネミーが逃げ、PCが追う", "the enemies flee, the PCs pursue"),
)
EVENTS = tuple(Choice(ev.name, ev.effect, ev.name) for ev in CHASE_EVENTS)


def _reaction() -> int | None:
    """The ``reaction`` key of an enemy and a PC."""
    found: int | None = key(
        kind=Int(0, 30),
        default=None,
        ja="リアクション(防御・回避)の成功値。省略時はボディの値",
        en="reaction (defence/dodge) success value; default: the body value",
    )
    return found


@model
class CutactionAttack(Model):
    """An attack: melee or shooting, fixed damage."""

    name: str = key(kind=NAME, ja="攻撃名", en="name")
    kind: str = key(kind=Enum(ATTACK_KINDS), ja="格闘か射撃か", en="melee or shooting")
    damage: int = key(kind=Int(0, 999), ja="ダメージ", en="damage")
    effect: str | None = key(kind=TEXT, default=None, ja="効果", en="effect")


@model
class CutactionEnemy(Enemy):
    """A cut-action enemy (``reaction``: the 防御/回避 success value, ``None``: its body)."""

    id: str = key(ja="ID", en="id")
    body: int = key(kind=Int(0, 30), ja="ボディの成功値", en="body success value")
    head: int = key(kind=Int(0, 30), ja="ヘッドの成功値", en="head success value")
    hp: int = key(kind=Int(1, 999), ja="体力", en="stamina")
    reaction: int | None = _reaction()
    area: str = key(kind=Enum(AREAS), default="enemy", ja="初期配置のエリア", en="starting row")
    cover: str = key(kind=Enum(COVERS), default="none", ja="遮蔽", en="cover")
    attacks: tuple[CutactionAttack, ...] = key(max_items=20, default=(), ja="攻撃", en="attacks")
    vehicle: str | None = key(
        kind=NAME,
        default=None,
        ja="乗り物(チェイス用。省略時は徒歩。runners がなければ乗り物を持つ者がチェイスに加わる)",
        en="vehicle (for chases; default on foot)",
    )
    blockade: bool = key(default=False, ja="エリアを封鎖する", en="blockades its row")
    notes: str | None = key(default=None, ja="メモ", en="notes")


@model
class CutactionTarget(DifficultyTarget):
    """A body or head check against ``target`` (``kind``: action, resist, chase).

    A ``kind: chase`` target is the chase: ``flees`` (``party``, the default when ``None``,
    or ``enemies``), ``runners`` (enemy ids in the chase; ``None``: those with a vehicle,
    else every enemy) and ``table`` (the scenario's chase table it rolls, by name).
    """

    check: str = key(kind=Enum(CHECKS), ja="ボディかヘッドか", en="body or head")
    target: int = key(
        kind=Int(0, 99),
        ja="目標値(行為の要素の数が目安。達成値がこれ以上で成功)",
        en="target (about the number of parts of the act)",
    )
    kind: str = key(kind=Enum(KINDS), default="action", ja="判定の種類", en="kind of check")
    flees: str | None = key(
        kind=Enum(FLEES),
        default=None,
        ja="チェイスで逃げる側(kind: chase のみ)。省略時は party(PCが移動を宣言して逃げる)",
        en="who flees in the chase (kind: chase only; default party)",
    )
    runners: tuple[str, ...] | None = key(
        kind=ID,
        min_items=1,
        max_items=50,
        default=None,
        ja=(
            "チェイスに加わるエネミーのID(kind: chase のみ)。省略時は vehicle を持つエネミー、"
            "誰も持たなければ全員。加わらないエネミーとはチェイスの前に戦う"
        ),
        en="enemy ids in the chase (kind: chase only; default: those with a vehicle, else all)",
    )
    table: str | None = key(
        kind=NAME,
        default=None,
        ja=(
            "ルート変更で振る chase_tables の表の名前(kind: chase のみ)。省略時はシナリオの表が"
            "1つならそれ、なければルールブックのチェイスイベント表"
        ),
        en="the chase table rolled on a route change (kind: chase only)",
    )


@model
class CutactionPC(PC):
    """A cut-action PC (``party:``; ``reaction``: ``None`` is its body value)."""

    body: int = key(kind=Int(0, 30), ja="ボディの成功値", en="body success value")
    head: int = key(kind=Int(0, 30), ja="ヘッドの成功値", en="head success value")
    hp: int = key(kind=Int(1, 999), ja="体力", en="stamina")
    reaction: int | None = _reaction()
    area: str = key(kind=Enum(AREAS), default="home", ja="初期配置のエリア", en="starting row")
    attack: str = key(
        kind=Enum(ATTACK_KINDS), default="shooting", ja="格闘か射撃か", en="attack kind"
    )
    damage: int = key(kind=Int(0, 999), default=4, ja="攻撃のダメージ", en="attack damage")


@model
class CutactionChaseEntry(ChaseEntry):
    """An entry of a chase table (``event``: the rule book's event it works as, by name)."""

    event: str | None = key(
        kind=Enum(EVENTS),
        default=None,
        ja="ルールブックのチェイスイベント(小道〜行き止まり)。この項目をそのイベントとして扱う",
        en="the rule book's chase event this entry works as",
    )


@model
class CutactionChaseTable(ChaseTable):
    """A chase table whose entries may name the rule book's event they work as."""

    entries: Mapping[str, CutactionChaseEntry]


@model
class CutactionScenario(ScenarioModel):
    """A cut-action scenario."""

    difficulty_targets: tuple[CutactionTarget, ...] = ()
    enemies: tuple[CutactionEnemy, ...] = ()
    chase_tables: tuple[CutactionChaseTable, ...] = key(
        default=(), ja="チェイスイベント表などのランダム表", en="chase event and other tables"
    )
    party: tuple[CutactionPC, ...] | None = None


MODEL = CutactionScenario
"""The model of cutaction scenarios (its system's ``model`` part)."""
