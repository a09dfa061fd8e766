"""The 穢れ game (kegare): attack results, exact odds vs brute force, statuses, flows."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import saikoro
from saikoro.dice import DiceSource, ParseError
from saikoro.systems import OptionError
from saikoro.systems._kegare import (
    KEGARE_TRACK,
    SYSTEM,
    AttackSpec,
    Combatant,
    Kegare,
    KegareChange,
    Outcome,
    Position,
    attack_odds,
    initiative,
    kegare_after,
    kegare_effects,
    kegare_on_down,
    poison,
    position_penalty,
    recovery,
    recovery_success,
    resolve,
    status_recovery,
    turn_order,
)
from saikoro.systems._kegare.status import recovery_modifier

D6 = range(1, 7)


def roll(cmd: str, *values: int, **options: object) -> saikoro.Roll:
    r = Kegare(**options).roll_command(cmd, DiceSource(dice=[(6, v) for v in values]))  # type: ignore[arg-type]
    assert r is not None
    return r


def odds(cmd: str, **options: object) -> saikoro.Odds:
    o = Kegare(**options).odds_command(cmd)  # type: ignore[arg-type]
    assert o is not None
    return o


def test_system_basics() -> None:
    assert SYSTEM is Kegare
    s = Kegare()
    assert s.roll_command("2D6", DiceSource(dice=[])) is None
    assert s.odds_command("KK3") is None
    with pytest.raises(OptionError):
        Kegare(position_stack="product")
    with pytest.raises(OptionError):
        Kegare(min_damage=-1)


# -- positions -------------------------------------------------------------------------


def test_position_table() -> None:
    assert [p.penalty for p in Position] == [0, -2, -4]
    assert position_penalty(Position.FAR, None) == -4  # own attack from far
    assert position_penalty(None, Position.MID) == -2  # attacking someone at mid
    assert position_penalty(Position.NEAR, Position.NEAR) == 0
    assert position_penalty(Position.FAR, Position.FAR, ranged=True) == 0


def test_position_options_change_rolls() -> None:
    # attack 7 from mid against a target at far: one distance, the worse one (-4) by default
    assert roll("KGA7@MVS5@FD8", 3, 4, 3, 4).text == (
        "(KGA7@MVS5@FD8) ＞ 攻撃 7[3,4]+3=10 ／ 防御 7[3,4]+5=12 ＞ 軽減 ＞ ダメージ6"
    )
    assert roll("KGA7@MVS5@FD8", 3, 4, 3, 4, position_stack="sum").text == (
        "(KGA7@MVS5@FD8) ＞ 攻撃 7[3,4]+1=8 ／ 防御 7[3,4]+5=12 ＞ 軽減 ＞ ダメージ4"
    )
    # a ranged attack ignores positions
    assert roll("KGA7@MVS5@FD8R", 3, 4, 3, 4).value == 10
    # Japanese position names
    assert roll("KGA7@中VS5@遠D8", 3, 4, 3, 4).value == 6


def test_board() -> None:
    b = Kegare().board()
    assert b.cells() == ("near", "mid", "far")
    assert b.contains("中距離") and b.contains("F") and not b.contains("out3")
    assert b.distance("near", "far") == 2
    assert b.penalty("遠") == -4


# -- special results -------------------------------------------------------------------


def test_roll_texts_each_outcome() -> None:
    assert (
        roll("KGA7VS5D8", 1, 1).text == "(KGA7VS5D8) ＞ 攻撃 2[1,1]+7=9 ＞ ファンブル ＞ ダメージ0"
    )
    r = roll("KGA7VS5D8", 6, 6)
    assert r.text == "(KGA7VS5D8) ＞ 攻撃 12[6,6]+7=19 ＞ クリティカル ＞ ダメージ20"
    assert r.critical and r.success and r.value == 20
    assert roll("KGA7VS5D8", 1, 1).fumble
    assert roll("KGA7VS5D8", 6, 5, 1, 1).outcome == "粉砕"  # 18 vs 7: +11
    assert roll("KGA7VS5D8", 6, 5, 1, 1).value == 19
    assert roll("KGA7VS5D8", 4, 5, 3, 4).text == (
        "(KGA7VS5D8) ＞ 攻撃 9[4,5]+7=16 ／ 防御 7[3,4]+5=12 ＞ 命中 ＞ ダメージ12"
    )
    assert roll("KGA7VS9D8", 3, 4, 2, 3).outcome == "完全防御"
    assert roll("KGA7VS9D8", 3, 4, 2, 3).value == 0
    r = roll("KGA0VS5D8", 1, 2, 6, 6)
    assert r.outcome == "回避" and r.value == 0 and r.failure
    r = roll("KGA5VS5D8", 3, 3, 4, 4)  # 11 vs 13: -2
    assert r.outcome == "軽減" and r.value == 6 and r.failure


def test_shatter_and_evade_boundaries() -> None:
    spec = AttackSpec(attack=0, defence=0, damage=5)
    assert resolve(spec, 11, 2).outcome is Outcome.HIT  # +9
    assert resolve(AttackSpec(attack=1, damage=5), 11, 2).outcome is Outcome.SHATTER  # +10
    assert resolve(AttackSpec(attack=0, defence=1), 3, 12).outcome is Outcome.EVADE  # -10
    assert resolve(AttackSpec(attack=1, defence=1), 3, 12).outcome is Outcome.REDUCED  # -9


def test_guard_skill_shatter_and_critical() -> None:
    spec = AttackSpec(attack=1, defence=0, damage=5, guard=3)
    assert resolve(spec, 11, 2).damage == 15  # 粉砕 cancels the guard
    assert resolve(spec, 8, 6).damage == 5 + 3 - 3
    assert resolve(spec, 12, None).damage == 17  # default: critical ignores defence skills
    apply = AttackSpec(attack=1, damage=5, guard=3, critical_guard="apply")
    assert resolve(apply, 12, None).damage == 14
    assert roll("KGA1VS0G3D5", 6, 6, critical_guard="apply").value == 14
    assert roll("KGA1VS0G3D5", 6, 6).value == 17


def test_min_damage_option() -> None:
    assert roll("KGA0VS5D2", 2, 3, 4, 4).value == 0  # 5 vs 13: 2 - 8 -> 0
    assert roll("KGA0VS5D2", 2, 3, 4, 4, min_damage=1).value == 1
    assert roll("KGA7VS9D8", 3, 4, 2, 3, min_damage=1).value == 0  # 完全防御 stays 0


def test_statuses_and_kegare_in_attacks() -> None:
    # 脱力 LV5 -> -2, 穢れ5 -> -1 ; 自失 LV4 -> -2
    assert AttackSpec(attack=6, weakened_level=5, attacker_kegare=5).attack_bonus == 3
    assert AttackSpec(attack=0, defence=4, dazed_level=4).defence_bonus == 2
    # 穢れ 9: values halved (rounded down), then -1
    assert AttackSpec(attack=7, attacker_kegare=9).attack_bonus == 2
    assert AttackSpec(attack=0, defence=7, defender_kegare=9).defence_bonus == 2
    assert AttackSpec(attack=7, attacker_kegare=8).attack_bonus == 6
    r = roll("KGA6K9W4VS4K9D10>=5", 3, 4, 3, 3)
    assert r.text == (
        "(KGA6K9W4VS4K9D10>=5) ＞ 攻撃 7[3,4]+0=7 ／ 防御 6[3,3]+1=7"
        " ＞ 完全防御 ＞ ダメージ0 ＞ 失敗"
    )
    # modifiers after the value are not halved
    assert AttackSpec(attack=7, attack_modifier=3, attacker_kegare=9).attack_bonus == 5
    assert roll("KGA7+3K9", 3, 4).text == "(KGA7+3K9) ＞ 7[3,4]+5 ＞ 12"


def test_bad_options() -> None:
    with pytest.raises(ParseError):
        Kegare().odds_command("KGA7J4VS5")  # 自失 belongs to the defender
    with pytest.raises(ParseError):
        Kegare().odds_command("KGA7VS5W2")
    with pytest.raises(ParseError):
        Kegare().odds_command("KGA7K1K2VS5")
    with pytest.raises(ParseError):
        Kegare().odds_command("KGP6")
    with pytest.raises(ParseError):
        Kegare().odds_command("KGS0")


# -- exact odds vs brute force ---------------------------------------------------------


def brute_attack(spec: AttackSpec) -> tuple[Counter[int], Counter[str]]:
    dmg: Counter[int] = Counter()
    words: Counter[str] = Counter()
    for a1, a2, d1, d2 in itertools.product(D6, repeat=4):
        a = a1 + a2
        at = a + spec.attack_bonus
        de = d1 + d2 + spec.defence_bonus
        if a == 2:
            word, value = "ファンブル", 0
        elif a == 12:
            word, value = "クリティカル", spec.damage + 12
        elif at == de:
            word, value = "完全防御", 0
        elif de - at >= 10:
            word, value = "回避", 0
        elif at - de >= 10:
            word, value = "粉砕", max(spec.min_damage, spec.damage + at - de)
        else:
            word = "命中" if at > de else "軽減"
            value = max(spec.min_damage, spec.damage + at - de - spec.guard)
        dmg[value] += 1
        words[word] += 1
    return dmg, words


@pytest.mark.parametrize(
    "spec",
    [
        AttackSpec(attack=7, defence=5, damage=8),
        AttackSpec(attack=0, defence=6, damage=3),
        AttackSpec(attack=9, defence=0, damage=10, guard=2),
        AttackSpec(attack=4, defence=4, damage=6, min_damage=1, attacker_position=Position.FAR),
    ],
)
def test_attack_odds_vs_brute_force(spec: AttackSpec) -> None:
    dmg, words = brute_attack(spec)
    res = attack_odds(spec)
    n = 6**4
    assert res.damage.probabilities() == {k: Fraction(v, n) for k, v in sorted(dmg.items())}
    assert res.outcomes.probabilities() == {k: Fraction(v, n) for k, v in words.items()}
    wins = words["クリティカル"] + words["粉砕"] + words["命中"]
    assert res.success == Fraction(wins, n)


def test_attack_odds_command() -> None:
    o = odds("KGA7VS5D8")
    dmg, words = brute_attack(AttackSpec(attack=7, defence=5, damage=8))
    assert o.distribution == {k: Fraction(v, 6**4) for k, v in sorted(dmg.items())}
    assert o.critical == Fraction(1, 36) and o.fumble == Fraction(1, 36)
    assert o.events["クリティカル"] == Fraction(1, 36)
    assert o.events["完全防御"] == Fraction(words["完全防御"], 6**4)
    assert sum(o.events.values()) == 1
    assert o.label == "ダメージ"
    assert odds("KGA7VS5D8>=15").success == Fraction(
        sum(v for k, v in dmg.items() if k >= 15), 6**4
    )
    check = odds("KGA7")
    assert check.distribution[9] == Fraction(1, 36) and check.label == "攻撃判定値"
    assert odds("KGA7>=15").success == Fraction(15, 36)
    assert roll("KGA7>=15", 6, 2).text == "(KGA7>=15) ＞ 8[6,2]+7 ＞ 15 ＞ 成功"
    assert roll("KGA7>=15", 6, 6).text == "(KGA7>=15) ＞ 12[6,6]+7 ＞ 19 ＞ クリティカル ＞ 成功"


def test_options_change_odds() -> None:
    summed, worst = odds("KGA7@FVS5@FD8", position_stack="sum"), odds("KGA7@FVS5@FD8")
    assert summed.success is not None and worst.success is not None
    assert summed.success < worst.success
    assert odds("KGA0VS5D2").distribution[0] > odds("KGA0VS5D2", min_damage=1).distribution.get(
        0, Fraction(0)
    )
    assert odds("KGS2").success == Fraction(15, 36)
    assert odds("KGS2", status_recovery="above").success == Fraction(10, 36)


# -- statuses, recovery ----------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3])
def test_poison_vs_brute_force(level: int) -> None:
    counts = Counter(max(0, sum(f) - 2) for f in itertools.product(D6, repeat=level))
    n = 6**level
    assert poison(level).probabilities() == {k: Fraction(v, n) for k, v in sorted(counts.items())}
    assert odds(f"KGP{level}").distribution == poison(level).probabilities()
    assert poison(level, min_damage=1).probability(0) == 0


def test_poison_roll() -> None:
    assert roll("KGP3", 1, 1, 2).text == "(KGP3) ＞ 4[1,1,2]-2 ＞ 2"
    assert roll("KGP1", 1).value == 0
    assert roll("KGP1", 1, min_damage=1).value == 1


def test_recovery_modifiers() -> None:
    assert recovery_modifier() == 0
    assert recovery_modifier(cursed=True) == -2
    assert recovery_modifier(kegare=3) == 0
    assert recovery_modifier(kegare=4) == -3
    assert recovery_modifier(kegare=5) == -4  # -3 and the -1 to every check
    assert recovery_modifier(cursed=True, kegare=5) == -6
    assert recovery().probabilities() == {v: Fraction(1, 6) for v in D6}
    assert recovery(cursed=True).probabilities() == {
        0: Fraction(2, 6),
        1: Fraction(1, 6),
        2: Fraction(1, 6),
        3: Fraction(1, 6),
        4: Fraction(1, 6),
    }


def test_recovery_rolls_and_odds() -> None:
    r = roll("KGRCH-2", 5)
    assert r.text == "(KGRCH-2) ＞ 5[5]-2 ＞ 3 ＞ HP1 ＞ 成功"
    assert r.success and r.value == 3
    assert roll("KGR", 4).text == "(KGR) ＞ 4[4] ＞ 4"
    assert roll("KGRCK5H-1", 6).text == "(KGRCK5H-1) ＞ 6[6]-6 ＞ 0 ＞ HP-1 ＞ 失敗"
    assert roll("KGRK10H0", 6).failure  # 穢れ10: incapacitated for good
    assert recovery_success(-2) == Fraction(4, 6)
    assert recovery_success(0, kegare=10) == 0
    assert odds("KGRH-2").success == Fraction(4, 6)
    assert odds("KGRCH0").success == Fraction(4, 6)
    assert odds("KGR").success is None and odds("KGR").label == "回復量"


def test_status_recovery() -> None:
    for n in range(1, 8):
        target = 10 - n
        wins = sum(a + b >= target for a, b in itertools.product(D6, repeat=2))
        assert status_recovery(n) == Fraction(wins, 36)
        above = sum(a + b > target for a, b in itertools.product(D6, repeat=2))
        assert status_recovery(n, rule="above") == Fraction(above, 36)
    assert status_recovery(2, kegare=5) == status_recovery(1)
    assert roll("KGS2", 3, 5).text == "(KGS2) ＞ 目標値8 ＞ 8[3,5] ＞ 8 ＞ 成功"
    assert roll("KGS2", 3, 5, status_recovery="above").failure
    assert roll("KGS2K5", 3, 5).text == "(KGS2K5) ＞ 目標値8 ＞ 8[3,5]-1 ＞ 7 ＞ 失敗"


def test_initiative_and_turn_order() -> None:
    assert initiative(9) == 9
    assert initiative(9, paralysed=True) == 4
    assert initiative(9, kegare=6) == 9
    assert initiative(9, kegare=7) == 0
    order = turn_order(
        [
            Combatant("鬼", 6),
            Combatant("A", 6, pc=True),
            Combatant("B", 8),
            Combatant("C", 10, pc=True, paralysed=True),
            Combatant("D", 12, pc=True, kegare=7),
        ]
    )
    assert [c.name for c in order] == ["B", "A", "鬼", "C", "D"]


# -- the 穢れ track --------------------------------------------------------------------


@pytest.mark.parametrize("k", range(12))
def test_kegare_thresholds(k: int) -> None:
    effects = kegare_effects(k)
    assert len(effects) == sum(k >= t for t, _ in KEGARE_TRACK)
    assert kegare_on_down(k) == (2 if k >= 3 else 1)
    assert recovery_modifier(kegare=k) == (-3 if k >= 4 else 0) + (-1 if k >= 5 else 0)
    assert AttackSpec(attack=0, attacker_kegare=k).attack_bonus == (-1 if k >= 5 else 0)
    assert initiative(8, kegare=k) == (0 if k >= 7 else 8)
    assert AttackSpec(attack=9, attacker_kegare=k).attack_bonus == (
        9 if k < 5 else 8 if k < 9 else 3
    )
    assert (recovery_success(0, kegare=k) == 0) == (k >= 10)


def test_kegare_track_thresholds_cover_3_to_10() -> None:
    assert [t for t, _ in KEGARE_TRACK] == list(range(3, 11))


def test_kegare_changes() -> None:
    assert kegare_after(0, KegareChange.ACCEPT) == 1
    assert kegare_after(0, "拒絶") == 0
    assert kegare_after(3, KegareChange.REJECT) == 2
    assert kegare_after(4, KegareChange.TURN_END) == 6


# -- flows, docs -----------------------------------------------------------------------


def test_flows_validate() -> None:
    s = Kegare()
    flows = s.flows()
    assert set(flows) == {"kegare.battle", "kegare.turn", "kegare.action", "kegare.attack"}
    for f in flows.values():
        f.validate()
        for step in f.steps:
            if step.check:
                assert s.odds_command(step.check) is not None, step.check
            if step.flow:
                assert step.flow in flows


def test_command_examples() -> None:
    s = Kegare()
    for doc in s.commands:
        for example in doc.examples:
            assert s.odds_command(example) is not None, example
            o = s.odds_command(example)
            assert o is not None and sum(o.distribution.values()) == 1
            assert s.roll_command(example, DiceSource(dice=[(6, 3)] * 10)) is not None


def test_rulings() -> None:
    keys = [r.key for r in Kegare.rulings]
    assert len(keys) == len(set(keys)) and all(k.startswith("kegare.") for k in keys)
    assert Kegare().options == {
        "position_stack": "max",
        "min_damage": 0,
        "critical_guard": "nullify",
        "status_recovery": "at_least",
        "random_status": "uniform",
        "defence_skill_uses": "every",
        "paralysis_rounding": "down",
        "corruption_effects": "pcs",
        "downing_hit_effects": "none",
        "status_check_down": "yes",
    }


# -- PUBLIC API: through saikoro.roll / saikoro.odds (needs dice/api.py) ---------------


def test_public_api_roll_and_odds() -> None:
    r = saikoro.roll("kga7vs5d8", system="kegare", dice=[(6, 6), (6, 6)])
    assert (
        r is not None and r.text == "(KGA7VS5D8) ＞ 攻撃 12[6,6]+7=19 ＞ クリティカル ＞ ダメージ20"
    )
    o = saikoro.odds("KGS2", system=saikoro.get_system("kegare", status_recovery="above"))
    assert o is not None and o.success == Fraction(10, 36)


# -- robustness ------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from saikoro.dice import DiceError  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ARSPVDCKHWJG@FMN遠中近0123456789+->=,", max_size=24))
def test_any_kg_text_parses_or_raises_dice_error(tail: str) -> None:
    s = Kegare()
    command = "KG" + tail
    try:
        o = s.odds_command(command)
        r = s.roll_command(command, DiceSource(dice=[(6, 3)] * 40))
    except DiceError:
        return
    assert (o is None) == (r is None)
    if o is not None:
        assert sum(o.distribution.values()) == 1


# -- issue 10: the seed's own limits ---------------------------------------------------


def test_attack_check_natural_two_fails_and_twelve_lands() -> None:
    assert roll("KGA7>=9", 1, 1).text == "(KGA7>=9) ＞ 2[1,1]+7 ＞ 9 ＞ ファンブル ＞ 失敗"
    assert roll("KGA7>=9", 1, 1).failure and not roll("KGA7>=9", 1, 1).success
    r = roll("KGA0>=30", 6, 6)
    assert r.text == "(KGA0>=30) ＞ 12[6,6]+0 ＞ 12 ＞ クリティカル ＞ 成功" and r.success
    for bonus, target in itertools.product(range(-3, 10), range(25)):
        wins = sum(
            1
            for a, b in itertools.product(D6, repeat=2)
            if a + b == 12 or (a + b != 2 and a + b + bonus >= target)
        )
        assert odds(f"KGA{bonus}>={target}").success == Fraction(wins, 36), (bonus, target)
    assert odds("KGA7>=9").success == Fraction(35, 36)


def test_kegare_ten_attacker_cannot_act() -> None:
    r = roll("KGA7K10VS5D8")
    assert r.text == "(KGA7K10VS5D8) ＞ 穢れ10：永続的に戦闘不能で攻撃できない ＞ ダメージ0 ＞ 失敗"
    assert r.failure and not r.success and r.value == 0 and r.outcome == "行動不能"
    o = odds("KGA7K12VS5D8")
    assert o.distribution == {0: 1} and o.success == 0 and o.events["行動不能"] == 1
    assert o.critical == o.fumble == 0
    assert roll("KGA7K10>=5").failure and odds("KGA7K10>=5").success == 0
    assert roll("KGA7K9VS5D8", 3, 4, 3, 4).outcome != "行動不能"  # 9 is not yet the end
    assert recovery_success(-1, kegare=10) == 0  # KGR already applied it


def test_kegare_ten_target_takes_no_effect() -> None:
    # no defence roll: only the attack's dice are used
    r = roll("KGA7VS5K10D8", 3, 4)
    assert r.text == "(KGA7VS5K10D8) ＞ 攻撃 7[3,4]+7=14 ＞ 効果なし ＞ ダメージ0"
    assert r.value == 0 and r.failure
    o = odds("KGA7VS5K10D8")
    assert o.distribution == {0: 1} and o.success == 0
    assert o.events["効果なし"] == Fraction(35, 36) and o.events["ファンブル"] == Fraction(1, 36)
    assert "効果なし" not in odds("KGA7VS5D8").events


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("KGRH3", "HP 0 以下"),
        ("KGRH+1", "HP 0 以下"),
        ("KGA7VS5D-3", "ダメージは0以上"),
        ("KGA7VS5D2-5", "ダメージは0以上"),
        ("KGA7VS5,3D-1", "ダメージは0以上"),
    ],
)
def test_refuses_what_the_seed_rules_out(command: str, message: str) -> None:
    s = Kegare()
    with pytest.raises(ParseError, match=message):
        s.odds_command(command)
    with pytest.raises(ParseError, match=message):
        s.roll_command(command, DiceSource(dice=[(6, 3)] * 4))
    assert odds("KGRH0").success == 1 and odds("KGA7VS5D0").distribution


def test_position_stack_default_is_the_worse_position() -> None:
    ruling = {r.option_name: r for r in Kegare.rulings}["position_stack"]
    assert ruling.default == "max" and ruling.choices == ("max", "sum")
    assert position_penalty(Position.FAR, Position.MID) == -4
    assert position_penalty(Position.FAR, Position.MID, stack="sum") == -6
    # PCs only have positions: either reading gives the same value then
    for p in Position:
        assert position_penalty(p, None) == position_penalty(p, None, stack="sum") == p.penalty
        assert position_penalty(None, p) == position_penalty(None, p, stack="sum") == p.penalty
    assert "max" in ruling.decision and "二重" in ruling.reasoning


def test_paralysis_rounding_is_documented() -> None:
    assert initiative(7, paralysed=True) == 3
    assert initiative(7, paralysed=True, rounding="up") == 4
    people = [Combatant("鬼", 4), Combatant("A", 7, pc=True, paralysed=True)]
    assert [c.name for c in Kegare().turn_order(people)] == ["鬼", "A"]
    assert [c.name for c in Kegare(paralysis_rounding="up").turn_order(people)] == ["A", "鬼"]
    for value in range(20):  # brute force: halves rounded as stated
        assert initiative(value, paralysed=True) * 2 in (value, value - 1)
        assert initiative(value, paralysed=True, rounding="up") * 2 in (value, value + 1)
    keys = {r.key for r in Kegare.rulings}
    assert {"kegare.paralysis_rounding", "kegare.kegare_ten", "kegare.group_attack"} <= keys
