"""穢れ rules the simulator reads beyond attacks: defence skills, always-on cuts, the random
status table, poison levels, status recovery order, what is listed as not modelled, and
the issue-18 items: one exchange against ``KGA``'s exact odds, no status from a downing
hit, the enemy's choice of skill (全体攻撃 and poison weighed), only declared ends, the
notes' catalogue in the guide, no bare 穢れ thresholds in the simulator.

Where a duel can be solved exactly the exact value must fall inside the simulated 95 %
intervals (at least 16 of 20 seeds); elsewhere the win rate must move the known way
with the two 95 % intervals apart.
"""

from __future__ import annotations

import ast
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from balance_cases import KEGARE, KEGARE_DUEL, build
from kegare_strike import strike
from saikoro.balance import Budget, Tally, simulate, tactics_for
from saikoro.systems._kegare.checks import TWO_D6, AttackSpec, resolve
from saikoro.systems._kegare.commands import odds_command
from saikoro.systems._kegare.effects import read_effect
from saikoro.systems._kegare.rulings import Settings
from saikoro.systems._kegare.simulator import NOTES
from saikoro.systems._kegare.simulator import SIMULATOR as KEGARE_SIM
from saikoro.systems._kegare.simulator.fight import (
    BIT,
    STATUSES,
    Fighter,
    Move,
    Prepared,
    cure_chance,
    cured_marks,
    give,
    guard_for,
    mean_damage,
    pick,
    table,
    table_due,
)
from saikoro.systems._kegare.status import status_recovery

Data = dict[str, Any]
Change = Callable[[Data], None]
GUIDE = Path(__file__).parents[1] / "plugin" / "saikoro" / "site" / "_guide" / "balance.md"
SIMULATOR_DIR = (
    Path(__file__).parents[1] / "plugin" / "saikoro" / "systems" / "_kegare" / "simulator"
)


def _skill(kind: str, effect: str) -> Change:
    def change(d: Data) -> None:
        d["enemies"][0].setdefault("skills", []).append(
            {"name": f"{kind}技", "kind": kind, "effect": effect}
        )

    return change


def _apply(*changes: Change) -> Change:
    def apply(d: Data) -> None:
        for c in changes:
            c(d)

    return apply


def _prep(data: Data, *changes: Change) -> Prepared:
    return KEGARE_SIM.prepare(build(data, _apply(*changes)), tactics_for("kegare"))


def _exact(data: Data, *changes: Change) -> Fraction:
    value, _ = KEGARE_SIM.exact(_prep(data, *changes), Budget())
    assert isinstance(value, Fraction)
    return value


def _inside(data: Data, exact: Fraction, *changes: Change) -> int:
    enc = build(data, _apply(*changes))
    inside = 0
    for seed in range(20):
        r = simulate(enc, battles=300, seed=seed, solve=False)
        inside += r.win_low <= float(exact) <= r.win_high
    return inside


def _win(
    data: Data, *changes: Change, n: int = 3000, seed: int = 1, enemy: str | None = None
) -> tuple[float, float, float]:
    tactics = tactics_for("kegare", None, enemy)
    r = simulate(build(data, _apply(*changes)), battles=n, seed=seed, solve=False, tactics=tactics)
    return r.win, r.win_low, r.win_high


def _fighter(kegare: int = 0, hp: int = 10, immune: int = 0, **more: Any) -> Fighter:
    return Fighter(
        "祓い手", "祓い手", True, hp, 3, 3, 5, "near", False, (), immune, kegare=kegare, **more
    )


# -- reading the skills ---------------------------------------------------------------


def _read(kind: str, effect: str) -> Any:
    return read_effect(kind, effect)


def test_phrases_read() -> None:
    guard = _read("defence", "受けるダメージ-3する。")
    assert (guard.guard, guard.cut, guard.modelled) == (3, 0, True)
    assert _read("defence", "ダメージを２点軽減する").guard == 2  # full-width digits after NFKC
    robe = _read("passive", "穢れが5以上のあいだ、受けるダメージ-1。")
    assert (robe.cut, robe.min_kegare) == (1, 5)
    cover = _read("defence", "主への攻撃を代わりに受ける")
    assert cover.modelled and cover.cover == "主"
    assert _read("defence", "味方への攻撃を代わりに受ける").cover == ""
    assert not _read("support", "攻撃値+1").modelled
    assert not _read("attack", "相手を近距離へ引き寄せる。").modelled
    assert read_effect("attack", None).modelled
    poison = _read("attack", "毒（ＬＶ３）を受ける")
    assert (poison.poison, poison.statuses) == (3, ("poison",))
    both = _read("attack", "命中した相手は毒(LV2)と呪いを受ける。")
    assert (both.poison, both.statuses) == (2, ("poison", "curse"))


def test_unmodelled_skills_are_named_in_the_notes() -> None:
    prep = _prep(KEGARE, _skill("support", "味方全員の攻撃値+1(1ターン)。"))
    notes = {n.key: n.text for n in KEGARE_SIM.notes(prep)}
    assert "support技（鬼）" in notes["support"]
    assert "爪" not in notes.get("unread", "")  # a plain attack is wholly simulated


def _guard(f: Fighter) -> int:
    return guard_for(False, f.guards, f.kegare, f.marks, f.guarded)[0]


def test_confusion_stops_defence_skills() -> None:
    f = _fighter(guards=((3, 0), (2, 4)))
    assert _guard(f) == 3
    f.marks |= BIT["confusion"]
    assert _guard(f) == 0
    g = _fighter(kegare=4, guards=((3, 5),))
    assert _guard(g) == 0
    g.kegare = 5
    assert _guard(g) == 3


# -- one exchange against the engine's command (issue 18 Deliver 1) ---------------------


@pytest.mark.parametrize(
    ("command", "attacker", "defender", "damage", "ranged"),
    [
        ("KGA4@FVS3@ND6", (4, "far", 0), (3, "near", 0, 0), 6, False),
        ("KGA5K5VS4K9G2D7", (5, "near", 5), (4, "near", 9, 2), 7, False),
        ("KGA3@MVS2@FD5R", (3, "mid", 0), (2, "far", 0, 0), 5, True),
    ],
)
def test_one_exchange_is_kga(
    command: str,
    attacker: tuple[int, str, int],
    defender: tuple[int, str, int, int],
    damage: int,
    ranged: bool,
) -> None:
    """The attack table the simulator plays (and the exact duel sums) is ``KGA``'s exact
    damage distribution for the same inputs, and the simulated strikes' frequencies
    match it (4.5 standard deviations per damage value)."""
    prep = _prep(KEGARE_DUEL)
    a_attack, a_pos, a_k = attacker
    d_defence, d_pos, d_k, guard = defender
    a = replace(prep.pcs[0], attack=a_attack, position=a_pos, kegare=a_k)
    d = replace(prep.enemies[0], defence=d_defence, position=d_pos, kegare=d_k, suffers=True)
    move = Move("攻撃", "攻撃", damage, ranged)
    t = table(prep, a, move, d, guard)
    mine: Counter[int] = Counter()
    for (dmg, _), w in t.items():
        mine[dmg] += w
    odds = odds_command(command, Settings())
    assert odds is not None
    assert {k: Fraction(w, 1296) for k, w in mine.items()} == dict(odds.distribution)
    assert mean_damage(t) == sum(Fraction(int(k)) * p for k, p in odds.distribution.items())
    rng, n = random.Random(5), 20000
    seen: Counter[int] = Counter()
    for _ in range(n):
        target = replace(d, hp=1000, guards=((guard, 0),) if guard else ())
        seen[strike(prep, rng, a, move, target)] += 1
    for value, p in odds.distribution.items():
        sd = (float(p) * (1 - float(p)) * n) ** 0.5
        assert abs(seen[int(value)] - float(p) * n) < 4.5 * sd + 1, (command, value)


# -- a downing hit gives no status (issue 18 item 5) -------------------------------------


def _poisoner(d: Data) -> None:
    d["enemies"][0]["skills"][0].update(damage=30, effect="命中した相手は毒(LV3)と麻痺。")


def test_a_downing_hit_gives_no_status() -> None:
    prep = _prep(KEGARE_DUEL, _poisoner)
    move = prep.enemies[0].moves[0]
    assert move.poison == 3 and move.marks == BIT["poison"] | BIT["paralysis"]
    rng = random.Random(3)
    downed = standing = 0
    for _ in range(400):
        pc = replace(prep.pcs[0], hp=5)
        strike(prep, rng, prep.enemies[0], move, pc)
        if pc.hp <= 0:
            downed += 1
            assert pc.marks == 0 and pc.poison == 0
        big = replace(prep.pcs[0], hp=1000)
        strike(prep, rng, prep.enemies[0], move, big)
        standing += big.marks != 0
    assert downed > 200 and standing > 200
    apply = replace(prep, downing_effects="apply")
    marked = 0
    for _ in range(200):
        pc = replace(prep.pcs[0], hp=5)
        strike(apply, rng, prep.enemies[0], move, pc)
        marked += pc.hp <= 0 and pc.marks != 0
    assert marked > 100


def test_downing_hit_ruling_moves_the_exact_duel() -> None:
    def weak(d: Data) -> None:
        d["enemies"][0]["skills"][0].update(damage=6, effect="命中した相手は毒(LV3)。")
        d["party"][0]["hp"] = 8
        d["missions"]["main"]["rounds"] = 3
        d["rulings"] = {"random_status": "none"}

    none = _exact(KEGARE_DUEL, weak)
    apply = _exact(KEGARE_DUEL, weak, lambda d: d["rulings"].update(downing_hit_effects="apply"))
    assert apply < none, (float(none), float(apply))


# -- the enemy's choice of skill (issue 18 item 7) ----------------------------------------


def _two_skills(*skills: Data) -> Change:
    def change(d: Data) -> None:
        d["enemies"][0]["skills"] = list(skills)

    return change


def test_an_area_attack_counts_every_target() -> None:
    """Against two PCs a 全体攻撃 of 5 beats a single attack of 7 (its damage to the party is
    counted on both), and the note says so."""
    prep = _prep(
        KEGARE,
        _two_skills(
            {"name": "爪", "kind": "attack", "damage": 7},
            {"name": "咆哮", "kind": "attack", "damage": 5, "target": "all"},
        ),
    )
    pcs = [replace(p) for p in prep.pcs]
    oni = prep.enemies[0]
    chosen = pick(prep, oni, pcs[0], pcs, 1)
    assert chosen is not None and chosen.name == "咆哮"
    alone = pick(prep, oni, pcs[0], pcs[:1], 1)
    assert alone is not None and alone.name == "爪"
    note = next(n for n in KEGARE_SIM.notes(prep) if n.key == "choice")
    assert "→ 咆哮" in note.text and "鬼" in note.text


def test_poison_is_weighed_over_the_turns_left() -> None:
    """A weaker poisoning skill is chosen while enough turns are left for its ticks (about
    19.8 expected against 10.8), the plain attack on the last turn (one tick: 9.7)."""
    prep = _prep(
        KEGARE_DUEL,
        _two_skills(
            {"name": "爪", "kind": "attack", "damage": 11},
            {"name": "狐火", "kind": "attack", "damage": 4, "effect": "命中した相手は毒(LV2)。"},
        ),
    )
    pc, oni = replace(prep.pcs[0]), prep.enemies[0]
    early = pick(prep, oni, pc, [pc], 1)
    last = pick(prep, oni, pc, [pc], prep.turns)
    assert early is not None and early.name == "狐火"
    assert last is not None and last.name == "爪"
    pc.marks, pc.poison = BIT["poison"], 2  # already poisoned at that level: nothing to add
    again = pick(prep, oni, pc, [pc], 1)
    assert again is not None and again.name == "爪"


# -- ends, notes, numbers ---------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(title="そのまま"),
        lambda d: d["missions"]["main"].update(rounds=1),
        lambda d: d["enemies"][0].update(attack=20, hp=200),
    ],
)
def test_battles_end_only_in_declared_ends(change: Change) -> None:
    prep = _prep(KEGARE, change)
    tally = Tally(len(prep.pcs))
    rng = random.Random(9)
    for _ in range(150):
        KEGARE_SIM.battle(prep, rng, tally)
    assert set(tally.ends) <= set(KEGARE_SIM.ends), tally.ends
    assert sum(tally.ends.values()) == 150


def _guide_section() -> str:
    text = GUIDE.read_text("utf-8")
    start = text.index("- **穢れ**:")
    end = text.index("\n- **", start + 1)
    return text[start:end]


def test_guide_lists_exactly_the_notes() -> None:
    section = _guide_section()
    listed = dict(re.findall(r"^\s*- `(\w+)`：(.+)$", section, re.MULTILINE))
    assert listed == dict(NOTES), set(listed) ^ set(NOTES)


def test_every_note_key_can_be_said() -> None:
    """Each catalogue entry is produced by some encounter (none is dead text)."""
    seen: set[str] = set()
    cases = [
        _prep(KEGARE, _skill("support", "攻撃値+1"), _skill("attack", "引き寄せる")),
        _prep(KEGARE, lambda d: d["enemies"][1].update(skills=[])),
        _prep(
            KEGARE,
            _two_skills(
                {"name": "爪", "kind": "attack", "damage": 7},
                {"name": "睨み", "kind": "attack", "damage": 2, "effect": "命中した相手は自失。"},
            ),
        ),
    ]
    for prep in cases:
        seen |= {n.key for n in KEGARE_SIM.notes(prep)}
    assert seen == set(NOTES), set(NOTES) - seen


def _literal_thresholds(tree: ast.AST) -> list[str]:
    out: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        names = ast.unparse(node)
        if not re.search(r"kegare|felt|poison|hp", names):
            continue
        out.extend(
            names
            for side in sides
            if isinstance(side, ast.Constant) and isinstance(side.value, int) and side.value
        )
    return out


def test_no_bare_thresholds_in_the_simulator() -> None:
    """The 穢れ track, poison, recovery and HP rules come from the engine: no comparison of
    a 穢れ, poison level or HP with a number other than 0 in the simulator's modules."""
    for path in sorted(SIMULATOR_DIR.glob("*.py")):
        found = _literal_thresholds(ast.parse(path.read_text("utf-8")))
        assert not found, (path.name, found)
    assert _literal_thresholds(ast.parse("x = f.kegare >= 6")), "the check must be able to fail"


# -- defence skills and always-on cuts: exact duels -------------------------------------


def test_defence_skill_one_turn_brute_force() -> None:
    """One turn, the PC first: P(its blow downs the enemy for good) with a guard of 2."""

    def short(d: Data) -> None:
        d["missions"]["main"]["rounds"] = 1
        d["enemies"][0]["hp"] = 10

    value = _exact(KEGARE_DUEL, short, _skill("defence", "受けるダメージ-2"))
    spec = AttackSpec(attack=4, defence=3, damage=6, guard=2)
    wins = Fraction(0)
    for a, pa in TWO_D6.probabilities().items():
        for d, pd in TWO_D6.probabilities().items():
            r = resolve(spec, a, None if a in (2, 12) else d)
            left = 10 - r.damage
            if left <= 0:
                wins += pa * pd * Fraction(sum(1 for f in range(1, 7) if left + f <= 0), 6)
    assert value == wins
    assert value < _exact(KEGARE_DUEL, short)


@pytest.mark.parametrize(
    ("kind", "effect"),
    [("defence", "受けるダメージ-2"), ("passive", "穢れが1以上のあいだ、受けるダメージ-3")],
)
def test_damage_cuts_exact_inside_intervals(kind: str, effect: str) -> None:
    change = _skill(kind, effect)
    exact = _exact(KEGARE_DUEL, change)
    assert exact < _exact(KEGARE_DUEL), "a damage cut must lower the PC's chance"
    assert Fraction(1, 20) < exact < Fraction(19, 20)
    inside = _inside(KEGARE_DUEL, exact, change)
    assert inside >= 16, f"exact {float(exact):.4f} inside only {inside}/20 intervals"


def test_defence_skill_lowers_the_win_rate() -> None:
    base = _win(KEGARE)
    guarded = _win(KEGARE, _skill("defence", "受けるダメージ-3"), seed=2)
    assert guarded[2] < base[1], f"{guarded} not clearly below {base}"


def test_defence_skill_once_per_turn_helps_the_party() -> None:
    every = _win(KEGARE, _skill("defence", "受けるダメージ-4"))

    def once(d: Data) -> None:
        d["rulings"] = {"defence_skill_uses": "once_per_turn"}

    limited = _win(KEGARE, _skill("defence", "受けるダメージ-4"), once, seed=2)
    assert limited[1] > every[2], f"{limited} not clearly above {every}"


# -- the random status table ----------------------------------------------------------


def _rule(rule: str) -> Change:
    def rulings(d: Data) -> None:
        d["rulings"] = {"random_status": rule}

    return rulings


def _roll_table(prep: Prepared, rng: random.Random, f: Fighter) -> None:
    if table_due(prep, f):
        status = STATUSES[int(rng.random() * len(STATUSES))]
        f.marks, f.poison = give(status, f.marks, f.poison, f.immune)


def test_random_status_table_is_uniform_from_six_to_nine() -> None:
    prep, rng = _prep(KEGARE, _rule("uniform")), random.Random(7)
    counts: Counter[str] = Counter()
    n = 7000
    for _ in range(n):
        f = _fighter(6)
        _roll_table(prep, rng, f)
        assert f.marks.bit_count() == 1
        counts.update(s for s in STATUSES if f.has(s))
    assert set(counts) == set(STATUSES)
    for status in STATUSES:  # 1000 expected each; 4.5 standard deviations either way
        assert abs(counts[status] - n / 7) < 4.5 * (n * (1 / 7) * (6 / 7)) ** 0.5, counts
    for kegare, hp in ((5, 10), (10, 10), (7, 0)):
        f = _fighter(kegare, hp)
        for _ in range(50):
            _roll_table(prep, rng, f)
        assert not f.marks, (kegare, hp)
    all_but_curse = sum(BIT.values()) & ~BIT["curse"]
    immune = _fighter(9, immune=all_but_curse)
    for _ in range(200):
        _roll_table(prep, rng, immune)
    assert immune.marks == BIT["curse"]
    off = _fighter(8)
    for _ in range(50):
        _roll_table(_prep(KEGARE, _rule("none")), rng, off)
    assert not off.marks


def test_the_exact_duel_rolls_the_table_too() -> None:
    """A duel that reaches 穢れ 6 is still solved (the table branches), and the value lies in
    the simulated intervals."""

    def long(d: Data) -> None:  # 加護: 穢れ 6 from the end of turn 3
        d["party"][0].update(blessed=True)
        d["enemies"][0].update(hp=40)
        d["missions"]["main"]["rounds"] = 6

    exact = _exact(KEGARE_DUEL, long)
    without = _exact(KEGARE_DUEL, long, _rule("none"))
    assert exact != without
    assert _inside(KEGARE_DUEL, exact, long) >= 16


# -- poison levels --------------------------------------------------------------------


def test_stronger_poison_lowers_the_win_rate() -> None:
    def level(n: int) -> Change:
        def change(d: Data) -> None:
            d["enemies"][1]["skills"][0]["effect"] = f"命中した相手は毒(LV{n})。"

        return change

    weak = _win(KEGARE, level(1))
    strong = _win(KEGARE, level(4), seed=2)
    assert strong[2] < weak[1], f"{strong} not clearly below {weak}"


# -- covering ------------------------------------------------------------------------


def _cover(d: Data) -> None:
    d["enemies"][0]["skills"].append(
        {"name": "庇う", "kind": "defence", "effect": "小鬼への単体攻撃を代わりに受ける。"}
    )
    d["balance"] = {"defeat": ["imp"]}


def test_cover_read_and_not_listed() -> None:
    prep = _prep(KEGARE, _cover)
    notes = {n.key: n.text for n in KEGARE_SIM.notes(prep)}
    assert "庇う" not in " ".join(t for k, t in notes.items() if k != "read")
    assert (
        "庇う（" in notes["read"]
        and "「小鬼」を名に含む味方への単体攻撃を代わりに受ける" in notes["read"]
    )
    assert prep.enemies[0].covers == (("小鬼", 0),)


def test_cover_protects_the_defeat_target() -> None:
    """The PCs must get through the covering 鬼 before the 小鬼 falls: a lower win rate
    than when the enemies do not guard (the cover unused)."""

    covered = _win(KEGARE, _cover)
    open_ = _win(KEGARE, _cover, seed=2, enemy="random,no_guard")
    assert covered[2] < open_[1], f"{covered} not clearly below {open_}"


# -- status recovery and several statuses -----------------------------------------------


def test_status_recovery_check_matches_the_engine() -> None:
    """Frequencies of the simulator's check against the engine's exact P, per count,
    穢れ and ruling; the most harmful status goes first."""
    rng = random.Random(11)
    n = 4000
    for rule in ("at_least", "above"):
        prep = _prep(KEGARE)
        prep = replace(prep, settings=replace(prep.settings, status_recovery=rule))
        for count, kegare in ((1, 0), (3, 0), (2, 5)):
            exact = float(status_recovery(count, kegare=kegare, rule=rule))
            names = ("daze", "curse", "poison")[:count]
            hits = 0
            left: Counter[int] = Counter()
            for _ in range(n):
                f = _fighter(kegare)
                for s in names:
                    f.marks |= BIT[s]
                assert cure_chance(prep, f) == status_recovery(count, kegare=kegare, rule=rule)
                if rng.random() < float(cure_chance(prep, f)):
                    hits += 1
                    f.marks, f.poison = cured_marks(f.marks, f.poison)
                    left[f.marks] += 1
            sd = (exact * (1 - exact) * n) ** 0.5
            assert abs(hits - exact * n) < 4.5 * sd + 1, (rule, count, kegare, hits)
            first = {1: "daze", 3: "poison", 2: "curse"}[count]
            assert set(left) == {sum(BIT[s] for s in names) & ~BIT[first]}
