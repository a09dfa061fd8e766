"""JSON Schema and field reference, generated from the same definitions as validation.

>>> s = json_schema()
>>> s["$schema"], len(s["allOf"])
('https://json-schema.org/draft/2020-12/schema', 5)
>>> json_schema("getb")["properties"]["enemies"]["items"]["required"][:3]
['id', 'name', 'abilities']
>>> [f["name"] for f in field_reference("getb")["fields"]][:4]
['system', 'id', 'title', 'summary']
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from saikoro.systems import SYSTEM_IDS

from .defs import DEFINITIONS
from .problems import Msg, render

__all__ = ["SCHEMA_ID", "field_reference", "json_schema"]

SCHEMA_ID = "https://saikoro.invalid/schema/scenario.json"
"""The ``$id`` of the published schema (the site replaces it with its own URL)."""


@cache
def _system_schema(system: str) -> dict[str, Any]:
    schema = DEFINITIONS[system].json_schema()
    schema["properties"]["system"] = {"const": system, "description": "ルールシステムのID"}
    rulings = _rulings_schema(system)
    if rulings is not None:
        schema["properties"]["rulings"] = rulings
    return schema


def _rulings_schema(system: str) -> dict[str, Any] | None:
    """The ``rulings:`` mapping with one property per ruling option of the system."""
    from saikoro.systems import get

    rulings = [r for r in type(get(system)).rulings if r.option]
    props: dict[str, Any] = {}
    for r in rulings:
        kind = {bool: "boolean", int: "integer", str: "string"}[type(r.default)]
        prop: dict[str, Any] = {"type": kind, "default": r.default, "description": r.title}
        if r.choices:
            prop["enum"] = list(r.choices)
        props[r.option_name] = prop
    return {
        "type": "object",
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
        "title": "saikoro scenario" + ("" if system is None else f" ({system})"),
    }
    if system is not None:
        return {**head, **copy.deepcopy(_system_schema(system))}
    return {
        **head,
        "type": "object",
        "required": ["system", "title"],
        "properties": {"system": {"enum": list(SYSTEM_IDS), "description": "ルールシステムのID"}},
        "allOf": [
            {
                "if": {"properties": {"system": {"const": s}}, "required": ["system"]},
                "then": copy.deepcopy(_system_schema(s)),
            }
            for s in SYSTEM_IDS
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
