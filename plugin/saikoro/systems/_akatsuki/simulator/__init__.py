"""君ヨ、暁ノ大地ニ死スベシ: the difficulty targets as a series of checks.

Every check is the engine's (:mod:`saikoro.systems._akatsuki.checks` and ``odds``, the
functions the ``AK`` command uses): a battle rolls 2D6 and resolves it with
:func:`~saikoro.systems._akatsuki.checks.resolve_check`; the exact solver enumerates the
results with :func:`~saikoro.systems._akatsuki.odds.enumerate_check`.

Follows ``akatsuki.check`` for each target in order. For each target the best-placed PC
checks (highest chance of success, a specialty's doublets counted; ties to the earlier PC)
and up to two others support (level 5+ or experts, the best bonuses first:
:func:`~saikoro.systems._akatsuki.checks.can_support`,
:func:`~saikoro.systems._akatsuki.checks.supporter_bonus`); NPC help written in the
target's ``support`` fills supporter slots first (one slot per point, two at most: ruling
``akatsuki.npc_support``). With the ``spend_cards`` tactic the checker first boosts before
the roll with the fewest cards that give this check its best chance (each card worth
``card_points`` awakening points, a ruling; the rest kept for after the roll), then spends
cards after the roll, as few as turn a failure into a success
(:class:`~saikoro.systems._akatsuki.checks.AfterMode` ``AS_NEEDED``); a specialty doublet
within the target earns a card for the checker and each PC supporter (NPC helpers hold no
cards). Every target is attempted; ``win`` is P(every one succeeds). A play that fails
ends as ``failed:<i>``, *i* the first target that failed (:meth:`AkatsukiSimulator.ends_for`);
the "rounds" histogram counts the checks that succeeded.

The whole series is solved exactly (a distribution over the cards each PC holds), charged
to the budget, as are the side missions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache
from types import MappingProxyType

from saikoro.balance import (
    Battle,
    Budget,
    Condition,
    Encounter,
    End,
    Note,
    Simulator,
    Tactics,
    Tally,
)
from saikoro.dice import InternalError
from saikoro.systems._akatsuki.checks import (
    MAX_SUPPORTERS,
    AfterMode,
    CheckResult,
    CheckRules,
    CheckSpec,
    can_support,
    resolve_check,
    supporter_bonus,
)
from saikoro.systems._akatsuki.model import AkatsukiEnemy, AkatsukiPC, AkatsukiTarget
from saikoro.systems._akatsuki.odds import enumerate_check, success_probability
from saikoro.systems._akatsuki.rulings import Settings

__all__ = ["FLOWS", "SIMULATOR", "AkatsukiSimulator", "Plan", "Prepared", "step", "with_cards"]

FLOWS = ("akatsuki.check",)
"""The system flows this simulator follows."""

WIN = End("すべての判定に成功", True)
"""The main mission's success."""


@dataclass(frozen=True)
class Plan:
    """Who checks a target and how: the checker, its spec without cards, the supporters."""

    name: str
    checker: int
    spec: CheckSpec
    supporters: tuple[int, ...]


@dataclass(frozen=True)
class Prepared:
    """The plans, the rules, the tactics and what the notes name."""

    plans: tuple[Plan, ...]
    rules: CheckRules
    spend: bool
    cards: tuple[int, ...]
    card_points: int = 1
    enemies: tuple[str, ...] = ()
    rounds: int | None = None
    plays: dict[tuple[int, int], Play] = field(default_factory=dict, compare=False, repr=False)
    """Each check as played from a hand size (:func:`_play`), filled as battles need them."""


def _party(enc: Encounter) -> tuple[AkatsukiPC, ...]:
    out = []
    for pc in enc.party.members:
        if not isinstance(pc, AkatsukiPC):
            raise InternalError(f"akatsuki: {pc!r} is not an AkatsukiPC")
        out.append(pc)
    if not out:
        raise InternalError("akatsuki: the party has no PC")
    return tuple(out)


def _targets(enc: Encounter) -> tuple[AkatsukiTarget, ...]:
    out = []
    for t in enc.targets:
        if not isinstance(t, AkatsukiTarget):
            raise InternalError(f"akatsuki: {t!r} is not an AkatsukiTarget")
        out.append(t)
    return tuple(out)


def _enemies(enc: Encounter) -> tuple[AkatsukiEnemy, ...]:
    out = []
    for e in enc.enemies:
        if not isinstance(e, AkatsukiEnemy):
            raise InternalError(f"akatsuki: {e!r} is not an AkatsukiEnemy")
        out.append(e)
    return tuple(out)


def _expert(pc: AkatsukiPC, t: AkatsukiTarget) -> bool:
    return t.style is not None and t.style in pc.specialties


def _plan(party: tuple[AkatsukiPC, ...], t: AkatsukiTarget, rules: CheckRules) -> Plan:
    """The checker with the best P(success) (before cards) and its best supporters."""
    npc = min(MAX_SUPPORTERS, t.support)
    best: tuple[Fraction, Plan] | None = None
    for i, pc in enumerate(party):
        helpers = []
        for j, other in enumerate(party):
            if j == i:
                continue
            level = other.abilities.get(t.ability, 0)
            if can_support(level, expert=_expert(other, t)):
                helpers.append((supporter_bonus(level, expert=_expert(other, t)), j))
        helpers.sort(key=lambda bj: (-bj[0], bj[1]))
        chosen = helpers[: MAX_SUPPORTERS - npc]
        spec = CheckSpec(
            level=pc.abilities.get(t.ability, 0),
            difficulty=t.difficulty,
            preparation=t.preparation,
            supporters=tuple(b for b, _ in chosen),
            modifier=t.support,
            specialty=_expert(pc, t),
        )
        p = success_probability(spec, rules)
        if best is None or p > best[0]:
            best = (p, Plan(t.name, i, spec, tuple(j for _, j in chosen)))
    if best is None:
        raise InternalError("akatsuki: the party has no PC")
    return best[1]


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


def _spec(prep: Prepared, plan: Plan, hand: tuple[int, ...] | list[int]) -> tuple[CheckSpec, int]:
    """The check as the checker plays it with its hand (``spend_cards``), and cards before."""
    held = hand[plan.checker] if prep.spend else 0
    return with_cards(plan.spec, held, prep.card_points, prep.rules)


def _apply(plan: Plan, cards: list[int], r: CheckResult, before: int) -> tuple[int, int]:
    """Update ``cards`` after the check ``r``; (cards spent, cards gained by the party)."""
    spent = before + r.cards_spent
    cards[plan.checker] += r.cards_gained - spent
    for j in plan.supporters:  # each PC supporter earns as many as the checker
        cards[j] += r.cards_gained
    return spent, r.cards_gained * (1 + len(plan.supporters))


def step(prep: Prepared, plan: Plan, cards: list[int], d1: int, d2: int) -> tuple[bool, int, int]:
    """Resolve one check for dice ``d1``, ``d2``; update ``cards``; (success, spent, gained)."""
    spec, before = _spec(prep, plan, cards)
    r = resolve_check(spec, d1, d2, prep.rules)
    spent, gained = _apply(plan, cards, r, before)
    return r.success, spent, gained


Play = tuple[tuple[CheckResult, ...], int]
"""A check as played from a hand: the result of each of the 36 rolls (``(d1 - 1) * 6 +
d2 - 1``; all the same when the check fails unrolled), the cards spent before the roll."""


def _play(prep: Prepared, i: int, held: int) -> Play:
    """Target ``i``'s check when its checker holds ``held`` cards: every result by
    :func:`resolve_check` (built once per hand size and kept in ``prep.plays``)."""
    found = prep.plays.get((i, held))
    if found is None:
        plan = prep.plans[i]
        spec, before = with_cards(
            plan.spec, held if prep.spend else 0, prep.card_points, prep.rules
        )
        results = tuple(
            resolve_check(spec, d1, d2, prep.rules) for d1 in range(1, 7) for d2 in range(1, 7)
        )
        found = prep.plays[(i, held)] = (results, before)
    return found


def _battle(prep: Prepared, rng: random.Random, tally: Tally) -> None:
    cards = list(prep.cards)
    downed = [False] * len(cards)
    spent = gained = 0
    passed = []
    first_fail: int | None = None
    for i, plan in enumerate(prep.plans):
        results, before = _play(prep, i, cards[plan.checker])
        d1, d2 = int(rng.random() * 6), int(rng.random() * 6)  # ignored when not rolled
        r = results[d1 * 6 + d2]
        s, g = _apply(plan, cards, r, before)
        spent += s
        gained += g
        if r.success:
            passed.append(i)
        else:
            downed[plan.checker] = True
            if first_fail is None:
                first_fail = i
    tally.record(
        win=first_fail is None,
        end="win" if first_fail is None else _fail_key(first_fail),
        rounds=len(passed),
        downed=downed,
        passed=passed,
        facts={"cards_left": sum(cards)},
    )
    tally.sums["cards_spent"] += spent
    tally.sums["cards_gained"] += gained


def _fail_key(i: int) -> str:
    return f"failed:{i}"


def _results(
    prep: Prepared, plan: Plan, hand: tuple[int, ...], budget: Budget
) -> list[tuple[tuple[int, ...], bool, int]]:
    """Every result of ``plan``'s check from ``hand``: (hand after, success, weight of 36)."""
    spec, before = _spec(prep, plan, hand)
    found = enumerate_check(spec, prep.rules)
    budget.spend(len(found))
    out = []
    for r, w in found:
        cards = list(hand)
        _apply(plan, cards, r, before)
        out.append((tuple(cards), r.success, w))
    return out


def _series(prep: Prepared, budget: Budget) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """The whole series over the cards each PC holds: P(each end) and, per target,
    P(success | every target before it succeeded)."""
    states: dict[tuple[int, ...], int] = {prep.cards: 1}
    denominator = 1
    ends: dict[str, Fraction] = {}
    figures: dict[str, Fraction] = {}
    for i, plan in enumerate(prep.plans):
        nxt: dict[tuple[int, ...], int] = {}
        failed = 0
        for hand, w in states.items():
            for after, ok, weight in _results(prep, plan, hand, budget):
                if ok:
                    nxt[after] = nxt.get(after, 0) + w * weight
                else:
                    failed += w * weight
        reached = sum(states.values()) * 36
        figures[f"P({plan.name} | 前の判定がすべて成功)"] = (
            Fraction(reached - failed, reached) if reached else Fraction(0)
        )
        denominator *= 36
        ends[_fail_key(i)] = Fraction(failed, denominator)
        states = nxt
    return {"win": Fraction(sum(states.values()), denominator), **ends}, figures


class AkatsukiSimulator(Simulator[Prepared]):
    """暁ノ大地: a series of checks, awakening cards carried from one to the next."""

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
    ends = MappingProxyType({"win": WIN, "failed": End("いずれかの判定に失敗", False)})
    rulings = (
        "akatsuki.auto_failure",
        "akatsuki.superhuman_band",
        "akatsuki.alpha",
        "akatsuki.beta_achievement",
        "akatsuki.after_boost_policy",
        "akatsuki.card_points",
        "akatsuki.npc_support",
        "akatsuki.balance_boosts",
        "akatsuki.series",
    )
    NOTES = MappingProxyType(
        {
            "opposed": "対抗判定（{enemies}との抵抗・妨害・競争）は難易度の判定として書けないので"
            "扱わない。対抗判定は相手の判定にも勝たなければならないので、同じ目標値の難易度の判定"
            "より成功しにくい：それを含む卓ではこの数字より失敗しやすい。",
            "cards": "覚醒札1枚を{points}ポイントとみなす（card_points）。事前ブーストはその判定の"
            "成功率が最も高くなる最少枚数、残りは事後ブースト。",
            "rounds": "メインミッションの制限ラウンド（{rounds}）は使わない：判定はそれぞれ1回ずつ"
            "試みる（失敗した判定のやり直しは扱わない。やり直せる卓ではこの数字より成功しやすい）。",
        }
    )

    def prepare(self, enc: Encounter, tactics: Tactics) -> Prepared:
        """Plan every target for the party."""
        party = _party(enc)
        rules = Settings.from_options(enc.options).check
        return Prepared(
            plans=tuple(_plan(party, t, rules) for t in _targets(enc)),
            rules=rules,
            spend=tactics.pc.spend_cards,
            cards=tuple(pc.cards for pc in party),
            card_points=int(enc.options["card_points"]),
            enemies=tuple(e.name for e in _enemies(enc)),
            rounds=enc.round_limit,
        )

    def battle(self, prep: Prepared, rng: random.Random, tally: Tally) -> None:
        """Attempt every target once, in order."""
        _battle(prep, rng, tally)

    def ends_for(self, prep: Prepared) -> Mapping[str, End]:
        """The win, and a failure at each target (the first that failed)."""
        fails = {
            _fail_key(i): End(f"「{plan.name}」で失敗", False) for i, plan in enumerate(prep.plans)
        }
        return MappingProxyType({"win": WIN, **fails})

    def exact(self, prep: Prepared, budget: Budget) -> tuple[Fraction | None, dict[str, Fraction]]:
        """P(every target succeeds), exactly, and each target's P(success) once every
        target before it has succeeded."""
        ends, figures = _series(prep, budget)
        return ends["win"], figures

    def exact_ends(self, prep: Prepared, budget: Budget) -> dict[str, Fraction]:
        """P(each end of :meth:`ends_for`), exactly: the win, each target failing first."""
        return _series(prep, budget)[0]

    def side_exact(self, prep: Prepared, condition: Condition, budget: Budget) -> Fraction | None:
        """P(``condition``): every target attempted, over (cards held, targets passed)."""
        states: dict[tuple[tuple[int, ...], int], int] = {(prep.cards, 0): 1}
        for k, plan in enumerate(prep.plans):
            nxt: dict[tuple[tuple[int, ...], int], int] = {}
            for (hand, mask), w in states.items():
                for after, ok, weight in _results(prep, plan, hand, budget):
                    key = (after, mask | (1 << k) if ok else mask)
                    nxt[key] = nxt.get(key, 0) + w * weight
            states = nxt
        n = len(prep.plans)
        hits = 0
        for (hand, mask), w in states.items():
            budget.spend(1)
            passed = tuple(i for i in range(n) if mask >> i & 1)
            b = Battle(
                win=len(passed) == n,
                rounds=len(passed),
                passed=passed,
                facts={"cards_left": sum(hand)},
            )
            hits += w * condition.holds(b)
        return Fraction(hits, 36**n)

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        """Opposed checks (with the enemies), the card points, an unused round limit."""
        enemies = "、".join(prep.enemies) if prep.enemies else "エネミー"
        out = [self.note("opposed", enemies=enemies)]
        if prep.spend:
            out.append(self.note("cards", points=prep.card_points))
        if prep.rounds is not None:
            out.append(self.note("rounds", rounds=prep.rounds))
        return tuple(out)

    def round_limit(self, enc: Encounter) -> tuple[int | None, bool]:
        """None: each check is tried once, a round limit does not apply (a note says so)."""
        del enc
        return None, False

    def nothing_to_play(self, enc: Encounter) -> str:
        """Without difficulty targets there is no check to play."""
        return "" if enc.targets else "難易度の判定がない"

    def facts(self, enc: Encounter) -> frozenset[str]:
        """The cards the party holds at the end (``cards_left_at_least``)."""
        del enc
        return frozenset({"cards_left"})


SIMULATOR = AkatsukiSimulator()
"""The akatsuki simulator."""
