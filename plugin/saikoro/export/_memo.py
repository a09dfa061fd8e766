"""The memo of an exported enemy: every field of its stat block, in Japanese.

The labels come from the scenario definitions (the same ones that validate the file
and write the field reference), so every system's enemies, and every field a system
adds later, are covered: ``weapon: long-blade`` becomes ``攻撃方法の種類: ロングブレード``.

>>> from saikoro.scenario.model import enemy_model
>>> enemy = enemy_model("getb", {"id": "o", "name": "オウガテイル", "hp": 40, "ap": 6, "st": 3,
...          "abilities": {"strength": 4, "agility": 3, "intellect": 1, "endurance": 4},
...          "placement": "out3", "weak": ["fire", "ice"],
...          "attacks": [{"name": "噛みつき", "weapon": "long-blade", "element": "physical",
...                       "power": 5, "range": "0-1", "effect": "転倒させる"}],
...          "guard": {"shield": "buckler", "armor": 2}})
>>> print(enemy_memo("getb", enemy))
能力値: 筋力 4 ／ 敏捷 3 ／ 知力 1 ／ 耐久 4
HP: 40
最大AP: 6
最大ST: 3
初期配置のセル: out3
【攻撃】噛みつき
  攻撃方法の種類: ロングブレード ／ 属性: 物理 ／ 威力: 5 ／ 射程: 0-1
  追加の効果: 転倒させる
ガード: 盾の種類 バックラー ／ 装甲値 2
弱点属性: 炎・氷
"""

from __future__ import annotations

from collections.abc import Mapping

from saikoro.scenario import (
    DEFINITIONS,
    Bool,
    Enum,
    Field,
    ListOf,
    MapOf,
    Obj,
    Str,
    Type,
    short_label,
)
from saikoro.scenario.model import Enemy, Model, Npc, to_data

from ._model import Character

__all__ = [
    "enemy_definition",
    "enemy_memo",
    "model_lines",
    "npc_character",
    "npc_memo",
    "pc_memo",
    "short_label",
]

_SKIP = ("id", "name")


def enemy_definition(system: str) -> Obj:
    """The definition of one enemy of ``system``'s scenarios."""
    enemies = DEFINITIONS[system].field("enemies").type
    if not isinstance(enemies, ListOf) or not isinstance(enemies.item, Obj):
        raise TypeError(f"{system}: enemies are not a list of mappings")
    return enemies.item


def _set(obj: Model, field: Field) -> object:
    """The value of ``field`` on ``obj`` (``None`` when the scenario leaves it out)."""
    value: object = getattr(obj, field.name)
    return value


def _value(kind: Type, value: object) -> str:
    """One value as text: enum values by their Japanese name, lists joined with ・."""
    if isinstance(kind, Enum):
        for choice in kind.choices:
            if choice.value == value:
                return short_label(choice.ja)
        return str(value)
    if isinstance(kind, Bool):
        return "あり" if value else "なし"
    if isinstance(kind, ListOf) and isinstance(value, tuple):
        return "・".join(_value(kind.item, v) for v in value)
    if isinstance(kind, Obj) and isinstance(value, Model):
        return " ／ ".join(
            _pair(f, _set(value, f), " ") for f in kind.fields if _set(value, f) is not None
        )
    if isinstance(kind, MapOf) and isinstance(value, Mapping):
        return " ／ ".join(f"{k} {_value(kind.value, v)}" for k, v in value.items())
    if isinstance(kind, Str):
        return str(value).strip()
    return str(value)


def _pair(field: Field, value: object, sep: str = ": ") -> str:
    return f"{short_label(field.ja or field.name)}{sep}{_value(field.type, value)}"


def _is_text(field: Field) -> bool:
    return isinstance(field.type, Str) and field.type.markdown


def _empty(value: object) -> bool:
    """Left out of the memo: absent, false, or an empty list, mapping or object."""
    return value is None or value is False or to_data(value) in ([], {})


def _lines(obj: Obj, data: Model, indent: str = "", skip: tuple[str, ...] = _SKIP) -> list[str]:
    out: list[str] = []
    for field in obj.fields:
        if field.name in skip:
            continue
        value = _set(data, field)
        if _empty(value):
            continue
        kind = field.type
        if isinstance(kind, ListOf) and isinstance(kind.item, Obj) and isinstance(value, tuple):
            out.extend(_entries(field, kind.item, value, indent))
        elif isinstance(kind, Obj) and isinstance(value, Model) and _has_text(kind):
            out.append(f"{indent}【{short_label(field.ja or field.name)}】")
            out.extend(_lines(kind, value, indent + "  "))
        elif _is_text(field):
            text = str(value).strip().replace("\n", "\n" + indent + "  ")
            out.append(f"{indent}{short_label(field.ja or field.name)}: {text}")
        else:
            out.append(indent + _pair(field, value))
    return out


def _has_text(obj: Obj) -> bool:
    return any(_is_text(f) for f in obj.fields)


def _entries(field: Field, item: Obj, values: tuple[object, ...], indent: str) -> list[str]:
    """A list of mappings (attacks, skills): a heading per entry, short fields on one line."""
    out: list[str] = []
    label = short_label(field.ja or field.name)
    for entry in values:
        if not isinstance(entry, Model):
            continue
        name = getattr(entry, "name", None)
        out.append(f"{indent}【{label}】{name or ''}".rstrip())
        short = [
            _pair(f, _set(entry, f))
            for f in item.fields
            if f.name not in _SKIP
            and _set(entry, f) is not None
            and not _is_text(f)
            and _set(entry, f) is not False
        ]
        if short:
            out.append(indent + "  " + " ／ ".join(short))
        out.extend(
            f"{indent}  {short_label(f.ja or f.name)}: "
            + str(_set(entry, f)).strip().replace("\n", "\n" + indent + "    ")
            for f in item.fields
            if _is_text(f) and _set(entry, f)
        )
    return out


def model_lines(obj: Obj, data: Model, *, skip: tuple[str, ...] = _SKIP) -> list[str]:
    """Every field of ``data`` (defined by ``obj``) but ``skip``, one per line, in Japanese."""
    return _lines(obj, data, skip=skip)


def enemy_memo(system: str, enemy: Enemy) -> str:
    """Every field of ``enemy`` but its id and name, one per line, in Japanese.

    Attacks and skills get a line each with their fields, then their effects; the notes
    come where the definition puts them (last).
    """
    return "\n".join(_lines(enemy_definition(system), enemy))


def pc_memo(system: str, pc: Model) -> str:
    """Every field of a PC of ``party:`` but its name, one per line, in Japanese (as an
    enemy's memo: the labels of the system's definition)."""
    party = DEFINITIONS[system].field("party").type
    if not isinstance(party, ListOf) or not isinstance(party.item, Obj):
        raise TypeError(f"{system}: party is not a list of mappings")
    return "\n".join(_lines(party.item, pc))


def npc_memo(npc: Npc) -> str:
    """An NPC's memo: who they are, then what only the GM knows (marked as such).

    >>> print(npc_memo(Npc(id="m", name="巫女", text="社を守る。", secret="正体は狐。")))
    社を守る。
    【GMだけが知ること】
    正体は狐。
    """
    parts = []
    if npc.text:
        parts.append(npc.text.strip())
    if npc.secret:
        parts.append("【GMだけが知ること】\n" + npc.secret.strip())
    return "\n".join(parts)


def npc_character(npc: Npc, *, url: str = "") -> Character:
    """The VTT character of an NPC: its name and memo (an NPC has no stat block), and a
    link back to its place on the published page (``""``: none)."""
    return Character(name=npc.name, memo=npc_memo(npc), external_url=url)
