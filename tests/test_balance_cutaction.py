"""Cut-action simulator: its exchanges are the engine's, its battles end as it declares, the
chase follows the scenario (direction, attacks, table, cut limit), and its notes are the
guide's."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from balance_cases import CHASE, CUTACTION, Data, build
from saikoro.balance import Budget, encounter, play, simulate, tactics_for
from saikoro.scenario import load_scenario
from saikoro.systems import get
from saikoro.systems._cutaction.simulator import ENDS, NOTES, SIMULATOR
from saikoro.systems._cutaction.simulator.prepare import Prepared

SYS = get("cutaction")
GUIDE = (
    Path(__file__).resolve().parents[1] / "plugin" / "saikoro" / "site" / "_guide" / "balance.md"
)


Edit = Callable[[Data], None]


def _all(changes: tuple[Edit, ...]) -> Edit:
    def change(d: Data) -> None:
        for c in changes:
            c(d)

    return change


def _prep(data: Data, *changes: Edit) -> Prepared:
    return SIMULATOR.prepare(build(data, _all(changes)), tactics_for("cutaction"))


# -- one exchange: the simulator's attack is CAA's -----------------------------------------


@pytest.mark.parametrize(("value", "reaction", "damage", "body"), [(7, 6, 4, 6), (9, 3, 8, 2)])
def test_a_simulated_attack_is_caa(value: int, reaction: int, damage: int, body: int) -> None:
    """The roll of an attack gives CAA's exact odds of 体力 lost, and losses drawn from it
    land in CAA's 95 % intervals."""
    prep = _prep(CUTACTION)
    dist = SIMULATOR.rules(prep).rolls.hit(value, damage, reaction, body)
    mine = dist.probabilities()
    odds = SYS.odds_command(f"CAA{value},{reaction},{damage}R{body}")
    assert odds is not None
    assert mine == {k: v for k, v in odds.distribution.items() if isinstance(k, int)}
    rng = random.Random(5)
    n = 20000
    drawn = Counter(dist.draw(rng.random()) for _ in range(n))
    for loss, p in mine.items():
        half = 1.96 * (float(p) * (1 - float(p)) / n) ** 0.5 + 1 / n
        assert abs(drawn[loss] / n - float(p)) <= half + 0.002, (loss, drawn[loss] / n, p)


def _duel(d: Data) -> None:
    d["players"] = 1
    d["party"] = d["party"][1:]
    d["enemies"] = d["enemies"][1:]


def test_the_reaction_decides_the_fight() -> None:
    """Issue 18 item 1: a higher reaction makes the PC's attacks land less often."""

    def guarded(d: Data) -> None:
        d["enemies"][0]["reaction"] = 9

    plain = SIMULATOR.exact(_prep(CUTACTION, _duel), Budget())[0]
    hard = SIMULATOR.exact(_prep(CUTACTION, _duel, guarded), Budget())[0]
    assert plain is not None and hard is not None
    assert hard < plain


# -- ends ----------------------------------------------------------------------------------


def _flee_enemies(d: Data) -> None:
    d["difficulty_targets"][0]["flees"] = "enemies"
    d["missions"]["main"]["success"] = "車を捕まえる"


def _armed(damage: int) -> Edit:
    def edit(d: Data) -> None:
        d["enemies"][0]["attacks"] = [{"name": "拳銃", "kind": "shooting", "damage": damage}]

    return edit


def _two_pcs(d: Data) -> None:
    d["players"] = 2
    d["party"].append({"name": "相棒", "body": 6, "head": 6, "hp": 10})


def _dead_end_table(d: Data) -> None:
    d["chase_tables"] = [
        {
            "name": "袋小路",
            "die": "1D10",
            "entries": {"1-10": {"title": "行き止まりの路地", "event": "行き止まり"}},
        }
    ]


CASES: dict[str, tuple[Data, tuple[Edit, ...]]] = {
    "fight": (CUTACTION, ()),
    "chase": (CHASE, ()),
    "pursue": (CHASE, (_flee_enemies, _armed(4))),
    "two": (CHASE, (_two_pcs, _armed(3))),
    "dead_end": (CHASE, (_dead_end_table,)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_battles_end_only_in_declared_ends(name: str) -> None:
    data, changes = CASES[name]
    prep = _prep(data, *changes)
    enc = build(data, _all(changes))
    allowed = SIMULATOR.ends_for(prep)
    assert set(allowed) <= set(ENDS)
    rules = SIMULATOR.rules(prep)
    rng = random.Random(name)
    seen = Counter(play(rules, rng).end for _ in range(1500))
    assert set(seen) <= set(allowed), (set(seen) - set(allowed), allowed)
    result = simulate(enc, battles=300, seed=2, solve=False)
    assert {e.key for e in result.ends} <= set(allowed)


def test_the_chase_stops_after_as_many_cuts_as_characters() -> None:
    """Issue 18 item 3: the seed's limit is the number of characters in the chase."""
    for changes, cast in (((), 2), ((_two_pcs,), 3)):
        prep = _prep(CHASE, *changes)
        assert prep.cast == cast
        rules = SIMULATOR.rules(prep)
        rng = random.Random(cast)
        cuts = Counter(play(rules, rng).rounds for _ in range(3000))
        assert max(cuts) == cast, cuts


def test_the_scenarios_own_table_is_rolled() -> None:
    """Every entry a dead end: the first route change ends the chase there."""
    prep = _prep(CHASE, _dead_end_table)
    assert prep.chase is not None and prep.chase.table == "袋小路"
    _, figures = SIMULATOR.exact(prep, Budget())
    dead_end = sum(p for k, p in figures.items() if "行き止まり" in k)
    # the chase ends at the leader's first route change, unless it ended before it (a
    # runner left more than 5 behind by the movement checks); the rule book's 1D10: 1 in 10
    book = SIMULATOR.exact(_prep(CHASE), Budget())[1]
    assert dead_end > Fraction(2, 5) > 4 * sum(p for k, p in book.items() if "行き止まり" in k)
    assert not any(n.key == "table_entries" for n in SIMULATOR.notes(prep))


# -- direction: who flees follows the scenario; the pursuers' attacks count ----------------


def test_the_pcs_pursue_when_the_enemies_flee() -> None:
    prep = _prep(CHASE, _flee_enemies)
    assert prep.chase is not None and not prep.chase.pcs_flee
    ends = SIMULATOR.ends_for(prep)
    assert "chase_quarry_caught" in ends and "chase_goal" not in ends
    assert ENDS["chase_quarry_caught"].win and not ENDS["chase_quarry_goal"].win


def test_escaped_is_the_fleeing_side_getting_away() -> None:
    """The ``escaped`` fact is the fleeing side's: the quarry got away when the pursuing PCs
    all dropped out, and not when it was caught; fleeing PCs that dropped out did not."""

    def slow(d: Data) -> None:  # a PC often left behind
        d["party"][0]["body"] = 3

    for changes, pcs_out in (((_flee_enemies, slow), 1), ((slow,), 0)):
        rules = SIMULATOR.rules(_prep(CHASE, *changes))
        rng = random.Random(4)
        seen = Counter((b.end, b.fact("escaped")) for b in (play(rules, rng) for _ in range(800)))
        assert seen["chase_pcs_out", pcs_out] > 10, seen
        assert not seen["chase_pcs_out", 1 - pcs_out], seen
        assert not seen["chase_quarry_caught", 1] and not seen["chase_caught", 1], seen


def test_the_pursuers_attacks_change_the_figure() -> None:
    """Issue 18 item 4: pursuers attack; a deadlier gun lowers the fleeing PC's chances."""
    weak = simulate(build(CHASE, _armed(1)), battles=4000, seed=3, solve=False)
    deadly = simulate(build(CHASE, _armed(30)), battles=4000, seed=3, solve=False)
    assert deadly.win_high < weak.win_low, (weak.win, deadly.win)


def test_a_chase_without_vehicles_has_every_enemy_run() -> None:
    def on_foot(d: Data) -> None:
        del d["enemies"][0]["vehicle"]

    prep = _prep(CHASE, on_foot)
    assert prep.chase is not None and len(prep.chase.runners) == 1
    result = simulate(build(CHASE, on_foot), battles=500, seed=1, solve=False)
    assert 0 < result.win < 1


# -- exact ---------------------------------------------------------------------------------


def test_the_exact_chase_is_the_simulated_one() -> None:
    """The exact solver and the sampled battles play the same steps: the sampled ends lie
    in the exact ends' intervals."""
    prep = _prep(CHASE, _flee_enemies)
    win, figures = SIMULATOR.exact(prep, Budget())
    assert win is not None
    assert sum(figures.values()) == 1
    result = simulate(build(CHASE, _flee_enemies), battles=6000, seed=9, solve=False)
    assert result.win_low - 0.01 <= float(win) <= result.win_high + 0.01


def _cuts(n: int) -> Edit:
    def edit(d: Data) -> None:
        d["missions"]["main"]["rounds"] = n

    return edit


def _versus(pcs: int, enemies: tuple[int, ...]) -> Edit:
    """The reference party of ``pcs`` PCs (the scenario's when 1-2) against ``enemies``."""

    def edit(d: Data) -> None:
        d["enemies"] = [d["enemies"][i] for i in enemies]
        if pcs > len(d["party"]):
            del d["party"]
        else:
            d["party"] = d["party"][-pcs:]
        d["players"] = pcs

    return edit


def test_what_the_exact_solver_does_not_try() -> None:
    """A chase of three runners, a fight of seven, or a fight past EXACT_SIZE (2 against 2
    over 6 cuts, the sample cutaction-tou) is refused at once (none fits the budget: a duel's
    chase takes a sixth of it); a duel's chase is tried."""
    assert SIMULATOR.exact_rules(_prep(CHASE)) is not None
    assert SIMULATOR.exact_rules(_prep(CHASE, _two_pcs)) is None

    def seven(d: Data) -> None:
        d["enemies"] += [dict(d["enemies"][1], id=f"more{i}") for i in range(3)]

    assert SIMULATOR.exact_rules(_prep(CUTACTION, _cuts(2))) is not None
    assert SIMULATOR.exact_rules(_prep(CUTACTION, _cuts(2), seven)) is None
    assert SIMULATOR.exact_rules(_prep(CUTACTION)) is None
    tou = load_scenario(Path(__file__).resolve().parents[1] / "scenarios" / "cutaction-tou.yaml")
    assert tou.scenario is not None
    prep = SIMULATOR.prepare(encounter(tou.scenario), tactics_for("cutaction"))
    assert SIMULATOR.exact_rules(prep) is None


@pytest.mark.parametrize(
    ("pcs", "enemies", "cuts"),
    [
        (1, (1,), 10),
        (1, (0, 1), 10),
        (2, (1,), 10),
        (2, (0, 1), 2),
        (3, (1,), 3),
        (3, (0,), 3),
        (3, (1,), 10),
        (4, (1,), 2),
        (3, (0, 1), 1),
    ],
)
def test_the_fights_that_fit_are_tried(pcs: int, enemies: tuple[int, ...], cuts: int) -> None:
    """The fights the guide says are solved are tried (they fit the budget)."""
    assert SIMULATOR.exact_rules(_prep(CUTACTION, _versus(pcs, enemies), _cuts(cuts)))


# -- notes ---------------------------------------------------------------------------------


def _documented() -> dict[str, str]:
    text = GUIDE.read_text("utf-8")
    section = text.split("### カットアクションの注記", 1)[1].split("\n#", 1)[0]
    return dict(re.findall(r"^- `([a-z_]+)`: (.+)$", section, flags=re.MULTILINE))


def test_the_guide_lists_exactly_the_notes() -> None:
    assert _documented() == dict(NOTES)


def test_notes_say_what_is_left_out() -> None:
    def effect(d: Data) -> None:
        d["enemies"][0]["attacks"][0]["effect"] = "当たった相手の次の移動判定-1。"

    keys = {n.key for n in SIMULATOR.notes(_prep(CUTACTION, effect))}
    assert {"effect", "support", "posture"} <= keys
    chase = {n.key for n in SIMULATOR.notes(_prep(CHASE))}
    assert {"decelerate", "jumping", "support"} <= chase


# -- a chase that cannot start, or whose figure would mean nothing, is refused ------------


def _problems(change: Edit) -> list[str]:
    from balance_cases import text
    from saikoro.scenario import validate_text

    d = copy.deepcopy(CHASE)
    change(d)
    result = validate_text(text(d), "chase.yaml")
    return [p.format() for p in result.problems]


def test_a_chase_without_anyone_to_run_against_is_an_error_naming_the_fix() -> None:
    def alone(d: Data) -> None:
        d["enemies"] = []

    (problem,) = [p for p in _problems(alone) if "cannot start" in p]
    assert "runners" in problem and "enemies" in problem


def test_chase_references_are_checked() -> None:
    def unknown(d: Data) -> None:
        d["difficulty_targets"][0]["runners"] = ["ghost"]
        d["difficulty_targets"][0]["table"] = "なし"

    problems = _problems(unknown)
    assert any("ghost" in p and "car" in p for p in problems), problems
    assert any("なし" in p for p in problems), problems

    def defeat_runner(d: Data) -> None:
        d["balance"] = {"defeat": ["car"]}

    assert any("balance.defeat" in p for p in _problems(defeat_runner))
