"""The memo of an exported enemy: every field of its stat block, in Japanese.

The labels come from the scenario definitions (the same ones that validate the file
and write the field reference), so every system's enemies, and every field a system
adds later, are covered: ``weapon: long-blade`` becomes ``攻撃方法の種類: ロングブレード``.

>>> enemy = {"id": "o", "name": "オウガテイル", "hp": 40, "ap": 6, "st": 3,
...          "abilities": {"strength": 4, "agility": 3, "intellect": 1, "endurance": 4},
...          "placement": "out3", "weak": ["fire", "ice"],
...          "attacks": [{"name": "噛みつき", "weapon": "long-blade", "element": "physical",
...                       "power": 5, "range": "0-1", "effect": "転倒させる"}],
...          "guard": {"shield": "buckler", "armor": 2}}
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

from collections.abc import Mapping, Sequence
from typing import Any

from saikoro.scenario.containers import Field, ListOf, MapOf, Obj
from saikoro.scenario.defs import DEFINITIONS
from saikoro.scenario.export import short_label
from saikoro.scenario.schema import Bool, Enum, Str, Type

__all__ = ["enemy_definition", "enemy_memo", "short_label"]

_SKIP = ("id", "name")


def enemy_definition(system: str) -> Obj:
    """The definition of one enemy of ``system``'s scenarios."""
    enemies = DEFINITIONS[system].field("enemies").type
    if not isinstance(enemies, ListOf) or not isinstance(enemies.item, Obj):
        raise TypeError(f"{system}: enemies are not a list of mappings")
    return enemies.item


def _value(kind: Type, value: Any) -> str:
    """One value as text: enum values by their Japanese name, lists joined with ・."""
    if isinstance(kind, Enum):
        for choice in kind.choices:
            if choice.value == value:
                return short_label(choice.ja)
        return str(value)
    if isinstance(kind, Bool):
        return "あり" if value else "なし"
    if isinstance(kind, ListOf) and isinstance(value, Sequence) and not isinstance(value, str):
        return "・".join(_value(kind.item, v) for v in value)
    if isinstance(kind, Obj) and isinstance(value, Mapping):
        return " ／ ".join(_pair(f, value[f.name], " ") for f in kind.fields if f.name in value)
    if isinstance(kind, MapOf) and isinstance(value, Mapping):
        return " ／ ".join(f"{k} {_value(kind.value, v)}" for k, v in value.items())
    if isinstance(kind, Str):
        return str(value).strip()
    return str(value)


def _pair(field: Field, value: Any, sep: str = ": ") -> str:
    return f"{short_label(field.ja or field.name)}{sep}{_value(field.type, value)}"


def _is_text(field: Field) -> bool:
    return isinstance(field.type, Str) and field.type.markdown


def _lines(obj: Obj, data: Mapping[str, Any], indent: str = "") -> list[str]:
    out: list[str] = []
    for field in obj.fields:
        if field.name in _SKIP or field.name not in data:
            continue
        value = data[field.name]
        if value is None or value is False or (isinstance(value, list | dict) and not value):
            continue
        kind = field.type
        if isinstance(kind, ListOf) and isinstance(kind.item, Obj):
            out.extend(_entries(field, kind.item, value, indent))
        elif isinstance(kind, Obj) and isinstance(value, Mapping) and _has_text(kind):
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


def _entries(field: Field, item: Obj, values: Sequence[Any], indent: str) -> list[str]:
    """A list of mappings (attacks, skills): a heading per entry, short fields on one line."""
    out: list[str] = []
    label = short_label(field.ja or field.name)
    for entry in values:
        if not isinstance(entry, Mapping):
            continue
        out.append(f"{indent}【{label}】{entry.get('name', '')}".rstrip())
        short = [
            _pair(f, entry[f.name])
            for f in item.fields
            if f.name not in _SKIP
            and f.name in entry
            and not _is_text(f)
            and entry[f.name] is not False
        ]
        if short:
            out.append(indent + "  " + " ／ ".join(short))
        out.extend(
            f"{indent}  {short_label(f.ja or f.name)}: "
            + str(entry[f.name]).strip().replace("\n", "\n" + indent + "    ")
            for f in item.fields
            if _is_text(f) and entry.get(f.name)
        )
    return out


def enemy_memo(system: str, enemy: Mapping[str, Any]) -> str:
    """Every field of ``enemy`` but its id and name, one per line, in Japanese.

    Attacks and skills get a line each with their fields, then their effects; the notes
    come where the definition puts them (last).
    """
    return "\n".join(_lines(enemy_definition(system), enemy))
