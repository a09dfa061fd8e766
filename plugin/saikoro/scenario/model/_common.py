"""The parts of a scenario every system shares: missions, chase tables, balance, the root.

Each system subclasses :class:`ScenarioModel`, :class:`Enemy`, :class:`DifficultyTarget`
and :class:`PC` (see :mod:`saikoro.systems._getb.model` ...), narrowing what the lists hold.
Field names are the scenario's keys; the values are what validation gave, defaults filled.
Every key is declared here once (:func:`~saikoro.scenario.model.key`): the definitions
(:mod:`saikoro.scenario._defs`) are made from these classes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from saikoro.scenario._common import (
    ID,
    LINE,
    LONG,
    NAME,
    REF,
    TEXT,
    Scalar,
    check_defeat_list,
    unique_ids,
    unique_names,
)
from saikoro.scenario._problems import Msg
from saikoro.scenario._schema import Choice, Enum, Int, IntOrRange, Str, WinRange
from saikoro.scenario._story import PHASE
from saikoro.systems import SYSTEM_IDS, OptionValue

from ._build import Model
from ._keys import key, model

__all__ = [
    "PC",
    "Balance",
    "Branch",
    "ChaseEntry",
    "ChaseTable",
    "DifficultyTarget",
    "Enemy",
    "Handout",
    "Image",
    "MainMission",
    "Missions",
    "Npc",
    "ScenarioModel",
    "Scene",
    "SideCheck",
    "SideMission",
]


@model
class DifficultyTarget(Model):
    """A check the scenario asks for (``difficulty_targets:``); systems add their numbers."""

    name: str = key(kind=NAME, ja="判定の場面", en="what the check is for")
    note: str | None = key(kind=TEXT, default=None, last=True, ja="補足", en="note")


@model
class Enemy(Model):
    """An enemy (``enemies:``): id and name; systems add the stat block."""

    id: str = key(kind=ID, ja="エネミーのID", en="enemy id")
    name: str = key(kind=NAME, ja="名前", en="name")
    notes: str | None = key(kind=TEXT, default=None, last=True, ja="行動方針などのメモ", en="notes")


@model
class PC(Model):
    """A PC of ``party:``; systems add the stat block."""

    name: str = key(kind=NAME, ja="PCの名前", en="PC name")


@model
class MainMission(Model):
    """``missions.main``: when the scenario is won, lost, and its round limit."""

    success: str = key(kind=TEXT, ja="達成条件", en="success condition")
    failure: str | None = key(kind=TEXT, default=None, ja="失敗条件", en="failure condition")
    rounds: int | None = key(
        kind=Int(1, 99), default=None, ja="ラウンド(ターン)の上限", en="round limit"
    )


def _no_facts() -> Mapping[str, int | bool]:
    return MappingProxyType({})


@model
class SideCheck(Model):
    r"""``missions.side[].check``: the side mission's condition in the simulator's terms.

    Every key given must hold; ``None``: not given (or not offered by the system, see
    :data:`saikoro.scenario._defs.SIDE_CHECKS`). The keys a system declares itself
    (``kegare_at_most``, ``power_at_least``...: its ``SideFact``\ s) are in :attr:`facts`.
    """

    EXTRA: ClassVar[str] = "facts"
    """The field that holds the defined keys the class does not name (see
    :func:`~saikoro.scenario.model._build.build`)."""

    win: bool | None = key(
        default=None,
        ja="メインミッションの成否(true: 達成したとき、false: 失敗したとき)",
        en="the main mission succeeded (true) or failed (false)",
    )
    rounds_at_most: int | None = key(
        kind=Int(1, 99),
        default=None,
        ja="この数以内のラウンドで終わる(穢れはターン、カットアクションはカット)",
        en="the battle ends within this many rounds (turns, cuts)",
    )
    downed_at_most: int | None = key(
        kind=Int(0, 20),
        default=None,
        ja="戦闘不能になったPCがこの人数以下(0: 誰も倒れない)",
        en="at most this many PCs are downed (0: nobody)",
    )
    standing: tuple[str, ...] | None = key(
        kind=NAME,
        min_items=1,
        max_items=20,
        default=None,
        ja="一度も戦闘不能にならないPC(名前)",
        en="PCs (by name) never downed",
    )
    all_defeated: bool | None = key(
        default=None,
        ja="エネミーを全員倒す(true)/倒し残す(false)",
        en="true: every enemy is defeated",
    )
    defeated: tuple[str, ...] | None = key(
        kind=REF,
        min_items=1,
        max_items=50,
        default=None,
        ja="倒すエネミー(ID)",
        en="enemies (ids) defeated",
    )
    spared: tuple[str, ...] | None = key(
        kind=REF,
        min_items=1,
        max_items=50,
        default=None,
        ja="一度も倒さないエネミー(ID)",
        en="enemies (ids) never defeated",
    )
    defeated_first: tuple[str, ...] | None = key(
        kind=REF,
        min_items=1,
        max_items=50,
        default=None,
        ja="ほかのどのエネミーより先に倒すエネミー(ID、全員倒すこと)",
        en="enemies (ids) all defeated before any other enemy",
    )
    taken_at_most: int | None = key(
        kind=Int(0, 9999),
        default=None,
        ja="受けたダメージの合計がこの値以下(パーティの合計。kokuryoku では自国の国力への打撃)",
        en="the party's (kokuryoku: the nation's) total damage taken is at most this",
    )
    no_damage_from: tuple[str, ...] | None = key(
        kind=Str(max_length=160),
        min_items=1,
        max_items=20,
        default=None,
        ja="一度もダメージを受けないエネミーの行動(名前、または エネミーID:名前)",
        en="enemy actions (name, or enemy-id:name) that never deal the party damage",
    )
    targets: tuple[str, ...] | None = key(
        kind=NAME,
        min_items=1,
        max_items=100,
        default=None,
        ja="成功させる判定(difficulty_targets の name)",
        en="difficulty targets (by name) succeeded",
    )
    targets_at_least: int | None = key(
        kind=Int(0, 100),
        default=None,
        ja="成功した判定の数がこの値以上",
        en="at least this many difficulty targets succeeded",
    )
    facts: Mapping[str, int | bool] = dataclasses.field(default_factory=_no_facts)
    """The system's own keys given (``{"kegare_at_most": 3}``), by key."""


@model
class SideMission(Model):
    """One of ``missions.side``; ``check`` is its condition for the simulation, if stated."""

    success: str = key(kind=TEXT, ja="達成条件", en="success condition")
    reward: str | None = key(kind=TEXT, default=None, ja="報酬", en="reward")
    check: SideCheck | None = key(
        default=None,
        ja="シミュレーションで数える達成条件(すべて満たすと達成)",
        en="the condition as the simulation counts it (every key must hold)",
    )


@model
class Missions(Model):
    """``missions:``: the main mission and the side missions."""

    main: MainMission = key(ja="メインミッション", en="main mission")
    side: tuple[SideMission, ...] = key(
        max_items=20, default=(), ja="サイドミッション", en="side missions"
    )


@model
class ChaseEntry(Model):
    """One event of a random table."""

    title: str = key(kind=NAME, ja="出来事の名前", en="name of the event")
    effect: str | None = key(kind=TEXT, default=None, ja="効果(Markdown)", en="effect (Markdown)")


@model
class ChaseTable(Model):
    """A random table (``chase_tables:``): the die and result (``"1"``, ``"2-3"``) -> event."""

    name: str = key(kind=NAME, ja="表の名前", en="table name")
    die: str = key(
        kind=Str(max_length=8, pattern=r"\d{0,2}[Dd]\d{1,3}", pattern_msg=Msg("t.die")),
        ja="振るダイス(1D6, 1D10, 2D6, D66, 1D100 など)",
        en="the die rolled (1D6, 1D10, 2D6, D66, 1D100...)",
    )
    description: str | None = key(
        kind=TEXT, default=None, ja="いつ振るか、などの説明", en="when to roll it"
    )
    entries: Mapping[str, ChaseEntry] = key(
        keys=IntOrRange(0, 2000),
        max_items=200,
        ja="出目(1 または 2-3 のような範囲)→出来事。どの出目もちょうど1回ずつ覆うこと",
        en="result (1, or a range like 2-3) -> event; every result exactly once",
    )


@model
class Balance(Model):
    """``balance:``: the win rate aimed for and how the simulation plays."""

    win: str | None = key(
        kind=WinRange(),
        default=None,
        ja="狙う勝率の範囲(60%-90% など)。saikoro validate がシミュレーションで確かめる",
        en="target win rate (60%-90%...), checked by simulation in saikoro validate",
    )
    battles: int = key(
        kind=Int(10, 100000),
        default=400,
        ja="validate で確かめるときの戦闘回数",
        en="battles simulated by validate",
    )
    defeat: tuple[str, ...] | None = key(
        kind=ID,
        max_items=50,
        checks=(check_defeat_list,),
        default=None,
        ja="倒せばメインミッション達成となるエネミーのID(省略時は全員)",
        en="enemy ids whose defeat is the main mission (default: all)",
    )
    tactics: str | None = key(
        kind=Str(max_length=80),
        default=None,
        ja="PCの行動方針(focus, hunt, random...)",
        en="PCs' tactics (focus, hunt, random...)",
    )
    enemy_tactics: str | None = key(
        kind=Str(max_length=80), default=None, ja="エネミーの行動方針", en="enemies' tactics"
    )


def _image() -> str | None:
    """The ``image`` key of a handout, an NPC and a scene."""
    found: str | None = key(
        kind=REF, default=None, ja="画像のID(images の id)", en="image id (of images)"
    )
    return found


@model
class Image(Model):
    """An image of ``images:``: a file in the book (relative to the scenario file), its
    alt text, an optional caption and display width."""

    id: str = key(kind=REF, ja="画像のID", en="image id")
    file: str = key(
        kind=Str(max_length=400),
        ja="画像ファイル(シナリオファイルからの相対パス。png・jpg・gif・webp)",
        en="image file (relative to the scenario file; png, jpg, gif, webp)",
    )
    alt: str = key(
        kind=LINE,
        ja="代替テキスト(画像を見られない読者のための説明。必須)",
        en="alt text (what the image shows, for readers who cannot see it)",
    )
    caption: str | None = key(
        kind=LINE, default=None, ja="キャプション(画像の下に添える一文)", en="caption"
    )
    width: int | None = key(
        kind=Int(16, 4000),
        default=None,
        ja="表示する幅(px。省略時は画像の幅。画面より広ければ画面に合わせて縮む)",
        en="display width in px (default: the image's own; shrinks to fit a phone)",
    )


@model
class Handout(Model):
    """A handout (``handouts:``): for ``pc``, a public ``text`` every player may read and a
    ``secret`` only that PC's player (and the GM) reads."""

    id: str = key(kind=REF, ja="ハンドアウトのID", en="handout id")
    pc: str = key(
        kind=NAME,
        ja="誰のためのハンドアウトか(「PC1」や party のPCの名前)",
        en="whose handout it is (PC1, or a name of party)",
    )
    title: str | None = key(
        kind=NAME, default=None, ja="見出し(「コネ：〜」「推奨：〜」など)", en="heading"
    )
    text: str = key(
        kind=LONG,
        ja="公開部分(プレイヤー全員が読める。Markdown)",
        en="public part (every player may read it; Markdown)",
    )
    secret: str | None = key(
        kind=LONG,
        default=None,
        ja="秘匿(このPCのプレイヤーとGMだけが読む。Markdown)",
        en="secret part (only this PC's player and the GM read it; Markdown)",
    )
    image: str | None = _image()


@model
class Npc(Model):
    """A person who is not an enemy (``npcs:``); ``secret`` is for the GM only."""

    id: str = key(kind=REF, ja="NPCのID", en="NPC id")
    name: str = key(kind=NAME, ja="名前", en="name")
    text: str | None = key(
        kind=LONG,
        default=None,
        ja="紹介(人物像・立場・口調など。Markdown)",
        en="who they are (Markdown)",
    )
    secret: str | None = key(
        kind=LONG,
        default=None,
        ja="GMだけが知ること(正体・本当の目的など。Markdown)",
        en="what only the GM knows (Markdown)",
    )
    image: str | None = _image()


@model
class Branch(Model):
    """Where a scene leads (``next:``): a scene id and the condition, if written."""

    scene: str = key(kind=REF, ja="進む先のシーンのID", en="the scene it leads to")
    condition: str | None = key(
        kind=LINE,
        default=None,
        ja="進む条件(「情報を3つ集めたら」など)",
        en="when (e.g. once three clues are found)",
    )


@model
class Scene(Model):
    """A scene (``scenes:``): its phase (``opening``, ``middle``, ``climax``, ``ending``;
    Japanese names are read as these), what it uses (difficulty targets, chases and
    tables by name; enemies and NPCs by id) and where it leads (``next``: ``None`` when
    not written, then the following scene, or none after an ending). ``chases`` is
    ``None`` in a system whose difficulty targets cannot be chases."""

    id: str = key(kind=REF, ja="シーンのID", en="scene id")
    phase: str = key(
        kind=PHASE,
        ja="フェイズ(opening・middle・climax・ending。導入・ミドル・クライマックス・エンディングとも書ける)",
        en="phase (opening, middle, climax, ending; or their Japanese names)",
    )
    title: str = key(kind=NAME, ja="シーン名", en="scene title")
    text: str | None = key(
        kind=LONG,
        default=None,
        ja="シーンの内容(状況・描写・GMへの指示。Markdown)",
        en="what happens (Markdown)",
    )
    checks: tuple[str, ...] = key(
        kind=NAME,
        max_items=50,
        default=(),
        ja="このシーンの判定(difficulty_targets の name)",
        en="checks of this scene",
    )
    enemies: tuple[str, ...] = key(
        kind=REF,
        max_items=50,
        default=(),
        ja="このシーンの敵(enemies の id)",
        en="enemies of this scene",
    )
    chases: tuple[str, ...] | None = key(
        kind=NAME,
        max_items=50,
        default=None,
        file_default=list,
        ja="このシーンのチェイス(kind: chase の difficulty_targets の name)",
        en="chases of this scene",
    )
    """Only in systems whose difficulty targets can be chases (``kind: chase``)."""
    tables: tuple[str, ...] = key(
        kind=NAME,
        max_items=50,
        default=(),
        ja="このシーンで振る表(chase_tables の name)",
        en="tables of this scene",
    )
    npcs: tuple[str, ...] = key(
        kind=REF, max_items=50, default=(), ja="登場するNPC(npcs の id)", en="NPCs of this scene"
    )
    image: str | None = _image()
    next: tuple[Branch, ...] | None = key(
        max_items=20,
        default=None,
        ja=(
            "次のシーン(シーンID、または scene と condition)。"
            "省略時はリストの次のシーン、[] で終わり"
        ),
        en="the scenes it leads to (default: the next one in the list; [] ends)",
    )


def _no_rulings() -> Mapping[str, OptionValue]:
    return MappingProxyType({})


@model
class ScenarioModel(Model):
    """A whole validated scenario (its ``id`` filled from the file name when absent)."""

    system: str = key(
        kind=Enum(tuple(Choice(s, s, s) for s in SYSTEM_IDS)),
        ja="ルールシステムのID",
        en="the rule system id",
    )
    id: str = key(
        kind=ID,
        required=False,
        ja="シナリオのID(省略時はファイル名)",
        en="scenario id (default: file name)",
    )
    title: str = key(kind=NAME, ja="タイトル", en="title")
    author: str | None = key(kind=NAME, default=None, ja="作者", en="author")
    summary: str | None = key(
        kind=TEXT, default=None, ja="あらすじ(Markdown)", en="summary (Markdown)"
    )
    players: int | str | None = key(
        kind=IntOrRange(1, 20),
        default=None,
        ja="プレイヤー人数(3 や 3-5)",
        en="players (3 or 3-5)",
    )
    playtime: str | None = key(
        kind=Str(max_length=40),
        default=None,
        ja="プレイ時間の目安(「3〜4時間」など)",
        en="play time (e.g. 3-4 hours)",
    )
    overview: str | None = key(
        kind=LONG,
        default=None,
        ja="概要(GM向け。事件の背景や真相。Markdown)",
        en="overview for the GM (background, the truth; Markdown)",
    )
    trailer: str | None = key(
        kind=TEXT,
        default=None,
        ja="トレーラー(セッションの前にプレイヤーへ読み上げる予告。Markdown)",
        en="trailer read to the players (Markdown)",
    )
    handouts: tuple[Handout, ...] = key(
        max_items=20,
        checks=(unique_ids(),),
        default=(),
        ja="ハンドアウト(PCごとの導入。公開部分と秘匿)",
        en="handouts (one per PC: a public part and a secret)",
    )
    scenes: tuple[Scene, ...] = key(
        max_items=100,
        checks=(unique_ids(),),
        default=(),
        ja="シーン(導入からエンディングまで、進む順に)",
        en="scenes, from the opening to the ending",
    )
    npcs: tuple[Npc, ...] = key(
        max_items=100,
        checks=(unique_ids(),),
        default=(),
        ja="NPC(敵ではない登場人物)",
        en="NPCs (people who are not enemies)",
    )
    images: tuple[Image, ...] = key(
        max_items=100,
        checks=(unique_ids(),),
        default=(),
        ja="画像(地図・立ち絵など。本の中のファイル)",
        en="images (maps, portraits: files in the book)",
    )
    difficulty_targets: tuple[DifficultyTarget, ...] = key(
        max_items=100, default=(), ja="判定の目標値", en="difficulty targets"
    )
    enemies: tuple[Enemy, ...] = key(
        max_items=50, checks=(unique_ids(),), default=(), ja="エネミー", en="enemies"
    )
    missions: Missions | None = key(
        default=None, ja="ミッション(戦闘などの終了条件)", en="missions (when the battle ends)"
    )
    chase_tables: tuple[ChaseTable, ...] = key(
        max_items=20,
        default=(),
        ja="チェイス表などのランダム表",
        en="chase and other random tables",
    )
    rulings: Mapping[str, OptionValue] = key(
        keys=Str(max_length=64, pattern=r"[a-z][a-z0-9_]*", pattern_msg=Msg("t.option")),
        kind=Scalar(),
        max_items=50,
        default_factory=_no_rulings,
        ja="裁定オプション(オプション名: 値)",
        en="ruling options (name: value)",
    )
    """The checks of the system's options are the definition's (``saikoro.scenario._defs``)."""
    credits: tuple[str, ...] = key(
        kind=LINE,
        max_items=50,
        default=(),
        ja="クレジット(イラスト・素材・協力者など、1行に1件)",
        en="credits (art, assets, thanks: one per line)",
    )
    notice: str | None = key(
        kind=TEXT,
        default=None,
        ja="作者自身の権利表記(二次配布の可否など。Markdown)",
        en="the author's own rights notice (Markdown)",
    )
    party: tuple[PC, ...] | None = key(
        min_items=1,
        max_items=20,
        checks=(unique_names("dup.pc"),),
        default=None,
        ja="想定するPCたち(省略時は人数に合わせた標準パーティ)",
        en="the PCs the scenario is written for (default: a reference party)",
    )
    balance: Balance | None = key(default=None, ja="バランスの目標", en="balance targets")

    def enemy(self, enemy_id: str) -> Enemy:
        """The enemy with id ``enemy_id`` (``KeyError`` if none)."""
        for e in self.enemies:
            if e.id == enemy_id:
                return e
        raise KeyError(enemy_id)

    def image(self, image_id: str) -> Image:
        """The image with id ``image_id`` (``KeyError`` if none)."""
        for i in self.images:
            if i.id == image_id:
                return i
        raise KeyError(image_id)

    def next_scenes(self, scene: Scene) -> tuple[Branch, ...]:
        """Where ``scene`` leads: its ``next``, else the following scene (none after the
        last scene or an ending)."""
        if scene.next is not None:
            return scene.next
        index = self.scenes.index(scene)
        if scene.phase == "ending" or index + 1 >= len(self.scenes):
            return ()
        return (Branch(scene=self.scenes[index + 1].id),)
