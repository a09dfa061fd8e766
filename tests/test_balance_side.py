"""Side missions: ``missions.side[].check`` validated, counted battle by battle, reported.

The counts are checked against figures the simulation reports independently (the rounds
histogram, the per-PC downed counts, the middle-phase means...): where the two must be
equal battle by battle the test asks for equality, not an interval.
"""

from __future__ import annotations

import copy
import io
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from balance_cases import AKATSUKI, CASES, CHASE, GETB, KEGARE, KEGARE_DUEL, KOKURYOKU, Data, text
from balance_walk import every_battle
from saikoro.balance import (
    BalanceResult,
    Condition,
    Encounter,
    Tally,
    encounter,
    simulate,
    tactics_for,
    wilson,
)
from saikoro.balance._runner import run_chunk
from saikoro.scenario import validate_text
from saikoro.scenario._defs import SIDE_CHECKS as VOCABULARY
from saikoro.scenario._defs._side import FIELDS, known_keys

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "scenarios"


def _data(base: Data, *checks: dict[str, Any] | None) -> Data:
    d = copy.deepcopy(base)
    missions = d.setdefault("missions", {"main": {"success": "勝つ"}})
    missions["side"] = [
        {"success": f"サイド{i}", **({} if c is None else {"check": c})}
        for i, c in enumerate(checks)
    ]
    return d


def _enc(base: Data, *checks: dict[str, Any] | None) -> Encounter:
    d = _data(base, *checks)
    result = validate_text(text(d), f"{d['system']}.yaml")
    assert result.scenario is not None, [p.format("en") for p in result.problems]
    return encounter(result.scenario)


def _run(
    base: Data, *checks: dict[str, Any] | None, battles: int = 1000, tactics: str | None = None
) -> BalanceResult:
    enc = _enc(base, *checks)
    return simulate(enc, battles=battles, seed=3, tactics=tactics_for(enc.system, tactics))


def _count(r: BalanceResult, i: int) -> int:
    s = r.side[i]
    assert s.modelled and s.battles == r.battles
    return s.successes


def _problems(data: Data) -> list[str]:
    return [p.format("en") for p in validate_text(text(data), "s.yaml").problems]


# -- validation -------------------------------------------------------------------------


def test_unknown_names_are_errors_with_position_and_did_you_mean() -> None:
    msgs = _problems(
        _data(
            GETB,
            {"defeated": ["beats"], "standing": ["ロンク"], "no_damage_from": ["爪爪"]},
        )
    )
    joined = "\n".join(msgs)
    assert re.search(
        r"s\.yaml:\d+:\d+: error: scenario\.missions\.side\[0\]\.check\.defeated\[0\]", joined
    )
    assert "no enemy has the id 'beats' (hint: did you mean 'beast'?)" in joined
    assert (
        "no PC is named 'ロンク' (party: the scenario's party of 2) (hint: did you mean 'ロング'?)"
        in joined
    )
    assert "no enemy action is named '爪爪'" in joined
    assert len(msgs) == 3  # all at once


def test_keys_of_another_system_are_named_as_such() -> None:
    (msg,) = _problems(_data(GETB, {"power_at_least": 3}))
    assert "'power_at_least' is not offered for getb (offered by: kokuryoku)" in msg
    assert "check.power_at_least" in msg
    (typo,) = _problems(_data(GETB, {"round_at_most": 3}))
    assert "unknown key 'round_at_most'" in typo and "did you mean 'rounds_at_most'" in typo


def test_other_mistakes() -> None:
    assert "check needs at least one condition" in _problems(_data(GETB, {}))[0]
    (both,) = _problems(_data(KEGARE, {"defeated": ["oni"], "spared": ["oni", "imp"]}))
    assert "both defeats and spares: oni" in both
    (chase,) = _problems(_data(CASES["cutaction"], {"escaped": True}))
    assert "escaped needs a chase" in chase
    (many,) = _problems(_data(AKATSUKI, {"targets_at_least": 4}))
    assert "only 3 difficulty targets" in many
    (target,) = _problems(_data(AKATSUKI, {"targets": ["岸"]}))
    assert "no difficulty target is named '岸'" in target
    assert _problems(_data(GETB, {"win": "yes"}))  # a boolean, not text


def test_standing_names_the_reference_party_when_the_scenario_has_none() -> None:
    d = _data(GETB, {"standing": ["X"]})
    del d["party"]
    (msg,) = _problems(d)
    assert "(party: the reference party of 2)" in msg and "known: ロング使い, バスター使い" in msg


def test_japanese_messages() -> None:
    problems = validate_text(text(_data(GETB, {"defeated": ["beats"]})), "s.yaml").problems
    assert "ID 'beats' のエネミーはいません" in problems[0].format("ja")


def test_the_sample_book_states_its_side_missions() -> None:
    modelled = not_modelled = 0
    for path in sorted(SAMPLES.glob("*.yaml")):
        result = validate_text(path.read_text("utf-8"), path.name)
        assert result.scenario is not None and not result.problems
        for spec in encounter(result.scenario).side:
            if spec.condition is None:
                not_modelled += 1
            else:
                modelled += 1
    assert not_modelled == 2  # 生け捕り (akatsuki has no combat), 用心棒を倒さずに (see docs)
    assert modelled >= 20


def test_every_key_is_documented_with_its_systems() -> None:
    doc = (ROOT / "plugin" / "saikoro" / "site" / "_guide" / "balance.md").read_text("utf-8")
    names = {"getb": "GETB", "kegare": "穢れ", "cutaction": "カットアクション"}
    names |= {"kokuryoku": "国力ゲーム", "akatsuki": "暁ノ大地"}
    for key in sorted(known_keys()):
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{key}` |"))
        systems = [s for s, keys in VOCABULARY.items() if key in keys]
        if len(systems) < len(VOCABULARY):
            for s in systems:
                assert names[s] in row, (key, s)
    # every key any battle offers is offered by some system; the rest are systems' own
    assert set(FIELDS) <= {k for keys in VOCABULARY.values() for k in keys}
    assert known_keys() == {k for keys in VOCABULARY.values() for k in keys}


# -- counting ---------------------------------------------------------------------------


@pytest.mark.parametrize("system", sorted(CASES))
def test_win_true_and_false_are_the_main_mission(system: str) -> None:
    r = _run(CASES[system], {"win": True}, {"win": False}, battles=500)
    wins = round(r.win * r.battles)
    assert _count(r, 0) == wins and _count(r, 1) == r.battles - wins
    if r.exact is not None:
        assert r.side[0].exact == r.exact and r.side[1].exact == 1 - r.exact


@pytest.mark.parametrize("system", ["getb", "kegare", "cutaction", "kokuryoku"])
def test_rounds_at_most_is_the_rounds_histogram(system: str) -> None:
    limits = (1, 2, 3, 4)
    r = _run(
        CASES[system], *({"rounds_at_most": k} for k in limits), {"win": True, "rounds_at_most": 2}
    )
    for i, k in enumerate(limits):
        assert _count(r, i) == sum(v for n, v in r.rounds.items() if n <= k)
    assert _count(r, 4) <= min(_count(r, 1), round(r.win * r.battles))


def test_one_pc_downed_is_the_pc_figure() -> None:
    r = _run(KEGARE_DUEL, {"downed_at_most": 0}, {"standing": ["祓い手"]}, {"kegare_at_most": 0})
    never = r.battles - round(r.pcs[0].downed * r.battles)
    assert _count(r, 0) == _count(r, 1) == never
    assert _count(r, 2) == never  # no blessing: 穢れ rises only when downed


@pytest.mark.parametrize("system", ["getb", "kegare", "cutaction"])
def test_standing_each_pc_and_downed_counts(system: str) -> None:
    base = CASES[system]
    names = [p["name"] for p in base["party"]]
    r = _run(
        base,
        *({"standing": [n]} for n in names),
        {"standing": names},
        {"downed_at_most": 0},
        {"downed_at_most": len(names)},
    )
    for i, pc in enumerate(r.pcs):
        assert _count(r, i) == r.battles - round(pc.downed * r.battles)
    k = len(names)
    assert _count(r, k) == _count(r, k + 1)
    assert _count(r, k + 2) == r.battles


@pytest.mark.parametrize("system", ["getb", "kegare", "cutaction"])
def test_defeats(system: str) -> None:
    base = CASES[system]
    ids = [e["id"] for e in base["enemies"]]
    first = ids[0]
    r = _run(
        base,
        {"all_defeated": True},
        {"defeated": ids},
        {"defeated_first": ids},
        {"defeated": [first]},
        {"spared": [first]},
        {"defeated_first": [first]},
        {"all_defeated": False},
    )
    everyone = _count(r, 0)
    assert everyone == _count(r, 1) == _count(r, 2)
    assert _count(r, 3) + _count(r, 4) == r.battles  # defeated or spared, never both
    assert _count(r, 5) <= _count(r, 3)
    assert _count(r, 6) == r.battles - everyone
    if system != "kegare":  # kegare's win reads the turn's end; an enemy may rise again
        assert everyone >= round(r.win * r.battles)  # the main mission (defeat all) implies it


def test_defeat_order_sees_the_first_one() -> None:
    checks = ({"defeated_first": ["oni"]}, {"defeated_first": ["imp"]}, {"defeated": ["oni"]})
    r = _run(KEGARE, *checks, tactics="random")  # so that either enemy may fall first
    # whoever falls first: at most one of the two is first, and both orders happen
    assert 0 < _count(r, 0) <= _count(r, 2) and _count(r, 1) > 0
    assert _count(r, 0) + _count(r, 1) <= r.battles


def test_damage_taken_and_actions() -> None:
    r = _run(
        GETB,
        {"taken_at_most": 0},
        {"no_damage_from": ["爪", "咆哮"]},
        {"no_damage_from": ["beast:咆哮"]},
        {"no_damage_from": ["咆哮"]},
        {"taken_at_most": 9999},
    )
    assert _count(r, 0) == _count(r, 1)  # GETB: every point taken comes from an action
    assert _count(r, 2) == _count(r, 3) >= _count(r, 1)
    assert _count(r, 4) == r.battles
    with_poison = _run(KEGARE, {"taken_at_most": 0}, {"no_damage_from": ["爪", "毒針"]})
    assert _count(with_poison, 0) <= _count(with_poison, 1)  # poison is not an action


def test_escaped_is_the_chase() -> None:
    r = _run(CHASE, {"escaped": True}, {"escaped": False}, battles=400)
    assert _count(r, 0) == round(r.win * r.battles)
    assert _count(r, 1) == r.battles - _count(r, 0)


def test_kokuryoku_power_and_middle_phase() -> None:
    names = [t["name"] for t in KOKURYOKU.get("difficulty_targets", [])]
    base = copy.deepcopy(KOKURYOKU)
    if not names:
        base["difficulty_targets"] = [
            {"name": "畑", "target": 12, "gain": 6},
            {"name": "市", "target": 10, "gain": 4, "ability": "charisma"},
        ]
        names = ["畑", "市"]
    r = _run(
        base,
        {"power_at_least": 1},
        {"targets": [names[0]]},
        {"targets_at_least": 1},
        {"targets_at_least": 2},
        {"taken_at_most": 0},
        battles=2000,
    )
    fell = next(e.count for e in r.ends if e.key == "fallen")
    assert _count(r, 0) == r.battles - fell
    p = r.exact_figures[f"P({names[0]})"]
    assert r.side[1].low is not None and r.side[1].high is not None
    assert r.side[1].low <= float(p) <= r.side[1].high
    reached = round(r.means["middle_reached"] * r.battles)
    assert _count(r, 2) + _count(r, 3) == reached  # sum over k of P(at least k)
    assert _count(r, 4) <= _count(r, 0)


def test_akatsuki_exact_side_missions() -> None:
    names = [t["name"] for t in AKATSUKI["difficulty_targets"]]
    r = _run(
        AKATSUKI,
        {"targets": names},
        {"targets_at_least": 2},
        {"targets": [names[1]]},
        {"cards_left_at_least": 0},
        {"cards_left_at_least": 2, "win": True},
        battles=3000,
    )
    assert r.exact is not None
    assert r.side[0].exact == r.exact  # every target = the main mission, by another route
    assert _count(r, 0) == round(r.win * r.battles)
    assert _count(r, 1) == sum(v for k, v in r.rounds.items() if k >= 2)
    assert r.side[3].exact == 1 and _count(r, 3) == r.battles
    for s in r.side:  # within 4 standard errors (a 95 % interval misses 1 seed in 20)
        assert s.exact is not None and s.rate is not None
        sd = (float(s.exact * (1 - s.exact)) / r.battles) ** 0.5
        assert abs(s.rate - float(s.exact)) <= 4 * sd, s
    assert r.side[4].exact is not None and r.side[4].exact <= r.exact


def test_akatsuki_exact_matches_brute_force() -> None:
    """Three checks of 36 dice pairs each: every one of the 46,656 battles walked."""
    from saikoro.balance import Budget
    from saikoro.systems._akatsuki import simulator as sim

    enc = _enc(AKATSUKI, {"targets_at_least": 2, "cards_left_at_least": 2})
    prep = sim.SIMULATOR.prepare(enc, tactics_for("akatsuki"))
    cond = enc.side[0].condition
    assert cond is not None
    hits = sum(p for b, p in every_battle(prep).items() if cond.holds(b))
    assert sim.SIMULATOR.side_exact(prep, cond, Budget()) == hits


# -- not simulated, determinism ---------------------------------------------------------


def test_without_check_there_is_no_figure() -> None:
    r = _run(GETB, None, {"win": True}, battles=100)
    s = r.side[0]
    assert not s.modelled and s.rate is None and s.low is None and s.successes == 0
    assert s.reason and "check" in s.reason
    data = r.to_json()["side"]
    assert data[0]["rate"] is None and data[0]["modelled"] is False and "reason" in data[0]
    assert data[1]["modelled"] is True and data[1]["check"] == {"win": True}


def test_a_pc_missing_from_the_party_simulated_is_not_guessed() -> None:
    d = _data(GETB, {"standing": ["ロング"]})
    result = validate_text(text(d), "g.yaml")
    assert result.scenario is not None
    enc = encounter(result.scenario, players=2)  # the reference party: no ロング
    (spec,) = enc.side
    assert spec.condition is None and spec.reason and "ロング" in spec.reason
    r = simulate(enc, battles=50)
    assert r.side[0].rate is None


def test_same_side_figures_whatever_jobs() -> None:
    enc = _enc(KEGARE, {"spared": ["imp"]}, {"no_damage_from": ["爪"]}, {"rounds_at_most": 3})
    one = simulate(enc, battles=900, seed=5, jobs=1)
    two = simulate(enc, battles=900, seed=5, jobs=2)
    assert one.side == two.side and one.to_json() == two.to_json()


def test_tallies_merge_in_any_order() -> None:
    enc = _enc(GETB, {"no_damage_from": ["咆哮"]}, {"defeated": ["beast"]})
    tactics = tactics_for("getb")
    parts = [run_chunk((enc, tactics, 1, i, 40)) for i in range(4)]
    forward = parts[0] + parts[1] + parts[2] + parts[3]
    backward = parts[3] + parts[2] + parts[1] + parts[0]
    assert forward.side == backward.side and forward == backward
    other = Tally(pcs=2, checks=(Condition(win=True),))
    with pytest.raises(ValueError, match="different side missions"):
        forward + other


def test_no_battle_finished_shows_no_figure() -> None:
    from saikoro._simulate import format_text
    from saikoro.balance._stats import summarise

    enc = _enc(GETB, {"win": True})
    tally = Tally(pcs=2, checks=tuple(s.condition for s in enc.side if s.condition))
    r = summarise(tally, enc, tactics="focus", seed=0, interrupted=True)
    assert r.side[0].rate is None and r.side[0].low is None
    shown = format_text(r, "t", enc.party.names)
    assert "数字はありません" in shown and "%" not in shown


def test_wilson_on_side_results() -> None:
    r = _run(KEGARE_DUEL, {"rounds_at_most": 3}, battles=400)
    s = r.side[0]
    assert (s.low, s.high) == wilson(s.successes, s.battles)


def test_scenario_page_shows_the_words_not_the_check() -> None:
    from saikoro.scenario import validate_text
    from saikoro.site._pages.scenario import _missions

    data = copy.deepcopy(KEGARE_DUEL)
    data["missions"] = {
        "main": {"success": "勝つ"},
        "side": [{"success": "早く勝つ", "check": {"win": True}}],
    }
    sc = validate_text(text(data), "t.yaml").scenario
    assert sc is not None and sc.model.missions is not None
    html = _missions(sc.model.missions, "ja")
    assert "早く勝つ" in html and "check" not in html and "True" not in html


# -- the CLI ----------------------------------------------------------------------------


def _cli(argv: list[str]) -> tuple[int, str, str]:
    from saikoro import _simulate as cli

    out, err = io.StringIO(), io.StringIO()
    code = cli.main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_cli_json_and_text_show_side_missions_and_enemy_names() -> None:
    path = str(SAMPLES / "getb-kyuuchi.yaml")
    code, out, _ = _cli([path, "--battles", "300", "--format", "json", "--jobs", "1"])
    assert code == 0
    (data,) = json.loads(out)
    side = data["side"]
    assert [s["success"] for s in side][:2] == [
        "ザイゴートを2体とも先に倒す",
        "誰も戦闘不能にならずに勝つ",
    ]
    assert all(s["modelled"] and 0 <= s["low"] <= s["rate"] <= s["high"] <= 1 for s in side)
    danger = data["most_dangerous"]
    assert danger["enemy"] == "frost-boss" and danger["enemy_name"] == "氷鎧のサリエル種"
    assert danger["action"] == f"frost-boss:{danger['name']}"
    code, out, _ = _cli([path, "--battles", "300", "--jobs", "1"])
    assert "サイドミッション:" in out and "1. ザイゴートを2体とも先に倒す: " in out
    assert "最も危険な敵の行動: 氷鎧のサリエル種の" in out and "frost-boss" not in out
    _, out, _ = _cli([str(SAMPLES / "akatsuki-kouya.yaml"), "--battles", "200"])
    assert "略奪団長を生け捕りにする: シミュレーションしない" in out
    assert "厳密解" in out.split("サイドミッション:")[1]


def test_help_says_jobs_uses_every_core(capsys: pytest.CaptureFixture[str]) -> None:
    from saikoro.balance import default_jobs

    code, _, _ = _cli(["--help"])
    out = capsys.readouterr().out
    assert code == 0
    # lines wrap anywhere in Japanese: compare without the breaks
    assert f"使えるコアすべて、ここでは{default_jobs()}。" in "".join(out.split())
    assert default_jobs() >= 1


def _simulate_cmd(path: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "saikoro", "simulate", str(path), "--battles", "5000000", *extra]


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_ctrl_c_from_the_terminal_with_one_job(tmp_path: Path, fmt: str) -> None:
    """SIGINT to the whole process group, as a terminal sends it."""
    path = tmp_path / "k.yaml"
    path.write_text(text(_data(KEGARE, {"rounds_at_most": 3})), "utf-8")
    proc = subprocess.Popen(
        _simulate_cmd(path, "--jobs", "1", "--format", fmt),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(4)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err  # Ctrl-C: the partial figures, marked
    assert "Traceback" not in err and "中断しました" in err
    if fmt == "json":
        (data,) = json.loads(out)
        assert data["interrupted"] is True and 0 < data["battles"] < 5000000
        assert data["side"][0]["battles"] == data["battles"]
    else:
        assert "(中断: ここまでの戦闘の集計)" in out and "サイドミッション:" in out


def test_progress_bar_on_a_terminal_only() -> None:
    master, slave = pty.openpty()
    cmd = [
        sys.executable,
        "-m",
        "saikoro",
        "simulate",
        str(SAMPLES / "kegare-yashiro.yaml"),
        "--battles",
        "3000",
        "--jobs",
        "1",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    os.close(master)
    out = proc.stdout.read() if proc.stdout else ""
    proc.wait(timeout=60)
    shown = seen.decode("utf-8", "replace")
    assert "3000/3000" in shown and "戦/秒" in shown and "━" in shown
    assert "勝率" in out and "━" not in out  # the report itself carries no bar
    piped = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=True)
    assert "━" not in piped.stderr and "戦/秒" not in piped.stderr
