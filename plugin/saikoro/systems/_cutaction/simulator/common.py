"""Cut-action: the characters, the options in force and the checks (the simulator's draws)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from saikoro.balance._model import Encounter
from saikoro.balance._tactics import Policy, Tactics
from saikoro.systems._cutaction import model as sm
from saikoro.systems._cutaction.checks import CheckResult, dice_shape
from saikoro.systems._cutaction.damage import Condition, DamageResult

from . import shapes
from .shapes import CutAttack, CutEnemy, CutPC

__all__ = [
    "AREAS",
    "DEFAULT_CUTS",
    "Char",
    "Prepared",
    "RandomDraw",
    "chars",
    "chase_goal",
    "prepare",
]

AREAS = ("home-base", "home", "front", "enemy", "enemy-base")
"""The battle rows, from the PCs' headquarters to the enemy's."""

DEFAULT_CUTS = 10
"""Cut limit when the main mission gives none."""


@dataclass
class Char:
    """One character during a battle (mutable: its row and condition change)."""

    name: str
    pc: bool
    index: int
    body: int
    head: int
    row: int
    cover: str
    attacks: tuple[CutAttack, ...]
    blockade: bool
    vehicle: str | None
    cond: Condition
    in_fight: bool = True
    up: bool = True
    """Still able to act (体力 above 0, alive): kept in step with ``cond`` by :meth:`take`."""

    def take(self, result: DamageResult) -> None:
        """Take damage (:meth:`Condition.take`)."""
        self.cond = self.cond.take(result)
        self.up = self.cond.hp > 0 and not self.cond.dead


@dataclass(frozen=True)
class Prepared:
    """The encounter, the tactics and the options in force."""

    pcs: tuple[CutPC, ...]
    enemies: tuple[CutEnemy, ...]
    defeat: frozenset[str]
    cuts: int
    chase_goal: int | None
    dice: str
    shape: tuple[int, int]
    exhausted_fail: bool
    resist_failure: str
    pc_policy: Policy
    enemy_policy: Policy
    options: Any
    effects: tuple[str, ...] = ()


def chase_goal(enc: Encounter) -> int | None:
    """The chase's goal: 10 x the first ``kind: chase`` target's move target (``None``: none)."""
    for t in enc.targets:
        if isinstance(t, sm.CutactionTarget) and t.kind == "chase":
            return 10 * t.target
    return None


def prepare(enc: Encounter, tactics: Tactics) -> Prepared:
    """The defeat condition and options."""
    goal = chase_goal(enc)
    if enc.defeat:
        ids = frozenset(enc.defeat)
    elif goal is not None:
        ids = frozenset(e.id for e in shapes.enemies(enc) if not e.vehicle)
    else:
        ids = frozenset(e.id for e in shapes.enemies(enc))
    return Prepared(
        pcs=shapes.members(enc),
        enemies=shapes.enemies(enc),
        defeat=ids,
        cuts=enc.round_limit or DEFAULT_CUTS,
        chase_goal=goal,
        dice=str(enc.options["check_dice"]),
        shape=dice_shape(str(enc.options["check_dice"])),
        exhausted_fail=bool(enc.options["exhausted_resist_fails"]),
        resist_failure=str(enc.options["resist_failure"]),
        pc_policy=tactics.pc,
        enemy_policy=tactics.enemy,
        options=dict(enc.options),
        effects=tuple(
            f"{e.name}「{a.name}」: {a.effect}"
            for e in shapes.enemies(enc)
            for a in e.attacks
            if a.effect
        ),
    )


class RandomDraw:
    """Checks and d10s drawn from ``rng`` (what the fight and :func:`~.chase.run` roll).

    A check's result is looked up: every success value gets, once, the
    :class:`CheckResult` of each total of the check dice (the highest total is the fumble);
    a test compares them with ``resolve_check``.
    """

    __slots__ = ("count", "rand", "sides", "table")

    def __init__(self, rng: random.Random, shape: tuple[int, int]) -> None:
        self.rand = rng.random
        self.count, self.sides = shape
        self.table: dict[int, tuple[CheckResult, ...]] = {}

    def _results(self, value: int) -> tuple[CheckResult, ...]:
        top = self.count * self.sides
        # index = roll total - 1 (totals below the dice count are never drawn)
        results = tuple(CheckResult(value, roll, 0, roll == top) for roll in range(1, top + 1))
        self.table[value] = results
        return results

    def check(self, value: int) -> CheckResult:
        """A check with success value ``value``."""
        results = self.table.get(value) or self._results(value)
        rand, sides = self.rand, self.sides
        if self.count == 1:
            return results[int(rand() * sides)]
        return results[sum(int(rand() * sides) + 1 for _ in range(self.count)) - 1]

    def d10(self) -> int:
        """1D10."""
        return int(self.rand() * 10) + 1


def chars(prep: Prepared) -> list[Char]:
    """Everyone at the start of the battle."""
    out = [
        Char(
            p.name,
            True,
            i,
            p.body,
            p.head,
            AREAS.index(p.area),
            "none",
            (p.attack,),
            False,
            None,
            Condition(max_hp=p.hp, hp=p.hp),
        )
        for i, p in enumerate(prep.pcs)
    ]
    out += [
        Char(
            e.id,
            False,
            i,
            e.body,
            e.head,
            AREAS.index(e.area),
            e.cover,
            e.attacks,
            e.blockade,
            e.vehicle,
            Condition(max_hp=e.hp, hp=e.hp),
            in_fight=e.id in prep.defeat or not (prep.chase_goal is not None and e.vehicle),
        )
        for i, e in enumerate(prep.enemies)
    ]
    return out
