"""Tests of the cut-action system: checks, contests, damage, odds by brute force, texts."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

import pytest

from saikoro.dice import DiceSource, Dist, ParseError, Roll
from saikoro.systems import OptionError, get
from saikoro.systems._cutaction import (
    CutAction,
    InitiativeEntry,
    achievement_dist,
    check_probability,
    contest_odds,
    initiative_order,
    obstruct_dist,
    resolve_check,
)
from saikoro.systems._cutaction.checks import dice_shape, obstruct_retreat
from saikoro.systems._cutaction.damage import damage_table, resolve_damage

SYS = CutAction()
DICE = ("1D10", "2D6")


def faces(dice: str) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    """Every ordered outcome of the check dice with its probability."""
    count, sides = dice_shape(dice)
    p = Fraction(1, sides**count)
    for combo in itertools.product(range(1, sides + 1), repeat=count):
        yield combo, p


def brute_check(
    sv: int, dice: str, target: int = 0
) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """(achievement distribution, success, fumble) of a check by enumeration."""
    _, sides = dice_shape(dice)
    dist: dict[int, Fraction] = {}
    success = fumble = Fraction(0)
    for combo, p in faces(dice):
        ach = sv - sum(combo)
        fum = all(v == sides for v in combo)
        dist[ach] = dist.get(ach, Fraction(0)) + p
        fumble += p if fum else 0
        success += p if not fum and ach >= target else 0
    return dist, success, fumble


def roll(cmd: str, dice: list[tuple[int, int]], system: CutAction = SYS) -> Roll:
    r = system.roll_command(cmd, DiceSource(dice=dice))
    assert r is not None
    return r


# -- checks -----------------------------------------------------------------------


@pytest.mark.parametrize("dice", DICE)
@pytest.mark.parametrize("sv", [-2, 0, 1, 4, 7, 9, 10, 11, 13])
@pytest.mark.parametrize("target", [0, 3])
def test_check_odds_match_enumeration(dice: str, sv: int, target: int) -> None:
    dist, success, fumble = brute_check(sv, dice, target)
    assert achievement_dist(sv, dice=dice).probabilities() == dict(sorted(dist.items()))
    assert check_probability(sv, target=target, dice=dice) == success
    odds = SYS.with_options(check_dice=dice).odds_command(
        f"CA{sv}>={target}" if target else f"CA{sv}"
    )
    assert odds is not None
    assert dict(odds.distribution) == dict(sorted(dist.items()))
    assert odds.success == success
    assert odds.fumble == fumble
    assert odds.label == "達成値"


def test_check_basic_numbers() -> None:
    # roll under the success value: 7 succeeds on 1..7 of a d10, achievement 7 - roll
    assert check_probability(7) == Fraction(7, 10)
    r = resolve_check(7, 9)
    assert (r.achievement, r.success, r.fumble) == (-2, False, False)
    # a 10 is a fumble even when the success value is higher
    r = resolve_check(12, 10)
    assert (r.achievement, r.success, r.fumble) == (2, False, True)
    assert check_probability(20) == Fraction(9, 10)
    # the seed's example: three elements ("hurry", "enter the room", "lock it") -> target 3
    assert check_probability(7, target=3) == Fraction(4, 10)
    assert resolve_check(7, 4, target=3).success
    assert not resolve_check(7, 5, target=3).success


def test_check_texts() -> None:
    assert roll("CA7", [(10, 3)]).text == "(CA7) ＞ 3 ＞ 達成値4 ＞ 成功"
    r = roll("CA7>=3", [(10, 5)])
    assert r.text == "(CA7>=3) ＞ 5 ＞ 達成値2 ＞ 失敗"
    assert (r.success, r.failure, r.fumble, r.value, r.outcome) == (False, True, False, 2, "失敗")
    r = roll("CA12", [(10, 10)])
    assert r.text == "(CA12) ＞ 10 ＞ 達成値2 ＞ ファンブル"
    assert (r.success, r.failure, r.fumble, r.outcome) == (False, True, True, "ファンブル")
    assert roll("CA(9)/2", [(10, 2)]).text == "(CA(9)/2) ＞ 成功値4 ＞ 2 ＞ 達成値2 ＞ 成功"
    assert roll("CA8-2", [(10, 6)]).text == "(CA8-2) ＞ 成功値6 ＞ 6 ＞ 達成値0 ＞ 成功"
    two = SYS.with_options(check_dice="2D6")
    assert roll("CA7", [(6, 3), (6, 4)], two).text == "(CA7) ＞ 7[3,4] ＞ 達成値0 ＞ 成功"
    r = roll("CA13", [(6, 6), (6, 6)], two)
    assert r.fumble and r.text == "(CA13) ＞ 12[6,6] ＞ 達成値1 ＞ ファンブル"


def test_initiative_and_recovery_commands() -> None:
    r = roll("CAI7", [(10, 3)])
    assert r.text == "(CAI7) ＞ 3 ＞ 行動値4 ＞ 成功" and r.value == 4
    assert roll("CAI7", [(10, 9)]).text == "(CAI7) ＞ 9 ＞ 行動値-2 ＞ 失敗"
    r = roll("CAI7", [(10, 10)])
    assert r.text == "(CAI7) ＞ 10 ＞ ファンブル ＞ 行動不能" and r.fumble
    odds = SYS.odds_command("CAI7")
    assert odds is not None and odds.events["行動不能"] == Fraction(1, 10)
    assert odds.events["失敗(成功者の後に行動)"] == Fraction(2, 10)
    r = roll("CAR6", [(10, 2)])
    assert r.text == "(CAR6) ＞ 2 ＞ 達成値4 ＞ 成功 ＞ 回復4" and r.value == 4
    assert roll("CAR6", [(10, 8)]).value == 0
    odds = SYS.odds_command("CAR6")
    assert odds is not None and odds.label == "回復量"
    assert odds.distribution[0] == Fraction(5, 10)  # rolls 7..10 fail, roll 6 recovers 0
    assert odds.distribution[5] == Fraction(1, 10)


def test_initiative_order_rules() -> None:
    entries = [
        InitiativeEntry("NPC1", 2),
        InitiativeEntry("PC1", 2, pc=True),
        InitiativeEntry("PC2", 5, pc=True),
        InitiativeEntry("NPC2", -1),
        InitiativeEntry("PC3", -3, pc=True),
        InitiativeEntry("NPC3", -1),
        InitiativeEntry("PC4", 9, fumble=True, pc=True),
        InitiativeEntry("NPC4", 0),
    ]
    names = [e.name for e in initiative_order(entries)]
    # successes high to low (PC first on a tie), then failures from -1, fumbles never act
    assert names == ["PC2", "PC1", "NPC1", "NPC4", "NPC2", "NPC3", "PC3"]
    names = [e.name for e in initiative_order(entries, failed_order="lowest_first")]
    assert names == ["PC2", "PC1", "NPC1", "NPC4", "PC3", "NPC2", "NPC3"]
    system = get("cutaction", failed_initiative_order="lowest_first")
    assert system.option("failed_initiative_order") == "lowest_first"


# -- contests ---------------------------------------------------------------------


def brute_contest(
    active: int, passive: list[int], dice: str, rule: str
) -> tuple[Fraction, Fraction]:
    """(win, tie) by enumerating every die of every participant."""
    count, sides = dice_shape(dice)
    win = tie = Fraction(0)
    n = 1 + len(passive)
    p = Fraction(1, sides ** (count * n))
    for combo in itertools.product(range(1, sides + 1), repeat=count * n):
        rolls = [combo[i * count : (i + 1) * count] for i in range(n)]

        def res(sv: int, dice_rolled: tuple[int, ...]) -> tuple[int, int, bool]:
            fum = all(v == sides for v in dice_rolled)
            ach = sv - sum(dice_rolled)
            return (0 if fum else 1, ach, not fum and ach >= 0)

        a = res(active, rolls[0])
        best = max(res(sv, r)[:2] for sv, r in zip(passive, rolls[1:], strict=True))
        if a[:2] == best:
            tie += p
        if a[0] and a[:2] > best and (rule == "compare" or a[2]):
            win += p
    return win, tie


@pytest.mark.parametrize("rule", ["compare", "success_needed"])
@pytest.mark.parametrize(
    ("active", "passive", "dice"),
    [
        (5, [5], "1D10"),
        (7, [3], "1D10"),
        (2, [9], "1D10"),
        (12, [4], "1D10"),
        (6, [5, 7], "1D10"),
        (4, [3, 8, 1], "1D10"),
        (7, [7], "2D6"),
        (5, [8], "2D6"),
    ],
)
def test_contest_matches_enumeration(active: int, passive: list[int], dice: str, rule: str) -> None:
    win, tie = brute_contest(active, passive, dice, rule)
    c = contest_odds(active, passive, dice=dice, rule=rule)
    assert (c.win, c.tie) == (win, tie)
    system = SYS.with_options(check_dice=dice, contest_rule=rule)
    odds = system.odds_command("CAC" + ",".join(map(str, [active, *passive])))
    assert odds is not None
    assert odds.distribution == {"勝利": win, "敗北": 1 - win}
    assert odds.success == win


def test_contest_ties_and_fumbles() -> None:
    # equal achievements: the side that has to win (the active side) loses
    r = roll("CAC7,5", [(10, 4), (10, 2)])
    assert r.text == "(CAC7,5) ＞ 能動側 4(達成値3) ＞ 受動側 2(達成値3) ＞ 敗北"
    assert (r.success, r.outcome, r.value) == (False, "敗北", 0)
    # both fail: the active side needs a success by default; "compare" compares the numbers
    assert roll("CAC3,2", [(10, 5), (10, 6)]).outcome == "敗北"
    loose = SYS.with_options(contest_rule="compare")
    assert roll("CAC3,2", [(10, 5), (10, 6)], loose).outcome == "勝利"
    # a fumble ranks below any result, even a larger number
    r = roll("CAC6,15", [(10, 5), (10, 10)])
    assert r.text == "(CAC6,15) ＞ 能動側 5(達成値1) ＞ 受動側 10(ファンブル) ＞ 勝利"
    assert roll("CAC6,15", [(10, 9), (10, 10)], loose).outcome == "勝利"
    assert roll("CAC6,15", [(10, 9), (10, 10)]).outcome == "敗北"
    # blockade: the best of several blockers is the one to beat
    r = roll("CAC6,5,7", [(10, 3), (10, 2), (10, 1)])
    assert r.text == "(CAC6,5,7) ＞ 能動側 3(達成値3) ＞ 受動側 2(達成値3),1(達成値6) ＞ 敗北"
    assert r.value == -3


def test_obstruct() -> None:
    for rule, distance in itertools.product(("compare", "success_needed"), ("difference", "one")):
        weights: dict[int, Fraction] = {}
        for a, b in itertools.product(range(1, 11), repeat=2):
            d = obstruct_retreat(
                resolve_check(7, a), resolve_check(6, b), rule=rule, distance=distance
            )
            weights[d] = weights.get(d, Fraction(0)) + Fraction(1, 100)
        expected = Dist.from_fractions(weights)
        assert obstruct_dist(7, 6, rule=rule, distance=distance) == expected
        system = SYS.with_options(contest_rule=rule, obstruct_distance=distance)
        odds = system.odds_command("CAO7,6")
        assert odds is not None and dict(odds.distribution) == expected.probabilities()
    r = roll("CAO7,6", [(10, 2), (10, 5)])
    assert r.text == "(CAO7,6) ＞ 能動側 2(達成値5) ＞ 受動側 5(達成値1) ＞ 勝利 ＞ 後退4"
    assert r.value == 4
    one = SYS.with_options(obstruct_distance="one")
    assert roll("CAO7,6", [(10, 2), (10, 5)], one).value == 1
    assert roll("CAO7,6", [(10, 6), (10, 5)]).text.endswith("敗北 ＞ 後退0")


# -- damage -----------------------------------------------------------------------


def test_damage_rules() -> None:
    # success: reduce by the achievement; failure: full damage and the same injury
    assert resolve_damage(10, resolve_check(6, 2)).hp_loss == 6
    assert resolve_damage(10, resolve_check(6, 2)).injury == 0
    assert resolve_damage(3, resolve_check(9, 1)).hp_loss == 0
    fail = resolve_damage(10, resolve_check(6, 8))
    assert (fail.hp_loss, fail.injury, fail.resisted) == (10, 10, False)
    fum = resolve_damage(10, resolve_check(15, 10))
    assert (fum.hp_loss, fum.injury) == (10, 10)
    add = resolve_damage(10, resolve_check(6, 8), failure="add")
    assert (add.hp_loss, add.injury) == (12, 10)
    # HP loss from special effects cannot be resisted and gives no injury
    assert resolve_damage(4, None).injury == 0


@pytest.mark.parametrize("failure", ["none", "add"])
@pytest.mark.parametrize(("damage", "sv"), [("8", 6), ("2D6+3", 6), ("1D6", 11), ("3", 0)])
def test_damage_odds_match_enumeration(damage: str, sv: int, failure: str) -> None:
    terms = {"8": [], "2D6+3": [6, 6], "1D6": [6], "3": []}[damage]
    const = {"8": 8, "2D6+3": 3, "1D6": 0, "3": 3}[damage]
    loss: dict[int, Fraction] = {}
    injured = Fraction(0)
    for combo in itertools.product(*(range(1, s + 1) for s in terms), range(1, 11)):
        p = Fraction(1, 10)
        for s in terms:
            p /= s
        dmg = const + sum(combo[:-1])
        ach, fum = sv - combo[-1], combo[-1] == 10
        if not fum and ach >= 0:
            lost = max(0, dmg - ach)
        else:
            lost = dmg + (max(0, -ach) if failure == "add" else 0)
            injured += p if dmg > 0 else 0
        loss[lost] = loss.get(lost, Fraction(0)) + p
    odds = SYS.with_options(resist_failure=failure).odds_command(f"CAD{damage}R{sv}")
    assert odds is not None
    assert dict(odds.distribution) == dict(sorted(loss.items()))
    assert odds.events["負傷"] == injured
    assert odds.label == "体力減少"


def test_damage_texts_and_states() -> None:
    assert roll("CAD8R6", [(10, 3)]).text == "(CAD8R6) ＞ 抵抗 3 ＞ 達成値3 ＞ 成功 ＞ 体力-5"
    r = roll("CAD8R6", [(10, 9)])
    assert r.text == "(CAD8R6) ＞ 抵抗 9 ＞ 達成値-3 ＞ 失敗 ＞ 体力-8 負傷8"
    assert (r.value, r.failure, r.success) == (8, True, False)
    r = roll("CAD2D6+3R6H5/12", [(6, 4), (6, 2), (10, 3)])
    assert r.text == (
        "(CAD2D6+3R6H5/12) ＞ 6[4,2]+3 ＞ ダメージ9 ＞ 抵抗 3 ＞ 達成値3 ＞ 成功 ＞ 体力-6"
        " ＞ 体力5→-1 消耗1"
    )
    r = roll("CAD10R6H8/9", [(10, 9)])
    assert r.text.endswith("体力-10 負傷10 ＞ 体力8→-2 最大9→-1 消耗2 危篤")
    assert roll("CAD5", []).text == "(CAD5) ＞ 体力-5"
    # exhausted: the resist check fails without a roll (option: roll it normally)
    r = roll("CAD10R6H0/12", [])
    assert (
        r.text
        == "(CAD10R6H0/12) ＞ 抵抗 自動失敗(消耗) ＞ 体力-10 負傷10 ＞ 体力0→-10 最大12→2 消耗10"
    )
    lenient = SYS.with_options(exhausted_resist_fails=False)
    assert roll("CAD10R6H0/12", [(10, 1)], lenient).value == 5
    odds = SYS.odds_command("CAD10R6H0/12")
    assert odds is not None and odds.distribution == {10: Fraction(1)}
    odds = lenient.odds_command("CAD10R6H0/12")
    assert odds is not None and odds.success == Fraction(6, 10)


def test_damage_state_events() -> None:
    odds = SYS.odds_command("CAD6R4H5/6")
    assert odds is not None
    # success (rolls 1-4): loss 6 - (4 - roll) = 3..6 -> HP 5 falls to 0 or below on rolls 3, 4
    # failure (rolls 5-10): loss 6 -> HP -1 (消耗), injury 6 -> maximum 0 (危篤)
    assert odds.events["消耗"] == Fraction(2, 10) + Fraction(6, 10)
    assert odds.events["危篤"] == Fraction(6, 10)
    assert odds.events["負傷"] == Fraction(6, 10)
    t = damage_table(Dist.die(2), 0)
    assert sum(t.values()) == 1


def test_api_names_and_errors() -> None:
    assert SYS.roll_command("2D6", DiceSource(dice=[])) is None
    assert SYS.odds_command("CHOICE[A,B]") is None
    assert SYS.odds_command("CA") is None
    with pytest.raises(ParseError):
        SYS.odds_command("CA7/0")
    with pytest.raises(OptionError):
        get("cutaction", check_dice="1D100")
    assert "カット行動" in CutAction.aliases


def test_registry_lookup() -> None:
    assert get("カットアクション").id == "cutaction"


@pytest.mark.parametrize("rule", ["success_needed", "compare"])
@pytest.mark.parametrize(
    ("atk", "dfn", "damage", "sv"), [(7, 5, 8, 6), (4, 6, 5, 2), (12, 3, 9, 9)]
)
def test_attack_odds_match_enumeration(atk: int, dfn: int, damage: int, sv: int, rule: str) -> None:
    loss: dict[int, Fraction] = {}
    hit_p = Fraction(0)
    for a, d, r in itertools.product(range(1, 11), repeat=3):
        p = Fraction(1, 1000)
        a_ach, d_ach = atk - a, dfn - d
        a_rank, d_rank = (a != 10, a_ach), (d != 10, d_ach)
        hit = a != 10 and a_rank > d_rank and (rule == "compare" or a_ach >= 0)
        lost = 0
        if hit:
            hit_p += p
            r_ach = sv - r
            lost = max(0, damage - r_ach) if r != 10 and r_ach >= 0 else damage
        loss[lost] = loss.get(lost, Fraction(0)) + p
    odds = SYS.with_options(contest_rule=rule).odds_command(f"CAA{atk},{dfn},{damage}R{sv}")
    assert odds is not None
    assert dict(odds.distribution) == dict(sorted(loss.items()))
    assert odds.success == hit_p == odds.events["命中"]


def test_attack_texts() -> None:
    r = roll("CAA7,5,8R6", [(10, 3), (10, 6), (10, 3)])
    assert r.text == (
        "(CAA7,5,8R6) ＞ 攻撃 3(達成値4) ＞ 防御 6(達成値-1) ＞ 命中 ＞ 抵抗 3 ＞ 達成値3 ＞ 成功"
        " ＞ 体力-5"
    )
    assert (r.success, r.value, r.outcome) == (True, 5, "命中")
    r = roll("CAA7,5,8R6", [(10, 7), (10, 3)])
    assert r.text == "(CAA7,5,8R6) ＞ 攻撃 7(達成値0) ＞ 防御 3(達成値2) ＞ 命中せず"
    assert (r.success, r.failure, r.value) == (False, True, 0)
    r = roll("CAA(9)/2,5,2D6+3R6H12/15", [(10, 3), (10, 8), (6, 6), (6, 6), (10, 9)])
    assert r.text == (
        "(CAA(9)/2,5,2D6+3R6H12/15) ＞ 成功値4 ＞ 攻撃 3(達成値1) ＞ 防御 8(達成値-3) ＞ 命中"
        " ＞ 12[6,6]+3 ＞ ダメージ15 ＞ 抵抗 9 ＞ 達成値-3 ＞ 失敗 ＞ 体力-15 負傷15"
        " ＞ 体力12→-3 最大15→0 消耗3 危篤"
    )
    assert roll("CAA12,3,5R6", [(10, 10), (10, 10)]).text.endswith("命中せず")
    loose = SYS.with_options(contest_rule="compare")
    assert roll("CAA12,3,5R6", [(10, 10), (10, 10)], loose).text.endswith("命中せず")


@pytest.mark.parametrize("failed_order", ["closest_first", "lowest_first"])
def test_initiative_orders_match_enumeration(failed_order: str) -> None:
    chars = [(7, False), (5, True), (6, False)]
    expected: dict[str, Fraction] = {}
    for rolls in itertools.product(range(1, 11), repeat=3):
        acting = []
        for i, ((sv, pc), roll_) in enumerate(zip(chars, rolls, strict=True), start=1):
            if roll_ == 10:
                continue  # a fumble loses the cut
            ach = sv - roll_
            failed_key = -ach if failed_order == "closest_first" else ach
            key = (0, -ach) if ach >= 0 else (1, failed_key)
            acting.append((key, 0 if pc else 1, i))
        order = "→".join(str(i) for *_, i in sorted(acting)) or "なし"
        expected[order] = expected.get(order, Fraction(0)) + Fraction(1, 1000)
    system = SYS.with_options(failed_initiative_order=failed_order)
    odds = system.odds_command("CAI7,P5,6")
    assert odds is not None and dict(odds.distribution) == expected
    assert odds.label == "行動順"
    assert odds.events["2が行動不能"] == Fraction(1, 10)


def test_initiative_roll_text() -> None:
    dice = [(10, 3), (10, 10), (10, 8), (10, 7)]
    r = roll("CAI7,P5,6,4", dice)
    assert r.text == (
        "(CAI7,P5,6,4) ＞ 1:3(行動値4),2:10(ファンブル),3:8(行動値-2),4:7(行動値-3)"
        " ＞ 行動順 1→3→4 ＞ 行動不能 2"
    )
    assert r.value == r.outcome == "1→3→4"
    lowest = SYS.with_options(failed_initiative_order="lowest_first")
    assert roll("CAI7,P5,6,4", dice, lowest).outcome == "1→4→3"
    # equal values: the PC (P) acts before the NPC
    assert roll("CAI6,P6", [(10, 2), (10, 2)]).outcome == "2→1"


def test_chase_movement_command() -> None:
    assert roll("CAM7", [(10, 2)]).text == "(CAM7) ＞ 2 ＞ 達成値5 ＞ 成功 ＞ 移動+5"
    assert roll("CAM7", [(10, 9)]).text == "(CAM7) ＞ 9 ＞ 達成値-2 ＞ 失敗 ＞ 移動-2"
    r = roll("CAM7", [(10, 10)])
    assert r.text == "(CAM7) ＞ 10 ＞ 達成値-3 ＞ ファンブル ＞ 移動-3 行動不能"
    assert r.value == -3
    zero = SYS.with_options(failed_move="zero")
    assert roll("CAM7", [(10, 9)], zero).value == 0
    # bad road: success value -2
    odds = SYS.odds_command("CAM7-2")
    assert odds is not None and odds.label == "移動量"
    assert dict(odds.distribution) == {v: Fraction(1, 10) for v in range(-5, 5)}
    odds = zero.odds_command("CAM7")
    assert odds is not None and odds.distribution[0] == Fraction(4, 10)


def test_damage_expression_distribution_matches_enumeration() -> None:
    from saikoro.systems._cutaction.expr import DamageExpr

    expected: dict[int, Fraction] = {}
    for a, b, c in itertools.product(range(1, 7), range(1, 7), range(1, 5)):
        expected[a + b - c + 3] = expected.get(a + b - c + 3, Fraction(0)) + Fraction(1, 144)
    found = DamageExpr.parse("2D6-1D4+3").dist().probabilities()
    assert dict(found) == expected


def test_huge_damage_odds_are_refused_at_once() -> None:
    # review regression: CAD100D100R6 took over 20 s; the amounts are counted first
    from saikoro.dice import LimitError
    from saikoro.systems._cutaction.expr import MAX_ODDS_OUTCOMES

    for command in ("CAD100D100R6", "CAA7,5,100D100R6H99/99", "CAD40D26"):
        with pytest.raises(LimitError) as err:
            SYS.odds_command(command)
        assert err.value.bound == "damage outcomes"
        assert f"({MAX_ODDS_OUTCOMES})" in str(err.value)
    # rolling is not bounded by it, and a large but sane damage still has odds
    assert roll("CAD100D100", [(100, 1)] * 100).value is not None
    odds = SYS.odds_command("CAD10D10+5R6")
    assert odds is not None and sum(odds.distribution.values()) == 1
