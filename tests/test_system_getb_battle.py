"""GOD EATER TABLE BURST (getb): battle resources, the dial-clock map, flows, docs page."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from fence_commands import expand
from saikoro.systems import StepKind
from saikoro.systems._getb import (
    Combatant,
    Condition,
    CostError,
    DialClock,
    GodEaterTableBurst,
    Weapon,
    attack_cost,
    full_move_cost,
)
from saikoro.systems._getb.board import BoardError

ROOT = Path(__file__).resolve().parent.parent


# -- states -----------------------------------------------------------------------------------


def test_costs_from_the_seed() -> None:
    assert (attack_cost(Weapon.SHORT).st, attack_cost(Weapon.SHORT).ap) == (1, 2)
    assert (attack_cost(Weapon.LONG).st, attack_cost(Weapon.LONG).ap) == (1, 3)
    assert (attack_cost(Weapon.BUSTER).st, attack_cost(Weapon.BUSTER).ap) == (1, 4)
    assert (attack_cost(Weapon.SHOOTING).op, attack_cost(Weapon.SHOOTING).ap) == (1, 1)
    assert full_move_cost(4).ap == 4 and full_move_cost(4).st == 1
    with pytest.raises(CostError):
        full_move_cost(0)


def test_round_start_wait_and_give_up() -> None:
    c = Combatant("ソーマ", max_ap=9, max_st=4, ap=0, st=1, ap_penalty=2).round_start()
    assert (c.ap, c.st) == (7, 4)
    assert Combatant("x", 9, 4, ap=5, st=4).round_start().ap == 9  # capped at the maximum
    assert Combatant("x", 9, 4, ap=7).wait().ap == 3
    assert Combatant("x", 9, 4, ap=1).wait().ap == 0
    assert Combatant("x", 9, 4, ap=7).give_up().ap == 0


def test_paying_costs_and_the_shortfall_option() -> None:
    c = Combatant("x", 8, 3, ap=3, st=1, op=0)
    assert c.pay(attack_cost(Weapon.LONG)).ap == 0
    with pytest.raises(CostError):
        c.pay(attack_cost(Weapon.BUSTER))
    with pytest.raises(CostError):
        c.pay(attack_cost(Weapon.SHOOTING))  # no OP
    g = GodEaterTableBurst()
    with pytest.raises(CostError):
        g.pay(c, attack_cost(Weapon.BUSTER))
    paid = GodEaterTableBurst(ap_shortfall="allow").pay(c, attack_cost(Weapon.BUSTER))
    assert (paid.ap, paid.st) == (0, 0)


def test_initiative_and_ap_tie_option() -> None:
    cs = [
        Combatant("敵", 9, 3, ap=6, pc=False),
        Combatant("PC1", 7, 3, ap=6),
        Combatant("PC2", 7, 3, ap=8),
        Combatant("休み", 7, 3, ap=0),
    ]
    assert [c.name for c in GodEaterTableBurst().initiative(cs)] == ["PC2", "敵", "PC1"]
    assert [c.name for c in GodEaterTableBurst(ap_tie="pc_first").initiative(cs)] == [
        "PC2",
        "PC1",
        "敵",
    ]
    assert [c.name for c in GodEaterTableBurst(ap_tie="enemy_first").initiative(cs)] == [
        "PC2",
        "敵",
        "PC1",
    ]


# -- the dial-clock map ----------------------------------------------------------------------


def test_board_cells_and_names() -> None:
    b = GodEaterTableBurst().board()
    assert len(b.cells()) == 25
    assert b.contains("centre") and b.contains("center") and b.contains("in12")
    assert not b.contains("in0") and not b.contains("out13") and not b.contains("mid3")
    with pytest.raises(BoardError):
        b.distance("in1", "nowhere")


def test_board_adjacency() -> None:
    b = DialClock()
    assert len(b.neighbours("centre")) == 12
    assert set(b.neighbours("in1")) == {"in12", "in2", "centre", "out1"}
    assert set(b.neighbours("out12")) == {"out11", "out1", "in12"}
    for x in b.cells():  # symmetric
        for y in b.neighbours(x):
            assert b.adjacent(y, x)


def test_board_distances() -> None:
    b = DialClock()

    def ring(i: int, j: int) -> int:
        d = abs(i - j) % 12
        return min(d, 12 - d)

    for i, j in itertools.product(range(1, 13), repeat=2):
        r = ring(i, j)
        assert b.distance(f"in{i}", f"in{j}") == min(r, 2)
        assert b.distance(f"in{i}", f"out{j}") == min(r + 1, 3)
        assert b.distance(f"out{i}", f"out{j}") == min(r, 4)
        assert b.move_distance(f"in{i}", f"in{j}", pc=True) == r
        assert b.move_distance(f"out{i}", f"out{j}", pc=True) == min(r, r + 2)
    assert b.distance("centre", "in7") == 1 and b.distance("center", "out7") == 2


def test_range_example_from_the_seed() -> None:
    b = DialClock()
    # range 0-1: the own cell and the adjacent cells
    assert set(b.cells_in_range("in3", "0-1")) == {"in3", "in2", "in4", "centre", "out3"}
    assert b.in_range("out1", "out1", "0-1")
    assert not b.in_range("out1", "in2", "0-1")
    assert b.in_range("out1", "in2", "2～3")


def test_pcs_never_enter_the_centre() -> None:
    b = DialClock()
    with pytest.raises(BoardError):
        b.move_distance("in1", "centre", pc=True)
    assert b.move_distance("in1", "centre", pc=False) == 1


# -- flows -----------------------------------------------------------------------------------


def test_flows_validate_and_checks_are_commands() -> None:
    g = GodEaterTableBurst()
    flows = g.flows()
    for fid in (
        "getb.battle",
        "getb.round",
        "getb.turn",
        "getb.attack",
        "getb.check",
        "getb.contest",
        "getb.damage_check",
        "getb.guard_check",
    ):
        assert fid in flows
    for fid, f in flows.items():
        assert f.id == fid
        f.validate()
        for s in f.steps:
            if s.kind is StepKind.CHECK:
                assert g.odds_command(s.check) is not None, (fid, s.check)
            if s.kind is StepKind.SUBFLOW:
                assert s.flow in flows


def test_commands_documented_examples_work() -> None:
    g = GodEaterTableBurst()
    for doc in g.commands:
        assert doc.examples
        for ex in doc.examples:
            assert g.odds_command(ex) is not None, ex


def test_docs_page_fences() -> None:
    page = ROOT / "docs" / "systems" / "getb.md"
    if not page.exists():
        pytest.skip("docs page not written yet")
    body = page.read_text(encoding="utf-8")
    assert body.startswith("---\n") and "system: getb" in body.split("---")[1]
    g = GodEaterTableBurst()
    blocks = body.split("```")
    for i in range(1, len(blocks), 2):
        lang, _, content = blocks[i].partition("\n")
        lines = [x.strip() for x in content.splitlines() if x.strip()]
        if lang.strip() == "flow":
            assert lines[0] in g.flows()
        elif lang.strip() == "dice":
            for cmd in lines:
                if cmd.startswith("system:"):
                    assert cmd.split(":", 1)[1].strip() == "getb"
                    continue
                for each in expand(cmd):
                    assert g.odds_command(each) is not None, each


def test_hp_conditions_and_attack_range() -> None:
    c = Combatant("x", 8, 3, hp=30).take_damage(12).take_damage(0)
    assert c.hp == 18
    c = c.with_condition(Condition.FLYING).with_condition(Condition.DONE)
    assert c.conditions == {Condition.FLYING, Condition.DONE}
    assert c.with_condition(Condition.FLYING, present=False).conditions == {Condition.DONE}
    g = GodEaterTableBurst()
    assert g.in_attack_range("out5", "in5", Weapon.BUSTER)
    assert g.in_attack_range("out5", "out5", Weapon.SHORT)
    assert not g.in_attack_range("out5", "out7", Weapon.SHORT)
    assert g.in_attack_range("out5", "out7", Weapon.SHOOTING, reach="1-2")
    with pytest.raises(ValueError, match="バレット"):
        g.in_attack_range("out5", "out7", Weapon.SHOOTING)
