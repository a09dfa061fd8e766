"""The step-machine contract: the exact solver against brute force, the sampler against it."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction

import pytest

from balance_walk import every_battle
from saikoro.balance import Battle, Budget, Cycle, OutOfBudget, Roll, Rules, memo, play, solve
from saikoro.dice import Dist, InternalError

D6 = Dist.die(6)


@dataclass(frozen=True)
class Duel(Rules[tuple[int, int, int]]):
    """Two gauges; each round the PCs hit for 1D6 then the enemy for 1D6 (a toy battle)."""

    mine: int
    theirs: int
    rounds: int

    def start(self) -> tuple[int, int, int]:
        return (self.mine, self.theirs, 0)

    def step(self, s: tuple[int, int, int]) -> Roll[tuple[int, int, int]] | Battle:
        mine, theirs, half = s
        if theirs <= 0 or mine <= 0 or half == 2 * self.rounds:
            end = "win" if theirs <= 0 else "wipe" if mine <= 0 else "timeout"
            return Battle(win=end == "win", end=end, rounds=(half + 1) // 2, taken=self.mine - mine)
        if half % 2 == 0:
            return Roll(D6, lambda d: (mine, theirs - d, half + 1))
        return Roll(D6, lambda d: (mine - d, theirs, half + 1))


@dataclass(frozen=True)
class Pair(Rules[tuple[int, int, int]]):
    """Two identical dice kept as a sorted pair: the canonical form merges the orders."""

    def start(self) -> tuple[int, int, int]:
        return (0, 0, 0)

    def step(self, s: tuple[int, int, int]) -> Roll[tuple[int, int, int]] | Battle:
        n, a, b = s
        if n == 2:
            return Battle(win=a + b >= 9, rounds=max(a, b))
        return Roll(D6, lambda d: (n + 1, b, d) if n else (1, 0, d))

    def canonical(self, s: tuple[int, int, int]) -> tuple[int, ...]:
        return (s[0], *sorted(s[1:]))


@pytest.mark.parametrize("machine", [Duel(8, 7, 3), Duel(12, 20, 4), Duel(1, 1, 1), Pair()])
def test_the_solver_agrees_with_brute_force(machine: Rules[tuple[int, int, int]]) -> None:
    want = every_battle(machine)
    got = solve(machine, Budget())
    assert got.probabilities() == {b: p for b, p in want.items() if p}
    assert sum(got.probabilities().values()) == 1


def test_memoising_steps_each_state_once() -> None:
    used = Budget()
    solve(Duel(12, 20, 4), used)
    paths = Budget()  # brute force would pay per path, 6**8 of them
    assert used.used < 6**8 // 100 and paths.used == 0


def test_the_budget_is_charged_and_enforced() -> None:
    b = Budget()
    solve(Duel(8, 7, 3), b)
    with pytest.raises(OutOfBudget):
        solve(Duel(8, 7, 3), Budget(b.used - 1))


def test_a_loop_is_not_solved() -> None:
    class Loop(Rules[int]):
        def start(self) -> int:
            return 0

        def step(self, s: int) -> Roll[int] | Battle:
            return Roll(D6, lambda d: 0 if d < 6 else 1) if s == 0 else Battle(win=True, rounds=0)

    with pytest.raises(Cycle):
        solve(Loop(), Budget())


def test_a_machine_that_never_ends_is_a_bug_not_a_hang() -> None:
    class Forever(Rules[int]):
        def start(self) -> int:
            return 0

        def step(self, s: int) -> Roll[int] | Battle:
            return Roll(Dist.constant(1), lambda d: s + d)

    import saikoro.balance._machine as machine

    old = machine.MAX_STEPS
    machine.MAX_STEPS = 1000
    try:
        with pytest.raises(InternalError):
            play(Forever(), random.Random(0))
    finally:
        machine.MAX_STEPS = old


def test_the_sampler_follows_the_exact_odds() -> None:
    duel = Duel(8, 7, 3)
    exact = solve(duel, Budget()).probability_where(lambda b: b.win)
    rng = random.Random(5)
    n = 20000
    wins = sum(play(duel, rng).win for _ in range(n))
    sd = (float(exact * (1 - exact)) / n) ** 0.5
    assert abs(wins / n - float(exact)) < 5 * sd


def test_draw_lays_the_weights_end_to_end() -> None:
    d = Dist({1: 1, 2: 2, 3: 3})
    seen = [d.draw(k / 60) for k in range(60)]
    assert [seen.count(v) for v in (1, 2, 3)] == [10, 20, 30]
    assert Dist.from_fractions({"a": Fraction(1, 2)}).draw(0.9) == "a"  # truncated mass


def test_sampled_only_figures_are_not_part_of_an_end() -> None:
    a = Battle(win=True, rounds=1, sums=(("x", 1),), dealt=3, facts={"power": 2})
    b = Battle(win=True, rounds=1, sums=(("x", 2),), facts={"power": 2})
    assert a == b and hash(a) == hash(b) and a.fact("power") == 2 and a.fact("y") is None


@dataclass(frozen=True)
class Scaled(Rules[int]):
    """A frozen Rules with an unhashable field and a remembered method (balance.memo)."""

    factor: int
    seen: list[int] = field(default_factory=list, compare=False)

    @memo
    def times(self, n: int) -> int:
        self.seen.append(n)
        return n * self.factor


def test_memo_remembers_per_rules_object() -> None:
    """Each object computes each argument once; an equal or replaced object has its own."""
    a = Scaled(2)
    assert [a.times(3), a.times(3), a.times(4)] == [6, 6, 8] and a.seen == [3, 4]
    b = replace(a, factor=5, seen=[])
    assert b.times(3) == 15 and b.seen == [3] and a.times(3) == 6
    assert Scaled(2) == a and Scaled(2).times(3) == 6  # equality ignores the memo
