"""Cut-action scenarios: body/head checks, a five-row battle area, chase event tables."""

from __future__ import annotations

from typing import Any

from saikoro.scenario import (
    BATTLE_CHECKS,
    ID,
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
    Tolerant,
    chase_tables,
    enemy_obj,
    join_path,
    scenario_root,
    show_value,
    target_obj,
    warn_at,
    with_party,
)

from .events import CHASE_EVENTS

__all__ = ["ROOT"]

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
FLEES = (
    Choice("party", "PCが逃げ、エネミーが追う", "the PCs flee, the enemies pursue"),
    Choice("enemies", "エネミーが逃げ、PCが追う", "the enemies flee, the PCs pursue"),
)
EVENTS = tuple(Choice(ev.name, ev.effect, ev.name) for ev in CHASE_EVENTS)
CHASE_KEYS = ("flees", "runners", "table")
"""The keys only a ``kind: chase`` target takes."""

REACTION = Field(
    "reaction",
    Int(0, 30),
    ja="リアクション(防御・回避)の成功値。省略時はボディの値",
    en="reaction (defence/dodge) success value; default: the body value",
)


def _check_target(dt: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    target = dt["target"]
    if target >= 10 and dt["kind"] != "chase":
        warn_at(ctx, node, path, "target", Msg("cutaction.high", (target,)))
    elif target >= 10:  # a chase's goal is ten times its target: 40 is a goal of 400
        goal = Msg("cutaction.chase_goal", (target, target * 10))
        meant = Msg("hint.cutaction.chase_goal", (target, target // 10))
        warn_at(ctx, node, path, "target", goal, hint=meant if target % 10 == 0 else None)
    if dt["kind"] != "chase":
        for key in CHASE_KEYS:
            if dt.get(key) is not None:
                kpath = join_path(path, key)
                ctx.error(ctx.nodes.get(kpath, node), kpath, Msg("cutaction.chase_only", (key,)))


def _at(ctx: Ctx, node: Node, path: str) -> Node:
    return ctx.nodes.get(path, node)


def _check_chase(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """The chase can start: someone on the other side, known runners and table; the
    round limit and ``balance.defeat`` mean something for it."""
    targets = root.get("difficulty_targets", [])
    chases = [(i, t) for i, t in enumerate(targets) if t.get("kind") == "chase"]
    if not chases:
        return
    enemies = root.get("enemies", [])
    ids = [str(e.get("id")) for e in enemies]
    known = ", ".join(ids) or "-"
    tables = [str(t.get("name")) for t in root.get("chase_tables", [])]
    i, chase = chases[0]
    tpath = join_path(join_path(path, "difficulty_targets"), i)
    runners = chase.get("runners")
    if runners is None:
        runners = [e["id"] for e in enemies if e.get("vehicle")] or ids
    for j, rid in enumerate(chase.get("runners") or []):
        if rid not in ids:
            rpath = join_path(join_path(tpath, "runners"), j)
            ctx.error(
                _at(ctx, node, rpath),
                rpath,
                Msg("cutaction.unknown_runner", (show_value(rid),)),
                Msg("hint.known", (known,)),
            )
    if not runners:
        ctx.error(_at(ctx, node, tpath), tpath, Msg("cutaction.no_runner", (chase.get("name"),)))
    table = chase.get("table")
    if table is not None and table not in tables:
        kpath = join_path(tpath, "table")
        ctx.error(
            _at(ctx, node, kpath),
            kpath,
            Msg("cutaction.unknown_table", (show_value(table),)),
            Msg("hint.known", (", ".join(tables) or "-",)),
        )
    if table is None and len(tables) > 1:
        ctx.error(
            _at(ctx, node, tpath),
            tpath,
            Msg("cutaction.which_table", (chase.get("name"),)),
            Msg("hint.known", (", ".join(tables),)),
        )
    fighters = [e for e in ids if e not in runners]
    main = (root.get("missions") or {}).get("main") or {}
    if main.get("rounds") is not None and not fighters:
        rpath = "scenario.missions.main.rounds"
        ctx.warning(_at(ctx, node, rpath), rpath, Msg("cutaction.chase_rounds", (len(runners),)))
    balance = root.get("balance") or {}
    for j, eid in enumerate(balance.get("defeat") or []):
        if eid in runners and eid in ids:
            dpath = join_path(join_path("scenario.balance", "defeat"), j)
            ctx.error(
                _at(ctx, node, dpath),
                dpath,
                Msg("cutaction.defeat_runner", (show_value(eid), chase.get("name"))),
            )


ENEMY = enemy_obj(
    Field("body", Int(0, 30), required=True, ja="ボディの成功値", en="body success value"),
    Field("head", Int(0, 30), required=True, ja="ヘッドの成功値", en="head success value"),
    Field("hp", Int(1, 999), required=True, ja="体力", en="stamina"),
    REACTION,
    Field("area", Enum(AREAS), default="enemy", ja="初期配置のエリア", en="starting row"),
    Field(
        "cover",
        Enum(
            (
                Choice("none", "なし", "none"),
                Choice("half", "半遮蔽", "half cover"),
                Choice("full", "完全遮蔽", "full cover"),
            )
        ),
        default="none",
        ja="遮蔽",
        en="cover",
    ),
    Field(
        "attacks",
        ListOf(
            Obj(
                (
                    Field("name", NAME, required=True, ja="攻撃名", en="name"),
                    Field(
                        "kind",
                        Enum(ATTACK_KINDS),
                        required=True,
                        ja="格闘か射撃か",
                        en="melee or shooting",
                    ),
                    Field("damage", Int(0, 999), required=True, ja="ダメージ", en="damage"),
                    Field("effect", TEXT, ja="効果", en="effect"),
                )
            ),
            max_items=20,
        ),
        default=list,
        ja="攻撃",
        en="attacks",
    ),
    Field(
        "vehicle",
        NAME,
        ja="乗り物(チェイス用。省略時は徒歩。runners がなければ乗り物を持つ者がチェイスに加わる)",
        en="vehicle (for chases; default on foot)",
    ),
    Field("blockade", Bool(), default=False, ja="エリアを封鎖する", en="blockades its row"),
    short=True,
)

TARGET = target_obj(
    Field("check", Enum(CHECKS), required=True, ja="ボディかヘッドか", en="body or head"),
    Field(
        "target",
        Int(0, 99),
        required=True,
        ja="目標値(行為の要素の数が目安。達成値がこれ以上で成功)",
        en="target (about the number of parts of the act)",
    ),
    Field("kind", Enum(KINDS), default="action", ja="判定の種類", en="kind of check"),
    Field(
        "flees",
        Enum(FLEES),
        ja="チェイスで逃げる側(kind: chase のみ)。省略時は party(PCが移動を宣言して逃げる)",
        en="who flees in the chase (kind: chase only; default party)",
    ),
    Field(
        "runners",
        ListOf(ID, min_items=1, max_items=50),
        ja=(
            "チェイスに加わるエネミーのID(kind: chase のみ)。省略時は vehicle を持つエネミー、"
            "誰も持たなければ全員。加わらないエネミーとはチェイスの前に戦う"
        ),
        en="enemy ids in the chase (kind: chase only; default: those with a vehicle, else all)",
    ),
    Field(
        "table",
        NAME,
        ja=(
            "ルート変更で振る chase_tables の表の名前(kind: chase のみ)。省略時はシナリオの表が"
            "1つならそれ、なければルールブックのチェイスイベント表"
        ),
        en="the chase table rolled on a route change (kind: chase only)",
    ),
    checks=(_check_target,),
)


ESCAPED = SideFact(
    Field(
        "escaped",
        Bool(),
        ja="チェイスで逃げ切る(true)/逃げ切れない(false)",
        en="the PCs get away in the chase (true) or do not (false)",
    ),
    fact="escaped",
    compare="==",
    missing="チェイスがない",
)
"""A side mission about the chase: the simulator records whether the PCs got away."""

SIDE_CHECKS: tuple[str | SideFact, ...] = (*BATTLE_CHECKS, ESCAPED)
"""The side-mission ``check:`` keys this system's scenarios offer."""


def _check_escaped(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """A side mission's ``escaped`` needs a chase among the difficulty targets (tolerant:
    skipped while a target has errors, its kind then not known)."""
    targets = root.get("difficulty_targets", [])
    if not isinstance(targets, list) or not all(isinstance(t, dict) for t in targets):
        return
    if any(t.get("kind") == "chase" for t in targets):
        return
    missions = root.get("missions") or {}
    side = missions.get("side", []) if isinstance(missions, dict) else []
    for i, mission in enumerate(side if isinstance(side, list) else []):
        check = mission.get("check") if isinstance(mission, dict) else None
        if isinstance(check, dict) and "escaped" in check:
            kpath = join_path(
                join_path(join_path(join_path(join_path(path, "missions"), "side"), i), "check"),
                "escaped",
            )
            ctx.error(ctx.nodes.get(kpath, node), kpath, Msg("side.no_chase"))


ROOT = scenario_root(
    "cutaction",
    TARGET,
    ENEMY,
    chase_tables(
        ja="チェイスイベント表などのランダム表",
        en="chase event and other tables",
        entry_fields=(
            Field(
                "event",
                Enum(EVENTS),
                ja="ルールブックのチェイスイベント(小道〜行き止まり)。この項目をそのイベントとして扱う",
                en="the rule book's chase event this entry works as",
            ),
        ),
    ),
    (_check_chase, Tolerant(_check_escaped)),
    side_checks=SIDE_CHECKS,
)
"""The whole cut-action scenario."""


PC = Obj(
    (
        PC_NAME,
        Field("body", Int(0, 30), required=True, ja="ボディの成功値", en="body success value"),
        Field("head", Int(0, 30), required=True, ja="ヘッドの成功値", en="head success value"),
        Field("hp", Int(1, 999), required=True, ja="体力", en="stamina"),
        REACTION,
        Field("area", Enum(AREAS), default="home", ja="初期配置のエリア", en="starting row"),
        Field(
            "attack", Enum(ATTACK_KINDS), default="shooting", ja="格闘か射撃か", en="attack kind"
        ),
        Field("damage", Int(0, 999), default=4, ja="攻撃のダメージ", en="attack damage"),
    )
)

ROOT = with_party(ROOT, PC)


REFERENCE_PARTY: tuple[dict[str, object], ...] = (
    {
        "name": "刑事",
        "body": 8,
        "head": 6,
        "hp": 14,
        "area": "home",
        "attack": "shooting",
        "damage": 4,
    },
    {
        "name": "格闘家",
        "body": 9,
        "head": 4,
        "hp": 16,
        "area": "front",
        "attack": "melee",
        "damage": 5,
    },
    {
        "name": "探偵",
        "body": 5,
        "head": 8,
        "hp": 12,
        "area": "home",
        "attack": "shooting",
        "damage": 3,
    },
    {
        "name": "運び屋",
        "body": 7,
        "head": 7,
        "hp": 13,
        "area": "home",
        "attack": "shooting",
        "damage": 3,
    },
)
"""The four archetypes of the reference party (``party:`` format), in the order a party
takes them: a party of *n* takes the first *n*, cycling with numbered names beyond four."""
