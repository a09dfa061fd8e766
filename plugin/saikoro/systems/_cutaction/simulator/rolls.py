"""Cut-action: every roll of one encounter's battles, as a :class:`~saikoro.dice.Dist`.

Each roll is built once, from the engine's exact distribution of what it stands for
(checks, contests, attacks against reactions, damage after the resist check, the chase's
events), and kept. Outcomes are small integers laid out in the order of the dice: a check
is the roll of the check dice itself, a hit the 体力 it takes (0: none), a contest 0 when
the active side wins; so a battle drawn from a seed is the same whichever way the steps
that roll them are written.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import prod

from saikoro.dice import Dist
from saikoro.systems._cutaction import checks
from saikoro.systems._cutaction.chase import accelerate_gain, move_gain
from saikoro.systems._cutaction.damage import attack_table, damage_dist
from saikoro.systems._cutaction.events import event_number, oncoming_damage, runner_effect

from .prepare import Prepared

__all__ = ["ONCOMING", "Rolls"]

ONCOMING = event_number("対向車")
"""The event whose damage is this cut's movement achievement."""


class Rolls:
    """The rolls of ``prep``'s battles, each built on first use and kept."""

    def __init__(self, prep: Prepared) -> None:
        st = self.settings = prep.settings
        self.check: Dist[int] = checks.roll_dist(st.check_dice)
        """Any check: the roll of the check dice."""
        self.top = max(self.check.outcomes())
        """The roll that fumbles."""
        self.falling: Dist[int] = Dist.die(10)
        """Where falling objects land: the 1D10 halved (ruling ``falling_area``)."""
        events: dict[int, Fraction] = {}
        for number, p, _ in prep.chase.events if prep.chase else ():
            events[number] = events.get(number, Fraction(0)) + p
        oncoming = events.pop(ONCOMING, Fraction(0))
        self.kind: Dist[int] = Dist.from_fractions({0: oncoming, 1: 1 - oncoming})
        """Whether this cut's route change will bring 対向車 (0, drawn first) or not."""
        self.events = tuple(events)
        """The chase table's other events, in its order."""
        self.route: Dist[int] = Dist.from_fractions(
            {i: p / (1 - oncoming) for i, p in enumerate(events.values()) if p}
        )
        """The route change in a cut without 対向車: an index into ``events``."""
        self.chars = prep.chars
        self.initiative = cache(self._initiative)
        self.move = cache(self._move)
        self.speed = cache(self._speed)
        self.contest = cache(self._contest)
        self.hit = cache(self._hit)
        self.obstruct = cache(self._obstruct)
        self.event = cache(self._event)
        self.damage = cache(self._damage)

    def result(self, value: int, roll: int) -> checks.CheckResult:
        """The check of success value ``value`` that rolled ``roll``."""
        return checks.CheckResult(value, roll, 0, roll == self.top)

    def _initiative(self, fighters: tuple[int, ...]) -> Dist[tuple[int, ...]]:
        """A cut's acting order (characters): every one of ``fighters`` makes its initiative
        body check; successes act from the highest achievement down, then the failures
        (ruling ``failed_initiative_order``), fumbles not at all
        (:func:`~saikoro.systems._cutaction.checks.initiative_order`). Worked out
        achievement by achievement, best first, each fighter having it or not in turn
        (listed PCs first, as the engine breaks a tie)."""
        den = self.check.denominator
        odds: list[dict[int, int]] = []  # each fighter's weight of each achievement
        for f in fighters:
            odds.append({})
            for roll, w in self.check.items():
                if roll != self.top:
                    a = self.chars[f].body - roll
                    odds[-1][a] = odds[-1].get(a, 0) + w
        ranked = checks.initiative_order(
            [checks.InitiativeEntry(str(a), a) for a in {a for got in odds for a in got}],
            failed_order=self.settings.failed_initiative_order,
        )
        ways: dict[tuple[int, ...], int] = {(): 1}  # places in ``fighters`` -> weight
        for a in (int(e.name) for e in ranked):
            for i, got in enumerate(odds):
                if a in got:
                    for order, w in list(ways.items()):
                        if i not in order:
                            key = (*order, i)
                            ways[key] = ways.get(key, 0) + w * got[a]
        out: dict[tuple[int, ...], int] = {}
        for order, w in ways.items():
            fumbles = [den - sum(got.values()) for i, got in enumerate(odds) if i not in order]
            key = tuple(fighters[i] for i in order)
            out[key] = out.get(key, 0) + w * prod(fumbles)
        return Dist(out)

    def _move(self, value: int, roll: int) -> tuple[int, int, bool]:
        """A movement check: how far it moves its runner (ruling ``failed_move``), the
        damage 対向車 deals this cut, whether it fumbled."""
        r = self.result(value, roll)
        gain = move_gain(r, failed_move=self.settings.failed_move)
        return gain, oncoming_damage(r.achievement), r.fumble

    def _speed(self, value: int, roll: int) -> int:
        """加速: how far it moves its runner forward."""
        return accelerate_gain(self.result(value, roll))

    def _contest(self, active: int, passive: tuple[int, ...]) -> Dist[int]:
        """A contest (ruling ``contest_rule``): 0 the active side wins, 1 it does not."""
        st = self.settings
        c = checks.contest_odds(active, passive, dice=st.check_dice, rule=st.contest_rule)
        return Dist.from_fractions({0: c.win, 1: c.lose})

    def _hit(self, value: int, damage: int, reaction: int, body: int) -> Dist[int]:
        """An attack of success value ``value`` on a target of ``reaction`` and ``body``: its
        reaction, then on a hit the damage and the body resist check (``CAA``); the 体力 it
        takes."""
        st = self.settings
        table = attack_table(
            value,
            reaction,
            damage,
            body,
            dice=st.check_dice,
            rule=st.contest_rule,
            failure=st.resist_failure,
        )
        out: dict[int, Fraction] = {}
        for res, p in table.items():
            loss = res.hp_loss if res else 0
            out[loss] = out.get(loss, Fraction(0)) + p
        return Dist.from_fractions(out)

    def _obstruct(self, active: int, passive: int) -> Dist[int]:
        """How far 進路妨害 pushes its target back (ruling ``obstruct_distance``)."""
        st = self.settings
        rule, distance = st.contest_rule, st.obstruct_distance
        return checks.obstruct_dist(
            active, passive, dice=st.check_dice, rule=rule, distance=distance
        )

    def _event(self, number: int, body: int, move: int = 0) -> Dist[int]:
        """What event ``number`` does to a runner of body ``body`` after its check: how far
        it falls back (連続カーブ), the 体力 it loses (対向車, this cut's movement damage
        ``move``), 1 when it drops out (ジャンプ) or loses the cut (スリップ)."""
        dice = self.settings.check_dice
        parts = []
        for r, p in checks.check_results(body, dice=dice):
            e = runner_effect(number, r, move=move)
            if number == ONCOMING and not r.success:
                parts.append((p, self._damage(e.damage, body)))
            else:
                parts.append((p, Dist.constant(e.retreat + e.drop + e.idle)))
        return Dist.mix(parts)

    def _damage(self, damage: int, body: int) -> Dist[int]:
        """The 体力 physical ``damage`` takes after a body resist check (falling objects:
        :data:`~saikoro.systems._cutaction.events.FALLING_DAMAGE`)."""
        st = self.settings
        return damage_dist(damage, body, dice=st.check_dice, failure=st.resist_failure)

    @staticmethod
    @cache
    def uniform(n: int) -> Dist[int]:
        """One of ``n`` candidates, each as likely (the ``random`` policy)."""
        return Dist.uniform(range(n))
