"""JSON Schema and field reference, generated from the same definitions as validation.

The schema is written for editors as much as for validators: every field carries the
field reference's Japanese text (``title``: the short name, ``description``: the whole
text, ``markdownDescription``: that plus the English text, the expected value, the
default and the choices), enum values carry their meaning (``markdownEnumDescriptions``)
and lists of mappings an example entry, so yaml-language-server explains each key on
hover and in completion.

>>> s = json_schema()
>>> s["$schema"], len(s["allOf"])
('https://json-schema.org/draft/2020-12/schema', 5)
>>> json_schema("getb")["properties"]["enemies"]["items"]["required"][:3]
['id', 'name', 'abilities']
>>> hp = json_schema("getb")["properties"]["enemies"]["items"]["properties"]["hp"]
>>> hp["title"], hp["description"]
('HP', 'HP')
>>> print(hp["markdownDescription"])
**HP** — hit points
<BLANKLINE>
値: 1 以上 99999 以下の整数 ／ 必須
>>> [f["name"] for f in field_reference("getb")["fields"]][:4]
['system', 'id', 'title', 'author']
"""

from __future__ import annotations

import copy
import re
from functools import cache
from typing import Any

from saikoro import systems

from ._containers import Field, ListOf, MapOf, Obj
from ._defs import DEFINITIONS
from ._problems import Msg, render
from ._schema import Bool, Enum, Int, IntOrRange, Str, Type

__all__ = ["SCHEMA_ID", "field_reference", "json_schema", "short_label"]

SCHEMA_ID = "https://saikoro.invalid/schema/scenario.json"
"""The ``$id`` of the published schema (the site replaces it with its own URL)."""


_EXPLANATION = re.compile(r"[(（。→]")


def short_label(text: str) -> str:
    """A field's Japanese description cut before its explanation (brackets, a sentence, →).

    >>> short_label("射程(0-1 など、セル数)"), short_label("ロングブレード(ダメージ3D)")
    ('射程', 'ロングブレード')
    >>> short_label("得意分野(スタイル)。ゾロ目の効果が働く"), short_label("能力名→レベル")
    ('得意分野', '能力名')
    """
    return _EXPLANATION.split(text, maxsplit=1)[0].strip() or text


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _markdown(field: Field) -> str:
    """The hover text of a field: its descriptions, expected value, default, choices."""
    head = f"**{field.ja or field.name}**"
    if field.en:
        head += f" — {field.en}"
    facts = [f"値: {render(field.type.expected(), 'ja')}"]
    if field.required:
        facts.append("必須")
    elif field.default is not None and not callable(field.default):
        facts.append(f"既定値: `{_show(field.default)}`")
    return head + "\n\n" + " ／ ".join(facts)


def _example(kind: Type, depth: int = 0) -> Any:
    """A small valid value of ``kind`` (``None`` when there is no sensible one)."""
    if isinstance(kind, Enum):
        return kind.values[0]
    if isinstance(kind, Bool):
        return False
    if isinstance(kind, Int):
        return min(max(kind.low, 3), kind.high)
    if isinstance(kind, IntOrRange):
        return f"{kind.low}-{min(kind.low + 1, kind.high)}"
    if isinstance(kind, Str):
        if kind.suggest:
            return kind.suggest[0]
        return "example-1" if kind.pattern else None
    if isinstance(kind, Obj) and depth < 4:
        out: dict[str, Any] = {}
        for f in kind.fields:
            if not f.required:
                continue
            value = _example(f.type, depth + 1)
            if value is None and isinstance(f.type, Str):
                value = short_label(f.ja or f.name)
            if value is None:
                return None
            out[f.name] = value
        return out
    if isinstance(kind, ListOf) and depth < 4:
        item = _example(kind.item, depth + 1)
        return None if item is None else [item]
    return None


def _valid_example(system: str, field: Field) -> Any:
    """A one-entry example of a top-level list, if the validator accepts it as written."""
    import json as _json

    from ._validate import validate_text

    example = _example(field.type)
    if not example:
        return None
    text = _json.dumps({"system": system, "title": "例", field.name: example}, ensure_ascii=False)
    return example if validate_text(text, "example.yaml").ok else None


def _placeholder(f: Field, schema: dict[str, Any]) -> None:
    """A valid value for an editor to insert for an integer field that has no default.

    Completing a new enemy, yaml-language-server writes each required key with the
    field's ``default`` as the placeholder, else ``0`` (``hp: 0``, which validation
    refuses); completing one key, the field's first ``examples`` entry. A required field
    gets a valid ``default`` (never applied: the key must be written), an optional one
    an ``examples`` entry (its absence keeps its meaning).
    """
    if not isinstance(f.type, Int) or "default" in schema:
        return
    value = _example(f.type)
    if f.required:
        schema["default"] = value
    else:
        schema.setdefault("examples", [value])


def _annotate(kind: Type, schema: dict[str, Any]) -> None:
    """Add the field reference's texts to ``schema`` (the JSON Schema of ``kind``)."""
    if isinstance(kind, Obj):
        for f in kind.fields:
            sub = schema.get("properties", {}).get(f.name)
            if sub is None:
                continue
            _annotate(f.type, sub)
            _placeholder(f, sub)
            ja = f.ja or f.name
            sub["title"] = short_label(ja)
            sub["description"] = ja
            sub["markdownDescription"] = _markdown(f)
    elif isinstance(kind, ListOf) and "items" in schema:
        _annotate(kind.item, schema["items"])
    elif isinstance(kind, MapOf) and isinstance(schema.get("additionalProperties"), dict):
        _annotate(kind.value, schema["additionalProperties"])
    elif isinstance(kind, Enum):
        same = [f"{value} と同じ" for value in kind.aliases.values()]
        schema["enumDescriptions"] = [c.ja for c in kind.choices] + same
        schema["markdownEnumDescriptions"] = [
            c.ja if c.en in {c.ja, c.value} else f"{c.ja} — {c.en}" for c in kind.choices
        ] + [f"`{value}` と同じ" for value in kind.aliases.values()]


@cache
def _system_schema(system: str) -> dict[str, Any]:
    definition = DEFINITIONS[system]
    schema = definition.json_schema()
    _annotate(definition, schema)
    for name in ("difficulty_targets", "enemies", "chase_tables"):
        example = _valid_example(system, definition.field(name))
        if example is not None:
            schema["properties"][name]["examples"] = [example]
    schema["properties"]["system"] = {
        "const": system,
        "title": "システム",
        "description": "ルールシステムのID",
        "markdownDescription": f"**ルールシステムのID** — the rule system id\n\n値: `{system}`",
    }
    rulings = _rulings_schema(system)
    if rulings is not None:
        schema["properties"]["rulings"] = rulings
    return schema


def _system_name(system: str) -> str:
    from saikoro.systems import get

    return get(system).name or system


def _rulings_schema(system: str) -> dict[str, Any] | None:
    """The ``rulings:`` mapping with one property per ruling option of the system."""
    from saikoro.systems import get

    rulings = [r for r in type(get(system)).rulings if r.option]
    props: dict[str, Any] = {}
    for r in rulings:
        kind = {bool: "boolean", int: "integer", str: "string"}[type(r.default)]
        prop: dict[str, Any] = {
            "type": kind,
            "default": r.default,
            "title": r.title,
            "description": f"{r.title}: {r.decision}",
        }
        if r.choices:
            prop["enum"] = list(r.choices)
        props[r.option_name] = prop
    return {
        "type": "object",
        "title": "裁定オプション",
        "description": "裁定オプション(オプション名: 値)",
        "properties": props,
        "additionalProperties": False,
    }


def json_schema(system: str | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of scenario files, or of one system's files.

    The whole schema dispatches on ``system`` with one ``if``/``then`` per system.
    """
    head: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID if system is None else SCHEMA_ID.replace(".json", f"-{system}.json"),
        "title": "saikoro シナリオ" + ("" if system is None else f" ({system})"),
        "description": "saikoro のシナリオファイル(system で選んだルールのエネミー・判定・表)",
    }
    if system is not None:
        return {**head, **copy.deepcopy(_system_schema(system))}
    ids = systems.SYSTEM_IDS  # the registry, read when a whole schema is made
    return {
        **head,
        "type": "object",
        "required": ["system", "title"],
        "properties": {
            "system": {
                "enum": list(ids),
                "title": "システム",
                "description": "ルールシステムのID",
                "markdownEnumDescriptions": [_system_name(s) for s in ids],
            }
        },
        "allOf": [
            {
                "if": {"properties": {"system": {"const": s}}, "required": ["system"]},
                "then": copy.deepcopy(_system_schema(s)),
            }
            for s in ids
        ],
    }


def _render(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"en": render(value, "en"), "ja": render(value, "ja")}
    if isinstance(value, dict):
        return {k: _render(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_render(v) for v in value]
    return value


def field_reference(system: str) -> dict[str, Any]:
    """Every field of ``system``'s scenarios, nested as in the file.

    Each field has ``name``, ``required``, ``default``, ``ja``/``en`` descriptions, a
    ``type`` (string, markdown, integer, boolean, enum, int-or-range, list, mapping, map)
    and ``expected`` (``{"en": ..., "ja": ...}``); enums list their ``choices``, lists
    their ``item``, mappings their ``fields``, maps their ``key`` and ``value``.
    """
    return dict(_render(DEFINITIONS[system].doc()))
