"""Ruling ``corruption_effects``: who suffers the 穢れ track's effects in the simulator.

By default (``pcs``) an enemy still gains 穢れ (加護 +2 a turn, +1 when downed), which
switches on its 穢れ-conditioned skills, but none of the track's effects: no +2 on going
down, no recovery or check penalties, no random status table, no initiative 0, no halving,
and 穢れ 10 neither stops it nor counts as defeating it. ``all`` gives enemies the whole
track. The exact duel follows the same ruling (the random status table included); its
values must fall inside the simulated 95 % intervals.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from balance_cases import KEGARE, KEGARE_DUEL, build
from kegare_strike import strike
from saikoro.balance import Budget, simulate, tactics_for
from saikoro.systems._kegare import Kegare
from saikoro.systems._kegare.simulator import SIMULATOR as KEGARE_SIM
from saikoro.systems._kegare.simulator.fight import STATUSES, Fighter, Move, give, table_due
from saikoro.systems._kegare.status import out_for_good

Data = dict[str, Any]


def _rules(rule: str | None, **more: str) -> Any:
    def change(d: Data) -> None:
        rulings = dict(more)
        if rule is not None:
            rulings["corruption_effects"] = rule
        if rulings:
            d["rulings"] = rulings

    return change


def _prepared(data: Data, *changes: Any) -> Any:
    def apply(d: Data) -> None:
        for c in changes:
            c(d)

    sim = KEGARE_SIM
    return sim.prepare(build(data, apply), tactics_for("kegare"))


def _enemy(prep: Any, kegare: int, hp: int = 10) -> Fighter:
    return Fighter(
        "鬼",
        "oni",
        False,
        hp,
        4,
        3,
        5,
        "near",
        True,
        (),
        kegare=kegare,
        suffers=prep.enemies[0].suffers,
    )


def _up(f: Fighter) -> bool:
    """Standing (able to act and to be targeted): HP 1 or more, not out for good."""
    return f.hp > 0 and not out_for_good(f.felt)


def _random_status(prep: Any, rng: random.Random, f: Fighter) -> None:
    """The turn start's random status table, as :mod:`~.turns` rolls it."""
    if table_due(prep, f):
        status = STATUSES[int(rng.random() * len(STATUSES))]
        f.marks, f.poison = give(status, f.marks, f.poison, f.immune)


def test_default_is_the_literal_reading() -> None:
    assert Kegare().options["corruption_effects"] == "pcs"
    assert not _prepared(KEGARE).enemies[0].suffers
    assert _prepared(KEGARE, _rules("all")).enemies[0].suffers


def test_an_enemy_at_ten_keeps_fighting_by_default() -> None:
    prep = _prepared(KEGARE)
    e = _enemy(prep, 12)
    assert e.felt == 0 and _up(e)
    rng = random.Random(3)
    seven = _enemy(prep, 7)
    for _ in range(50):
        _random_status(prep, rng, seven)
    assert not seven.marks
    every = _prepared(KEGARE, _rules("all"))
    e = _enemy(every, 10)
    assert e.felt == 10 and not _up(e)
    seven = _enemy(every, 7)
    _random_status(every, rng, seven)
    assert seven.marks.bit_count() == 1


def test_going_down_adds_one_to_an_enemy_unless_all() -> None:
    for rule, gained in (("pcs", 1), ("all", 2)):
        prep = _prepared(KEGARE_DUEL, _rules(rule))
        move = Move("攻撃", "攻撃", 50)
        pc = Fighter("祓い手", "祓い手", True, 30, 40, 3, 6, "near", False, (move,))
        e = _enemy(prep, 4, hp=1)
        rng = random.Random(0)
        while _up(e):
            strike(prep, rng, pc, move, e)
        assert e.kegare == 4 + gained, rule


def _blessed(d: Data) -> None:
    """A blessed enemy the PC can rarely beat in six turns, tougher from 穢れ 5 on."""
    e = d["enemies"][0]
    e["blessed"] = True
    e["hp"] = 40
    e["skills"].append(
        {"name": "衣", "kind": "passive", "effect": "穢れが5以上のあいだ、受けるダメージ-1。"}
    )


def _win(*changes: Any, n: int = 2000) -> tuple[float, float, float]:
    def apply(d: Data) -> None:
        for c in changes:
            c(d)

    r = simulate(build(KEGARE_DUEL, apply), battles=n, seed=2, solve=False)
    return r.win, r.win_low, r.win_high


def test_ten_defeats_a_blessed_enemy_only_with_all() -> None:
    pcs = _win(_blessed, _rules("pcs"))
    every = _win(_blessed, _rules("all"))
    assert every[1] > pcs[2], (pcs, every)  # intervals apart
    assert every[0] > 0.5 and pcs[0] < 0.2, (pcs, every)


def _exact(*changes: Any) -> Fraction:
    prep = _prepared(KEGARE_DUEL, *changes)
    value, _ = KEGARE_SIM.exact(prep, Budget())
    assert isinstance(value, Fraction)
    return value


@pytest.mark.parametrize("rule", ["pcs", "all"])
def test_exact_blessed_duel_inside_the_intervals(rule: str) -> None:
    changes = (_blessed, _rules(rule, random_status="none"))
    exact = _exact(*changes)

    def apply(d: Data) -> None:
        for c in changes:
            c(d)

    enc = build(KEGARE_DUEL, apply)
    inside = 0
    for seed in range(20):
        r = simulate(enc, battles=300, seed=seed, solve=False)
        inside += r.win_low <= float(exact) <= r.win_high
    assert inside >= 16, (rule, float(exact), inside)


def test_exact_duel_depends_on_the_ruling() -> None:
    pcs = _exact(_blessed, _rules("pcs", random_status="none"))
    every = _exact(_blessed, _rules("all", random_status="none"))
    assert every > pcs + Fraction(1, 4), (float(pcs), float(every))


def test_the_exact_duel_rolls_the_table_for_an_enemy_only_with_all() -> None:
    """The blessed enemy reaches 穢れ 6 at the end of turn 3: under ``all`` it rolls the
    random status table (the exact chain branches on it), under ``pcs`` it never does."""
    every = _exact(_blessed, _rules("all"))
    assert every != _exact(_blessed, _rules("all", random_status="none"))
    prep = _prepared(KEGARE_DUEL, _blessed, _rules("pcs"))
    assert not table_due(prep, _enemy(prep, 7))
    every_prep = _prepared(KEGARE_DUEL, _blessed, _rules("all"))
    assert table_due(every_prep, _enemy(every_prep, 7))


def test_rulings_page_lists_the_option() -> None:
    from saikoro.site import rulings_page

    page = rulings_page()
    assert 'id="kegare-corruption_effects"' in page and "### 穢れの効果を受けるのは誰か" in page
    ruling = next(r for r in Kegare.rulings if r.key == "kegare.corruption_effects")
    assert ruling.option and ruling.default == "pcs" and ruling.choices == ("pcs", "all")
