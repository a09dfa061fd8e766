"""君ヨ、暁ノ大地ニ死スベシ: a sequence of difficulty targets, solved by enumeration.

From the seed (003): a check is 2D6 rolled under a target = ability level + base
difficulty + preparation + supporters (+1 each, +2 for an expert -- the style is their
specialty -- or a superhuman, level 9+; at most two; a non-expert needs level 5) + other
modifiers. A target below 2 fails before rolling. A base difficulty of -4 or harsher is
only open to a superhuman. When the style is the checker's specialty a doublet succeeds
even above the target (β) and, within the target, earns an awakening card (α); each
supporter earns as many. After the roll each card spent raises the target by 1.

Policy (the simulator's documented tactic, not the seed's): the PC with the highest
chance (before cards) checks, ties to the earlier PC; its supporters are the other
eligible PCs, largest bonus first; a target's ``support`` points are NPC help taking one
supporter slot per point (two at most; ruling ``akatsuki.npc_support``); ``spend_cards``
spends exactly as many cards as the failed roll needs, when the checker holds that many.
Every target is tried once, in order, whatever happened before (ruling ``akatsuki.series``):
the play is won when all succeed and otherwise ends at the first target that failed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from .common import add

REFERENCE: tuple[dict[str, Any], ...] = (
    {
        "name": "剛力",
        "abilities": {"体躯": 10, "技巧": 5, "知性": 4, "話術": 4},
        "specialties": ["力仕事", "跳躍", "白兵"],
        "cards": 2,
    },
    {
        "name": "斥候",
        "abilities": {"体躯": 6, "技巧": 8, "知性": 6, "話術": 4},
        "specialties": ["観察", "隠密"],
        "cards": 2,
    },
    {
        "name": "学者",
        "abilities": {"体躯": 4, "技巧": 5, "知性": 8, "話術": 6},
        "specialties": ["観察", "知識"],
        "cards": 2,
    },
    {
        "name": "交渉役",
        "abilities": {"体躯": 5, "技巧": 5, "知性": 6, "話術": 8},
        "specialties": ["交渉", "威圧"],
        "cards": 2,
    },
)
"""The documented reference party (saikoro/site/_guide/balance.md), written again here."""


@dataclass(frozen=True)
class _Plan:
    checker: int
    target: int
    specialty: bool
    allowed: bool
    supporters: tuple[int, ...]


def _static_chance(target: int, specialty: bool, allowed: bool) -> Fraction:
    if not allowed or target < 2:
        return Fraction(0)
    ok = sum(
        1 for a in range(1, 7) for b in range(1, 7) if a + b <= target or (specialty and a == b)
    )
    return Fraction(ok, 36)


def _plan(party: Sequence[Mapping[str, Any]], t: Mapping[str, Any]) -> _Plan:
    ability, style = t["ability"], t.get("style")
    npc = min(2, t.get("support", 0))
    best: tuple[Fraction, _Plan] | None = None
    for i, pc in enumerate(party):
        helpers = []
        for j, other in enumerate(party):
            if j == i:
                continue
            level = other["abilities"].get(ability, 0)
            expert = style is not None and style in other.get("specialties", [])
            if expert or level >= 5:
                helpers.append((2 if expert or level >= 9 else 1, j))
        helpers.sort(key=lambda h: (-h[0], h[1]))
        chosen = helpers[: 2 - npc]
        level = pc["abilities"].get(ability, 0)
        target = (
            level
            + t.get("difficulty", 0)
            + t.get("preparation", 0)
            + t.get("support", 0)
            + sum(b for b, _ in chosen)
        )
        specialty = style is not None and style in pc.get("specialties", [])
        allowed = t.get("difficulty", 0) > -4 or level >= 9
        plan = _Plan(i, target, specialty, allowed, tuple(j for _, j in chosen))
        p = _static_chance(target, specialty, allowed)
        if best is None or p > best[0]:
            best = (p, plan)
    assert best is not None
    return best[1]


@cache
def _ends(key: str, spend: bool) -> tuple[Fraction, tuple[Fraction, ...]]:
    """(P(every target succeeds), P(target i is the first to fail) for each i)."""
    data = json.loads(key)
    party = data.get("party") or [dict(REFERENCE[i % 4]) for i in range(data["players"])]
    states: dict[tuple[int, ...], Fraction] = {
        tuple(pc.get("cards", 0) for pc in party): Fraction(1)
    }
    fails = []
    for t in data["difficulty_targets"]:
        plan = _plan(party, t)
        nxt: dict[tuple[int, ...], Fraction] = {}
        alive = sum(states.values(), Fraction(0))
        for hand, w in states.items():
            if not plan.allowed or plan.target < 2:
                continue  # this target fails: the whole sequence is lost
            for a in range(1, 7):
                for b in range(1, 7):
                    cards = list(hand)
                    total = a + b
                    doublet = plan.specialty and a == b
                    if total <= plan.target:
                        if doublet:  # α: a card for the checker and each supporter
                            for k in (plan.checker, *plan.supporters):
                                cards[k] += 1
                    elif doublet:
                        pass  # β: success above the target
                    elif spend and total - plan.target <= cards[plan.checker]:
                        cards[plan.checker] -= total - plan.target
                    else:
                        continue
                    add(nxt, tuple(cards), w / 36)
        states = nxt
        fails.append(alive - sum(states.values(), Fraction(0)))
    return sum(states.values(), Fraction(0)), tuple(fails)


def _key(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def win(data: Mapping[str, Any], *, spend: bool = True) -> Fraction:
    """P(every difficulty target succeeds) for the scenario ``data`` (solved once per
    scenario per test session)."""
    return _ends(_key(data), spend)[0]


def first_failures(data: Mapping[str, Any], *, spend: bool = True) -> tuple[Fraction, ...]:
    """P(target i is the first to fail), for each target in order (each target is tried
    once whatever happened before, so the first failure ends the hope of the main
    mission: these and :func:`win` add up to 1)."""
    return _ends(_key(data), spend)[1]
