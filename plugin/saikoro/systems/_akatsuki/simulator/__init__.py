"""君ヨ、暁ノ大地ニ死スベシ: the difficulty targets as a sequence of checks.

Follows ``akatsuki.check`` for each target in order. For each target the best-placed PC
checks (highest chance of success, a specialty's doublets counted) and up to two others
support (level 5+ or experts, the best bonuses first); NPC help written in the target's
``support`` fills supporter slots first (one slot per point, two at most). With the
``spend_cards`` tactic the checker first boosts before the roll with the fewest cards that
give this check its best chance (each card worth ``card_points`` awakening points, a
ruling; the rest kept for after the roll), then spends cards after the roll, as few as
turn a failure into a success (:class:`~saikoro.systems._akatsuki.checks.AfterMode`
``AS_NEEDED``); a specialty doublet within the target earns a card for the checker and
each supporter (NPC helpers hold no cards). Every target is attempted; ``win`` is
P(every one succeeds), and the "rounds" histogram counts the checks that succeeded.

The whole sequence is solved exactly (a distribution over the cards each PC holds).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from types import MappingProxyType

from saikoro.balance._budget import Budget
from saikoro.balance._model import Encounter
from saikoro.balance._side import Battle, Condition
from saikoro.balance._simulator import Note, Simulator
from saikoro.balance._stats import Tally
from saikoro.balance._tactics import Tactics
from saikoro.dice._errors import InternalError
from saikoro.systems._akatsuki.checks import (
    MAX_SUPPORTERS,
    AfterMode,
    CheckRules,
    CheckSpec,
    can_support,
    resolve_check,
    supporter_bonus,
)
from saikoro.systems._akatsuki.odds import success_probability

from . import shapes
from .shapes import AkatsukiPC, AkatsukiTarget

__all__ = ["FLOWS", "Plan", "Prepared", "battle", "exact", "notes", "prepare", "side_exact"]

FLOWS = ("akatsuki.check",)
"""The system flows this simulator follows."""


@dataclass(frozen=True)
class Plan:
    """Who checks a target and how: the checker, its spec without cards, the supporters."""

    target: AkatsukiTarget
    checker: int
    spec: CheckSpec
    supporters: tuple[int, ...]


@dataclass(frozen=True)
class Prepared:
    """The plans, the rules and the tactics."""

    plans: tuple[Plan, ...]
    rules: CheckRules
    spend: bool
    cards: tuple[int, ...]
    card_points: int = 1


def _spec(pc: AkatsukiPC, t: AkatsukiTarget, bonuses: tuple[int, ...]) -> CheckSpec:
    level = pc.abilities.get(t.ability, 0)
    npc = min(MAX_SUPPORTERS, t.support)
    return CheckSpec(
        level=level,
        difficulty=t.difficulty,
        preparation=t.preparation,
        supporters=bonuses[: MAX_SUPPORTERS - npc],
        modifier=t.support,
        specialty=t.style is not None and t.style in pc.specialties,
    )


def _plan(party: tuple[AkatsukiPC, ...], t: AkatsukiTarget, rules: CheckRules) -> Plan:
    best: tuple[Fraction, int, CheckSpec, tuple[int, ...]] | None = None
    for i, pc in enumerate(party):
        helpers = []
        for j, other in enumerate(party):
            if j == i:
                continue
            level = other.abilities.get(t.ability, 0)
            expert = t.style is not None and t.style in other.specialties
            if can_support(level, expert=expert):
                helpers.append((supporter_bonus(level, expert=expert), j))
        helpers.sort(key=lambda bj: (-bj[0], bj[1]))
        slots = MAX_SUPPORTERS - min(MAX_SUPPORTERS, t.support)
        chosen = helpers[:slots]
        spec = _spec(pc, t, tuple(b for b, _ in chosen))
        p = success_probability(spec, rules)
        if best is None or p > best[0]:
            best = (p, i, spec, tuple(j for _, j in chosen))
    if best is None:
        raise InternalError("akatsuki: the party has no PC")
    return Plan(t, best[1], best[2], best[3])


def prepare(enc: Encounter, tactics: Tactics) -> Prepared:
    """Plan every target for the party."""
    party: tuple[AkatsukiPC, ...] = shapes.members(enc)
    rules = enc.rules.check_rules  # type: ignore[attr-defined]
    plans = tuple(_plan(party, t, rules) for t in shapes.targets(enc))
    points = int(enc.options["card_points"])
    cards = tuple(pc.cards for pc in party)
    return Prepared(plans, rules, tactics.pc.spend_cards, cards, points)


@cache
def with_cards(spec: CheckSpec, held: int, points: int, rules: CheckRules) -> tuple[CheckSpec, int]:
    """The check with ``held`` cards to spend, and how many of them go before the roll.

    Before the roll the fewest cards that give the best P(success) (each worth ``points``,
    the rest spent after the roll as needed); with 1 point a card this boosts only to
    lift a target below 2.

    >>> rules, low, six = CheckRules(), CheckSpec(level=1), CheckSpec(level=6)
    >>> with_cards(low, 2, 1, rules)[1], with_cards(six, 2, 1, rules)[1]
    (1, 0)
    >>> with_cards(six, 2, 3, rules)[1]
    2
    """

    def boosted(before: int) -> CheckSpec:
        return replace(
            spec,
            boost_points=spec.boost_points + before * points,
            after_cards=held - before,
            after_mode=AfterMode.AS_NEEDED,
        )

    best = (success_probability(boosted(0), rules), 0)
    for before in range(1, held + 1):
        p = success_probability(boosted(before), rules)
        if p > best[0]:
            best = (p, before)
    return boosted(best[1]), best[1]


def _step(prep: Prepared, plan: Plan, cards: list[int], d1: int, d2: int) -> tuple[bool, int, int]:
    """Resolve one check for dice ``d1``, ``d2``; update ``cards``; (success, spent, gained)."""
    held = cards[plan.checker] if prep.spend else 0
    spec, before = with_cards(plan.spec, held, prep.card_points, prep.rules)
    r = resolve_check(spec, d1, d2, prep.rules)
    spent = before + r.cards_spent
    cards[plan.checker] += r.cards_gained - spent
    gained = r.cards_gained
    if r.cards_gained:
        for j in plan.supporters:
            cards[j] += r.cards_gained
            gained += r.cards_gained
    return r.success, spent, gained


def battle(prep: Prepared, rng: random.Random, tally: Tally) -> None:
    """Attempt every target once."""
    cards = list(prep.cards)
    downed = [False] * len(cards)
    wins = 0
    spent = gained = 0
    passed = []
    for i, plan in enumerate(prep.plans):
        d1 = int(rng.random() * 6) + 1
        d2 = int(rng.random() * 6) + 1
        ok, s, g = _step(prep, plan, cards, d1, d2)
        spent += s
        gained += g
        if ok:
            wins += 1
            passed.append(i)
        else:
            downed[plan.checker] = True
    tally.record(
        win=wins == len(prep.plans),
        rounds=wins,
        downed=downed,
        passed=passed,
        facts={"cards_left": sum(cards)},
    )
    tally.sums["cards_spent"] += spent
    tally.sums["cards_gained"] += gained


def exact(prep: Prepared) -> tuple[Fraction | None, dict[str, Fraction]]:
    """P(every target succeeds), exactly, and each target's P(success) on the way."""
    states: dict[tuple[int, ...], int] = {prep.cards: 1}
    denominator = 1
    figures: dict[str, Fraction] = {}
    for plan in prep.plans:
        nxt: dict[tuple[int, ...], int] = {}
        passed = 0
        for hand, w in states.items():
            for d1 in range(1, 7):
                for d2 in range(1, 7):
                    cards = list(hand)
                    ok, _, _ = _step(prep, plan, cards, d1, d2)
                    if ok:
                        key = tuple(cards)
                        nxt[key] = nxt.get(key, 0) + w
                        passed += w
        total = sum(states.values())
        figures[f"P({plan.target.name} | 前の判定がすべて成功)"] = (
            Fraction(passed, total * 36) if total else Fraction(0)
        )
        states = nxt
        denominator *= 36
    return Fraction(sum(states.values()), denominator), figures


SIDE_STATES = 200_000
"""Largest number of (cards held, targets passed) states :func:`side_exact` follows."""


def side_exact(prep: Prepared, condition: Condition) -> Fraction | None:
    """P(``condition``) exactly: every target attempted, over (cards held, targets passed).

    ``None`` when the states outgrow :data:`SIDE_STATES`.
    """
    states: dict[tuple[tuple[int, ...], int], int] = {(prep.cards, 0): 1}
    for k, plan in enumerate(prep.plans):
        nxt: dict[tuple[tuple[int, ...], int], int] = {}
        for (hand, mask), w in states.items():
            for d1 in range(1, 7):
                for d2 in range(1, 7):
                    cards = list(hand)
                    ok, _, _ = _step(prep, plan, cards, d1, d2)
                    key = (tuple(cards), mask | (1 << k) if ok else mask)
                    nxt[key] = nxt.get(key, 0) + w
        if len(nxt) > SIDE_STATES:
            return None
        states = nxt
    n = len(prep.plans)
    hits = 0
    for (hand, mask), w in states.items():
        passed = tuple(i for i in range(n) if mask >> i & 1)
        b = Battle(
            win=len(passed) == n,
            rounds=len(passed),
            passed=passed,
            facts={"cards_left": sum(hand)},
        )
        hits += w * condition.holds(b)
    return Fraction(hits, 36**n)


def notes(prep: Prepared) -> tuple[str, ...]:
    """What is not modelled."""
    out = ["対抗判定は難易度の判定として書けないので扱わない。"]
    if prep.spend:
        out.append(
            f"覚醒札1枚を{prep.card_points}ポイントとみなす（card_points）。"
            "事前ブーストはその判定の成功率が最も高くなる最少枚数、残りは事後ブースト。"
        )
    return tuple(out)


class AkatsukiSimulator(Simulator[Prepared]):
    """The akatsuki simulator: the functions above, with the system's words."""

    system = "akatsuki"
    flows = FLOWS
    tactics = ("focus", "focus")
    tactics_reason = (
        "戦闘のない判定の連続なので、方針は誰が判定し誰が補佐するかと覚醒札の使い方だけに"
        "効く。失敗を救える場面でだけ札を使うのが、札を無駄にしない最も自然な使い方。"
    )
    default_rounds = None
    rounds_caption = "成功した判定の数"
    rounds_column = "成功数"
    round_unit = "判定"
    play_word = "試行"
    downed_caption = "PCごとの判定失敗率（判定役として失敗した割合）"
    downed_column = "失敗率"
    mean_labels = MappingProxyType(
        {
            "cards_spent": "使った覚醒札(平均)",
            "cards_gained": "得た覚醒札(平均、サポーターの分を含む)",
        }
    )

    def prepare(self, enc: Encounter, tactics: Tactics) -> Prepared:
        return prepare(enc, tactics)

    def battle(self, prep: Prepared, rng: random.Random, tally: Tally) -> None:
        battle(prep, rng, tally)

    def exact(self, prep: Prepared, budget: Budget) -> tuple[Fraction | None, dict[str, Fraction]]:
        del budget  # interim: the solvers keep their own bounds
        return exact(prep)

    NOTES = MappingProxyType({"text": "{text}"})  # interim: the old notes, as written

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        return tuple(self.note("text", text=text) for text in notes(prep))

    def side_exact(self, prep: Prepared, condition: Condition, budget: Budget) -> Fraction | None:
        del budget
        return side_exact(prep, condition)

    def nothing_to_play(self, enc: Encounter) -> str:
        return "" if enc.targets else "難易度の判定がない"

    def facts(self, enc: Encounter) -> frozenset[str]:
        del enc
        return frozenset({"cards_left"})


SIMULATOR = AkatsukiSimulator()
