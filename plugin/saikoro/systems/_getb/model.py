"""GOD EATER TABLE BURST: abilities, AP/ST/OP, attacks by weapon and element, guard, placement.

Every key of a getb scenario is declared here once (:func:`~saikoro.scenario.model.key`);
the definition (:mod:`.scenario`) is made from these classes.
"""

from __future__ import annotations

from saikoro.scenario import NAME, TEXT, Choice, Enum, Int, IntOrRange, Msg, Str
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
    "ELEMENTS",
    "MODEL",
    "SHIELDS",
    "WEAPONS",
    "GetbAbilities",
    "GetbAttack",
    "GetbBullet",
    "GetbEnemy",
    "GetbGuard",
    "GetbPC",
    "GetbScenario",
    "GetbTarget",
]

WEAPONS = (
    Choice("short-blade", "ショートブレード(ダメージ2D)", "short blade (2 damage dice)"),
    Choice("long-blade", "ロングブレード(ダメージ3D)", "long blade (3 damage dice)"),
    Choice("buster-blade", "バスターブレード(ダメージ4D)", "buster blade (4 damage dice)"),
    Choice("shooting", "射撃", "shooting"),
    Choice("skill", "スキル", "skill"),
)
ELEMENTS = (
    Choice("physical", "物理", "physical"),
    Choice("fire", "炎", "fire"),
    Choice("ice", "氷", "ice"),
    Choice("thunder", "雷", "thunder"),
    Choice("divine", "神", "divine"),
)
SHIELDS = (
    Choice("buckler", "バックラー(ガード2D)", "buckler (2 guard dice)"),
    Choice("shield", "シールド(ガード3D)", "shield (3 guard dice)"),
    Choice("tower", "タワー(ガード4D)", "tower (4 guard dice)"),
)
CELL = Str(
    max_length=8,
    pattern=r"centre|(?:in|out)(?:[1-9]|1[0-2])",
    pattern_msg=Msg("t.cell"),
    suggest=("centre", *(f"in{i}" for i in range(1, 13)), *(f"out{i}" for i in range(1, 13))),
)
"""A cell of the dial-clock map: ``in1``..``in12``, ``out1``..``out12`` or ``centre``."""


@model
class GetbAbilities(Model):
    """筋力・敏捷・知力・耐久."""

    strength: int = key(kind=Int(0, 30), ja="筋力", en="strength")
    agility: int = key(kind=Int(0, 30), ja="敏捷", en="agility")
    intellect: int = key(kind=Int(0, 30), ja="知力", en="intellect")
    endurance: int = key(kind=Int(0, 30), ja="耐久", en="endurance")


ABILITIES = choices_of(GetbAbilities)
"""The four abilities, as a check names them (``check: strength``)."""


@model
class GetbAttack(Model):
    """An attack: weapon kind, element, power, range in cells, damage dice (``None``: by kind)."""

    name: str = key(kind=NAME, ja="攻撃の名前", en="attack name")
    weapon: str = key(kind=Enum(WEAPONS), ja="攻撃方法の種類", en="kind of attack")
    element: str = key(kind=Enum(ELEMENTS), ja="属性", en="element")
    power: int = key(kind=Int(0, 999), ja="威力", en="power")
    range: int | str = key(
        kind=IntOrRange(0, 24),
        default="0-1",
        ja="射程(0-1 など、セル数)",
        en="range in cells (0-1...)",
    )
    dice: int | None = key(
        kind=Int(0, 20),
        default=None,
        ja="ダメージ判定のダイス数(省略時は種類から)",
        en="damage dice (default: by kind)",
    )
    effect: str | None = key(kind=TEXT, default=None, ja="追加の効果", en="extra effect")


@model
class GetbGuard(Model):
    """The guard: shield kind and armour."""

    shield: str = key(kind=Enum(SHIELDS), ja="盾の種類", en="shield")
    armor: int = key(kind=Int(0, 99), ja="装甲値", en="armour value")


@model
class GetbEnemy(Enemy):
    """A GETB enemy on the dial-clock map."""

    abilities: GetbAbilities = key(ja="能力値(筋力・敏捷・知力・耐久)", en="abilities")
    hp: int = key(kind=Int(1, 99999), ja="HP", en="hit points")
    ap: int = key(kind=Int(0, 99), ja="最大AP", en="maximum AP")
    st: int = key(kind=Int(0, 99), ja="最大ST", en="maximum ST")
    op: int | None = key(kind=Int(0, 99), default=None, ja="最大OP", en="maximum OP")
    placement: str = key(
        kind=CELL, ja="初期配置のセル(in1〜in12, out1〜out12, centre)", en="starting cell"
    )
    attacks: tuple[GetbAttack, ...] = key(min_items=1, max_items=20, ja="攻撃", en="attacks")
    guard: GetbGuard | None = key(
        default=None, ja="ガード(盾と装甲値)", en="guard (shield and armour)"
    )
    weak: tuple[str, ...] | None = key(
        kind=Enum(ELEMENTS), max_items=5, default=None, ja="弱点属性", en="weak elements"
    )


@model
class GetbTarget(DifficultyTarget):
    """A check: 1D10 + ``check`` ability against ``target``."""

    check: str = key(kind=Enum(ABILITIES), ja="使う能力値", en="the ability used")
    target: int = key(
        kind=Int(1, 99),
        ja="目標値(1D10+能力値がこれ以上で成功)",
        en="target (1D10 + ability must reach it)",
    )


@model
class GetbBullet(Model):
    """A bullet for the PC's gun: element, damage dice it adds to the gun's 1, range."""

    name: str = key(kind=NAME, ja="バレットの名前", en="bullet name")
    element: str = key(kind=Enum(ELEMENTS), default="physical", ja="属性", en="element")
    dice: int = key(
        kind=Int(0, 20),
        default=0,
        ja="バレットのアビリティで銃の1個に足すダメージダイス",
        en="damage dice the bullet adds to the gun's one",
    )
    range: int | str | None = key(
        kind=IntOrRange(0, 24),
        default=None,
        ja="射程(省略時は gun_range)",
        en="range in cells (default: gun_range)",
    )


@model
class GetbPC(PC):
    """A GETB PC (``party:``)."""

    abilities: GetbAbilities = key(ja="能力値(筋力・敏捷・知力・耐久)", en="abilities")
    hp: int = key(kind=Int(1, 99999), ja="HP", en="hit points")
    ap: int = key(kind=Int(0, 99), ja="最大AP", en="maximum AP")
    st: int = key(kind=Int(0, 99), ja="最大ST", en="maximum ST")
    op: int = key(kind=Int(0, 99), default=0, ja="最大OP", en="maximum OP")
    weapon: str = key(
        kind=Enum(WEAPONS[:3]), default="long-blade", ja="近接武器の種類", en="melee weapon"
    )
    power: int = key(kind=Int(0, 999), default=5, ja="近接武器の威力", en="melee weapon power")
    gun_power: int | None = key(
        kind=Int(0, 999), default=None, ja="銃の威力(省略時は射撃しない)", en="gun power"
    )
    gun_range: int | str = key(kind=IntOrRange(0, 24), default="1-3", ja="銃の射程", en="gun range")
    shield: str = key(kind=Enum(SHIELDS), default="buckler", ja="盾の種類", en="shield")
    armor: int = key(kind=Int(0, 99), default=0, ja="装甲値", en="armour value")
    element: str = key(
        kind=Enum(ELEMENTS), default="physical", ja="近接武器の属性", en="melee weapon element"
    )
    bullets: tuple[GetbBullet, ...] | None = key(
        min_items=1,
        max_items=20,
        default=None,
        ja="銃のバレット(省略時は gun_power があれば物理・追加ダイスなしの1種)",
        en="the gun's bullets (default: one physical bullet when gun_power is given)",
    )


@model
class GetbScenario(ScenarioModel):
    """A GETB scenario."""

    difficulty_targets: tuple[GetbTarget, ...] = ()
    enemies: tuple[GetbEnemy, ...] = ()
    party: tuple[GetbPC, ...] | None = None


MODEL = GetbScenario
"""The model of getb scenarios (its system's ``model`` part)."""
