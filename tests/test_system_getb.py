"""GOD EATER TABLE BURST (getb): checks, contests, chained damage/guard checks, final damage.

Exact odds are compared with brute-force enumeration written independently here.
Tests that go through the public engine (``saikoro.roll`` / ``saikoro.odds``) are named
``test_engine_*``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from saikoro.dice import DiceSource, LimitError, ParseError, Roll
from saikoro.systems import OptionError
from saikoro.systems._getb import (
    SYSTEM,
    CheckSpec,
    GodEaterTableBurst,
    Shield,
    Weapon,
    check_odds,
    contest_odds,
    final_damage_odds,
    spread,
)
from saikoro.systems._getb.chain import (
    MAX_CRITICAL_BITS,
    MAX_DICE,
    MAX_WORK_BITS,
    chain_weights,
    check_work,
    spread_work,
)

ROOT = Path(__file__).resolve().parent.parent


def d10(*values: int) -> DiceSource:
    return DiceSource(dice=[(10, v) for v in values])


def roll(cmd: str, *values: int, **options: object) -> Roll:
    r = GodEaterTableBurst(**options).roll_command(cmd, d10(*values))  # type: ignore[arg-type]
    assert r is not None
    return r


def text(cmd: str, *values: int, **options: object) -> str:
    return roll(cmd, *values, **options).text


# -- brute force helpers (independent of the implementation) ----------------------------


def brute_check(
    ability: int, target: int | None, crit: int = 10, fumble: int = 1, miracle: bool = False
) -> tuple[Fraction, Fraction, Fraction, dict[int, Fraction]]:
    success = Fraction(0)
    crits = Fraction(0)
    fumbles = Fraction(0)
    dist: dict[int, Fraction] = {}
    for die in range(1, 11):
        p = Fraction(1, 10)
        dist[die + ability] = dist.get(die + ability, Fraction(0)) + p
        if die >= crit:
            crits += p
            success += p
        elif die <= fumble:
            fumbles += p
        elif target is not None and die + ability >= target and not (miracle and target >= 16):
            success += p
    return success, crits, fumbles, dist


def chains(crit: int, max_len: int) -> Iterator[tuple[tuple[int, ...], bool]]:
    """Every chain of one die up to ``max_len`` faces; ``True`` marks a cut-off chain."""

    def rec(prefix: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], bool]]:
        for face in range(1, 11):
            seq = (*prefix, face)
            if face < crit:
                yield seq, False
            elif len(seq) == max_len:
                yield seq, True
            else:
                yield from rec(seq)

    return rec(())


def brute_chain(n: int, crit: int, fumble: int, max_len: int) -> dict[tuple[int, str], Fraction]:
    """(dice total, kind) -> probability over chains of at most ``max_len`` faces per die."""
    one = list(chains(crit, max_len))
    out: dict[tuple[int, str], Fraction] = {}
    for combo in itertools.product(one, repeat=n):
        p = Fraction(1)
        for seq, _ in combo:
            p *= Fraction(1, 10 ** len(seq))
        if any(cut for _, cut in combo):
            key = (-1, "cut")
        else:
            faces = [f for seq, _ in combo for f in seq]
            kind = (
                "critical"
                if any(seq[0] >= crit for seq, _ in combo)
                else "fumble"
                if all(f <= fumble for f in faces)
                else "normal"
            )
            key = (sum(faces), kind)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def brute_final(
    attack: tuple[int, int],
    guard: tuple[int, int] | None,
    *,
    final_mod: int = 0,
    tie_zero: bool = False,
    max_len: int = 3,
) -> dict[int | str, Fraction]:
    """Final damage by enumeration; attack chains cut off at ``max_len`` go to ``"cut"``."""
    an, am = attack
    out: dict[int | str, Fraction] = {}

    def add(k: int | str, p: Fraction) -> None:
        out[k] = out.get(k, Fraction(0)) + p

    a_outcomes = brute_chain(an, 10, 1, max_len)
    g_outcomes = brute_chain(guard[0], 10, 1, max_len) if guard else {(0, "none"): Fraction(1)}
    for (a_sum, a_kind), pa in a_outcomes.items():
        if a_kind == "cut":
            add("cut", pa)
            continue
        ach = a_sum + am
        if a_kind == "fumble" or ach <= 0:
            add(0, pa)
            continue
        for (g_sum, g_kind), pg in g_outcomes.items():
            p = pa * pg
            if g_kind in ("critical", "cut"):  # cut-off guard chains are criticals
                add(0, p)
                continue
            if g_kind in ("fumble", "none"):
                dmg = ach
            else:
                assert guard is not None
                gv = max(0, g_sum + guard[1])
                dmg = ach - gv if ach > gv else (0 if tie_zero and ach == gv else 1)
            if dmg >= 1:
                dmg = max(0, dmg + final_mod)
            add(dmg, p)
    return out


# -- registry and options ----------------------------------------------------------------


def test_registry_and_aliases() -> None:
    from saikoro.systems import get

    assert SYSTEM is GodEaterTableBurst
    assert get("getb").id == "getb"
    assert get("ゴッドイーター").id == "getb"


def test_options_are_validated() -> None:
    with pytest.raises(OptionError):
        GodEaterTableBurst(final_damage_tie="attacker")
    with pytest.raises(OptionError):
        GodEaterTableBurst(miracle_tier="yes")
    assert GodEaterTableBurst().option("miracle_tier") is False
    with pytest.raises(OptionError):
        GodEaterTableBurst(nonsense=1)
    g = GodEaterTableBurst(op_rounding="up")
    assert g.option("op_rounding") == "up"
    assert g.with_options(op_rounding="down") == GodEaterTableBurst()


def test_every_ruling_has_text_and_option_defaults_are_valid() -> None:
    for r in GodEaterTableBurst.rulings:
        assert r.key.startswith("getb.")
        assert r.title and r.seed and r.decision and r.reasoning
        if r.option and r.choices:
            assert r.default in r.choices


# -- checks -------------------------------------------------------------------------------


@pytest.mark.parametrize("ability", [-2, 0, 3, 7, 12])
@pytest.mark.parametrize("target", [None, 1, 5, 8, 11, 16, 25])
@pytest.mark.parametrize(("crit", "fumble"), [(10, 1), (9, 1), (8, 2), (10, 0)])
@pytest.mark.parametrize("miracle", [False, True])
def test_check_odds_match_brute_force(
    ability: int, target: int | None, crit: int, fumble: int, miracle: bool
) -> None:
    o = check_odds(ability, target, critical=crit, fumble=fumble, miracle_tier=miracle)
    success, crits, fumbles, dist = brute_check(ability, target, crit, fumble, miracle=miracle)
    assert o.success == (success if target is not None else None)
    assert o.critical == crits
    assert o.fumble == fumbles
    assert dict(o.distribution) == dist
    assert o.label == "達成値"


def test_seed_defaults_critical_10_fumble_1() -> None:
    # a critical succeeds whatever the target, a fumble fails whatever the achievement
    assert text("GB0>=30", 10) == "(GB0>=30) ＞ 10[10] ＞ 10 ＞ クリティカル"
    assert roll("GB0>=30", 10).success
    r = roll("GB20>=5", 1)
    assert r.text == "(GB20>=5) ＞ 1[1]+20 ＞ 21 ＞ ファンブル"
    assert (r.failure, r.fumble, r.success) == (True, True, False)
    assert check_odds(0, 11).success == Fraction(1, 10)  # only the critical reaches 11
    assert check_odds(3, 8, miracle_tier=False) == check_odds(3, 8)


def test_check_texts_and_flags() -> None:
    r = roll("GB3>=8", 7)
    assert r.text == "(GB3>=8) ＞ 7[7]+3 ＞ 10 ＞ 成功"
    assert (r.success, r.failure, r.critical, r.fumble, r.value, r.outcome) == (
        True,
        False,
        False,
        False,
        10,
        "成功",
    )
    assert text("GB3>=8", 4) == "(GB3>=8) ＞ 4[4]+3 ＞ 7 ＞ 失敗"
    assert text("GB3", 5) == "(GB3) ＞ 5[5]+3 ＞ 8"
    assert text("GB", 5) == "(GB) ＞ 5[5] ＞ 5"
    assert text("GB-2>=5", 8) == "(GB-2>=5) ＞ 8[8]-2 ＞ 6 ＞ 成功"
    assert text("GB4+1-2>=6", 3) == "(GB4+1-2>=6) ＞ 3[3]+3 ＞ 6 ＞ 成功"
    assert text("GB2>=12@9", 9) == "(GB2>=12@9) ＞ 9[9]+2 ＞ 11 ＞ クリティカル"
    assert text("GB5>=6#2", 2) == "(GB5>=6#2) ＞ 2[2]+5 ＞ 7 ＞ ファンブル"
    r = roll("GB3", 10)
    assert r.critical and not r.success and r.outcome == "クリティカル"


def test_plain_1d10_is_a_getb_check() -> None:
    assert text("1D10+3>=8", 10) == "(1D10+3>=8) ＞ 10[10]+3 ＞ 13 ＞ クリティカル"
    assert text("1D10+1+2>=7+1", 4) == "(1D10+3>=8) ＞ 4[4]+3 ＞ 7 ＞ 失敗"
    assert text("1D10>=6", 6) == "(1D10>=6) ＞ 6[6] ＞ 6 ＞ 成功"
    assert text("1D10+3=>8", 8) == "(1D10+3>=8) ＞ 8[8]+3 ＞ 11 ＞ 成功"
    assert roll("1D10+9>=5", 1).fumble
    o = GodEaterTableBurst().odds_command("1D10+3>=8")
    assert o is not None and o.success == Fraction(6, 10) and o.command == "1D10+3>=8"
    # other dice are left to the generic engine
    g = GodEaterTableBurst()
    for cmd in ("2D10>=8", "1D10+3", "1D6>=3", "1D10>8", "2D6"):
        assert g.roll_command(cmd, d10(1, 1)) is None
        assert g.odds_command(cmd) is None


def test_bad_thresholds_raise() -> None:
    g = GodEaterTableBurst()
    with pytest.raises(ParseError):
        g.odds_command("GB3>=8@1")
    with pytest.raises(ParseError):
        g.odds_command("GB3>=8@5#5")
    with pytest.raises(ParseError):
        g.roll_command("GB3@9@8", d10(1))
    with pytest.raises(LimitError):
        g.odds_command("GD99+1")


def test_miracle_tier_option() -> None:
    # default, the seed's literal rule: the total against the target, 16 or more included
    assert check_odds(7, 16).success == Fraction(2, 10)
    assert check_odds(7, 15).success == Fraction(3, 10)
    o = GodEaterTableBurst().odds_command("1D10+7>=16")
    assert o is not None and o.success == Fraction(2, 10)
    assert text("GB7>=16", 9) == "(GB7>=16) ＞ 9[9]+7 ＞ 16 ＞ 成功"
    assert text("GB7>=16", 10) == "(GB7>=16) ＞ 10[10]+7 ＞ 17 ＞ クリティカル"
    for ability in range(-2, 16):
        assert check_odds(ability, 16).success == brute_check(ability, 16)[0]
    # the option on: a GM target of 16 or more needs a critical
    g = GodEaterTableBurst(miracle_tier=True)
    o = g.odds_command("GB7>=16")
    assert o is not None and o.success == Fraction(1, 10)
    assert text("GB7>=16", 9, miracle_tier=True) == "(GB7>=16) ＞ 9[9]+7 ＞ 16 ＞ 失敗"
    assert brute_check(7, 16, miracle=True)[0] == Fraction(1, 10)
    ruling = {r.option_name: r for r in GodEaterTableBurst.rulings}["miracle_tier"]
    assert ruling.default is False
    # contests are not affected: the defender's target is the attacker's achievement
    assert text("GC8/8", 9, 9).endswith("防御側 9[9]+8 ＞ 17 ＞ 防御側勝利")
    assert text("GC8/8", 9, 9, miracle_tier=True).endswith("防御側 9[9]+8 ＞ 17 ＞ 防御側勝利")


def test_endurance_is_taishuu_rolled_as_resist_check() -> None:
    from saikoro.scenario.model import enemy_model
    from saikoro.systems._getb import vtt as export_getb
    from saikoro.systems._getb.model import GetbEnemy, GetbTarget
    from saikoro.systems._getb.page import ABILITY_LABELS, CHECK_LABELS, GetbProfile

    assert ABILITY_LABELS["endurance"] == "耐久" and CHECK_LABELS["endurance"] == "抵抗判定"
    profile = GetbProfile()
    target = GetbTarget(name="毒", check="endurance", target=8)
    assert profile.target_label(target) == "抵抗判定 目標値 8"
    grid = profile.target_grid(target)
    assert grid is not None and "耐久" in grid.title and "体力" not in grid.title
    enemy = {
        "name": "オウガテイル",
        "hp": 20,
        "abilities": {"strength": 4, "agility": 3, "intellect": 1, "endurance": 4},
    }
    model = enemy_model(
        "getb", {**enemy, "id": "o", "ap": 6, "st": 3, "placement": "out1", "attacks": []}
    )
    assert isinstance(model, GetbEnemy)
    lines = export_getb.palette(model)
    assert any(line.system_command == "GB4" and line.label == "抵抗判定" for line in lines)
    assert ("耐久", "4") in profile.stats(model)
    character = export_getb.character(model)
    assert ("耐久", "4") in character.params
    everything = repr((profile.stats(model), character, lines))
    assert "体力" not in everything


# -- contests -----------------------------------------------------------------------------


def brute_contest(
    a: int, d: int, *, ac: int = 10, af: int = 1, dc: int = 10, df: int = 1
) -> Fraction:
    win = Fraction(0)
    for x, y in itertools.product(range(1, 11), repeat=2):
        p = Fraction(1, 100)
        if x <= af and x < ac:
            continue  # attacker fumble: defender wins without rolling
        d_crit = y >= dc
        d_fumble = not d_crit and y <= df
        if x >= ac:
            win += p if not d_crit else 0
        elif d_crit:
            continue
        elif d_fumble or y + d < x + a:
            win += p
    return win


@pytest.mark.parametrize(("a", "d"), [(3, 3), (5, 2), (0, 6), (4, 4), (-1, 9)])
def test_contest_odds_match_brute_force(a: int, d: int) -> None:
    o = contest_odds(a, d)
    assert o.success == brute_contest(a, d)
    assert o.distribution["攻撃側勝利"] + o.distribution["防御側勝利"] == 1
    assert o.critical == Fraction(1, 10) and o.fumble == Fraction(1, 10)
    assert o.events["両者クリティカル"] == Fraction(1, 100)


def test_contest_with_thresholds() -> None:
    o = GodEaterTableBurst().odds_command("GC4@9/4#2")
    assert o is not None
    assert o.success == brute_contest(4, 4, ac=9, df=2)


def test_seed_contest_table() -> None:
    # both critical: defender
    assert text("GC3/2", 10, 10).endswith("＞ 防御側勝利")
    # attacker critical, defender neither: attacker, even with a higher total
    assert text("GC0/9", 10, 9) == (
        "(GC0/9) ＞ 攻撃側 10[10] ＞ 10 ＞ クリティカル ＞ 防御側 9[9]+9 ＞ 18 ＞ 攻撃側勝利"
    )
    # attacker critical, defender fumble: attacker
    assert text("GC3/2", 10, 1).endswith("防御側 1[1]+2 ＞ 3 ＞ ファンブル ＞ 攻撃側勝利")
    # attacker fumble: defender wins without rolling (one die used)
    r = roll("GC3/2", 1)
    assert r.text == "(GC3/2) ＞ 攻撃側 1[1]+3 ＞ 4 ＞ ファンブル ＞ 防御側勝利"
    assert (r.value, r.fumble, r.failure) == ("防御側勝利", True, True)
    # otherwise the defender checks against the attacker's achievement (ties: defender)
    assert text("GC3/2", 7, 8).endswith("＞ 10 ＞ 防御側勝利")
    assert text("GC3/2", 7, 7).endswith("＞ 9 ＞ 攻撃側勝利")
    assert text("GC3/2", 5, 10).endswith("＞ クリティカル ＞ 防御側勝利")


# -- chained dice ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "crit", "fumble", "max_len"),
    [(1, 10, 1, 4), (2, 10, 1, 3), (3, 10, 1, 2), (2, 9, 2, 3), (2, 8, 0, 2)],
)
def test_chain_spread_matches_brute_force(n: int, crit: int, fumble: int, max_len: int) -> None:
    s = spread(n, 0, critical=crit, fumble=fumble)
    brute = brute_chain(n, crit, fumble, max_len)
    bound = max_len * crit + (n - 1)  # a cut-off chain totals at least this
    for kind, part in (("normal", s.normal), ("critical", s.critical), ("fumble", s.fumble)):
        for total in range(1, bound):
            assert part.get(total, Fraction(0)) == brute.get((total, kind), Fraction(0)), (
                kind,
                total,
            )
    assert s.critical_probability == 1 - Fraction(crit - 1, 10) ** n
    assert s.fumble_probability == Fraction(fumble, 10) ** n
    assert sum(s.total().values()) + s.truncated == 1


def test_chain_spread_agrees_with_the_engine_upper_dice() -> None:
    from saikoro.dice._upper import odds_upper

    for n, m, c in [(3, 7, 10), (2, 0, 10), (4, -3, 9)]:
        u = odds_upper(f"{n}U10[{c}]{m:+d}" if m else f"{n}U10[{c}]")
        assert u is not None
        s = spread(n, m, critical=c, fumble=0)
        assert s.total() == dict(u.distribution)
        assert s.truncated == u.truncated


@pytest.mark.parametrize(
    ("critical", "depth"), [(10, 0), (10, 3), (9, 2), (7, 4), (5, 3), (2, 6), (11, 0)]
)
def test_chain_weights_match_step_by_step_convolution(critical: int, depth: int) -> None:
    # one die's chain, built by following it one die at a time (over 10**(depth + 1))
    chain: dict[int, int] = {}
    crits = {0: 1}  # totals of j criticals in a row, weight 1 per sequence of faces
    for j in range(depth + 1):
        for t, w in crits.items():
            for face in range(1, min(critical - 1, 10) + 1):
                chain[t + face] = chain.get(t + face, 0) + w * 10 ** (depth - j)
        nxt: dict[int, int] = {}
        for t, w in crits.items():
            for face in range(critical, 11):
                nxt[t + face] = nxt.get(t + face, 0) + w
        crits = nxt
    found = chain_weights(critical, depth)
    assert found.denominator == 10 ** (depth + 1)
    assert found.to_weights() == {k: w for k, w in chain.items() if w}


@pytest.mark.parametrize(
    ("command", "bound"),
    [
        ("GD2@2", "chain_critical_bits"),
        ("GF3@2/3@2", "chain_bits"),
        ("GD10@5", "chain_bits"),
        ("GD5@4", "chain_critical_bits"),
        ("GDL+7@2", "chain_bits"),
        ("GGT+5@3", "chain_critical_bits"),
        ("GD30@8", "chain_bits"),
        ("GF40@9/40", "chain_bits"),
        ("GF40/40-41", "final_pairs"),
    ],
)
def test_extreme_chains_are_refused_by_the_work_bound(command: str, bound: str) -> None:
    # review regression: commands like these took 5-40 s; the work is estimated first
    with pytest.raises(LimitError) as err:
        GodEaterTableBurst().odds_command(command)
    assert err.value.bound == bound
    assert "計算量" in str(err.value) and "上限" in str(err.value)


def test_every_realistic_check_is_within_the_work_bound() -> None:
    # up to ten dice, critical values 7..10 (and none), whatever the fumble value; and the
    # largest dice count with the usual critical value
    for dice in range(1, 11):
        for critical in range(7, 12):
            assert check_work(dice, critical) == spread_work(dice, critical)[0]
    assert check_work(MAX_DICE, 10) == 13
    assert spread_work(10, 7)[1] <= MAX_WORK_BITS
    assert spread_work(2, 2)[2] > MAX_CRITICAL_BITS
    o = GodEaterTableBurst().odds_command("GD(B+1)+9@8#3")
    assert o is not None and sum(o.distribution.values()) + o.truncated == 1


@pytest.mark.parametrize(
    ("critical", "depth", "dice"), [(10, 3, 3), (9, 2, 4), (7, 3, 2), (4, 2, 3), (11, 0, 5)]
)
def test_many_chains_at_once_equal_the_power_of_one(critical: int, depth: int, dice: int) -> None:
    together = chain_weights(critical, depth, dice)
    one = chain_weights(critical, depth)
    power = one.power(dice)
    assert (together.offset, together.weights) == (power.offset, power.weights)
    assert together.denominator == one.denominator**dice


def test_final_damage_never_follows_guard_chains() -> None:
    # a critical guard is a perfect guard, so even 40 guard dice with critical value 2
    # cost nothing: only the attack's chains are followed
    o = GodEaterTableBurst().odds_command("GF1+5/40@2")
    assert o is not None
    assert o.events["完全防御"] == Fraction(9, 10) * (1 - Fraction(1, 10**40))
    assert sum(o.distribution.values()) + o.truncated == 1


def test_damage_check_rolls_like_bcdice_upper_dice() -> None:
    from saikoro.dice._roller import Roller
    from saikoro.dice._upper import roll_upper

    faces = [5, 10, 10, 3, 2, 10, 1]
    u = roll_upper("3U10[10]+7", Roller(DiceSource(dice=[(10, f) for f in faces])))
    assert u is not None
    mine = roll("GDL+7", *faces)
    assert mine.text.split(" ＞ ")[1] == u.text.split(" ＞ ")[1] == "5,23[10,10,3],2+7"
    # GETB shows the total; U shows max/total
    assert u.text.endswith("/37(最大/合計)")
    assert mine.value == 37
    assert GodEaterTableBurst().roll_command("GDL+7", src := d10(*faces)) is not None
    assert src.remaining == 2  # five dice used, as U used


# -- damage and guard checks -------------------------------------------------------------


def test_damage_check_texts() -> None:
    r = roll("GDL+7", 5, 10, 1, 2)
    assert r.text == "(GDL+7) ＞ 5,11[10,1],2+7 ＞ 25 ＞ クリティカル"
    assert (r.value, r.critical, r.success) == (25, True, True)
    r = roll("GDL+7", 1, 1, 1)
    assert r.text == "(GDL+7) ＞ 1,1,1+7 ＞ 10 ＞ ファンブル ＞ 攻撃失敗"
    assert (r.value, r.fumble, r.failure, r.outcome) == (0, True, True, "攻撃失敗")
    assert text("GD(L-3)+7") == "(GD(L-3)+7) ＞ ダイスなし ＞ 攻撃失敗"
    assert text("GD1-5", 3) == "(GD1-5) ＞ 3-5 ＞ -2 ＞ 攻撃失敗"
    assert text("GD1-5", 5) == "(GD1-5) ＞ 5-5 ＞ 0 ＞ 攻撃失敗"
    assert text("GDS+6", 4, 4) == "(GDS+6) ＞ 4,4+6 ＞ 14"
    assert text("GDB+9", 1, 1, 1, 2) == "(GDB+9) ＞ 1,1,1,2+9 ＞ 14"
    assert text("GDG+8", 7) == "(GDG+8) ＞ 7+8 ＞ 15"
    assert text("GD(G+2)+8", 10, 10, 3, 4, 5) == (
        "(GD(G+2)+8) ＞ 23[10,10,3],4,5+8 ＞ 40 ＞ クリティカル"
    )
    # the fumble ruling as an option: the dice just add up
    r = roll("GDL+7", 1, 1, 1, damage_fumble="none")
    assert r.text == "(GDL+7) ＞ 1,1,1+7 ＞ 10" and not r.fumble and r.value == 10


def test_weapon_and_shield_dice_from_the_seed() -> None:
    assert [w.dice for w in (Weapon.SHORT, Weapon.LONG, Weapon.BUSTER, Weapon.SHOOTING)] == [
        2,
        3,
        4,
        1,
    ]
    assert [s.dice for s in (Shield.BUCKLER, Shield.SHIELD, Shield.TOWER)] == [2, 3, 4]
    g = GodEaterTableBurst()
    for cmd, n in [
        ("GDS", 2),
        ("GDL", 3),
        ("GDB", 4),
        ("GDG", 1),
        ("GD(G+2)", 3),
        ("GD(B-1)", 3),
        ("GD5", 5),
    ]:
        src = d10(*([2] * n))
        assert g.roll_command(cmd, src) is not None
        assert len(src.used) == n, cmd
    for cmd, n in [("GGB", 2), ("GGS", 3), ("GGT", 4), ("GG(T+1)", 5)]:
        src = d10(*([2] * n))
        assert g.roll_command(cmd, src) is not None
        assert len(src.used) == n, cmd


def test_damage_check_odds() -> None:
    g = GodEaterTableBurst()
    o = g.odds_command("GDS+3")
    assert o is not None
    brute = brute_chain(2, 10, 1, 3)
    assert o.distribution[0] == Fraction(1, 100)  # the fumble 1,1
    for total in range(3, 10):  # no cut-off chain lands this low
        expected = brute.get((total, "normal"), Fraction(0)) + brute.get(
            (total, "critical"), Fraction(0)
        )
        assert o.distribution.get(total + 3, Fraction(0)) == expected
    assert o.critical == Fraction(19, 100) and o.fumble == Fraction(1, 100)
    # success is exact: cut-off chains are criticals far above 0, so they all succeed
    assert o.success is not None
    assert o.success + o.events["攻撃失敗"] == 1 and o.failure == o.events["攻撃失敗"]
    assert o.truncated_success == o.truncated > 0
    # dice <= 0: always fails
    z = g.odds_command("GD(S-2)+9")
    assert z is not None and z.distribution == {0: 1} and z.success == 0
    # a negative fixed part can make the attack fail
    neg = g.odds_command("GD1-5")
    assert neg is not None and neg.distribution[0] == Fraction(5, 10)


def test_guard_check_texts_and_odds() -> None:
    assert text("GGT+5", 3, 4, 2, 1) == "(GGT+5) ＞ 3,4,2,1+5 ＞ 15"
    r = roll("GGS+5", 10, 3, 4, 2)
    assert r.text == "(GGS+5) ＞ 13[10,3],4,2+5 ＞ 24 ＞ クリティカル ＞ 完全防御"
    assert r.outcome == "完全防御" and r.critical
    r = roll("GGB+5", 1, 1)
    assert r.text == "(GGB+5) ＞ 1,1+5 ＞ 7 ＞ ファンブル ＞ ガード失敗"
    assert (r.value, r.failure) == (0, True)
    assert text("GG(B-2)+5") == "(GG(B-2)+5) ＞ ダイスなし ＞ ガード失敗"
    o = GodEaterTableBurst().odds_command("GGS+5")
    assert o is not None
    assert o.events["完全防御"] == Fraction(271, 1000)
    assert o.events["ガード失敗"] == Fraction(1, 1000)
    assert o.distribution[0] == Fraction(1, 1000)


# -- final damage -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "guard", "final_mod", "tie_zero"),
    [
        ((1, 5), (1, 3), 0, False),
        ((2, 3), (1, 4), 0, False),
        ((1, 4), (2, 2), 2, False),
        ((2, 2), (1, 5), -1, True),
        ((1, 9), None, 0, False),
        ((2, -4), (1, 0), 0, False),
        ((1, 6), (2, -6), 0, False),
        ((2, 1), (2, -1), 1, True),
    ],
)
def test_final_damage_matches_brute_force(
    attack: tuple[int, int], guard: tuple[int, int] | None, final_mod: int, tie_zero: bool
) -> None:
    max_len = 3
    o = final_damage_odds(
        CheckSpec(*attack),
        CheckSpec(*guard) if guard else None,
        final_modifier=final_mod,
        tie="zero" if tie_zero else "defender",
    )
    brute = brute_final(attack, guard, final_mod=final_mod, tie_zero=tie_zero, max_len=max_len)
    # damage from an attack chain cut off in the brute force is at least this
    g_max = 9 * guard[0] + guard[1] if guard else 0
    bound = max_len * 10 + attack[0] - 1 + attack[1] - max(0, g_max) + final_mod
    for dmg in range(1, bound):
        assert o.distribution.get(dmg, Fraction(0)) == brute.get(dmg, Fraction(0)), dmg
    # 0 damage = failed attack + perfect guard (+ zero ties): check through the events
    failed = sum(
        (
            p
            for (total, kind), p in brute_chain(attack[0], 10, 1, 1).items()
            if kind == "fumble" or (kind == "normal" and total + attack[1] <= 0)
        ),
        Fraction(0),
    )
    assert o.events.get("攻撃失敗", Fraction(0)) == failed
    # the cut-off attacks (far above any of these guards) all deal damage: success counts
    # them, so it is exact, while the distribution still leaves them out
    assert o.truncated_success == o.truncated
    assert (
        o.success
        == sum((p for k, p in o.distribution.items() if isinstance(k, int) and k >= 1), Fraction(0))
        + o.truncated
    )
    assert o.failure == o.distribution[0]
    assert sum(o.distribution.values()) + o.truncated == 1


def test_success_is_exact_only_when_every_cut_off_chain_succeeds() -> None:
    g = GodEaterTableBurst()
    gg = g.odds_command("GGT+5")
    assert gg is not None and gg.success == 1 - Fraction(1, 10**4)  # only 1,1,1,1 fails
    assert gg.truncated_success == gg.truncated > 0
    gd = g.odds_command("GD1-5")
    assert gd is not None and gd.success == Fraction(5, 10)  # die 6..10 (10 chains on)
    assert gd.failure == Fraction(5, 10)
    # a final modifier this low could stop even a cut-off chain: success stays a lower
    # bound over the retained mass, as before
    low = g.odds_command("GFS+6/S+5/-999")
    assert low is not None and low.truncated > 0 and low.truncated_success == 0
    assert low.success == sum(
        (p for k, p in low.distribution.items() if isinstance(k, int) and k >= 1), Fraction(0)
    )
    assert low.failure is not None
    assert low.success + low.failure + low.truncated == 1
    json = g.odds_command("GFS+6/S+5")
    assert json is not None and json.to_json()["truncated_success"] == json.to_json()["truncated"]


def test_final_damage_exact_small_case() -> None:
    # one-die attack +5 against a one-die guard +3, computed by hand from the rules
    o = final_damage_odds(CheckSpec(1, 5), CheckSpec(1, 3))
    assert o.events["攻撃失敗"] == Fraction(1, 10)  # the attack die shows 1
    # guard critical (10) stops any attack that went through
    assert o.events["完全防御"] == Fraction(9, 10) * Fraction(1, 10)
    # guard fumble (1): the attack's achievement is the damage; e.g. 2+5 = 7
    # 7 damage: attack 2 & guard fumble, or attack a & guard g with a+5-(g+3) = 7,
    # or an attack critical 10 then x with 10+x+5-(g+3) = 7 (x 1..4, g 6..9)
    p7 = Fraction(1, 100) * (
        1 + sum(1 for a in range(2, 10) for g in range(2, 10) if a + 5 - (g + 3) == 7)
    ) + Fraction(4, 1000)
    assert o.distribution[7] == p7
    # 1 damage: defender wins or ties (a+5 <= g+3), or the difference is exactly 1
    p1 = Fraction(
        sum(
            1 for a in range(2, 10) for g in range(2, 10) if a + 5 <= g + 3 or a + 5 - (g + 3) == 1
        ),
        100,
    )
    assert o.distribution[1] == p1


def test_final_damage_texts() -> None:
    assert text("GFL+7/T+5", 5, 10, 1, 2, 3, 4, 2, 1) == (
        "(GFL+7/T+5) ＞ ダメージ判定 5,11[10,1],2+7 ＞ 25 ＞ クリティカル ＞ "
        "ガード判定 3,4,2,1+5 ＞ 15 ＞ 有効打 ＞ 最終ダメージ10 ＞ OP回復1"
    )
    r = roll("GFL+7/T+5", 1, 1, 1)  # fumbled damage check: no guard dice rolled
    assert r.text == (
        "(GFL+7/T+5) ＞ ダメージ判定 1,1,1+7 ＞ 10 ＞ ファンブル ＞ 攻撃失敗 ＞ 最終ダメージ0"
    )
    assert (r.value, r.failure, r.fumble, r.outcome) == (0, True, True, "攻撃失敗")
    assert text("GFL+7", 5, 2, 3) == (
        "(GFL+7) ＞ ダメージ判定 5,2,3+7 ＞ 17 ＞ ガードなし ＞ 最終ダメージ17 ＞ OP回復1"
    )
    assert text("GFL+7/-/+2", 5, 2, 3) == (
        "(GFL+7/-/+2) ＞ ダメージ判定 5,2,3+7 ＞ 17 ＞ ガードなし ＞ 17+2 ＞ "
        "最終ダメージ19 ＞ OP回復1"
    )
    assert text("GFL+7/B+5", 5, 2, 3, 10, 3, 1) == (
        "(GFL+7/B+5) ＞ ダメージ判定 5,2,3+7 ＞ 17 ＞ ガード判定 13[10,3],1+5 ＞ 19 ＞ "
        "クリティカル ＞ 完全防御 ＞ 最終ダメージ0"
    )
    assert text("GFL+7/B+20/+2", 5, 2, 3, 1, 1) == (
        "(GFL+7/B+20/+2) ＞ ダメージ判定 5,2,3+7 ＞ 17 ＞ ガード判定 1,1+20 ＞ 22 ＞ "
        "ファンブル ＞ ガード失敗 ＞ 17+2 ＞ 最終ダメージ19 ＞ OP回復1"
    )
    assert text("GFS+6/S+9", 4, 4, 3, 3, 2) == (
        "(GFS+6/S+9) ＞ ダメージ判定 4,4+6 ＞ 14 ＞ ガード判定 3,3,2+9 ＞ 17 ＞ 防御 ＞ "
        "最終ダメージ1"
    )
    # shooting: no OP recovered
    assert text("GF(G+1)+7/B+5", 9, 9, 4, 4) == (
        "(GF(G+1)+7/B+5) ＞ ダメージ判定 9,9+7 ＞ 25 ＞ ガード判定 4,4+5 ＞ 13 ＞ 有効打 ＞ "
        "最終ダメージ12"
    )


def test_final_damage_tie_option() -> None:
    # 14 against 14
    assert text("GFS+6/S+5", 4, 4, 3, 3, 3).endswith("＞ 14 ＞ 防御 ＞ 最終ダメージ1")
    r = roll("GFS+6/S+5", 4, 4, 3, 3, 3, final_damage_tie="zero")
    assert r.text.endswith("＞ 14 ＞ 防御 ＞ 最終ダメージ0") and r.value == 0 and r.failure
    a = GodEaterTableBurst().odds_command("GFS+6/S+5")
    b = GodEaterTableBurst(final_damage_tie="zero").odds_command("GFS+6/S+5")
    assert a is not None and b is not None
    assert b.distribution[0] > a.distribution[0]
    assert a.distribution[1] > b.distribution[1]


def test_guard_fumble_option() -> None:
    cmd = "GFL+7/B+20"
    assert roll(cmd, 5, 2, 3, 1, 1).value == 17
    assert roll(cmd, 5, 2, 3, 1, 1, guard_fumble="none").value == 1
    a = GodEaterTableBurst().odds_command(cmd)
    b = GodEaterTableBurst(guard_fumble="none").odds_command(cmd)
    assert a is not None and b is not None and a.distribution != b.distribution


def test_op_rounding_option() -> None:
    faces = (9, 9, 9, 1, 1, 2)  # 27+7 = 34 against 4+5 = 9: 25 damage
    assert text("GFL+7/S+5", *faces).endswith("最終ダメージ25 ＞ OP回復2")
    assert text("GFL+7/S+5", *faces, op_rounding="up").endswith("最終ダメージ25 ＞ OP回復3")
    assert text("GFL+7/S+5", *faces, op_rounding="nearest").endswith("OP回復3")
    assert GodEaterTableBurst(op_rounding="up").op_recovered(1) == 1
    assert GodEaterTableBurst().op_recovered(9) == 0
    assert GodEaterTableBurst().op_recovered(30, melee=False) == 0


def test_final_modifier_never_below_zero_and_not_on_zero() -> None:
    assert text("GFL+7/B+5/-30", 5, 2, 3, 2, 2).endswith("有効打 ＞ 8-30 ＞ 最終ダメージ0")
    assert text("GFL+7/B+5/+3", 5, 2, 3, 10, 1, 2).endswith("完全防御 ＞ 最終ダメージ0")


# -- through the public engine ---------------------------------------------------------------


def test_engine_roll_with_system() -> None:
    import saikoro

    r = saikoro.roll("GB3>=8", system="getb", dice=[(10, 7)])
    assert r is not None and r.text == "(GB3>=8) ＞ 7[7]+3 ＞ 10 ＞ 成功"
    assert r.dice == ((10, 7),)
    r = saikoro.roll("ｇｂ３＞＝８ 回避", system="getb", dice=[(10, 10)])
    assert r is not None and r.text == "(GB3>=8) ＞ 10[10]+3 ＞ 13 ＞ クリティカル"
    r = saikoro.roll("1d10+3>=8", system="getb", dice=[(10, 1)])
    assert r is not None and r.fumble and r.text.endswith("ファンブル")
    # generic commands still work under the system
    r = saikoro.roll("2D6>=7", system="getb", dice=[(6, 3), (6, 4)])
    assert r is not None and r.text == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"


def test_engine_odds_with_options() -> None:
    import saikoro

    o = saikoro.odds("GFS+6/S+5", system="getb")
    z = saikoro.odds("GFS+6/S+5", system=saikoro.get_system("getb", final_damage_tie="zero"))
    assert o is not None and z is not None and o.distribution != z.distribution
    r = saikoro.roll("GDL+7", system="getb", dice=[(10, 5), (10, 10), (10, 1), (10, 2)])
    assert r is not None and r.dice == ((10, 5), (10, 10), (10, 1), (10, 2))
    assert r.text == "(GDL+7) ＞ 5,11[10,1],2+7 ＞ 25 ＞ クリティカル"


def test_final_damage_zero_is_exact_despite_cut_off_chains() -> None:
    # review regression: cut-off attack chains still meet a critical guard (0 damage), so
    # P(0) = P(attack fails) + P(attack goes through) * P(guard critical), exactly
    o = GodEaterTableBurst().odds_command("GFS+6/B+4")
    assert o is not None
    assert o.distribution[0] == Fraction(1, 100) + Fraction(99, 100) * Fraction(19, 100)
    assert o.events["完全防御"] == Fraction(99, 100) * Fraction(19, 100)
    assert sum(o.distribution.values()) + o.truncated == 1
    assert 0 < o.truncated < Fraction(1, 10**12)
    unguarded = GodEaterTableBurst().odds_command("GFS+6/-")
    assert unguarded is not None and unguarded.truncated == spread(2, 6).truncated


def test_chain_weights_are_the_engine_chains_for_d10() -> None:
    # one implementation: GETB's chained d10 are the engine's reroll chains (U10[c])
    from saikoro.dice import chain_power, faces_poly

    for critical, depth, dice in [(10, 4, 3), (7, 5, 2), (2, 6, 1)]:
        ours = chain_weights(critical, depth, dice)
        engine = chain_power(
            faces_poly(list(range(critical, 11))), faces_poly(list(range(1, critical))), depth, dice
        )
        assert (ours.offset, ours.weights, ours.denominator) == (
            engine.offset,
            engine.weights,
            engine.denominator,
        )
