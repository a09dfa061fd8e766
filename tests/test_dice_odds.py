"""Exact odds checked against brute-force enumeration (and icepool where handy).

Fixed-dice commands are enumerated through the roller itself: every assignment of
die faces is fed to ``saikoro.roll(command, dice=...)`` and the results weighted,
which also checks that ``roll`` and ``odds`` agree. Reroll chains (``U``, ``R``) are
enumerated by an independent step-by-step model cut at the same depth.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import pytest

import saikoro
from saikoro.dice import Roll, depth_for


def enumerate_roll(
    command: str, sides: list[int], measure: Callable[[Roll], int | str]
) -> dict[int | str, Fraction]:
    """Distribution of ``measure(roll)`` over every face assignment of ``sides``."""
    out: dict[int | str, Fraction] = {}
    weight = Fraction(1)
    for s in sides:
        weight /= s
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        result = saikoro.roll(command, dice=list(zip(sides, faces, strict=True)))
        assert result is not None
        assert len(result.dice) == len(sides)
        key = measure(result)
        out[key] = out.get(key, Fraction(0)) + weight
    return out


def value(result: Roll) -> int | str:
    assert result.value is not None
    return result.value


def last_number(result: Roll) -> int:
    return int(result.text.rsplit(" ＞ ", 1)[-1])


def odds_of(command: str) -> dict[int | str, Fraction]:
    found = saikoro.odds(command)
    assert found is not None
    assert sum(found.distribution.values()) + found.truncated == 1
    return dict(found.distribution)


@pytest.mark.parametrize(
    ("command", "sides"),
    [
        ("2D6", [6, 6]),
        ("3D4+1D3*2-1", [4, 4, 4, 3]),
        ("(2+1)D(1+3)/2U", [4, 4, 4]),
        ("2D6/3R-1D4", [6, 6, 4]),
        ("1D6*1D4", [6, 4]),
        ("1D6/1D3F", [6, 3]),
        ("-2D4+10", [4, 4]),
        ("4D6KH3", [6] * 4),
        ("4D4KL2", [4] * 4),
        ("5D3DH2", [3] * 5),
        ("4D5DL1+1", [5] * 4),
        ("3DMAX", [6] * 3),
        ("3D4MIN", [4] * 3),
        ("2D4KH5", [4, 4]),
        ("3D4KH0", [4] * 3),
        ("1D66", [6, 6]),
        ("1D3+1D66", [3, 6, 6]),
    ],
)
def test_sums_match_enumeration(command: str, sides: list[int]) -> None:
    assert odds_of(command) == enumerate_roll(command, sides, value)


@pytest.mark.parametrize(
    ("command", "sides"),
    [
        ("2D6>=7", [6, 6]),
        ("3D4<>6", [4, 4, 4]),
        ("2D6MAX<=3", [6, 6]),
    ],
)
def test_success_matches_enumeration(command: str, sides: list[int]) -> None:
    found = saikoro.odds(command)
    assert found is not None
    brute = enumerate_roll(command, sides, lambda r: int(r.success))
    assert found.success == brute.get(1, Fraction(0))
    assert found.failure == brute.get(0, Fraction(0))


@pytest.mark.parametrize(
    ("command", "sides"),
    [
        ("3B6>=4", [6, 6, 6]),
        ("2B4+2B6<3", [4, 4, 6, 6]),
        ("2B(1+2)=2", [3, 3]),
        ("3B6<>6", [6, 6, 6]),
    ],
)
def test_barabara_counts_match_enumeration(command: str, sides: list[int]) -> None:
    found = saikoro.odds(command)
    assert found is not None
    assert found.label == "成功数"
    brute = enumerate_roll(command, sides, value)
    assert dict(found.distribution) == brute
    assert found.success == 1 - brute.get(0, Fraction(0))


def test_barabara_without_target_is_the_total() -> None:
    assert odds_of("2B6+1B4") == enumerate_roll("2B6+1B4", [6, 6, 4], value)


@pytest.mark.parametrize("suffix", ["", "A", "S", "D", "N"])
def test_d66_matches_enumeration(suffix: str) -> None:
    command = f"D66{suffix}"
    assert odds_of(command) == enumerate_roll(command, [6, 6], value)
    assert set(odds_of(command)) <= {a * 10 + b for a in range(1, 7) for b in range(1, 7)}


@pytest.mark.parametrize(
    ("command", "sides"),
    [
        ("choice[a,b,c]", [3]),
        ("choice2(a,b,c)", [3, 2]),
        ("choice3 x y z", [3, 2, 1]),
        ("choice[A-D]", [4]),
        ("choice[a,a,b]", [3]),
    ],
)
def test_choice_matches_enumeration(command: str, sides: list[int]) -> None:
    assert odds_of(command) == enumerate_roll(command, sides, value)


@pytest.mark.parametrize(("times", "sides"), [(3, 3), (4, 2), (5, 3), (2, 4)])
def test_tally_max_count_matches_enumeration(times: int, sides: int) -> None:
    command = f"{times}TY{sides}"

    def most(result: Roll) -> int:
        faces = [int(v) for v in result.text.split(" ＞ ")[1].split(",")]
        return max(faces.count(v) for v in range(1, sides + 1))

    assert odds_of(command) == enumerate_roll(command, [sides] * times, most)


def test_calc_is_certain() -> None:
    assert odds_of("C(10/3+2*4)") == {11: Fraction(1)}


def _chain_model(
    sides: int, rerolls: Callable[[int], bool], score: Callable[[int], int], depth: int
) -> dict[int, Fraction]:
    """One die rolled again while ``rerolls(face)``, summing ``score`` (cut after depth)."""
    done: dict[int, Fraction] = {}
    alive = {0: Fraction(1)}
    for level in range(depth + 1):
        nxt: dict[int, Fraction] = {}
        for total, p in alive.items():
            for face in range(1, sides + 1):
                q, t = p / sides, total + score(face)
                if rerolls(face) and level < depth:
                    nxt[t] = nxt.get(t, Fraction(0)) + q
                elif not rerolls(face):
                    done[t] = done.get(t, Fraction(0)) + q
        alive = nxt
    return done


def _convolve(parts: list[dict[int, Fraction]]) -> dict[int, Fraction]:
    out = {0: Fraction(1)}
    for part in parts:
        nxt: dict[int, Fraction] = {}
        for a, p in out.items():
            for b, q in part.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + p * q
        out = nxt
    return out


@pytest.mark.parametrize(
    ("command", "groups", "threshold"),
    [
        ("1U4[4]", [(1, 4)], 4),
        ("2U6[6]", [(2, 6)], 6),
        ("1U6[5]", [(1, 6)], 5),
        ("1U4+1U3[3]", [(1, 4), (1, 3)], 3),
    ],
)
def test_upper_totals_match_model(
    command: str, groups: list[tuple[int, int]], threshold: int
) -> None:
    depth = depth_for([(n, Fraction(max(0, s - threshold + 1), s)) for n, s in groups])
    parts = []
    for n, s in groups:
        parts += [_chain_model(s, lambda f: f >= threshold, lambda f: f, depth)] * n
    found = saikoro.odds(command)
    assert found is not None
    assert dict(found.distribution) == _convolve(parts)
    assert 0 < found.truncated <= Fraction(1, 10**12)
    assert found.truncated == 1 - sum(_convolve(parts).values())


def test_upper_success_count_and_modifier() -> None:
    found = saikoro.odds("2U6[6]+1>=6")
    assert found is not None
    depth = depth_for([(2, Fraction(1, 6))])
    chain = _chain_model(6, lambda f: f >= 6, lambda f: f, depth)
    hit = sum((p for total, p in chain.items() if total + 1 >= 6), Fraction(0))
    miss = sum(chain.values(), Fraction(0)) - hit
    expected = _convolve([{0: miss, 1: hit}] * 2)
    assert dict(found.distribution) == expected
    assert found.label == "成功数"


@pytest.mark.parametrize(
    ("command", "groups", "target", "reroll"),
    [
        ("2R6>=5", [(2, 6)], 5, 5),
        ("1R4[4]>=3", [(1, 4)], 3, 4),
        ("2R4+1R6>=4", [(2, 4), (1, 6)], 4, 4),
    ],
)
def test_reroll_counts_match_model(
    command: str, groups: list[tuple[int, int]], target: int, reroll: int
) -> None:
    depth = depth_for([(n, Fraction(max(0, s - reroll + 1), s)) for n, s in groups])
    parts = []
    for n, s in groups:
        parts += [_chain_model(s, lambda f: f >= reroll, lambda f: int(f >= target), depth)] * n
    found = saikoro.odds(command)
    assert found is not None
    assert dict(found.distribution) == _convolve(parts)
    assert found.truncated <= Fraction(1, 10**12)


def test_means_are_exact() -> None:
    assert saikoro.odds("3D6").mean == Fraction(21, 2)  # type: ignore[union-attr]
    assert saikoro.odds("1D6/2").mean == Fraction(3, 2)  # type: ignore[union-attr]


icepool = pytest.importorskip("icepool")


@pytest.mark.parametrize(
    ("command", "make"),
    [
        ("4D6KH3", lambda: icepool.d6.highest(4, 3)),
        ("8D10KH3", lambda: icepool.d10.highest(8, 3)),
        ("5D8KL2", lambda: icepool.d8.lowest(5, 2)),
        ("20D10", lambda: 20 @ icepool.d10),
        ("9B10>=7", lambda: 9 @ (icepool.d10 >= 7)),
        ("2D20+1D4*3", lambda: 2 @ icepool.d20 + icepool.d4 * 3),
    ],
)
def test_against_icepool(command: str, make: Callable[[], object]) -> None:
    die = make()
    denominator = die.denominator()  # type: ignore[attr-defined]
    expected = {k: Fraction(q, denominator) for k, q in die.items()}  # type: ignore[attr-defined]
    assert odds_of(command) == expected
