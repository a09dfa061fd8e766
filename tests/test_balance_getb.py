"""GETB simulator: the engine's rules in play, the guard tactic, weak elements, bullets,
link aid, the exact fight, the ends and what the notes say."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import replace
from dataclasses import replace as dc_replace
from fractions import Fraction
from math import sqrt
from pathlib import Path
from typing import Any

import pytest

from balance_cases import GETB, GETB_EXCHANGE, Data, build
from saikoro.balance import (
    Battle,
    Budget,
    OutOfBudget,
    Roll,
    Tactics,
    Tally,
    encounter,
    simulate,
    tactics_for,
)
from saikoro.scenario import load_scenario, parse_policy
from saikoro.systems._getb import Combatant, GodEaterTableBurst
from saikoro.systems._getb.damage import CheckSpec
from saikoro.systems._getb.final import truncated_floor
from saikoro.systems._getb.model import GetbEnemy
from saikoro.systems._getb.simulator import SIMULATOR as GETB_SIM
from saikoro.systems._getb.simulator import rules
from saikoro.systems._getb.simulator.rules import Prepared, State, _Board
from saikoro.systems._getb.states import Cost

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "plugin" / "saikoro" / "site" / "_guide" / "balance.md").read_text("utf-8")


def _prep(enc: Any, tactics: Tactics | None = None) -> Prepared:
    return GETB_SIM.prepare(enc, tactics or tactics_for("getb"))


def _board(prep: Prepared, **values: list[Any]) -> _Board:
    """The board before the first round, with ``values`` (``hp=[...]``...) set."""
    board = _Board(prep.before())
    for name, value in values.items():
        setattr(board, name, value)
    return board


def _rolls(prep: Prepared, draw: Any) -> tuple[list[State], Battle]:
    """The states of one battle that await a roll (each outcome from ``draw(dice)``), and
    its end."""
    s, seen = prep.start(), []
    while not isinstance(r := prep.step(s), Battle):
        seen.append(s)
        s = r.then(draw(r.dice))
    return seen, r


def _exact(enc: Any) -> Fraction:
    value, _ = GETB_SIM.exact(_prep(enc), Budget())
    assert isinstance(value, Fraction)
    return value


def _change(**paths: Any) -> Any:
    """Set ``enemies.0.hp``-style paths (``__`` for the dots)."""

    def change(d: Data) -> None:
        for path, value in paths.items():
            *keys, last = path.split("__")
            node: Any = d
            for k in keys:
                node = node[int(k)] if k.isdigit() else node[k]
            node[last] = value

    return change


# -- one exchange against the engine command's exact odds (issue 18, Deliver 1) ----------


def test_a_simulated_exchange_has_the_gf_commands_odds() -> None:
    """The beast's first attack (long blade, power 5 + strength 4) on the PC guarding with
    its buckler (armour 2 + strength 5): the roll is ``GFL+9/B+7``'s odds, the chains too
    long to follow at the least damage they deal; the battles draw from it."""
    prep = _prep(build(GETB_EXCHANGE))
    s = prep.start()
    i, _, d, guarded = s[2]  # type: ignore[misc]
    assert (prep.units[i].name, d, guarded) == ("獣", 0, True)
    roll = prep.step(s)
    assert isinstance(roll, Roll)
    odds = GodEaterTableBurst().odds_command("GFL+9/B+7")
    assert odds is not None and odds.truncated
    exact = {d: p for d, p in odds.distribution.items() if isinstance(d, int)}
    floor = truncated_floor(CheckSpec(3, 9), CheckSpec(2, 7))
    exact[floor] = exact.get(floor, Fraction(0)) + odds.truncated
    assert roll.dice.probabilities() == exact
    rng = random.Random(18)
    n = 40_000
    seen = Counter(roll.dice.draw(rng.random()) for _ in range(n))
    for k in (0, 1, 2, 5, 10, 15, 20, 30):
        p = float(sum((q for d, q in exact.items() if d >= k), Fraction(0)))
        got = sum(c for d, c in seen.items() if d >= k) / n
        assert abs(got - p) <= 4.5 * sqrt(p * (1 - p) / n) + 1e-9, (k, got, p)


def test_the_exact_exchange_is_the_gf_commands_odds() -> None:
    """One blow (the beast cannot pay its own: AP 2), guarded: P(win) = P(GFL+11/B+5 >= 14)."""
    enc = build(GETB_EXCHANGE, _change(enemies__0__ap=2, enemies__0__st=1))
    odds = GodEaterTableBurst().odds_command("GFL+11/B+5")
    assert odds is not None
    kill = sum(
        (p for d, p in odds.distribution.items() if isinstance(d, int) and d >= 14), Fraction(0)
    )
    assert _exact(enc) == kill + odds.truncated  # the cut-off chains deal 100 and more


def test_turn_order_is_the_systems_initiative() -> None:
    for tie in ("max_ap", "pc_first", "enemy_first"):
        system = GodEaterTableBurst(ap_tie=tie)
        enc = build(GETB, _change(rulings={"ap_tie": tie}))
        prep = _prep(enc)
        rng = random.Random(tie)
        for _ in range(300):
            ap = [rng.randint(0, 4) for _ in prep.units]
            hp = [rng.choice([0, 5]) for _ in prep.units]
            cs = [
                Combatant(u.name, u.max_ap, u.max_st, ap=a if h > 0 else 0, pc=u.pc)
                for u, a, h in zip(prep.units, ap, hp, strict=True)
            ]
            order = [c.name for c in system.initiative(cs)]
            names = [u.name for u in prep.units]
            expected = names.index(order[0]) if order else -1
            assert prep._next_actor(_board(prep, ap=ap, hp=hp)) == expected


def test_round_start_recovers_as_the_engine_says() -> None:
    prep = _prep(build(GETB))
    s = _board(prep, ap=[1, 0, 3], st=[0, 2, 1])
    s.hp[1] = 0  # downed: recovers nothing
    assert prep._round_over(s) == ""
    for k, u in enumerate(prep.units):
        c = Combatant(u.name, u.max_ap, u.max_st, ap=[1, 0, 3][k], st=[0, 2, 1][k])
        if k == 1:
            assert (s.ap[k], s.st[k]) == (0, 2)
        else:
            r = c.round_start()
            assert (s.ap[k], s.st[k]) == (r.ap, r.st)


def test_battles_end_only_in_the_declared_ends() -> None:
    for data, change in (
        (GETB, None),
        (GETB, _change(missions__main__rounds=1)),
        (GETB_EXCHANGE, _change(party__0__hp=3)),
        (GETB, _change(rulings={"battle_end": "round_end"})),
    ):
        enc = build(data, change)
        tally = Tally(pcs=len(enc.party.members))
        prep = _prep(enc)
        rng = random.Random(1)
        for _ in range(300):
            GETB_SIM.battle(prep, rng, tally)
        assert set(tally.ends) <= set(GETB_SIM.ends), tally.ends
        assert tally.wins == tally.ends["win"]
    assert "lost" not in GETB_SIM.ends


# -- guarding keeps the guard's own attack (issue 18 item 7) -----------------------------


def test_an_enemy_guarding_before_its_turn_still_attacks() -> None:
    """getb-haito's ogretail (ST 3, AP 6) after faster PCs: guarding every blow before its
    turn once spent its ST, and it never struck (0 damage per round). Now it strikes in
    every round it stands."""
    sc = load_scenario(ROOT / "scenarios" / "getb-haito.yaml").scenario
    assert sc is not None
    enc = encounter(sc)
    ogre = enc.enemies[0]
    assert isinstance(ogre, GetbEnemy)
    prep = _prep(replace(enc, enemies=(dc_replace(ogre, hp=9999),), round_limit=3))
    rng = random.Random(7)
    for _ in range(50):
        strikes = Counter[int]()
        states, end = _rolls(prep, lambda dice: dice.draw(rng.random()))
        for s in states:
            i, m = s[2][:2]  # type: ignore[misc]
            if m >= 0 and not prep.units[i].pc:
                strikes[s[0]] += 1
        assert all(strikes[r] >= 1 for r in range(1, end.rounds + 1)), strikes


def _guards(prep: Prepared, s: _Board, k: int) -> bool:
    """Whether ``k`` guards on the board ``s``."""
    return prep._guards(k, s.st[k], s.op[k], s.ap[k], s.gun[k])


def test_guarding_keeps_the_st_of_the_next_attack() -> None:
    prep = _prep(build(GETB_EXCHANGE))
    s = _board(prep)
    prep._round_over(s)  # round 1: AP and ST full
    beast = 1
    assert _guards(prep, s, beast)  # ST 2: guarding leaves 1 for its long blade
    s.st[beast] = 1
    assert not _guards(prep, s, beast)  # its last ST pays its own attack
    s.ap[beast] = 2
    assert _guards(prep, s, beast)  # no attack left to pay this round: guard
    s.st[beast] = 0
    assert not _guards(prep, s, beast)


def test_a_pc_holding_its_gun_cannot_guard() -> None:
    prep = _prep(build(GETB))
    s = _board(prep)
    prep._round_over(s)
    s.ap[0] = 0
    assert _guards(prep, s, 0)
    s.gun[0] = True
    assert not _guards(prep, s, 0)
    anyway = _prep(build(GETB, _change(rulings={"guard_weapon": "any"})))
    assert _guards(anyway, s, 0)


def test_a_pc_switches_form_for_its_gun() -> None:
    """Out of ST, the short-blade PC shoots (OP1 AP1): it holds its gun afterwards."""
    prep = _prep(build(GETB))
    s = _board(prep)
    prep._round_over(s)
    s.st[1] = 0
    pending = prep._turn(s, 1, 2)
    assert pending is not None and pending[:2] == (1, 1)
    assert prep.units[1].moves[1].gun and s.gun[1]
    assert s.op[1] == prep.units[1].max_op - 1


def test_round_end_lets_the_round_finish() -> None:
    """Two enemies, one to defeat: under ``battle_end: round_end`` the other keeps striking
    until the round ends."""

    def two(d: Data) -> None:
        extra = dict(d["enemies"][0], id="other", name="取り巻き", hp=400, placement="in4")
        d["enemies"].append(extra)
        d["enemies"][0]["hp"] = 50  # often defeated within the 4 rounds
        d["balance"] = {"defeat": ["beast"]}
        d["missions"]["main"]["rounds"] = 4

    now = simulate(build(GETB, two), battles=1500, seed=3, solve=False)

    def later(d: Data) -> None:
        two(d)
        d["rulings"] = {"battle_end": "round_end"}

    then = simulate(build(GETB, later), battles=1500, seed=3, solve=False)
    assert then.taken_per_round > now.taken_per_round
    assert abs(then.win - now.win) < 0.05


# -- weak elements (ruling weak_element) ------------------------------------------------


def _weak(*elements: str) -> Any:
    def change(d: Data) -> None:
        d["enemies"][0]["weak"] = list(elements)

    return change


def test_weak_element_adds_a_die_in_the_exact_fight() -> None:
    plain = _exact(build(GETB_EXCHANGE))
    weak = _exact(build(GETB_EXCHANGE, _weak("physical")))
    other = _exact(build(GETB_EXCHANGE, _weak("fire")))
    assert weak > plain == other

    def weak_off(d: Data) -> None:
        _weak("physical")(d)
        d["rulings"] = {"weak_element": "none"}

    assert _exact(build(GETB_EXCHANGE, weak_off)) == plain


def test_weak_element_exact_inside_the_simulated_intervals() -> None:
    enc = build(GETB_EXCHANGE, _weak("physical"))
    exact = float(_exact(enc))
    inside = sum(
        r.win_low <= exact <= r.win_high
        for r in (simulate(enc, battles=300, seed=s, solve=False) for s in range(20))
    )
    assert inside >= 16


def _fire_bullet(d: Data) -> None:
    d["party"][1]["bullets"] = [{"name": "火炎弾", "element": "fire", "dice": 1}]
    d["enemies"][0]["weak"] = ["fire"]
    d["missions"]["main"]["rounds"] = 4


def test_weak_element_raises_the_win_rate() -> None:
    on = simulate(build(GETB, _fire_bullet), battles=3000, seed=3, solve=False)

    def off(d: Data) -> None:
        _fire_bullet(d)
        d["rulings"] = {"weak_element": "none"}

    base = simulate(build(GETB, off), battles=3000, seed=3, solve=False)
    assert on.win_low > base.win_high, (on.win, base.win)
    assert any(n.key == "weak_none" for n in base.notes)


# -- bullets ----------------------------------------------------------------------------


def test_bullets_become_shooting_moves() -> None:
    prep = _prep(build(GETB, _fire_bullet))
    pc = prep.units[1]
    gun = [m for m in pc.moves if m.gun]
    assert [(m.name, m.dice, m.element, m.reach) for m in gun] == [("火炎弾", 2, "fire", (1, 3))]
    assert gun[0].cost == Cost(ap=1, op=1)
    assert gun[0].modifier == 3 + 3  # gun_power + intellect
    assert not gun[0].melee


def test_more_bullet_dice_raise_the_win_rate() -> None:
    def gunners(dice: int) -> Any:
        def change(d: Data) -> None:
            for pc in d["party"]:
                pc["gun_power"] = 3
                pc["op"] = 6
                pc["bullets"] = [{"name": "弾", "dice": dice, "range": "0-3"}]
                pc["power"] = 0
            d["missions"]["main"]["rounds"] = 4

        return change

    weak = simulate(build(GETB, gunners(0)), battles=2000, seed=5, solve=False)
    strong = simulate(build(GETB, gunners(2)), battles=2000, seed=5, solve=False)
    assert strong.win_low > weak.win_high, (weak.win, strong.win)


# -- link aid (ruling link_aid) ---------------------------------------------------------


def _fragile(d: Data) -> None:
    """Two PCs side by side who go down often but rarely together."""
    d["missions"]["main"]["rounds"] = 5
    d["enemies"][0]["hp"] = 90
    for pc in d["party"]:
        pc["hp"] = 22


def test_link_aid_raises_the_win_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    enc = build(GETB, _fragile)
    aided = simulate(enc, battles=3000, seed=11, solve=False)
    assert aided.means.get("link_aid", 0) > 0.2
    monkeypatch.setattr(rules, "LINK_AID_COST", Cost(st=99, ap=99))  # nobody can pay: no aid
    alone = simulate(enc, battles=3000, seed=11, solve=False)
    assert "link_aid" not in alone.means
    assert aided.win_low > alone.win_high, (aided.win, alone.win)


def test_link_aid_half_beats_one() -> None:
    def rule(name: str) -> Any:
        def change(d: Data) -> None:
            _fragile(d)
            d["rulings"] = {"link_aid": name}

        return change

    one = simulate(build(GETB, rule("one")), battles=3000, seed=2, solve=False)
    more = simulate(build(GETB, rule("half")), battles=3000, seed=2, solve=False)
    assert more.win > one.win


def test_reckless_pcs_give_no_link_aid() -> None:
    enc = build(GETB, _fragile)
    tactics = Tactics(parse_policy("reckless"), parse_policy("random"))
    r = simulate(enc, battles=500, seed=1, tactics=tactics, solve=False)
    assert "link_aid" not in r.means


# -- the exact fight --------------------------------------------------------------------


def _small(d: Data) -> None:
    """Two PCs against the beast, low on HP, for one round: small enough to solve."""
    d["missions"]["main"]["rounds"] = 1
    d["enemies"][0]["hp"] = 15
    for pc in d["party"]:
        pc["hp"] = 10


def test_two_pcs_against_one_enemy_are_solved_exactly() -> None:
    """A small fight of two PCs gets an exact value (it was one against one only), inside
    the simulated intervals."""
    enc = build(GETB, _small)
    exact = _exact(enc)
    assert Fraction(1, 20) < exact < Fraction(19, 20)
    runs = (simulate(enc, battles=300, seed=s, solve=False) for s in range(20))
    assert sum(r.win_low <= float(exact) <= r.win_high for r in runs) >= 16


def test_merging_damages_keeps_every_exact_figure() -> None:
    """The exact solver's rules roll an attack's damages that leave the same state as one
    outcome. Against a second enemy, with side missions reading the PCs downed, the order
    the enemies fell, the damage taken and who dealt it, and in a duel where a blade's blow
    recovers the OP the gun spent, every roll of a battle leads to the same states (as the
    solver tells them apart) with the same probabilities as when every damage is rolled."""

    def two(d: Data) -> None:
        _small(d)
        cub = dict(d["enemies"][0], id="cub", name="子", hp=8, placement="in5", ap=6)
        d["enemies"].append(dict(cub, attacks=d["enemies"][0]["attacks"][:1]))
        d["missions"]["side"] = [
            {"success": "a", "check": {"downed_at_most": 0}},
            {"success": "b", "check": {"defeated_first": ["cub"]}},
            {"success": "c", "check": {"taken_at_most": 14}},  # more than a PC's HP
            {"success": "d", "check": {"no_damage_from": ["咆哮"]}},
        ]

    def gun(d: Data) -> None:
        d["party"][0].update(gun_power=3, op=4)
        d["enemies"].append(dict(d["enemies"][0], id="other", name="二頭目", hp=45))

    def same(prep: Prepared, s: State) -> bool:
        """Whether the merged roll at ``s`` leads where rolling every damage does."""
        merged = GETB_SIM.exact_rules(prep)
        assert merged is not None and merged.merged and not prep.merged
        every, some = prep.step(s), merged.step(s)
        assert isinstance(every, Roll) and isinstance(some, Roll)

        def after(r: Roll[State]) -> Any:
            return r.dice.map(lambda x: prep.canonical(r.then(x)))

        assert after(every) == after(some)
        return len(some.dice) < len(every.dice)

    prep = _prep(build(GETB, two))
    assert prep.reads == {"downed", "defeated", "taken", "hit_by"} and prep.taken_cap == 15
    rng = random.Random(4)
    runs = [_rolls(prep, lambda dice: dice.draw(rng.random()))[0] for _ in range(40)]
    assert sum(same(prep, s) for states in runs for s in states) > 100
    duel = _prep(build(GETB_EXCHANGE, gun))  # its blade downs the beast, having shot before
    b = _board(duel, op=[1, 0, 0], hp=[30, 5, 45])
    duel._round_over(b)
    pending = duel._turn(b, 0, 1)
    assert pending is not None and duel.units[0].moves[pending[1]].melee
    assert same(duel, b.state(pending))


def test_no_exact_value_where_cut_off_chains_could_leave_a_survivor() -> None:
    """Attack chains too long for the engine to follow (about 10^-12 of an attack) are
    known only by the least damage they deal: an enemy with more HP than that (the beast's
    110) gets no exact value, rather than an approximate one."""
    prep = _prep(build(GETB))
    assert not prep.solvable()
    assert GETB_SIM.exact(prep, Budget())[0] is None


def test_exact_charges_the_one_budget() -> None:
    enc = build(GETB_EXCHANGE, _change(missions__main__rounds=3))
    budget = Budget(50_000)
    with pytest.raises(OutOfBudget):
        GETB_SIM.exact(_prep(enc), budget)
    used = Budget()
    GETB_SIM.exact(_prep(build(GETB_EXCHANGE)), used)
    assert 0 < used.used < 200_000


def _stalemate(rounds: int) -> Any:
    """Neither side can hurt the other much (armour 99): a long fight of cheap blows."""
    side = {"hp": 3, "ap": 10, "st": 20}
    return build(
        GETB_EXCHANGE,
        _change(
            missions__main__rounds=rounds,
            **{f"party__0__{k}": v for k, v in side.items()},
            party__0__power=0,
            party__0__armor=99,
            **{f"enemies__0__{k}": v for k, v in side.items()},
            enemies__0__guard={"shield": "buckler", "armor": 99},
        ),
    )


def test_exact_follows_fights_deeper_than_pythons_stack() -> None:
    """A fight of 500 draws in a row (more than a solver recursing twice a draw could
    follow in Python's call stack) is solved: the solver keeps its own stack, and its work
    is charged to the budget, which a smaller budget runs out of (never a RecursionError)."""
    import sys

    prep = _prep(_stalemate(85))
    states, end = _rolls(prep, lambda dice: min(dice.outcomes()))  # every blow misses
    assert end.end == "timeout" and 2 * len(states) > sys.getrecursionlimit()
    win, figures = GETB_SIM.exact(prep, Budget())
    assert win is not None and win + figures["P(全滅)"] + figures["P(時間切れ)"] == 1
    assert 0 < figures["P(時間切れ)"] < Fraction(1, 10**6)
    with pytest.raises(OutOfBudget):
        GETB_SIM.exact(_prep(_stalemate(85)), Budget(20_000))


def test_exact_ends_add_up() -> None:
    enc = build(GETB_EXCHANGE, _change(missions__main__rounds=2, party__0__hp=18))
    win, figures = GETB_SIM.exact(_prep(enc), Budget())
    assert win is not None
    assert win + figures["P(全滅)"] + figures["P(時間切れ)"] == 1
    assert figures["P(全滅)"] > 0 and figures["P(時間切れ)"] > 0


# -- what the notes say ----------------------------------------------------------------


def test_notes_list_the_attack_effects() -> None:
    sc = load_scenario(ROOT / "scenarios" / "getb-kaigan.yaml").scenario
    assert sc is not None
    prep = _prep(encounter(sc))
    notes = GETB_SIM.notes(prep)
    assert any(n.key == "effect" and "灼熱の咆哮" in n.text for n in notes), notes
    assert any(n.key == "skill_cost" and "灼熱の咆哮" in n.text for n in notes)
    assert {"skills", "jump", "step", "items"} <= {n.key for n in notes}


def _doc_notes() -> dict[str, str]:
    """The GETB notes table of the guide (plugin/saikoro/site/_guide/balance.md): key -> text."""
    section = DOC.split("#### GETB の注記", 1)[1].split("\n#", 1)[0]
    return dict(re.findall(r"^\| `(\w+)` \| (.+?) \|$", section, flags=re.MULTILINE))


def test_the_doc_lists_exactly_what_the_notes_can_say() -> None:
    assert _doc_notes() == dict(GETB_SIM.NOTES)


def test_every_ruling_the_figures_rely_on_exists() -> None:
    keys = {r.key for r in GodEaterTableBurst.rulings}
    assert set(GETB_SIM.rulings) <= keys
    options = {r.key for r in GodEaterTableBurst.rulings if r.option} - {"getb.miracle_tier"}
    assert options <= set(GETB_SIM.rulings)  # every option but checks' moves a figure
