"""The 穢れ game's 全体攻撃 (``KGA7VS5,3,4D8``): one attack roll, every target's own defence.

The exact odds are checked against brute-force enumeration of every die (an oracle written
from the rule text, not from the engine), and against identities: each target's marginal
is the single-target attack, and expected total damage is the sum of the single means.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from saikoro.dice import DiceSource, ParseError
from saikoro.systems._kegare import Kegare

D6 = range(1, 7)
POS = {"": 0, "@F": -4, "@M": -2, "@N": 0}


def roll(cmd: str, *values: int) -> tuple[str, int | str | None, bool]:
    r = Kegare().roll_command(cmd, DiceSource(dice=[(6, v) for v in values]))
    assert r is not None
    return r.text, r.value, r.success


def odds(cmd: str):  # type: ignore[no-untyped-def]
    o = Kegare().odds_command(cmd)
    assert o is not None
    return o


def one_target(
    a: int, d: int, *, attack: int, defence: int, damage: int, pos: str, guard: int
) -> tuple[bool, int]:
    """Seed oracle for one target: (attack beat the defence, damage)."""
    if a == 2:
        return False, 0
    if a == 12:
        return True, damage + 12
    at = a + attack + POS[pos]
    de = d + defence
    diff = at - de
    if diff == 0 or diff <= -10:
        return False, 0
    if diff >= 10:
        return True, max(0, damage + diff)
    return diff > 0, max(0, damage + diff - guard)


def brute(
    attack: int, targets: list[tuple[int, str, int]], damage: int
) -> tuple[Counter[int], Counter[int], int]:
    """Every die of the attack and of each target's defence."""
    totals: Counter[int] = Counter()
    hits: Counter[int] = Counter()
    n = 0
    for a1, a2 in itertools.product(D6, repeat=2):
        for ds in itertools.product(D6, repeat=2 * len(targets)):
            n += 1
            hit = total = 0
            for i, (defence, pos, guard) in enumerate(targets):
                h, dmg = one_target(
                    a1 + a2,
                    ds[2 * i] + ds[2 * i + 1],
                    attack=attack,
                    defence=defence,
                    damage=damage,
                    pos=pos,
                    guard=guard,
                )
                hit += h
                total += dmg
            totals[total] += 1
            hits[hit] += 1
    return totals, hits, n


@pytest.mark.parametrize(
    ("command", "attack", "targets", "damage"),
    [
        ("KGA7VS5,3D8", 7, [(5, "", 0), (3, "", 0)], 8),
        ("KGA4VS6@F,2G3D5", 4, [(6, "@F", 0), (2, "", 3)], 5),
        ("KGA0VS9,9D2", 0, [(9, "", 0), (9, "", 0)], 2),
    ],
)
def test_group_odds_match_brute_force(
    command: str, attack: int, targets: list[tuple[int, str, int]], damage: int
) -> None:
    totals, hits, n = brute(attack, targets, damage)
    o = odds(command)
    assert o.label == "合計ダメージ"
    assert o.distribution == {k: Fraction(v, n) for k, v in sorted(totals.items())}
    assert o.events == {f"命中{k}人": Fraction(hits[k], n) for k in range(len(targets) + 1)}
    assert o.success == 1 - Fraction(hits[0], n)
    assert o.critical == o.fumble == Fraction(1, 36)


def test_group_identities_three_targets() -> None:
    o = odds("KGA7VS5,3,4D8")
    singles = [odds(f"KGA7VS{d}D8") for d in (5, 3, 4)]

    def mean(dist: object) -> Fraction:
        return sum((k * p for k, p in dist.items()), Fraction(0))  # type: ignore[attr-defined]

    assert sum(o.distribution.values()) == 1 == sum(o.events.values())
    assert mean(o.distribution) == sum(mean(s.distribution) for s in singles)
    # a shared attack roll correlates the targets: all miss more often than if independent
    independent = Fraction(1)
    for s in singles:
        independent *= 1 - s.success
    assert o.events["命中0人"] > independent
    expected_hits = sum(k * o.events[f"命中{k}人"] for k in range(4))
    assert expected_hits == sum(s.success for s in singles)


def test_group_roll_text() -> None:
    text, value, ok = roll("KGA7VS5,3,4D8", 4, 5, 3, 4, 1, 1, 6, 6)
    assert text == (
        "(KGA7VS5,3,4D8) ＞ 攻撃 9[4,5]+7=16 ＞ 対象1 防御 7[3,4]+5=12 命中 ダメージ12 ／ "
        "対象2 防御 2[1,1]+3=5 粉砕 ダメージ19 ／ 対象3 防御 12[6,6]+4=16 完全防御 ダメージ0 ＞ "
        "命中2/3人 ＞ 合計ダメージ31"
    )
    assert value == 31 and ok
    text, value, ok = roll("KGA7VS5,3G2D8", 6, 6)
    assert text == (
        "(KGA7VS5,3G2D8) ＞ 攻撃 12[6,6]+7=19 ＞ クリティカル ＞ 対象1 クリティカル ダメージ20 ／ "
        "対象2 クリティカル ダメージ20 ＞ 命中2/2人 ＞ 合計ダメージ40"
    )
    text, value, ok = roll("KGA7VS5,3D8", 1, 1)
    assert text == "(KGA7VS5,3D8) ＞ 攻撃 2[1,1]+7=9 ＞ ファンブル ＞ 命中0/2人 ＞ 合計ダメージ0"
    assert value == 0 and not ok


def test_group_per_target_positions_and_threshold() -> None:
    # the attacker at mid, the second target at far: that target sees -4 (the worse)
    text, _, _ = roll("KGA7@MVS5,3@FD8>=10", 4, 5, 3, 4, 3, 4)
    assert text == (
        "(KGA7@MVS5,3@FD8>=10) ＞ 攻撃 9[4,5]+5=14 ＞ 対象1 防御 7[3,4]+5=12 命中 ダメージ10 ／ "
        "対象2 攻撃12 防御 7[3,4]+3=10 命中 ダメージ10 ＞ 命中2/2人 ＞ 合計ダメージ20"
    )
    o = odds("KGA7VS5,3D8>=12")
    singles = [odds(f"KGA7VS{d}D8>=12") for d in (5, 3)]
    assert o.events["命中1人"] + 2 * o.events["命中2人"] == sum(s.success for s in singles)


def test_group_limits() -> None:
    with pytest.raises(ParseError, match="10人まで"):
        odds("KGA7VS" + ",".join(["5"] * 11) + "D8")
    assert odds("KGA7VS" + ",".join(["5"] * 10) + "D8").success is not None
    assert Kegare().odds_command("KGA7VS5,D8") is None  # an empty target is not a command


def test_group_attack_is_documented() -> None:
    docs = " ".join(d.syntax + d.summary + " ".join(d.examples) for d in Kegare.commands)
    assert "KGA7VS5,3,4D8" in docs and "全体攻撃" in docs


def test_group_roll_agrees_with_single_rolls_on_the_same_dice() -> None:
    import random

    rng = random.Random(10)
    options = ["", "@F", "@M", "J4", "G2", "K5", "K9", "K10", "+1@N", "-2"]
    for _ in range(300):
        n = rng.randint(2, 4)
        sides = [f"{rng.randint(0, 9)}{rng.choice(options)}" for _ in range(n)]
        attack = f"{rng.randint(0, 9)}{rng.choice(['', '@F', '@M', 'W4', 'K5'])}"
        damage = rng.randint(0, 12)
        command = f"KGA{attack}VS{','.join(sides)}D{damage}"
        dice = [rng.randint(1, 6) for _ in range(2 + 2 * n)]
        group = Kegare().roll_command(command, DiceSource(dice=[(6, v) for v in dice]))
        assert group is not None
        total = 0
        rest = dice[2:]
        for side in sides:
            single = Kegare().roll_command(
                f"KGA{attack}VS{side}D{damage}",
                DiceSource(dice=[(6, v) for v in dice[:2] + rest[:2]]),
            )
            assert single is not None
            if "防御" in single.text:  # this target rolled its defence: consume its dice
                rest = rest[2:]
            value = single.value or 0
            assert isinstance(value, int), single.text
            total += value
        assert group.value == total, command
        # the joint odds of the same command form one distribution
        o = odds(command)
        assert sum(o.events.values()) == 1
