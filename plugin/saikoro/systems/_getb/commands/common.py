"""What the command modules share: the patterns of the commands and how their parts read.

>>> total("+3-1"), thresholds("@9#2")
(2, (9, 2))
>>> attack_spec("(L+1)+7").check
CheckSpec(dice=4, modifier=7, critical=10, fumble=1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from saikoro.dice import ParseError
from saikoro.systems._getb.chain import DEFAULT_CRITICAL, DEFAULT_FUMBLE
from saikoro.systems._getb.damage import CheckSpec
from saikoro.systems._getb.states import Shield, Weapon

__all__ = [
    "ATK",
    "GB",
    "GC",
    "GD",
    "GF",
    "GG",
    "GRD",
    "MODS",
    "OPTS",
    "PLAIN",
    "SEP",
    "SHIELDS",
    "SPEC",
    "SUM",
    "WEAPONS",
    "Spec",
    "attack_spec",
    "guard_spec",
    "no_fumble",
    "spec_of",
    "thresholds",
    "total",
]

SEP = " ＞ "
"""BCDice's separator between the parts of a result."""
SUM = r"[+-]?\d+(?:[+-]\d+)*"
MODS = r"(?:[+-]\d+)*"
OPTS = r"(?:[@#]\d+)*"
GB = re.compile(rf"GB(?P<mod>{SUM})?(?:(?:>=|=>)(?P<target>{SUM}))?(?P<opts>{OPTS})")
PLAIN = re.compile(rf"1D10(?P<mod>{MODS})(?:>=|=>)(?P<target>{SUM})")
ATK = rf"(?:\d+|[SLBG]|\((?:\d+|[SLBG])(?:[+-]\d+)*\)){MODS}{OPTS}"
GRD = rf"(?:\d+|[BST]|\((?:\d+|[BST])(?:[+-]\d+)*\)){MODS}{OPTS}"
SPEC = re.compile(
    r"(?P<dice>\d+|[A-Z]|\((?P<inner>(?:\d+|[A-Z])(?:[+-]\d+)*)\))(?P<mod>"
    + MODS
    + r")(?P<opts>"
    + OPTS
    + r")"
)
GD = re.compile(rf"GD(?P<spec>{ATK})")
GG = re.compile(rf"GG(?P<spec>{GRD})")
GF = re.compile(rf"GF(?P<atk>{ATK})(?:/(?P<grd>{GRD}|-)?(?:/(?P<fin>{SUM}))?)?")
GC = re.compile(rf"GC(?P<a>{SUM})?(?P<aopts>{OPTS})/(?P<d>{SUM})?(?P<dopts>{OPTS})")
WEAPONS = {w.code: w for w in Weapon}
SHIELDS = {s.code: s for s in Shield}


def total(text: str | None) -> int:
    if not text:
        return 0
    return sum(int(t) for t in re.findall(r"[+-]?\d+", text))


def thresholds(text: str) -> tuple[int, int]:
    critical, fumble = DEFAULT_CRITICAL, DEFAULT_FUMBLE
    seen: set[str] = set()
    for mark, value in re.findall(r"([@#])(\d+)", text):
        if mark in seen:
            raise ParseError(f"{mark} が2回指定されています")
        seen.add(mark)
        if mark == "@":
            critical = int(value)
        else:
            fumble = int(value)
    return critical, fumble


@dataclass(frozen=True)
class Spec:
    """A damage or guard check's dice, and whether its weapon is melee (``None``: unsaid)."""

    check: CheckSpec
    melee: bool | None


def spec_of(text: str, table: dict[str, int], melee: dict[str, bool]) -> Spec:
    m = SPEC.fullmatch(text)
    if not m:  # pragma: no cover - the command regexes only let valid specs through
        raise ParseError(f"ダイスの指定を読めません: {text}")
    head = m.group("inner") or m.group("dice")
    token = re.findall(r"\d+|[A-Z]", head)[0]
    kind: bool | None = None
    if token.isdigit():
        dice = int(token)
    else:
        dice = table[token]
        kind = melee.get(token)
    dice += total(head[len(token) :])
    critical, fumble = thresholds(m.group("opts"))
    return Spec(CheckSpec(dice, total(m.group("mod")), critical, fumble), kind)


def attack_spec(text: str) -> Spec:
    return spec_of(
        text, {k: w.dice for k, w in WEAPONS.items()}, {k: w.melee for k, w in WEAPONS.items()}
    )


def guard_spec(text: str) -> Spec:
    return spec_of(text, {k: s.dice for k, s in SHIELDS.items()}, {})


def no_fumble(spec: CheckSpec, rule: str) -> CheckSpec:
    """The spec with fumbles switched off when the ruling says so."""
    return CheckSpec(spec.dice, spec.modifier, spec.critical, 0) if rule == "none" else spec
