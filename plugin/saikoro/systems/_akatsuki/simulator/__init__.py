"""君ヨ、暁ノ大地ニ死スベシ: the difficulty targets as a series of checks.

Every check is the engine's (the ``AK`` command's
:func:`~saikoro.systems._akatsuki.checks.resolve_check`), following ``akatsuki.check``
for each target in order. For each target the best-placed PC checks (highest chance of
success, a specialty's doublets counted; ties to the earlier PC) and up to two others
support (level 5+ or experts, the best bonuses first: ``can_support``,
``supporter_bonus``); NPC help written in the target's ``support`` fills supporter slots
first (one slot per point, two at most: ruling ``akatsuki.npc_support``). With the
``spend_cards`` tactic the checker first boosts before the roll with the fewest cards that
give this check its best chance (each card worth ``card_points`` awakening points, a
ruling; the rest kept for after the roll), then spends cards after the roll, as few as
turn a failure into a success (``AfterMode.AS_NEEDED``); a specialty doublet within the
target earns a card for the checker and each PC supporter (NPC helpers hold no cards).
Every target is attempted; ``win`` is P(every one succeeds). A play that fails ends as
``failed:<i>``, *i* the first target that failed (:meth:`AkatsukiSimulator.ends_for`); the
"rounds" histogram counts the checks that succeeded. A check's two dice are rolled one
after the other (two rolls of the step machine, :class:`Prepared`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from operator import itemgetter
from types import MappingProxyType

from saikoro.balance import Battle, Encounter, End, Note, Roll, Rules, Simulator, Tactics
from saikoro.dice import Dist, InternalError
from saikoro.systems._akatsuki.checks import (
    MAX_SUPPORTERS,
    AfterMode,
    CheckRules,
    CheckSpec,
    can_support,
    resolve_check,
    supporter_bonus,
)
from saikoro.systems._akatsuki.model import AkatsukiEnemy, AkatsukiPC, AkatsukiTarget
from saikoro.systems._akatsuki.odds import success_probability
from saikoro.systems._akatsuki.rulings import Settings

__all__ = ["SIMULATOR", "AkatsukiSimulator", "Plan", "Prepared", "State", "with_cards"]

DIE: Dist[int] = Dist.uniform(range(6))
"""One die of the 2D6, its faces counted from 0."""


@dataclass(frozen=True)
class Plan:
    """Who checks a target and how: the checker, its spec without cards, the supporters."""

    name: str
    checker: int
    spec: CheckSpec
    supporters: tuple[int, ...]


State = tuple[int, tuple[int, ...], int, int, int, int]
"""(next target, cards each PC holds, mask of the targets passed, the first die rolled for
it or -1, cards spent, gained)."""


@dataclass(frozen=True)
class Prepared(Rules[State]):
    """The plans, the rules, the tactics and what the notes name; the series' rules."""

    plans: tuple[Plan, ...]
    rules: CheckRules
    spend: bool
    cards: tuple[int, ...]
    card_points: int = 1
    enemies: tuple[str, ...] = ()
    rounds: int | None = None
    reads: frozenset[str] = frozenset()
    """The battle's figures the side missions read (what the exact states keep)."""

    def start(self) -> State:
        return (0, self.cards, 0, -1, 0, 0)

    def step(self, state: State) -> Roll[State] | Battle:
        i, cards, mask, d1, spent, gained = state
        if i < len(self.plans) and d1 < 0:  # both dice are rolled, even when not read
            return Roll(DIE, lambda d: (i, cards, mask, d, spent, gained))
        if i < len(self.plans):
            plan = self.plans[i]
            held = cards[plan.checker] if self.spend else 0
            spec, before = with_cards(plan.spec, held, self.card_points, self.rules)

            def then(d2: int) -> State:
                r = resolve_check(spec, d1 + 1, d2 + 1, self.rules)
                hand = list(cards)
                hand[plan.checker] += r.cards_gained - before - r.cards_spent
                for j in plan.supporters:  # each PC supporter earns as many as the checker
                    hand[j] += r.cards_gained
                won = gained + r.cards_gained * (1 + len(plan.supporters))
                passed = mask | (1 << i) if r.success else mask
                return (i + 1, tuple(hand), passed, -1, spent + before + r.cards_spent, won)

            return Roll(DIE, then)
        passed = tuple(k for k in range(i) if mask >> k & 1)
        failed = [k for k in range(i) if not mask >> k & 1]
        checkers = {self.plans[k].checker for k in failed}
        return Battle(
            win=not failed,
            end=f"failed:{failed[0]}" if failed else "win",
            rounds=len(passed),
            downed=tuple(j in checkers for j in range(len(cards))),
            passed=passed,
            facts={"cards_left": sum(cards)},
            sums=(("cards_spent", spent), ("cards_gained", gained)),
        )

    def canonical(self, state: State) -> tuple[int, ...] | tuple[object, ...]:
        """The cards spent and gained feed the sampled means only; of the targets passed,
        only the first failure counts (the end, the conditional figures) unless a side
        mission reads which ones or how many passed, or who failed."""
        i, cards, mask, d1 = state[:4]
        if self.reads & {"passed", "rounds"}:
            return (i, cards, mask, d1)
        failed = ~mask & ((1 << i) - 1)
        who = "downed" in self.reads
        down = frozenset(self.plans[k].checker for k in range(i) if who and failed >> k & 1)
        return (i, cards, d1, (failed & -failed).bit_length(), down)


def _plan(party: tuple[AkatsukiPC, ...], t: AkatsukiTarget, rules: CheckRules) -> Plan:
    """The checker with the best P(success) (before cards) and its best supporters."""
    level = [pc.abilities.get(t.ability, 0) for pc in party]
    expert = [t.style is not None and t.style in pc.specialties for pc in party]
    helpers = sorted(  # (-bonus, who): the best first, ties to the earlier PC
        (-supporter_bonus(level[j], expert=expert[j]), j)
        for j in range(len(party))
        if can_support(level[j], expert=expert[j])
    )
    room = MAX_SUPPORTERS - min(MAX_SUPPORTERS, t.support)  # NPC help fills slots first

    def plan(i: int) -> tuple[Fraction, Plan]:
        chosen = [bj for bj in helpers if bj[1] != i][:room]
        spec = CheckSpec(
            level=level[i],
            difficulty=t.difficulty,
            preparation=t.preparation,
            supporters=tuple(-b for b, _ in chosen),
            modifier=t.support,
            specialty=expert[i],
        )
        return success_probability(spec, rules), Plan(t.name, i, spec, tuple(j for _, j in chosen))

    return max(map(plan, range(len(party))), key=itemgetter(0))[1]


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

    before = max(range(held + 1), key=lambda n: success_probability(boosted(n), rules))
    return boosted(before), before


class AkatsukiSimulator(Simulator[Prepared]):
    """暁ノ大地: a series of checks, awakening cards carried from one to the next."""

    system = "akatsuki"
    flows = ("akatsuki.check",)
    tactics = ("focus", "focus")
    tactics_reason = (
        "戦闘のない判定の連続なので、方針は誰が判定し誰が補佐するかと覚醒札の使い方だけに"
        "効く。失敗を救える場面でだけ札を使うのが、札を無駄にしない最も自然な使い方。"
    )
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
    ends = MappingProxyType(
        {"win": End("すべての判定に成功", True), "failed": End("いずれかの判定に失敗", False)}
    )
    battle_facts = frozenset({"cards_left"})
    """The cards the party holds at the end (``cards_left_at_least``)."""
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
        party = enc.of("members", AkatsukiPC)
        if not party:
            raise InternalError("akatsuki: the party has no PC")
        rules = Settings.from_options(enc.options).check
        return Prepared(
            plans=tuple(_plan(party, t, rules) for t in enc.of("targets", AkatsukiTarget)),
            rules=rules,
            spend=tactics.pc.spend_cards,
            cards=tuple(pc.cards for pc in party),
            card_points=int(enc.options["card_points"]),
            enemies=tuple(e.name for e in enc.of("enemies", AkatsukiEnemy)),
            rounds=enc.round_limit,
            reads=enc.reads,
        )

    def ends_for(self, prep: Prepared) -> Mapping[str, End]:
        """The win, and a failure at each target (the first that failed)."""
        fails = {
            f"failed:{i}": End(f"「{plan.name}」で失敗", False) for i, plan in enumerate(prep.plans)
        }
        return MappingProxyType({"win": self.ends["win"], **fails})

    def figures(self, prep: Prepared, outcomes: Dist[Battle]) -> dict[str, Fraction]:
        """Each target's P(success) once every target before it has succeeded (the end
        names the first that failed)."""
        n = len(prep.plans)
        first = outcomes.map(lambda b: n if b.win else int(b.end.removeprefix("failed:")))
        out = {}
        for i, plan in enumerate(prep.plans):
            reached, passed = first.at_least(i), first.at_least(i + 1)
            out[f"P({plan.name} | 前の判定がすべて成功)"] = passed / reached if reached else reached
        return out

    def notes(self, prep: Prepared) -> tuple[Note, ...]:
        """Opposed checks (with the enemies), the card points, an unused round limit."""
        out = [self.note("opposed", enemies="、".join(prep.enemies) or "エネミー")]
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


SIMULATOR = AkatsukiSimulator()
"""The akatsuki simulator."""
