"""What the command modules share: numbers, option tokens, the 2D6 roll."""

from __future__ import annotations

import re
from fractions import Fraction

from saikoro.dice import DiceSource, Dist, ParseError
from saikoro.systems._kegare.checks import Position

__all__ = [
    "EXPR",
    "OPTS",
    "TERM",
    "TOKEN",
    "num",
    "options",
    "pos",
    "probs",
    "signed",
    "terms",
    "two_d6",
]

EXPR = r"[+-]?\d+(?:[+-]\d+)*"
OPTS = r"(?:@(?:[FMN]|遠|中|近)|[WJKG]\d+|脱力\d+|自失\d+)*"
TOKEN = re.compile(r"@(?:[FMN]|遠|中|近)|[WJKGH][+-]?\d+|脱力\d+|自失\d+|C|呪い")
TERM = re.compile(r"[+-]?\d+")


def terms(expr: str) -> list[int]:
    return [int(t) for t in TERM.findall(expr)]


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def options(command: str, text: str, allowed: str) -> dict[str, int | Position | bool]:
    """Side options as ``{"pos": Position, "K": 9, "W": 4, "C": True ...}``."""
    out: dict[str, int | Position | bool] = {}
    for token in TOKEN.findall(text):
        if token.startswith("@"):
            key: str = "pos"
            value: int | Position | bool = Position.parse(token[1:])
        elif token in ("C", "呪い"):
            key, value = "C", True
        else:
            key = {"脱力": "W", "自失": "J"}.get(token[:2], token[0])
            value = int(token[2:] if token[0] in "脱自" else token[1:])
        if key not in allowed.split(","):
            raise ParseError(f"{command}: {token} はここでは使えません")
        if key in out:
            raise ParseError(f"{command}: {token} が重複しています")
        out[key] = value
    return out


def num(opts: dict[str, int | Position | bool], key: str) -> int:
    v = opts.get(key, 0)
    return v if isinstance(v, int) else 0


def pos(opts: dict[str, int | Position | bool]) -> Position | None:
    v = opts.get("pos")
    return v if isinstance(v, Position) else None


def two_d6(source: DiceSource) -> tuple[int, str]:
    a, b = source.roll(6), source.roll(6)
    return a + b, f"{a + b}[{a},{b}]"


def probs(dist: Dist[int]) -> dict[int | str, Fraction]:
    return dict(dist.probabilities().items())
