"""君ヨ、暁ノ大地ニ死スベシ (akatsuki): checks, doublets, boosts, support, opposed checks.

Exact odds are cross-checked against an independent brute-force oracle written here
from the rule text (itertools.product over the dice). Tests that go through the
public engine (``saikoro.roll`` / ``saikoro.odds``) are named ``test_engine_*``.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from types import ModuleType

import pytest

from fence_commands import expand
from saikoro.dice import DiceSource, ParseError, Roll
from saikoro.systems import OptionError, get
from saikoro.systems._akatsuki import (
    SYSTEM,
    AfterMode,
    AwakeningHand,
    BothFail,
    CardError,
    CheckRules,
    CheckSpec,
    CheckSpecError,
    CheckStatus,
    OpposedKind,
    check_odds,
    opposed_dist,
    opposed_odds,
    parse_check,
    parse_opposed,
    resolve_check,
    reward_after_check,
    success_probability,
    supporter_bonus,
    target_value,
)

# --------------------------------------------------------------------------- oracle


def oracle_check(
    d1: int,
    d2: int,
    *,
    target: int,
    specialty: bool = False,
    after: int = 0,
    as_needed: bool = False,
    allowed: bool = True,
    alpha: str = "final",
    beta: str = "raw",
) -> tuple[str, int | None, bool]:
    """(result word, achievement, card gained) straight from the rule text."""
    if not allowed:
        return "判定不可", None, False
    if target < 2:
        return "自動失敗", None, False
    s = d1 + d2
    zoro = specialty and d1 == d2
    if as_needed:
        spend = 0
        if s > target and not zoro and s - target <= after:
            spend = s - target
    else:
        spend = after
    t = target + spend
    if s <= t:
        card = zoro if alpha == "final" else zoro and s <= target
        return "成功", t - s + (1 if zoro else 0), card
    if zoro:
        base = 0 if beta == "clamp" else t - s
        return "成功", base + 1, False
    return "失敗", t - s, False


def oracle_odds(**kw: object) -> tuple[dict[int | str, Fraction], Fraction, Fraction]:
    dist: Counter[int | str] = Counter()
    success = 0
    cards = 0
    for d1, d2 in itertools.product(range(1, 7), repeat=2):
        word, ach, card = oracle_check(d1, d2, **kw)  # type: ignore[arg-type]
        key: int | str = ach if word == "成功" and ach is not None else word
        dist[key] += 1
        success += word == "成功"
        cards += card
    return (
        {k: Fraction(v, 36) for k, v in dist.items()},
        Fraction(success, 36),
        Fraction(cards, 36),
    )


def sys_roll(cmd: str, dice: list[int], **opts: str) -> Roll:
    r = SYSTEM(**opts).roll_command(cmd, DiceSource(dice=[(6, v) for v in dice]))
    assert r is not None
    return r


# --------------------------------------------------------------------------- target arithmetic


@pytest.mark.parametrize(
    ("difficulty", "expected"),
    [(1, 6), (0, 5), (-1, 4), (-2, 3), (-3, 2)],
)
def test_difficulty_bands_shift_the_level(difficulty: int, expected: int) -> None:
    # easy +1, normal 0, tough -1, hard -2, very hard -3 applied to a level-5 ability
    assert target_value(5, difficulty=difficulty) == expected


@pytest.mark.parametrize("prep", [1, 2, 3])
def test_preparation_adds_one_to_three(prep: int) -> None:
    assert target_value(6, preparation=prep) == 6 + prep


def test_preparation_out_of_range_is_refused() -> None:
    with pytest.raises(CheckSpecError):
        target_value(6, preparation=4)
    with pytest.raises(CheckSpecError):
        target_value(6, difficulty=2)


def test_supporters_plus_one_each_plus_two_for_experts_and_superhumans() -> None:
    assert supporter_bonus(5) == 1
    assert supporter_bonus(8) == 1
    assert supporter_bonus(9) == 2  # superhuman
    assert supporter_bonus(1, expert=True) == 2  # experts support at any level
    with pytest.raises(CheckSpecError):
        supporter_bonus(4)
    assert target_value(6, supporters=(1,)) == 7
    assert target_value(6, supporters=(1, 1)) == 8
    assert target_value(6, supporters=(2, 1)) == 9
    assert target_value(6, supporters=(2, 2)) == 10


def test_at_most_two_supporters() -> None:
    with pytest.raises(CheckSpecError):
        target_value(6, supporters=(1, 1, 1))
    with pytest.raises(ParseError):
        parse_check("AK6H111")


def test_full_target_sum() -> None:
    # level 7, hard (-2), groundwork +2, an expert and a helper (+3), weapon buff +1,
    # cards worth 3 points spent before the roll
    assert (
        target_value(7, difficulty=-2, preparation=2, supporters=(2, 1), modifier=1, boost_points=3)
        == 14
    )
    assert parse_check("AK7D-2P2H21+1B3") == CheckSpec(
        level=7, difficulty=-2, preparation=2, supporters=(2, 1), modifier=1, boost_points=3
    )


def test_superhuman_band_needs_level_nine() -> None:
    # -4 or harsher is open only to a superhuman (level 9+)
    r = resolve_check(CheckSpec(level=8, difficulty=-4), 1, 1)
    assert r.status is CheckStatus.IMPOSSIBLE and not r.rolled
    r = resolve_check(CheckSpec(level=9, difficulty=-4), 2, 3)
    assert r.target == 5 and r.status is CheckStatus.SUCCESS and r.achievement == 0
    assert CheckSpec(level=9, difficulty=-6).allowed
    assert not CheckSpec(level=8, difficulty=-5, preparation=3).allowed
    # a non-superhuman's -3 is allowed
    assert CheckSpec(level=5, difficulty=-3).allowed


def test_target_below_two_fails_without_dice() -> None:
    assert resolve_check(CheckSpec(level=1), 1, 1).status is CheckStatus.AUTO_FAILURE
    assert resolve_check(CheckSpec(level=3, difficulty=-2), 1, 1).status is CheckStatus.AUTO_FAILURE
    # target 2 is rolled: only 1+1 succeeds
    assert success_probability(CheckSpec(level=2)) == Fraction(1, 36)
    # even a specialty doublet cannot save an automatic failure
    assert success_probability(CheckSpec(level=1, specialty=True)) == 0
    # a pre-roll boost lifts the target before the test
    assert resolve_check(CheckSpec(level=1, boost_points=1), 1, 1).status is CheckStatus.SUCCESS
    # an after-roll boost cannot: the dice are never rolled
    assert success_probability(CheckSpec(level=1, after_cards=5)) == 0


# --------------------------------------------------------------------------- checks


def test_roll_under_basics() -> None:
    r = resolve_check(CheckSpec(level=7), 3, 4)
    assert r.success and r.achievement == 0 and r.total == 7
    r = resolve_check(CheckSpec(level=7), 4, 4)
    assert r.status is CheckStatus.FAILURE and not r.doublet
    assert success_probability(CheckSpec(level=7)) == Fraction(21, 36)


def test_doublets_only_for_the_specialty() -> None:
    plain = resolve_check(CheckSpec(level=7), 2, 2)
    assert plain.achievement == 3 and not plain.doublet and plain.cards_gained == 0
    alpha = resolve_check(CheckSpec(level=7, specialty=True), 2, 2)
    assert alpha.alpha and alpha.cards_gained == 1 and alpha.achievement == 4
    beta = resolve_check(CheckSpec(level=7, specialty=True), 5, 5)
    assert beta.success and beta.beta and not beta.alpha and beta.achievement == -2
    assert beta.cards_gained == 0


def test_doublet_within_target_gives_a_card_to_supporters_too() -> None:
    r = resolve_check(CheckSpec(level=6, specialty=True, supporters=(1, 2)), 3, 3)
    assert reward_after_check(r, supporters=2) == (1, 1)
    r = resolve_check(CheckSpec(level=6, specialty=True, supporters=(1,)), 4, 5)
    assert reward_after_check(r, supporters=1) == (0, 0)


def test_after_roll_boost_fixed_and_as_needed() -> None:
    fixed = resolve_check(CheckSpec(level=5, after_cards=2), 1, 2)
    assert fixed.final_target == 7 and fixed.achievement == 4 and fixed.cards_spent == 2
    need = resolve_check(CheckSpec(level=5, after_cards=3, after_mode=AfterMode.AS_NEEDED), 4, 3)
    assert need.cards_spent == 2 and need.achievement == 0 and need.success
    short = resolve_check(CheckSpec(level=5, after_cards=1, after_mode=AfterMode.AS_NEEDED), 4, 3)
    assert short.cards_spent == 0 and short.status is CheckStatus.FAILURE
    ok = resolve_check(CheckSpec(level=5, after_cards=3, after_mode=AfterMode.AS_NEEDED), 1, 3)
    assert ok.cards_spent == 0 and ok.achievement == 1


def test_before_boost_is_worth_points_after_boost_only_cards() -> None:
    hand = AwakeningHand((3, 2))
    _, before = hand.boost_before([0, 1])
    _, after = hand.boost_after([0, 1])
    assert (before, after) == (5, 2)
    assert success_probability(CheckSpec(level=4, boost_points=before)) > success_probability(
        CheckSpec(level=4, after_cards=after)
    )


def test_awakening_hand_state() -> None:
    hand = AwakeningHand().gain(2).gain(1, 4)
    assert hand.count == 3 and hand.points == 7
    hand, bonus = hand.boost_before([2])
    assert bonus == 4 and hand.cards == (2, 1)
    with pytest.raises(CardError):
        hand.boost_after([5])
    with pytest.raises(CardError):
        AwakeningHand((-1,))


# --------------------------------------------------------------------------- exact odds


SPECS = [
    {"level": lv, "specialty": sp}
    for lv in (0, 1, 2, 3, 5, 7, 9, 11, 12, 13)
    for sp in (False, True)
]


@pytest.mark.parametrize("kw", SPECS)
def test_check_odds_match_brute_force(kw: dict[str, int | bool]) -> None:
    spec = CheckSpec(level=int(kw["level"]), specialty=bool(kw["specialty"]))
    o = check_odds(spec)
    dist, success, cards = oracle_odds(target=spec.target, specialty=spec.specialty)
    assert dict(o.distribution) == dist
    assert o.success == success
    if spec.specialty:
        assert o.events["覚醒札獲得"] == cards
    assert sum(o.distribution.values()) == 1


@pytest.mark.parametrize(
    "case",
    [
        (lv, a, n, sp, al, be)
        for lv in (2, 4, 6, 8)
        for a in (0, 1, 3)
        for n in (False, True)
        for sp in (False, True)
        for al in ("final", "before")
        for be in ("raw", "clamp")
        if not (a == 0 and n)
    ],
)
def test_boosted_odds_match_brute_force(case: tuple[int, int, bool, bool, str, str]) -> None:
    level, after, as_needed, specialty, alpha, beta = case
    mode = AfterMode.AS_NEEDED if as_needed else AfterMode.FIXED
    spec = CheckSpec(level=level, after_cards=after, after_mode=mode, specialty=specialty)
    o = check_odds(spec, CheckRules(alpha=alpha, beta_achievement=beta))
    dist, success, cards = oracle_odds(
        target=level, specialty=specialty, after=after, as_needed=as_needed, alpha=alpha, beta=beta
    )
    assert dict(o.distribution) == dist
    assert o.success == success
    if specialty:
        assert o.events["覚醒札獲得"] == cards


def test_specialty_success_table_by_target() -> None:
    # P(success) with the specialty = P(total <= T) + P(doublet above T)
    for t in range(2, 13):
        plain = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b <= t)
        extra = sum(1 for a in range(1, 7) if 2 * a > t)
        p = success_probability(CheckSpec(level=t, specialty=True))
        assert p == Fraction(plain + extra, 36)


def test_events_of_a_specialty_check() -> None:
    o = check_odds(CheckSpec(level=6, specialty=True))
    assert o.events["ゾロ目"] == Fraction(1, 6)
    assert o.events["覚醒札獲得"] == Fraction(3, 36)
    assert o.events["目標値超過で成功"] == Fraction(3, 36)
    assert o.label == "達成度" and o.critical is None and o.fumble is None
    assert "ゾロ目" not in check_odds(CheckSpec(level=6)).events


def test_auto_failure_and_refusal_odds() -> None:
    assert dict(check_odds(CheckSpec(level=1)).distribution) == {"自動失敗": 1}
    o = check_odds(CheckSpec(level=8, difficulty=-4))
    assert dict(o.distribution) == {"判定不可": 1} and o.success == 0


# --------------------------------------------------------------------------- opposed


def oracle_opposed(case: tuple[int, bool, int, bool, str, str]) -> Counter[str]:
    ta, za, tp, zp, kind, both_fail = case
    out: Counter[str] = Counter()
    for a1, a2, p1, p2 in itertools.product(range(1, 7), repeat=4):
        wa, aa, _ = oracle_check(a1, a2, target=ta, specialty=za)
        wp, ap, _ = oracle_check(p1, p2, target=tp, specialty=zp)
        sa, sp = wa == "成功", wp == "成功"
        tie = {"R": "受動側の勝ち", "I": "能動側の勝ち", "C": "引き分け"}[kind]

        def cmp(x: int | None, y: int | None, tie: str = tie) -> str:
            xa = -999 if x is None else x
            ya = -999 if y is None else y
            if xa != ya:
                return "能動側の勝ち" if xa > ya else "受動側の勝ち"
            if ta != tp:
                return "能動側の勝ち" if ta > tp else "受動側の勝ち"
            return tie

        if sa and sp:
            w = cmp(aa, ap)
        elif sa:
            w = "能動側の勝ち"
        elif sp:
            w = "受動側の勝ち"
        elif both_fail == "compare":
            w = cmp(aa, ap)
        elif both_fail == "draw" or kind == "C":
            w = "引き分け"
        else:
            w = "受動側の勝ち"
        out[w] += 1
    return out


@pytest.mark.parametrize(
    "case",
    [
        (7, False, 7, False, "R", "passive"),
        (7, False, 7, False, "I", "passive"),
        (7, False, 7, False, "C", "passive"),
        (8, True, 6, False, "R", "draw"),
        (5, True, 5, True, "C", "compare"),
        (6, False, 9, True, "I", "compare"),
        (1, False, 6, True, "R", "compare"),
        (4, True, 1, False, "I", "passive"),
    ],
)
def test_opposed_odds_match_brute_force(case: tuple[int, bool, int, bool, str, str]) -> None:
    ta, za, tp, zp, kind, both_fail = case
    a, p = CheckSpec(level=ta, specialty=za), CheckSpec(level=tp, specialty=zp)
    d = opposed_dist(a, p, OpposedKind(kind), both_fail=BothFail(both_fail))
    expected = oracle_opposed(case)
    assert d.probabilities() == {k: Fraction(v, 1296) for k, v in sorted(expected.items())}


def test_opposed_tie_breaks() -> None:
    a = resolve_check(CheckSpec(level=7), 2, 3)  # achievement 2
    p = resolve_check(CheckSpec(level=7), 1, 4)  # achievement 2, same target
    from saikoro.systems._akatsuki import resolve_opposed

    assert resolve_opposed(OpposedKind.RESIST, a, p).winner.value == "受動側の勝ち"
    assert resolve_opposed(OpposedKind.INTERFERE, a, p).winner.value == "能動側の勝ち"
    assert resolve_opposed(OpposedKind.COMPETE, a, p).winner.value == "引き分け"
    p8 = resolve_check(CheckSpec(level=8), 2, 4)  # achievement 2, higher target
    assert resolve_opposed(OpposedKind.INTERFERE, a, p8).winner.value == "受動側の勝ち"
    failed = resolve_check(CheckSpec(level=7), 6, 5)
    assert resolve_opposed(OpposedKind.RESIST, a, failed).winner.value == "能動側の勝ち"


def test_opposed_odds_events() -> None:
    o = opposed_odds(CheckSpec(level=7), CheckSpec(level=7), OpposedKind.RESIST)
    ps = Fraction(21, 36)
    assert o.events["両者成功"] == ps * ps
    assert o.events["両者失敗"] == (1 - ps) ** 2
    assert o.success == o.distribution["能動側の勝ち"]
    assert sum(o.distribution.values()) == 1
    decided = o.events["達成度で決着"] + o.events["目標値で決着"] + o.events["種別で決着"]
    assert decided == o.events["両者成功"]
    assert o.events["目標値で決着"] == 0


# --------------------------------------------------------------------------- commands


def test_parse_commands() -> None:
    assert parse_check("2D6<=7") is None
    assert parse_check("AK") is None
    spec = parse_check("AK6ZU2")
    assert spec is not None and spec.after_mode is AfterMode.AS_NEEDED and spec.after_cards == 2
    kind, a, p = parse_opposed("AKI8Z/7D-1") or (None, None, None)
    assert kind is OpposedKind.INTERFERE and a is not None and p is not None
    assert a.specialty and p.target == 6
    for bad in ("AK7ZZ", "AK7A1U1", "AK7H3", "AKR7", "AK7X", "AK7D+2", "AK7P4"):
        with pytest.raises(ParseError):
            SYSTEM().odds_command(bad)


def test_not_our_command_returns_none() -> None:
    s = SYSTEM()
    assert s.roll_command("2D6", DiceSource(dice=[])) is None
    assert s.odds_command("1D10+3>=8") is None
    assert s.odds_command("CHOICE[A,B]") is None


def test_roll_text_success() -> None:
    r = sys_roll("AK7", [2, 3])
    assert r.text == "(AK7) ＞ 目標値7 ＞ 5[2,3] ＞ 成功 ＞ 達成度2"
    assert r.success and not r.failure and r.value == 2 and r.outcome == "成功"


def test_roll_text_failure() -> None:
    r = sys_roll("AK6D-1P1", [4, 5])
    assert r.text == "(AK6D-1P1) ＞ 目標値6 ＞ 9[4,5] ＞ 失敗"
    assert r.failure and not r.success and r.value == -3


def test_roll_text_doublets() -> None:
    r = sys_roll("AK7ZH12", [3, 3])
    assert r.text == (
        "(AK7ZH12) ＞ 目標値10 ＞ 6[3,3] ＞ ゾロ目 ＞ 成功 ＞ 達成度5 ＞ "
        "覚醒札1枚獲得（サポーター2人も各1枚）"
    )
    r = sys_roll("AK5Z", [4, 4])
    assert r.text == "(AK5Z) ＞ 目標値5 ＞ 8[4,4] ＞ ゾロ目 ＞ 成功 ＞ 達成度-2"
    assert r.success
    r = sys_roll("AK5", [4, 4])
    assert r.text == "(AK5) ＞ 目標値5 ＞ 8[4,4] ＞ 失敗"


def test_roll_text_boosts() -> None:
    r = sys_roll("AK5A1", [2, 4])
    assert r.text == (
        "(AK5A1) ＞ 目標値5 ＞ 6[2,4] ＞ 事後ブースト+1 ＞ 目標値6 ＞ 成功 ＞ 達成度0"
    )
    r = sys_roll("AK4B3U2", [5, 4])
    assert r.text == (
        "(AK4B3U2) ＞ 目標値7 ＞ 9[5,4] ＞ 事後ブースト+2 ＞ 目標値9 ＞ 成功 ＞ 達成度0"
    )
    r = sys_roll("AK4U1", [5, 4])
    assert r.text == "(AK4U1) ＞ 目標値4 ＞ 9[5,4] ＞ 失敗"


def test_roll_without_dice_when_refused() -> None:
    src = DiceSource(dice=[])
    r = SYSTEM().roll_command("AK1", src)
    assert r is not None and r.text == "(AK1) ＞ 目標値1 ＞ 自動失敗" and r.failure
    assert r.value is None and src.used == ()
    r = SYSTEM().roll_command("AK8D-4", src)
    assert r is not None and r.outcome == "判定不可" and r.failure
    assert r.text == "(AK8D-4) ＞ 目標値4 ＞ 判定不可（基本難易度-4以下は超人のみ）"


def test_roll_text_opposed() -> None:
    r = sys_roll("AKR7/6", [2, 3, 4, 4])
    assert r.text == (
        "(AKR7/6) ＞ 能動側 目標値7 5[2,3] 成功 達成度2 ／ "
        "受動側 目標値6 8[4,4] 失敗 ＞ 能動側の勝ち"
    )
    assert r.success and r.outcome == "能動側の勝ち"
    r = sys_roll("AKR7/7", [2, 3, 1, 4])
    assert r.text == (
        "(AKR7/7) ＞ 能動側 目標値7 5[2,3] 成功 達成度2 ／ 受動側 目標値7 5[1,4] 成功 達成度2"
        " ＞ 達成度・目標値とも同値（抵抗） ＞ 受動側の勝ち"
    )
    assert r.failure and not r.success
    r = sys_roll("AKC8/7", [2, 4, 1, 4])
    assert r.text.endswith("＞ 達成度同値・目標値で決着 ＞ 能動側の勝ち")
    r = sys_roll("AKC7/7", [6, 5, 6, 4])
    assert r.text.endswith("＞ 両者失敗 ＞ 引き分け")
    assert not r.success and not r.failure
    r = sys_roll("AKI1/7", [6, 6])  # the active side fails without dice
    assert r.text == (
        "(AKI1/7) ＞ 能動側 目標値1 自動失敗 ／ "
        "受動側 目標値7 12[6,6] 失敗 ＞ 両者失敗 ＞ 受動側の勝ち"
    )


# --------------------------------------------------------------------------- options


def test_option_both_fail_changes_results() -> None:
    cmd = "AKR6/6"
    dice = [6, 5, 6, 4]
    assert sys_roll(cmd, dice).outcome == "受動側の勝ち"
    assert sys_roll(cmd, dice, both_fail="draw").outcome == "引き分け"
    # compare: achievements -4 (6+4 against 6) vs -5 (6+5): the active side is closer
    assert sys_roll(cmd, [6, 4, 6, 5], both_fail="compare").outcome == "能動側の勝ち"
    o1 = SYSTEM().odds_command(cmd)
    o2 = SYSTEM(both_fail="draw").odds_command(cmd)
    assert o1 is not None and o2 is not None and o1.distribution != o2.distribution


def test_option_alpha_changes_card_gain() -> None:
    # level 5, doublet 3+3 = 6, one card after the roll lifts the target to 6
    final = sys_roll("AK5ZA1", [3, 3])
    before = sys_roll("AK5ZA1", [3, 3], alpha="before")
    assert "覚醒札1枚獲得" in final.text
    assert "覚醒札" not in before.text
    o_final = SYSTEM().odds_command("AK5ZA1")
    o_before = SYSTEM(alpha="before").odds_command("AK5ZA1")
    assert o_final is not None and o_before is not None
    assert o_final.events["覚醒札獲得"] == Fraction(3, 36)
    assert o_before.events["覚醒札獲得"] == Fraction(2, 36)


def test_option_beta_achievement() -> None:
    assert sys_roll("AK5Z", [5, 5]).value == -4
    assert sys_roll("AK5Z", [5, 5], beta_achievement="clamp").value == 1


def test_options_are_validated_and_reach_the_registry() -> None:
    with pytest.raises(OptionError):
        SYSTEM(both_fail="nobody")
    s = get("akatsuki", both_fail="draw")
    assert s.option("both_fail") == "draw"


def test_aliases_resolve_in_the_registry() -> None:
    # alias lookup loads every system: a sibling that cannot load fails this test
    assert get("暁ノ大地").id == "akatsuki"
    assert get("君ヨ、暁ノ大地ニ死スベシ").id == "akatsuki"
    assert get("キミアカ").id == "akatsuki"


# --------------------------------------------------------------------------- flows and docs


def test_flows_validate_and_name_real_commands() -> None:
    flows = SYSTEM().flows()
    assert set(flows) == {f"akatsuki.{n}" for n in ("check", "opposed", "support", "boost")}
    for f in flows.values():
        f.validate()
        for step in f.steps:
            if step.check:
                assert SYSTEM().odds_command(step.check) is not None
            if step.flow:
                assert step.flow in flows


def test_command_docs_examples_all_work() -> None:
    for doc in SYSTEM.commands:
        for ex in doc.examples:
            o = SYSTEM().odds_command(ex)
            assert o is not None and o.success is not None, ex


def test_rulings_have_unique_keys() -> None:
    keys = [r.key for r in SYSTEM.rulings]
    assert len(keys) == len(set(keys)) and all(k.startswith("akatsuki.") for k in keys)


# --------------------------------------------------------------------------- through the engine


def _engine() -> ModuleType:
    import saikoro

    return saikoro


def test_engine_roll_and_odds() -> None:
    saikoro = _engine()
    r = saikoro.roll("AK7Z", system="akatsuki", dice=[(6, 3), (6, 3)])
    assert r.text == "(AK7Z) ＞ 目標値7 ＞ 6[3,3] ＞ ゾロ目 ＞ 成功 ＞ 達成度2 ＞ 覚醒札1枚獲得"
    assert r.dice == ((6, 3), (6, 3))
    o = saikoro.odds("ak7", system="akatsuki")
    assert o.success == Fraction(7, 12)


def test_engine_normalises_full_width_and_comments() -> None:
    saikoro = _engine()
    r = saikoro.roll(
        "ａｋｒ７／６ 抵抗する", system="akatsuki", dice=[(6, 2), (6, 3), (6, 4), (6, 4)]
    )
    assert r is not None and r.outcome == "能動側の勝ち"


def test_engine_configured_system_option() -> None:
    saikoro = _engine()
    s = saikoro.get_system("akatsuki", both_fail="draw")
    r = saikoro.roll("AKR6/6", system=s, dice=[(6, 6), (6, 5), (6, 6), (6, 4)])
    assert r.outcome == "引き分け"


def test_engine_generic_commands_still_work_under_the_system() -> None:
    saikoro = _engine()
    r = saikoro.roll("2D6<=7", system="akatsuki", dice=[(6, 3), (6, 4)])
    assert r is not None and r.success


def test_docs_page_fences_are_valid() -> None:
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "systems" / "akatsuki.md"
    text = page.read_text(encoding="utf-8")
    assert text.startswith("---\ntitle: ") and "\nsystem: akatsuki\n" in text
    flows = SYSTEM().flows()
    for body in re.findall(r"```flow\n(.*?)\n```", text, re.S):
        assert body.strip() in flows
    commands = [
        line.strip()
        for body in re.findall(r"```dice\n(.*?)```", text, re.S)
        for line in body.strip().splitlines()
        if not line.startswith("system:")
    ]
    assert commands
    for cmd in commands:
        for each in expand(cmd):
            assert SYSTEM().odds_command(each) is not None, each
    assert set(flows) <= set(re.findall(r"```flow\n(.*?)\n```", text, re.S))


@pytest.mark.parametrize(
    "spec",
    [
        CheckSpec(level=7),
        CheckSpec(level=10, specialty=True, difficulty=-5, preparation=3, supporters=(2, 1)),
        CheckSpec(level=4, boost_points=12, after_cards=2, after_mode=AfterMode.AS_NEEDED),
        CheckSpec(level=5, difficulty=1, after_cards=1, modifier=-2),
    ],
)
def test_format_round_trips(spec: CheckSpec) -> None:
    from saikoro.systems._akatsuki import format_check, format_opposed

    assert parse_check(format_check(spec)) == spec
    parsed = parse_opposed(format_opposed(OpposedKind.COMPETE, spec, CheckSpec(level=3)))
    assert parsed == (OpposedKind.COMPETE, spec, CheckSpec(level=3))


def test_support_eligibility_in_and_out_of_combat() -> None:
    from saikoro.systems._akatsuki import can_support

    assert can_support(5) and not can_support(4)
    assert can_support(1, expert=True)
    assert can_support(9, in_combat=True)
    assert not can_support(9, in_combat=True, same_lane=False)
    assert not can_support(9, in_combat=True, minor_action=False)
    # the lane / minor-action conditions only apply in combat
    assert can_support(6, same_lane=False)


def test_flow_step_ids_avoid_mermaid_keywords() -> None:
    reserved = {"end", "style", "class", "classdef", "click", "graph", "subgraph", "flowchart"}
    for f in SYSTEM().flows().values():
        assert not {s.id.lower() for s in f.steps} & reserved, f.id


def test_interfere_sides_ruling() -> None:
    # the actor is the active side: a full tie lets the act stand...
    actor = resolve_check(CheckSpec(level=7), 2, 3)
    interferer = resolve_check(CheckSpec(level=7), 1, 4)
    from saikoro.systems._akatsuki import resolve_opposed

    assert resolve_opposed(OpposedKind.INTERFERE, actor, interferer).winner.value == "能動側の勝ち"
    # ...and a table that reads it the other way writes the interferer first
    swapped = resolve_opposed(OpposedKind.INTERFERE, interferer, actor)
    assert swapped.winner.value == "能動側の勝ち"
    rulings = {r.key: r for r in get("akatsuki").rulings}
    ruling = rulings["akatsuki.interfere_sides"]
    assert "行為者が能動側" in ruling.decision and not ruling.option
    doc = next(d for d in get("akatsuki").commands if d.syntax.startswith("AK[R|I|C]"))
    assert dict(doc.parameters)["能動側"].startswith("行為を行う側")
