"""Container types of the schema language: lists, known-key mappings, free mappings.

>>> from saikoro.scenario._loader import load_yaml
>>> from saikoro.scenario._schema import Ctx, Int
>>> t = Obj((Field("hp", Int(1, 999), required=True, ja="HP", en="hit points"),))
>>> ctx = Ctx("s.yaml")
>>> t.check(load_yaml(b"hpp: 40\\n", "s.yaml"), "scenario", ctx)
<invalid>
>>> print(ctx.problems[0].format())
s.yaml:1:1: error: scenario.hpp: unknown key 'hpp' (hint: did you mean 'hp'?)
>>> t.json_schema()["properties"]["hp"]
{'type': 'integer', 'minimum': 1, 'maximum': 999, 'description': 'HP'}
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from ._loader import Node, join_path
from ._problems import Msg, show_value
from ._schema import INVALID, Check, Ctx, Tolerant, Type, did_you_mean

__all__ = ["Field", "ListOf", "MapOf", "Obj"]


def _tolerant(checks: tuple[Check, ...], partial: Any, node: Node, path: str, ctx: Ctx) -> None:
    """Keep what is valid of an invalid container (its parents' tolerant checks read it)
    and run its own tolerant checks on it."""
    ctx.partial[path] = partial
    for check in checks:
        if isinstance(check, Tolerant):
            check(partial, node, path, ctx)


@dataclass(frozen=True)
class ListOf(Type):
    """A list of ``item`` values."""

    item: Type
    min_items: int = 0
    max_items: int = 200
    checks: tuple[Check, ...] = ()

    def expected(self) -> Msg:
        return Msg("t.list", (self.item.expected(),))

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        if node.kind != "seq":
            # `enemies:` then `  id: a`: the list's items begin with '- '
            hint = Msg("hint.list_dash") if node.kind == "map" else None
            return ctx.wrong(node, path, self.expected(), hint)
        items: list[Node] = node.value
        if len(items) < self.min_items:
            ctx.error(node, path, Msg("too_few", (self.min_items, len(items))))
            return INVALID
        if len(items) > self.max_items:
            ctx.error(node, path, Msg("too_many", (self.max_items, len(items))))
            return INVALID
        out = []
        ok = True
        for i, child in enumerate(items):
            child_path = join_path(path, i)
            ctx.nodes[child_path] = child
            value = self.item.check(child, child_path, ctx)
            ok = ok and value is not INVALID
            out.append(value)
        if ok:
            for check in self.checks:
                check(out, node, path, ctx)
            return out
        partial = [
            ctx.partial.get(join_path(path, i), INVALID) if v is INVALID else v
            for i, v in enumerate(out)
        ]
        _tolerant(self.checks, partial, node, path, ctx)
        return INVALID

    def json_schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.item.json_schema()}
        if self.min_items:
            out["minItems"] = self.min_items
        out["maxItems"] = self.max_items
        return out

    def doc(self) -> dict[str, Any]:
        return {"type": "list", "expected": self.expected(), "item": self.item.doc()}


@dataclass(frozen=True)
class Field:
    """One key of an :class:`Obj`.

    Attributes:
        name: the key.
        type: its type.
        required: whether it must be present.
        default: filled in when absent (``None``: left out).
        ja: description in Japanese (docs, JSON Schema).
        en: description in English.
    """

    name: str
    type: Type
    required: bool = False
    default: Any = None
    ja: str = ""
    en: str = ""


@dataclass(frozen=True)
class Obj(Type):
    """A mapping with known keys; unknown keys are errors with a did-you-mean.

    ``checks`` run on the validated dict when every field is valid.
    """

    fields: tuple[Field, ...]
    checks: tuple[Check, ...] = ()
    title: str = ""

    def field(self, name: str) -> Field:
        """The field named ``name``."""
        return next(f for f in self.fields if f.name == name)

    def expected(self) -> Msg:
        return Msg("t.mapping")

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        if node.kind != "map":
            return ctx.wrong(node, path, self.expected())
        pairs: dict[object, tuple[Node, Node]] = node.value
        names = [f.name for f in self.fields]
        ok = True
        meant: set[str] = set()
        for key, (key_node, _) in pairs.items():
            if key not in names:
                ok = False
                close = difflib.get_close_matches(str(key), names, n=1, cutoff=0.6)
                if close and close[0] not in pairs:
                    meant.add(close[0])
                hint = did_you_mean(str(key), names) or Msg("hint.known", (", ".join(names),))
                if str(key)[:1] == "\u3000":  # indented with full-width spaces
                    hint = Msg("hint.yaml.wide_space")
                ctx.error(
                    key_node,
                    join_path(path, str(key)),
                    Msg("unknown_key", (show_value(key),)),
                    hint,
                )
        out: dict[str, Any] = {}
        partial: dict[str, Any] = {}
        for f in self.fields:
            pair = pairs.get(f.name)
            child_path = join_path(path, f.name)
            if pair is None:
                if f.required:
                    ok = False
                    if f.name not in meant:
                        ctx.error(node, child_path, Msg("missing", (f.name, f.type.expected())))
                elif f.default is not None:
                    out[f.name] = f.default() if callable(f.default) else f.default
                continue
            ctx.nodes[child_path] = pair[1]
            value = f.type.check(pair[1], child_path, ctx)
            if value is INVALID:
                ok = False
                if child_path in ctx.partial:
                    partial[f.name] = ctx.partial[child_path]
            else:
                out[f.name] = value
        if ok:
            for check in self.checks:
                check(out, node, path, ctx)
            return out
        _tolerant(self.checks, {**out, **partial}, node, path, ctx)
        return INVALID

    def json_schema(self) -> dict[str, Any]:
        props: dict[str, Any] = {}
        for f in self.fields:
            sub = dict(f.type.json_schema())
            if f.ja:
                sub["description"] = f.ja
            if f.default is not None and not callable(f.default):
                sub["default"] = f.default
            props[f.name] = sub
        out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
        required = [f.name for f in self.fields if f.required]
        if required:
            out["required"] = required
        return out

    def doc(self) -> dict[str, Any]:
        return {
            "type": "mapping",
            "expected": self.expected(),
            "fields": [
                {
                    "name": f.name,
                    "required": f.required,
                    "default": None if callable(f.default) else f.default,
                    "ja": f.ja,
                    "en": f.en,
                    **f.type.doc(),
                }
                for f in self.fields
            ],
        }


@dataclass(frozen=True)
class MapOf(Type):
    """A mapping with free keys (checked by ``key``: a :class:`saikoro.scenario.Str` or
    :class:`saikoro.scenario.IntOrRange`).

    Keys are strings in the result (``1`` becomes ``"1"``), as in JSON.
    """

    key: Type
    value: Type
    max_items: int = 200
    checks: tuple[Check, ...] = ()

    def expected(self) -> Msg:
        return Msg("t.map_of", (self.key.expected(), self.value.expected()))

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        if node.kind != "map":
            return ctx.wrong(node, path, self.expected())
        pairs: dict[object, tuple[Node, Node]] = node.value
        if len(pairs) > self.max_items:
            ctx.error(node, path, Msg("too_many", (self.max_items, len(pairs))))
            return INVALID
        out: dict[str, Any] = {}
        ok = keys_ok = True
        for key, (key_node, value_node) in pairs.items():
            child_path = join_path(path, str(key))
            ctx.nodes[child_path] = value_node
            if self.key.check(key_node, child_path, ctx) is INVALID:
                ok = keys_ok = False
                continue
            value = self.value.check(value_node, child_path, ctx)
            if value is INVALID:
                ok = False
                out[str(key)] = ctx.partial.get(child_path, INVALID)
            else:
                out[str(key)] = value
        if ok:
            for check in self.checks:
                check(out, node, path, ctx)
            return out
        if keys_ok:  # every key is known: what the keys say can still be checked
            _tolerant(self.checks, out, node, path, ctx)
        return INVALID

    def json_schema(self) -> dict[str, Any]:
        key = self.key.json_schema()
        names: dict[str, Any] = {"type": "string"}
        if "allOf" in key or key.get("type") == ["integer", "string"]:
            # an int-or-range key: `1:` is an integer key in YAML. An editor
            # (yaml-language-server) checks the key node itself, an integer for `10:`
            # (its bounds); a JSON validator checks the key's text, "10" (the patterns).
            names = {k: v for k, v in key.items() if k != "type"}
        elif "pattern" in key:
            names["pattern"] = key["pattern"]
        return {
            "type": "object",
            "propertyNames": names,
            "additionalProperties": self.value.json_schema(),
            "maxProperties": self.max_items,
        }

    def doc(self) -> dict[str, Any]:
        return {
            "type": "map",
            "expected": self.expected(),
            "key": self.key.doc(),
            "value": self.value.doc(),
        }
