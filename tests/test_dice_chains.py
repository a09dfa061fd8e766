"""Reroll chains in closed form against the old depth-by-depth construction.

The reference below rebuilds a chain one reroll at a time, exactly as the engine did
before the closed form (``A_j = s**j + up * A_(j-1)``, then ``A_depth * stop``), with
plain dictionaries; the engine's single-pass :func:`chain_power` must give the same
weights over the same denominators, for one die and for several dice at once.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import saikoro
from saikoro.dice import InternalError, LimitError, Poly, chain_power, depth_for, faces_poly
from saikoro.dice._chains import chain_count, chain_sum, chain_works, check_chain_work
from saikoro.dice._series import divide, run_power, times_power

Weights = dict[int, int]


def _times(a: Weights, b: Weights) -> Weights:
    out: Weights = {}
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] = out.get(i + j, 0) + x * y
    return out


def _reference_chain(up: Weights, stop: Weights, depth: int) -> tuple[Weights, int]:
    """One chain, built reroll by reroll (the old algorithm), over ``s**(depth + 1)``."""
    sides = sum(up.values()) + sum(stop.values())
    acc: Weights = {0: 1}
    for j in range(1, depth + 1):
        acc = _times(up, acc)
        acc[0] = acc.get(0, 0) + sides**j
    return _times(acc, stop), sides ** (depth + 1)


def _reference_weights(up: Weights, stop: Weights, depth: int, dice: int) -> tuple[Weights, int]:
    chain, denominator = _reference_chain(up, stop, depth)
    out: Weights = {0: 1}
    for _ in range(dice):
        out = _times(out, chain)
    return out, denominator**dice


def _reference(up: Weights, stop: Weights, depth: int, dice: int) -> dict[int, Fraction]:
    out, denominator = _reference_weights(up, stop, depth, dice)
    return {k: Fraction(w, denominator) for k, w in out.items() if w}


def _probabilities(poly: Poly) -> dict[int, Fraction]:
    return {k: Fraction(w, poly.denominator) for k, w in poly.to_weights().items()}


def _poly(weights: Weights) -> Poly:
    return Poly.from_weights(weights, 1) if weights else Poly(0, [0], 1)


@pytest.mark.parametrize("sides", [1, 2, 3, 4, 6, 7])
def test_exploding_chains_match_the_old_construction(sides: int) -> None:
    for threshold in range(2, sides + 2):
        up = dict.fromkeys(range(threshold, sides + 1), 1)
        stop = dict.fromkeys(range(1, min(threshold, sides + 1)), 1)
        for depth in range(6):
            for dice in (1, 2, 3):
                found = chain_power(_poly(up), _poly(stop), depth, dice)
                assert _probabilities(found) == _reference(up, stop, depth, dice)
            if up and depth:
                one = chain_power(_poly(up), _poly(stop), depth)
                assert one.denominator == sides ** (depth + 1)
                assert one.to_weights() == {
                    k: w for k, w in _reference_chain(up, stop, depth)[0].items() if w
                }


def test_success_count_chains_match_the_old_construction() -> None:
    for hit_up in range(3):
        for miss_up in range(3):
            for hit_stop in range(3):
                for miss_stop in range(3):
                    if not hit_stop + miss_stop:
                        continue
                    up = {0: miss_up, 1: hit_up}
                    stop = {0: miss_stop, 1: hit_stop}
                    for depth in range(5):
                        old = _reference(up, stop, depth, 1)
                        assert (
                            _probabilities(chain_count(hit_up, miss_up, hit_stop, miss_stop, depth))
                            == old
                        )
                        for dice in (2, 3):
                            found = chain_power(_poly(up), _poly(stop), depth, dice)
                            assert _probabilities(found) == _reference(up, stop, depth, dice)


@pytest.mark.parametrize(
    ("up", "stop"),
    [
        ({2: 1, 3: 2}, {1: 1}),  # unequal weights: the general division
        ({0: 1, 2: 1, 5: 3}, {1: 2, 4: 1}),  # a gap, a zero score that rerolls
        ({3: 2, 4: 2}, {0: 3, 1: 3, 2: 3}),  # runs of equal weights other than 1
        ({1: 1}, {0: 1, 3: 1}),  # stopping faces that are not a run
    ],
)
def test_general_faces_match_the_old_construction(up: Weights, stop: Weights) -> None:
    for depth in range(5):
        for dice in (1, 2, 3):
            found = chain_power(_poly(up), _poly(stop), depth, dice)
            assert _probabilities(found) == _reference(up, stop, depth, dice)


def test_chain_sum_is_the_one_die_chain() -> None:
    found = chain_sum([5, 6], [1, 2, 3, 4], 6, 3)
    assert _probabilities(found) == _reference({5: 1, 6: 1}, dict.fromkeys(range(1, 5), 1), 3, 1)
    with pytest.raises(InternalError, match="sides"):  # its callers count the faces
        chain_sum([6], [1], 6, 2)


def test_series_helpers_match_direct_products() -> None:
    for k in range(1, 6):
        for n in range(8):
            direct = Poly(0, [1] * k, 1).power(n).weights if n else [1]
            assert run_power(k, n, 1000) == direct
            assert run_power(k, n, 3) == direct[:3]
    for factor in ([1, 1, 1], [2, 2], [1, 3], [5]):
        for n in range(4):
            expected = Poly(0, factor, 1).power(n).weights if n else [1]
            assert times_power([1], factor, n) == expected
    # (2 - x - x**2) * (1 + 3x) / (2 - x - x**2) = 1 + 3x
    assert divide([2, 5, -4, -3, 0], 1, [1, 1], 2) == [1, 3, 0, 0, 0]
    assert divide([2, 5, -4, -3, 0], 1, [1, 0], 2)[:1] == [1]


def _chain_odds(groups: list[tuple[int, int]], threshold: int) -> tuple[dict[int, Fraction], int]:
    depth = depth_for([(n, Fraction(max(0, s - threshold + 1), s)) for n, s in groups])
    out: Weights = {0: 1}
    denominator = 1
    for n, s in groups:
        up = dict.fromkeys(range(threshold, s + 1), 1)
        stop = dict.fromkeys(range(1, min(threshold, s + 1)), 1)
        part, part_denominator = _reference_weights(up, stop, depth, n)
        out = _times(out, part)
        denominator *= part_denominator
    return {k: Fraction(w, denominator) for k, w in out.items() if w}, depth


@pytest.mark.parametrize(
    ("command", "groups", "threshold"),
    [
        ("1U6[2]", [(1, 6)], 2),
        ("2U4[2]", [(2, 4)], 2),
        ("3U6[4]", [(3, 6)], 4),
        ("2U6+1U4[4]", [(2, 6), (1, 4)], 4),
        ("1U5[3]", [(1, 5)], 3),
    ],
)
def test_low_thresholds_give_the_old_distributions(
    command: str, groups: list[tuple[int, int]], threshold: int
) -> None:
    found = saikoro.odds(command)
    assert found is not None
    expected, _ = _chain_odds(groups, threshold)
    assert dict(found.distribution) == expected
    assert found.truncated == 1 - sum(expected.values())
    assert 0 < found.truncated <= Fraction(1, 10**12)


def test_reroll_with_low_threshold_gives_the_old_distribution() -> None:
    found = saikoro.odds("2R6[>=2]>=5")
    assert found is not None
    depth = depth_for([(2, Fraction(5, 6))])
    expected = _reference({0: 3, 1: 2}, {0: 1}, depth, 2)
    assert dict(found.distribution) == expected
    assert found.truncated == 1 - sum(expected.values())


@pytest.mark.parametrize(
    "command",
    [
        "1U10[2]",
        "10U10[6]",
        "6U10[10]",
        "10U6[6]",
        "5R10[9]>=8",
        "5R10[>=5]>=8",
        "3U20[11]",
        "10U10[5]>=15",
        "1R100[>=2]",
        "20R10>=8",
    ],
)
def test_realistic_chains_are_within_the_bounds(command: str) -> None:
    found = saikoro.odds(command)
    assert found is not None
    assert sum(found.distribution.values()) + found.truncated == 1
    assert found.truncated <= Fraction(1, 10**12)


@pytest.mark.parametrize(
    ("command", "bound"),
    [
        ("2U10[2]", "bits"),
        ("1U100[2]", "outcomes"),
        ("200U6[6]", "bits"),
        ("1U10000[2]", "depth"),
        ("1R100[>=2]>=100", "bits"),
        ("50R10[>=6]>=8", "bits"),
        ("100U10[2]>=10", "bits"),
        ("1R10000[>=2]>=2", "depth"),
        ("200U11[6]>=5", "fractions"),
        ("70U11[2]>=5", "fractions"),
    ],
)
def test_over_large_chains_are_refused_naming_the_bound(command: str, bound: str) -> None:
    with pytest.raises(LimitError) as info:
        saikoro.odds(command)
    assert info.value.bound == bound
    assert "上限" in str(info.value)


def test_the_estimate_covers_the_result() -> None:
    for n, s, t in [(1, 10, 2), (3, 6, 4), (10, 10, 6), (2, 20, 11)]:
        up, stop = faces_poly(list(range(t, s + 1))), faces_poly(list(range(1, t)))
        depth = depth_for([(n, Fraction(s - t + 1, s))])
        work = chain_works([(n, up, stop)], depth)
        check_chain_work(work)
        found = chain_power(up, stop, depth, n)
        assert len(found.weights) <= work[0].outcomes
        assert found.denominator.bit_length() <= work[0].bits
