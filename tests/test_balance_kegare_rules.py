"""穢れ rules the simulator reads beyond attacks: defence skills, always-on cuts, the random
status table, poison levels, status recovery order, and what is listed as not modelled.

Where a duel can be solved exactly the exact value must fall inside the simulated 95 %
intervals (at least 16 of 20 seeds); elsewhere the win rate must move the known way
with the two 95 % intervals apart.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from balance_cases import KEGARE, KEGARE_DUEL, build
from saikoro.balance import simulate
from saikoro.balance._budget import Budget
from saikoro.balance._tactics import tactics_for
from saikoro.systems._kegare.checks import TWO_D6, AttackSpec, resolve
from saikoro.systems._kegare.simulator import SIMULATOR as KEGARE_SIM
from saikoro.systems._kegare.simulator import _random_status
from saikoro.systems._kegare.simulator.fight import STATUSES, Fighter, read_skill
from saikoro.systems._kegare.simulator.shapes import KegareSkill

Data = dict[str, Any]


def _skill(kind: str, effect: str) -> Any:
    def change(d: Data) -> None:
        d["enemies"][0].setdefault("skills", []).append(
            {"name": f"{kind}技", "kind": kind, "effect": effect}
        )

    return change


def _exact(data: Data, *changes: Any) -> Fraction:
    def apply(d: Data) -> None:
        for c in changes:
            c(d)

    enc = build(data, apply)
    sim = KEGARE_SIM
    value, _ = sim.exact(sim.prepare(enc, tactics_for("kegare")), Budget())
    assert isinstance(value, Fraction)
    return value


def _inside(data: Data, exact: Fraction, *changes: Any) -> int:
    def apply(d: Data) -> None:
        for c in changes:
            c(d)

    enc = build(data, apply)
    inside = 0
    for seed in range(20):
        r = simulate(enc, battles=300, seed=seed, solve=False)
        inside += r.win_low <= float(exact) <= r.win_high
    return inside


def _win(
    data: Data, *changes: Any, n: int = 3000, seed: int = 1, enemy: str | None = None
) -> tuple[float, float, float]:
    def apply(d: Data) -> None:
        for c in changes:
            c(d)

    tactics = tactics_for("kegare", None, enemy)
    r = simulate(build(data, apply), battles=n, seed=seed, solve=False, tactics=tactics)
    return r.win, r.win_low, r.win_high


# -- reading the skills ---------------------------------------------------------------


def test_phrases_read() -> None:
    guard = read_skill(KegareSkill("盾", 0, kind="defence", effect="受けるダメージ-3する。"))
    assert (guard.guard, guard.cut, guard.modelled) == (3, 0, True)
    soft = read_skill(KegareSkill("盾", 0, kind="defence", effect="ダメージを２点軽減する"))
    assert soft.guard == 2  # full-width digits after NFKC
    robe = read_skill(
        KegareSkill("衣", 0, kind="passive", effect="穢れが5以上のあいだ、受けるダメージ-1。")
    )
    assert (robe.cut, robe.min_kegare) == (1, 5)
    cover = read_skill(KegareSkill("構え", 0, kind="defence", effect="主への攻撃を代わりに受ける"))
    assert cover.modelled and cover.cover == "主"
    assert not read_skill(KegareSkill("号令", 0, kind="support", effect="攻撃値+1")).modelled
    assert not read_skill(KegareSkill("錨", 6, effect="相手を近距離へ引き寄せる。")).modelled
    assert read_skill(KegareSkill("爪", 6)).modelled
    poison = read_skill(KegareSkill("火", 4, status="poison", effect="毒（ＬＶ３）を受ける"))
    assert (poison.status, poison.level) == ("poison", 3)


def test_unmodelled_skills_are_named_in_the_notes() -> None:
    enc = build(KEGARE, _skill("support", "味方全員の攻撃値+1(1ターン)。"))
    sim = KEGARE_SIM
    notes = " ".join(n.text for n in sim.notes(sim.prepare(enc, tactics_for("kegare"))))
    assert "support技（鬼）" in notes
    assert "爪" not in notes  # a plain attack is wholly simulated


def test_confusion_stops_defence_skills() -> None:
    f = Fighter("鬼", False, 0, 10, 10, 3, 3, 5, None, False, (), guards=((3, 0), (2, 4)))
    assert f.guard() == 3
    f.statuses["confusion"] = 1
    assert f.guard() == 0
    g = Fighter("鬼", False, 0, 10, 10, 3, 3, 5, None, False, (), guards=((3, 5),), kegare=4)
    assert g.guard() == 0
    g.kegare = 5
    assert g.guard() == 3


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


def _fighter(kegare: int, hp: int = 10, immune: frozenset[str] = frozenset()) -> Fighter:
    return Fighter("祓い手", True, 0, hp, hp, 3, 3, 5, "near", False, (), immune, kegare=kegare)


def _prep(rule: str = "uniform") -> Any:
    def rulings(d: Data) -> None:
        d["rulings"] = {"random_status": rule}

    sim = KEGARE_SIM
    return sim.prepare(build(KEGARE, rulings), tactics_for("kegare"))


def test_random_status_table_is_uniform_from_six_to_nine() -> None:
    prep, rng = _prep(), random.Random(7)
    counts: Counter[str] = Counter()
    n = 7000
    for _ in range(n):
        f = _fighter(6)
        _random_status(prep, rng, f)
        assert len(f.statuses) == 1
        counts.update(f.statuses)
    assert set(counts) == set(STATUSES)
    for status in STATUSES:  # 1000 expected each; 4.5 standard deviations either way
        assert abs(counts[status] - n / 7) < 4.5 * (n * (1 / 7) * (6 / 7)) ** 0.5, counts
    for kegare, hp in ((5, 10), (10, 10), (7, 0)):
        f = _fighter(kegare, hp)
        for _ in range(50):
            _random_status(prep, rng, f)
        assert not f.statuses, (kegare, hp)
    immune = _fighter(9, immune=frozenset(STATUSES) - {"curse"})
    for _ in range(200):
        _random_status(prep, rng, immune)
    assert set(immune.statuses) == {"curse"}
    off = _fighter(8)
    for _ in range(50):
        _random_status(_prep("none"), rng, off)
    assert not off.statuses


def test_no_exact_duel_once_the_table_can_be_rolled() -> None:
    def long(d: Data) -> None:
        d["missions"]["main"]["rounds"] = 6
        d["party"][0]["hp"] = 8

    enc = build(KEGARE_DUEL, long)
    sim = KEGARE_SIM
    assert sim.exact(sim.prepare(enc, tactics_for("kegare")), Budget())[0] is None

    def without(d: Data) -> None:
        long(d)
        d["rulings"] = {"random_status": "none"}

    enc = build(KEGARE_DUEL, without)
    assert isinstance(sim.exact(sim.prepare(enc, tactics_for("kegare")), Budget())[0], Fraction)


# -- poison levels --------------------------------------------------------------------


def test_stronger_poison_lowers_the_win_rate() -> None:
    def level(n: int) -> Any:
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
    enc = build(KEGARE, _cover)
    sim = KEGARE_SIM
    prep = sim.prepare(enc, tactics_for("kegare"))
    assert "庇う" not in " ".join(n.text for n in sim.notes(prep))
    assert read_skill(prep.enemies[0].other_skills[0]).cover == "小鬼"
    every = read_skill(KegareSkill("壁", 0, kind="defence", effect="味方への攻撃を代わりに受ける"))
    assert every.cover == ""


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
    from saikoro.systems._kegare.simulator import status_recovery as check
    from saikoro.systems._kegare.status import status_recovery

    rng = random.Random(11)
    n = 4000
    for rule in ("at_least", "above"):
        prep = replace(_prep(), status_rule=rule)
        for count, kegare in ((1, 0), (3, 0), (2, 5)):
            exact = float(status_recovery(count, kegare=kegare, rule=rule))
            cured: Counter[str | None] = Counter()
            for _ in range(n):
                f = _fighter(kegare)
                f.statuses = dict.fromkeys(("daze", "curse", "poison")[:count], 1)
                cured[check(prep, rng, f)] += 1
            hits = n - cured[None]
            sd = (exact * (1 - exact) * n) ** 0.5
            assert abs(hits - exact * n) < 4.5 * sd + 1, (rule, count, kegare, hits)
            first = {1: "daze", 3: "poison", 2: "curse"}[count]
            assert set(cured) - {None} == {first}


def test_every_named_status_is_given() -> None:
    both = read_skill(
        KegareSkill("瘴気", 3, status="poison", effect="命中した相手は毒(LV2)と呪いを受ける。")
    )
    assert both.statuses == ("poison", "curse") and both.level == 2
