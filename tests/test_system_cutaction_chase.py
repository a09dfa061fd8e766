"""Tests of the cut-action system: battle area, states, chase, events, flows, options, API."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import saikoro
from fence_commands import expand
from saikoro.dice import DiceSource, ParseError
from saikoro.systems import OptionValue, StepKind
from saikoro.systems._cutaction import (
    CHASE_EVENTS,
    BattleArea,
    Chase,
    Condition,
    Cover,
    CutAction,
    CutActionError,
    chase_event,
    chase_target,
    resolve_check,
    resolve_damage,
)
from saikoro.systems._cutaction.chase import curve_retreat, falling_area, oncoming_damage

SYS = CutAction()


# -- battle area ------------------------------------------------------------------


def test_battle_area() -> None:
    a = SYS.board()
    assert isinstance(a, BattleArea)
    assert a.cells() == ("自陣本営", "自陣", "前線", "敵陣", "敵陣本営")
    assert all(a.contains(c) for c in a.cells())
    assert a.contains("front") and a.contains("ＦＲＯＮＴ") and not a.contains("中央")
    assert a.distance("自陣本営", "敵陣本営") == 4
    assert a.distance("前線", "前線") == 0
    assert a.adjacent("前線") == ("自陣", "敵陣")
    assert a.reachable("自陣本営") == ("自陣本営", "自陣")
    assert a.reachable("自陣本営", full_move=True) == ("自陣本営", "自陣", "前線")
    assert a.can_melee("敵陣", "enemy") and not a.can_melee("敵陣", "前線")
    assert a.can_exit("自陣本営") and not a.can_exit("前線")
    assert a.can_exit("前線", exits=("前線",))
    # cover only works against ranged attacks from another row
    assert a.ranged_success_value(9, "自陣", "敵陣", Cover.HALF) == 4
    assert a.ranged_success_value(9, "敵陣", "敵陣", Cover.HALF) == 9
    assert a.ranged_success_value(9, "自陣", "敵陣", Cover.FULL) is None
    assert a.ranged_success_value(9, "敵陣", "敵陣", Cover.FULL) == 9
    assert a.ranged_success_value(9, "自陣", "敵陣") == 9
    with pytest.raises(ValueError, match="unknown row"):
        a.distance("自陣", "どこか")


def test_halved_success_value_in_a_command() -> None:
    # a ranged attack at success value 9 against half cover: CA(9)/2 -> success value 4
    odds = SYS.odds_command("CA(9)/2")
    assert odds is not None and odds.success == Fraction(4, 10)


# -- states -----------------------------------------------------------------------


def test_injury_exhaustion_critical_death() -> None:
    c = Condition(max_hp=12, hp=12)
    c = c.take(resolve_damage(5, resolve_check(6, 3)))  # resisted: 5 - 3
    assert (c.hp, c.injury, c.current_max, c.exhausted) == (10, 0, 12, False)
    c = c.take(resolve_damage(7, resolve_check(6, 8)))  # failed: 7 and injury 7
    assert (c.hp, c.injury, c.current_max) == (3, 7, 5)
    c = c.lose_hp(3)
    assert (c.hp, c.exhausted, c.exhaustion) == (0, True, 0)
    assert c.auto_fails() and not c.auto_fails(recovery=True)
    c = c.take(resolve_damage(6, resolve_check(2, 9)))
    assert (c.hp, c.exhaustion, c.current_max, c.critical) == (-6, 6, -1, True)
    # treated before the scene ends: no death
    treated = c.recover_injury(resolve_check(8, 2))
    assert (treated.injury, treated.current_max, treated.critical) == (7, 5, False)
    assert not treated.end_scene().dead
    dead = c.end_scene()
    assert dead.dead and dead.auto_fails(recovery=True)
    assert dead.take(resolve_damage(3, None)) == dead


def test_recovery() -> None:
    c = Condition(max_hp=10, hp=-4, exhausted=True)
    assert c.recover_exhaustion(resolve_check(5, 7)) == c  # a failure does nothing
    c = c.recover_exhaustion(resolve_check(5, 2))
    assert (c.hp, c.exhausted, c.exhaustion) == (-1, True, 1)
    c = c.recover_exhaustion(resolve_check(5, 1))
    assert (c.hp, c.exhausted) == (3, False)
    # 体力 0: exhausted with 消耗 value 0; any successful recovery check ends it
    z = Condition(max_hp=10, hp=0, exhausted=True)
    assert z.exhaustion == 0
    assert not z.recover_exhaustion(resolve_check(5, 5)).exhausted
    # recovery never raises 体力 beyond the (injured) maximum
    c = Condition(max_hp=10, hp=-1, injury=6, exhausted=True).recover_exhaustion(
        resolve_check(9, 1)
    )
    assert c.hp == 4
    # 負傷 recovery (head check) lowers the injury by the achievement, not below 0
    assert Condition(10, 2, injury=3).recover_injury(resolve_check(9, 1)).injury == 0


# -- chase ------------------------------------------------------------------------


def test_chase_table_order_and_falling_area() -> None:
    names = [e.name for e in CHASE_EVENTS]
    assert names == [
        "小道",
        "連続カーブ",
        "悪路",
        "対向車",
        "ジャンプ",
        "スリップ",
        "落下物",
        "道が閉ざされる",
        "さらなる追跡者",
        "行き止まり",
    ]
    assert [chase_event(n).number for n in range(1, 11)] == list(range(1, 11))
    down = [falling_area(n, rounding="down") for n in range(1, 11)]
    assert down == [0, -1, -1, -2, -2, -3, -3, -4, -4, -5]
    assert [falling_area(n) for n in range(1, 11)] == [
        -1,
        -1,
        -2,
        -2,
        -3,
        -3,
        -4,
        -4,
        -5,
        -5,
    ]
    assert curve_retreat(3) == 0 and curve_retreat(0) == 3 and curve_retreat(-2) == 5
    assert oncoming_damage(6) == 6 and oncoming_damage(-2) == 0
    assert chase_target(4) == 40


def test_chase_event_commands() -> None:
    r = SYS.roll_command("CET", DiceSource(dice=[(10, 4)]))
    assert r is not None and r.value == 4 and r.outcome == "対向車"
    assert r.text.startswith("(CET) ＞ 4 ＞ 対向車：")
    r = SYS.roll_command("CET", DiceSource(dice=[(10, 7), (10, 8)]))
    assert r is not None and r.text.endswith(" ＞ 8 ＞ 相対距離-4のエリアに落下")
    r = SYS.roll_command("CET", DiceSource(dice=[(10, 10)]))
    assert r is not None and r.outcome == "行き止まり"
    odds = SYS.odds_command("CET")
    assert odds is not None and list(odds.distribution) == [e.name for e in CHASE_EVENTS]
    assert set(odds.distribution.values()) == {Fraction(1, 10)}
    # 1D10÷2 rounded up (ruling falling_area): 1-5 areas behind the leader, each 1/5
    assert "落下物(相対距離0)" not in odds.events
    assert odds.events["落下物(相対距離-5)"] == Fraction(2, 100)
    assert odds.events["落下物(相対距離-2)"] == Fraction(2, 100)
    r = SYS.roll_command("CFO", DiceSource(dice=[(10, 1)]))
    assert r is not None and r.text == "(CFO) ＞ 1 ＞ 相対距離-1のエリアにいる全員に5点のダメージ"
    down = SYS.with_options(falling_area="down")
    r = down.roll_command("CFO", DiceSource(dice=[(10, 1)]))
    assert r is not None and r.text == "(CFO) ＞ 1 ＞ 相対距離0のエリアにいる全員に5点のダメージ"
    odds = SYS.odds_command("CFO")
    assert odds is not None
    assert odds.distribution == {a: Fraction(1, 5) for a in (-5, -4, -3, -2, -1)}
    odds = down.odds_command("CFO")
    assert odds is not None
    assert odds.distribution == {
        -5: Fraction(1, 10),
        -4: Fraction(1, 5),
        -3: Fraction(1, 5),
        -2: Fraction(1, 5),
        -1: Fraction(1, 5),
        0: Fraction(1, 10),
    }
    up = SYS.with_options(falling_area="up").odds_command("CFO")
    assert up is not None and set(up.distribution) == {-1, -2, -3, -4, -5}


def test_chase_positions_and_dropping_out() -> None:
    c = Chase.start(
        [("怪盗", "逃走", 6, True), ("警部", "追跡", 6), ("巡査", "追跡", 1), ("犬", "追跡", 0)],
        target=chase_target(3),
    )
    # equal movement: the PC leads; the dog starts 6 behind and drops out at once
    assert c.order() == ["怪盗", "警部", "巡査"] and c.runner("犬").dropped
    assert c.relative("巡査") == -5
    # the leader accelerates: everyone else falls back relative to it
    c = c.accelerate("怪盗", resolve_check(7, 3))
    assert c.relative("警部") == -4 and c.relative("巡査") == -9
    # a failed acceleration does not move
    assert c.accelerate("警部", resolve_check(3, 8)) == c
    # left behind by an acceleration: not dropped yet (the seed's only exception)
    assert "巡査" in c.order() and c.beyond() == ["巡査"]
    c = c.end_cut()
    assert c.order() == ["怪盗", "警部"] and c.cut == 2
    assert c.end_reason(cast=4) is None
    # movement checks accumulate; a failed one moves back by default
    c2 = c.move_check("怪盗", resolve_check(7, 9))
    assert c2.runner("怪盗").position == 8
    c3 = c.move_check("怪盗", resolve_check(7, 9), failed_move="zero")
    assert c3.runner("怪盗").position == 10
    both = c.move_checks({"怪盗": resolve_check(21, 1), "警部": resolve_check(21, 1)})
    assert both.end_reason(cast=4) == "目標値に到着"
    # one runner's check alone: the pursuer is left 24 behind and drops out at once
    assert c.move_check("怪盗", resolve_check(21, 1)).end_reason(cast=4) == "追跡側が全員脱落"
    assert c.drop("警部").end_reason(cast=4) == "追跡側が全員脱落"
    assert (
        c.end_cut().end_cut().end_cut().end_reason(cast=4) == "カット数が登場キャラクター数に達した"
    )


def test_chase_decelerate_blockade_and_events() -> None:
    c = Chase.start([("A", "逃走", 10), ("B", "逃走", 8), ("C", "追跡", 5)])
    # the leader decelerates past the second: order changes
    d = c.decelerate("A", 3)
    assert d.order() == ["B", "A", "C"] and d.relative("A") == -1
    # no falling back behind a blockaded area
    b = c.blockade("C")
    assert b.decelerate("B", 10).runner("B").position == 5
    assert b.blocked_positions() == {5}
    # 小道: every occupied area is blockaded until the cut ends
    n = Chase.start([("A", "逃走", 10), ("B", "逃走", 8)])
    n = type(n)(n.runners, narrow=True)
    assert n.decelerate("A", 5).runner("A").position == 10
    assert not n.end_cut().narrow
    # 道が閉ざされる: the rearmost area drops out
    assert c.close_road().order() == ["A", "B"]
    assert c.in_area(-2) == ["B"]


# -- flows, options, docs ---------------------------------------------------------


def test_flows_validate_and_name_real_commands() -> None:
    flows = SYS.flows()
    assert set(flows) == {
        "cutaction.cut",
        "cutaction.damage",
        "cutaction.recovery",
        "cutaction.escape",
        "cutaction.chase",
        "cutaction.chase_action",
        "cutaction.chase_event",
    }
    for flow_id, flow in flows.items():
        flow.validate()
        assert flow.id == flow_id
        for step in flow.steps:
            if step.kind is StepKind.CHECK:
                assert step.check, (flow_id, step.id)
                assert SYS.odds_command(step.check) is not None, step.check
            if step.kind is StepKind.SUBFLOW:
                assert step.flow in flows
    roll_step = flows["cutaction.chase_event"].step("roll")
    assert [e.label for e in roll_step.next] == [str(n) for n in range(1, 11)]


def test_documented_examples_work() -> None:
    for doc in SYS.commands:
        assert doc.examples
        for example in doc.examples:
            assert SYS.odds_command(example) is not None, example


def test_every_option_changes_something() -> None:
    cases: dict[str, tuple[OptionValue, str]] = {
        "check_dice": ("2D6", "CA7"),
        "contest_rule": ("compare", "CAC3,2"),
        "resist_failure": ("add", "CAD8R6"),
        "exhausted_resist_fails": (False, "CAD8R6H0"),
        "falling_area": ("down", "CFO"),
        "obstruct_distance": ("one", "CAO7,6"),
        "failed_initiative_order": ("lowest_first", "CAI7,P5,6"),
        "failed_move": ("zero", "CAM7"),
    }
    for name, (value, command) in cases.items():
        changed = SYS.with_options(**{name: value}).odds_command(command)
        assert changed is not None
        assert changed.to_json() != SYS.odds_command(command).to_json(), name  # type: ignore[union-attr]
    options = {r.option_name for r in SYS.rulings if r.option}
    assert options == set(cases) | {"chase_drop", "chase_time_limit", "chase_dead_end"}
    # chase_time_limit and chase_dead_end decide who got away when the chase ends
    from saikoro.systems._cutaction.chase import END_DEAD_END, END_TIME, escaped

    overtaken = [("逃走", 3, True), ("追跡", 5, True)]
    assert escaped(END_TIME, overtaken) != escaped(END_TIME, overtaken, time_limit="leader")
    assert escaped(END_DEAD_END, overtaken) != escaped(END_DEAD_END, overtaken, dead_end="cornered")
    # chase_drop changes the chase model, not a command
    entries = [("A", "逃走", 9), ("B", "追跡", 1)]
    assert SYS.start_chase(entries).order() == ["A"]
    assert SYS.with_options(chase_drop="cut_end").start_chase(entries).order() == ["A", "B"]
    for r in SYS.rulings:
        assert r.key.startswith("cutaction.") and r.seed and r.decision and r.reasoning


# -- through the public API ----------------------------------------------------------


def test_api_roll_and_odds() -> None:
    r = saikoro.roll("CA7>=3", system="cutaction", dice=[(10, 3)])
    assert r is not None and r.text == "(CA7>=3) ＞ 3 ＞ 達成値4 ＞ 成功"
    assert r.dice == ((10, 3),)
    r = saikoro.roll("ｃａ７ 鍵開け", system="cutaction", dice=[(10, 9)])
    assert r is not None and r.text == "(CA7) ＞ 9 ＞ 達成値-2 ＞ 失敗"
    o = saikoro.odds("CAC7,5", system="cutaction")
    assert o is not None and o.success == Fraction(11, 20)
    two = saikoro.get_system("cutaction", check_dice="2D6")
    o = saikoro.odds("CA7", system=two)
    assert o is not None and o.success == Fraction(7, 12)
    r = saikoro.roll("2D6>=7", system="cutaction", dice=[(6, 3), (6, 4)])
    assert r is not None and r.text == "(2D6>=7) ＞ 7[3,4] ＞ 7 ＞ 成功"


def test_chase_events_applied() -> None:
    c = Chase.start([("A", "逃走", 9), ("B", "追跡", 7), ("C", "追跡", 4), ("D", "追跡", 4)])
    ok, bad = resolve_check(6, 2), resolve_check(6, 8)
    assert c.apply_event(1).chase.narrow
    # 連続カーブ: fall back by the shortfall below 3 (achievement 4 -> 0, -2 -> 5)
    o = c.apply_event(2, checks={"A": ok, "B": bad})
    assert (o.chase.runner("A").position, o.chase.runner("B").position) == (9, 2)
    # 悪路 lasts until the next route change
    rough = c.apply_event(3).chase
    assert rough.move_success_value(7) == 5
    assert not rough.apply_event(9).chase.bad_road
    # 対向車: failed body check -> damage equal to this cut's movement achievement
    o = c.apply_event(4, checks={"A": ok, "B": bad, "C": bad}, moves={"A": 6, "B": 4, "C": -1})
    assert o.damage == {"B": 4, "C": 0}
    # ジャンプ: failures drop out; スリップ: failures lose the cut
    assert c.apply_event(5, checks={"B": bad}).chase.order() == ["A", "C", "D"]
    assert c.apply_event(6, checks={"B": bad, "C": ok}).idle == {"B"}
    # 落下物: 1D10 / 2 rounded up -> areas behind the leader; 5 damage to everyone there
    assert c.apply_event(7, fall_roll=10).damage == {"C": 5, "D": 5}
    assert c.apply_event(7, fall_roll=3).damage == {"B": 5}
    assert c.apply_event(7, fall_roll=1).damage == {}
    assert c.apply_event(7, fall_roll=1, rounding="down").damage == {"A": 5}
    with pytest.raises(ValueError, match="fall_roll"):
        c.apply_event(7)
    # 道が閉ざされる: the rearmost area drops out; 行き止まり ends the chase
    assert c.apply_event(8).chase.order() == ["A", "B"]
    # 連続カーブ: B (achievement -3) falls back 6 to relative -8 and drops out at once
    far = c.apply_event(2, checks={"A": ok, "B": resolve_check(6, 9)})
    assert far.chase.runner("B").position == 1 and far.chase.runner("B").dropped
    late = Chase.start([("A", "逃走", 9), ("B", "追跡", 7)], drop_rule="cut_end")
    kept = late.apply_event(2, checks={"A": ok, "B": resolve_check(6, 9)}).chase
    assert not kept.runner("B").dropped and kept.end_cut().runner("B").dropped
    assert c.apply_event(10).chase.end_reason(cast=4) == "行き止まり"
    assert c.capture(won=True).end_reason(cast=4) == "捕捉"
    assert c.capture(won=False).end_reason(cast=4) is None


def test_chase_vehicles() -> None:
    c = Chase.start(
        [("運転手", "逃走", 6), ("相棒", "逃走", 3), ("追手", "追跡", 4), ("同乗", "追跡", 4)]
    )
    c = c.board("運転手", "車", driver=True).board("相棒", "車")
    c = c.board("追手", "バイク", driver=True).board("同乗", "バイク")
    # only the driver rolls; passengers move with the vehicle
    c = c.accelerate("運転手", resolve_check(7, 4))
    assert c.runner("相棒").position == c.runner("運転手").position == 9
    # the pursuing driver jumps over onto the car: its bike and passenger drop out
    c = c.jump_over("追手", "車", won=True)
    assert c.runner("追手").vehicle == "車" and c.runner("同乗").dropped
    assert c.runner("追手").position == 9
    assert c.jump_over("相棒", "バイク", won=False) == c
    # the driver shakes the intruder off
    c = c.shake_off("追手", won=True)
    assert c.runner("追手").dropped
    assert c.end_reason(cast=4) == "追跡側が全員脱落"


def test_rules_page_fences() -> None:
    import pathlib
    import re

    page = pathlib.Path(__file__).resolve().parent.parent / "docs" / "systems" / "cutaction.md"
    text = page.read_text(encoding="utf-8")
    assert text.startswith("---\ntitle: カットアクション\nsystem: cutaction\n---")
    flows = SYS.flows()
    flow_ids = [b.strip() for b in re.findall(r"```flow\n(.*?)```", text, re.S)]
    assert set(flow_ids) == set(flows)
    commands = [
        line
        for block in re.findall(r"```dice\n(.*?)```", text, re.S)
        for line in block.strip().splitlines()
        if not line.startswith("system:")
    ]
    assert len(commands) > 20
    for command in commands:
        for each in expand(command):
            assert SYS.odds_command(each) is not None, each


def test_posture_placement_and_stuck_runners() -> None:
    a = BattleArea()
    assert a.start_rows() == ("自陣本営", "自陣", "前線")
    assert a.can_attack(Cover.NONE, ranged=False) and a.can_attack(Cover.NONE, ranged=True)
    assert a.can_attack(Cover.HALF, ranged=True) and not a.can_attack(Cover.HALF, ranged=False)
    assert not a.can_attack(Cover.FULL, ranged=True) and not a.can_attack(Cover.FULL, ranged=False)
    c = Chase.start([("A", "逃走", 5), ("B", "追跡", 5), ("C", "追跡", 2)]).blockade("B")
    assert c.blockaded("A") and not c.blockaded("B") and not c.blockaded("C")
    narrow = c.apply_event(1).chase
    assert all(narrow.blockaded(n) for n in "ABC")
    assert narrow.accelerate("C", resolve_check(9, 1)) == narrow
    assert narrow.end_cut().accelerate("C", resolve_check(9, 1)).runner("C").position == 10


def test_system_methods_follow_options() -> None:
    strict, loose = SYS, CutAction(contest_rule="compare")
    a, p = strict.check(3, 5), strict.check(2, 6)
    assert not strict.contest_wins(a, [p]) and loose.contest_wins(a, [p])
    hit = strict.resolve_damage(8, strict.check(6, 9))
    assert (hit.hp_loss, hit.injury) == (8, 8)
    assert CutAction(resist_failure="add").resolve_damage(8, SYS.check(6, 9)).hp_loss == 11
    assert strict.resolve_damage(8, strict.check(6, 1), exhausted=True).injury == 8
    lenient = CutAction(exhausted_resist_fails=False)
    assert lenient.resolve_damage(8, SYS.check(6, 1), exhausted=True).hp_loss == 3
    c = Chase.start([("A", "逃走", 5), ("B", "追跡", 3)])
    assert SYS.move_check(c, "A", SYS.check(4, 7)).runner("A").position == 2
    zero = CutAction(failed_move="zero")
    assert zero.move_check(c, "A", SYS.check(4, 7)).runner("A").position == 5
    assert CutAction(check_dice="2D6").check(13, 12).fumble


# -- issue 10: dropping out at once, refusals, falling objects ------------------------


def test_dropping_out_happens_at_once_except_during_acceleration() -> None:
    c = Chase.start([("A", "逃走", 10), ("B", "追跡", 7), ("C", "追跡", 5)])
    assert c.order() == ["A", "B", "C"]
    # falling back beyond -5: out at once, not at cut end
    d = c.decelerate("C", 1)
    assert d.runner("C").dropped and d.order() == ["A", "B"]
    assert not c.decelerate("C", 0).runner("C").dropped  # exactly -5 is still in
    # an obstruction (fall_back), a newcomer placed far behind: the same
    assert c.fall_back("B", 9).runner("B").dropped
    assert c.join("警察", "追跡", position=2).runner("警察").dropped
    # acceleration: the runners left behind stay...
    a = c.accelerate("A", resolve_check(9, 5))
    assert a.relative("B") == -7 and a.relative("C") == -9
    assert not a.runner("B").dropped and a.beyond() == ["B", "C"]
    # ...may catch up by accelerating in turn...
    back = a.accelerate("B", resolve_check(9, 6))
    assert back.relative("B") == -4 and back.beyond() == ["C"]
    # ...and drop at the next change that is not an acceleration, or at cut end
    assert back.blockade("A").runner("C").dropped
    assert back.end_cut().order() == ["A", "B"]
    # the movement checks of the initiative timing count together
    m = c.move_checks(
        {"A": resolve_check(9, 1), "B": resolve_check(9, 2), "C": resolve_check(9, 9)}
    )
    assert m.relative("B") == -4 and m.runner("C").dropped


def test_chase_drop_option_keeps_the_old_cut_end_rule() -> None:
    late = CutAction(chase_drop="cut_end")
    c = late.start_chase([("A", "逃走", 10), ("B", "追跡", 7), ("C", "追跡", 1)])
    assert c.order() == ["A", "B", "C"] and c.drop_rule == "cut_end"
    assert not c.decelerate("B", 5).runner("B").dropped
    assert c.end_cut().order() == ["A", "B"]
    with pytest.raises(CutActionError):
        Chase((), drop_rule="never")
    ruling = {r.option_name: r for r in CutAction.rulings}["chase_drop"]
    assert ruling.default == "immediate" and "加速" in ruling.seed


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("CAD-3R6", "ダメージは0以上"),
        ("CAD-3", "ダメージは0以上"),
        ("CAD1D6-4R6", "最小で -3"),
        ("CAA7,5,-3R6", "ダメージは0以上"),
        ("CA5>=-2", "目標値は0以上"),
        ("CA5>=(0-1)", "目標値は0以上"),
        ("CAR5>=-1", "目標値は0以上"),
    ],
)
def test_refuses_negative_damage_and_negative_targets(command: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        SYS.odds_command(command)
    with pytest.raises(ParseError, match=message):
        SYS.roll_command(command, DiceSource(dice=[(10, 3)] * 6))
    # the edges stay allowed
    assert SYS.odds_command("CAD0R6") is not None and SYS.odds_command("CA5>=0") is not None
    assert SYS.odds_command("CAD1D6-1R6") is not None


def test_negative_achievements_never_count_as_successes() -> None:
    # brute force over the die: success needs achievement >= target >= 0 and no fumble
    for sv, target in itertools.product(range(-2, 14), range(6)):
        o = SYS.odds_command(f"CA{sv}>={target}")
        assert o is not None
        wins = sum(1 for roll in range(1, 11) if roll != 10 and sv - roll >= target)
        assert o.success == Fraction(wins, 10), (sv, target)


def test_cutaction_error_is_a_dice_error() -> None:
    from saikoro.dice import DiceError

    assert issubclass(CutActionError, DiceError)
    with pytest.raises(DiceError):
        falling_area(11)


def test_falling_objects_default_rounds_up() -> None:
    ruling = {r.option_name: r for r in CutAction.rulings}["falling_area"]
    assert ruling.default == "up" and ruling.choices == ("up", "down")
    counts = Counter(falling_area(k) for k in range(1, 11))
    assert counts == {-1: 2, -2: 2, -3: 2, -4: 2, -5: 2}
    counts = Counter(falling_area(k, rounding="down") for k in range(1, 11))
    assert counts == {0: 1, -1: 2, -2: 2, -3: 2, -4: 2, -5: 1}
