"""Checking a scenario's ``rulings:`` against the system's ruling options.

Each option is looked up in the system's rulings (did-you-mean on a typo), its value's
type and choices checked, and then the engine itself is asked: constructing the system
with the options is what refuses a value (alone, or in combination with the others).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._loader import Node, join_path
from ._problems import Msg, Said, show_value
from ._schema import Ctx, bool_hint, did_you_mean

__all__ = ["check_rulings", "key_node"]


def key_node(mapping: Node, key: str) -> Node | None:
    """The node of ``key`` itself in a mapping node (where a message about that key points)."""
    if mapping.kind != "map":
        return None
    for k, (key_node, _) in mapping.value.items():
        if str(k) == key:
            found: Node = key_node
            return found
    return None


def _option_specs(system_id: str) -> dict[str, Any]:
    from saikoro.systems import get

    return {r.option_name: r for r in type(get(system_id)).rulings if r.option}


def _engine_refuses(system_id: str, options: dict[str, Any]) -> Said | None:
    """The engine's message when it refuses ``options`` (constructing the system checks them)."""
    from saikoro.systems import OptionError, get

    try:
        get(system_id, **options)
    except OptionError as e:  # the engine's words, in the report's language
        return Said(str(e), e.ja)
    return None


def check_rulings(system_id: str) -> Callable[[dict[str, Any], Node, str, Ctx], None]:
    """The check of a scenario's ``rulings:``: known options, right types and values, and
    values the engine accepts, alone and together (constructing the system checks them)."""

    def check(rulings: dict[str, Any], mapping: Node, base: str, ctx: Ctx) -> None:
        specs = _option_specs(system_id)
        accepted: dict[str, Any] = {}
        for name, value in rulings.items():
            where = key_node(mapping, name) or mapping
            item = join_path(base, name)
            spec = specs.get(name)
            if spec is None:
                known = ", ".join(sorted(specs)) or "-"
                hint = did_you_mean(name, sorted(specs)) or Msg("hint.known", (known,))
                ctx.error(where, item, Msg("ruling.unknown", (show_value(name), system_id)), hint)
                continue
            value_node = ctx.nodes.get(item, where)
            if type(value) is not type(spec.default):
                kind = {bool: "t.bool", int: "t.int", str: "t.str"}[type(spec.default)]
                ctx.wrong(
                    value_node, item, Msg(kind), bool_hint(value) if kind == "t.bool" else None
                )
            elif spec.choices and value not in spec.choices:
                close = did_you_mean(str(value), spec.choices)
                ctx.wrong(value_node, item, Msg("t.enum", (" | ".join(spec.choices),)), close)
            else:
                refused = _engine_refuses(system_id, {name: value})
                if refused is None:
                    accepted[name] = value
                else:
                    ctx.error(value_node, item, Msg("ruling.refused", (refused,)))
        if len(accepted) == len(rulings) and len(accepted) > 1:
            refused = _engine_refuses(system_id, accepted)
            if refused is not None:  # each value is fine alone, not together
                ctx.error(mapping, base, Msg("ruling.refused", (refused,)))

    return check
