"""The numbers of a scenario that tuning may change, and what the mission forbids changing.

The numbers are read from the scenario's definition (every integer of its enemies and
difficulty targets, with the bounds the schema gives, and the main mission's round
limit), never from a list of fields per system, so any system is tuned the same way.

A suggestion never contradicts the mission: an enemy the main mission must defeat
(``balance.defeat``; every enemy when it is not given) is never copied or removed, and a
round limit the mission's own text states (「4ターンのうちに」) is not moved away from what
the text says.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from saikoro.balance import simulator_for
from saikoro.scenario import DEFINITIONS, Int, ListOf, Obj

__all__ = ["ROUNDS", "Knob", "knobs", "mission_targets", "rounds_in_text"]

_SECTIONS = ("enemies", "difficulty_targets")
"""The parts of a scenario whose numbers are the scenario's own (the party is the players')."""

ROUNDS = "scenario.missions.main.rounds"
"""The round limit's key path."""

_UNITS = "ターン|ラウンド|カット|手番|サイクル|判定|回|巡|R|r|rounds?|turns?"


@dataclass(frozen=True)
class Knob:
    """One number of the scenario that tuning may change.

    Attributes:
        path: its key path as validation names it (``scenario.enemies[0].hp``).
        keys: the keys leading to it in the scenario's data.
        value: its value in the file (the round limit's default when not written).
        low / high: the bounds the schema gives it.
        label: what it is, for a reader (``スライム の hp``).
        written: whether the file writes it (else tuning adds it).
        fixed: why tuning must not change it (``None``: it may); its sensitivity is still
            measured and shown.
    """

    path: str
    keys: tuple[str | int, ...]
    value: int
    low: int
    high: int
    label: str
    written: bool = True
    fixed: str | None = None

    @property
    def step(self) -> int:
        """One step of this number: 1, or about a tenth of a large value."""
        return max(1, round(abs(self.value) / 10)) if abs(self.value) >= 20 else 1

    def at(self, reach: int, sign: int) -> int:
        """The value ``reach`` steps away (up for ``sign`` +1), within its bounds."""
        return min(max(self.value + sign * reach * self.step, self.low), self.high)


def _walk(
    kind: object, data: object, keys: tuple[str | int, ...], path: str
) -> Iterator[tuple[tuple[str | int, ...], str, Int]]:
    """Every integer the definition ``kind`` allows inside ``data``, with its keys and path."""
    if isinstance(kind, Obj) and isinstance(data, dict):
        for f in kind.fields:
            if f.name in data:
                yield from _walk(f.type, data[f.name], (*keys, f.name), f"{path}.{f.name}")
    elif isinstance(kind, ListOf) and isinstance(data, list):
        for i, item in enumerate(data):
            yield from _walk(kind.item, item, (*keys, i), f"{path}[{i}]")
    elif isinstance(kind, Int) and isinstance(data, int) and not isinstance(data, bool):
        yield keys, path, kind


def _label(data: dict[str, Any], keys: tuple[str | int, ...]) -> str:
    """A reader's name for the number at ``keys``: the names of what holds it, then its key."""
    names = []
    node: Any = data
    for k in keys[:-1]:
        node = node[k]
        if isinstance(node, dict) and isinstance(node.get("name"), str):
            names.append(node["name"])
    return " の ".join([*names, str(keys[-1])])


def _get(data: Any, keys: Sequence[str | int]) -> Any:
    for k in keys:
        data = data[k]
    return data


def rounds_in_text(rounds: int, texts: Sequence[object]) -> str | None:
    """The first of ``texts`` that states the round limit ``rounds`` (the number followed
    by a unit of rounds: 「4ターン」「4 ラウンド」「４カット」), else ``None``.

    >>> rounds_in_text(4, ["4ターンのうちに鎮められないか", None])
    '4ターンのうちに鎮められないか'
    >>> rounds_in_text(4, ["14ターン", "4人で"]) is None
    True
    """
    pattern = re.compile(rf"(?<![0-9]){rounds}\s*(?:{_UNITS})")
    for text in texts:
        if isinstance(text, str) and pattern.search(unicodedata.normalize("NFKC", text)):
            return text
    return None


def mission_targets(data: dict[str, Any]) -> set[str]:
    """The ids of the enemies the main mission must defeat: ``balance.defeat``, or every
    enemy when it is not given."""
    defeat = (data.get("balance") or {}).get("defeat")
    if isinstance(defeat, list):
        return {str(d) for d in defeat}
    return {str(e.get("id")) for e in data.get("enemies") or [] if isinstance(e, dict)}


def knobs(system: str, data: dict[str, Any]) -> list[Knob]:
    """The numbers of ``data`` (a valid scenario's plain data) that tuning may change."""
    root = DEFINITIONS[system]
    out: list[Knob] = []
    for section in _SECTIONS:
        if section not in data:
            continue
        kind = root.field(section).type
        for keys, path, bounds in _walk(kind, data[section], (section,), f"scenario.{section}"):
            value = _get(data, keys)
            if bounds.low == bounds.high:
                continue
            out.append(Knob(path, keys, value, bounds.low, bounds.high, _label(data, keys)))
    main = (data.get("missions") or {}).get("main")
    if isinstance(main, dict):
        rounds = main.get("rounds")
        default = simulator_for(system).default_rounds
        if isinstance(rounds, int) or default is not None:
            value = rounds if isinstance(rounds, int) else int(default or 1)
            stated = rounds_in_text(value, [main.get("success"), main.get("failure")])
            fixed = None if stated is None else f"ミッションの文「{stated}」が上限を書いている"
            out.append(
                Knob(
                    ROUNDS,
                    ("missions", "main", "rounds"),
                    value,
                    1,
                    99,
                    "ラウンド上限（missions.main.rounds）",
                    written=isinstance(rounds, int),
                    fixed=fixed,
                )
            )
    return out
