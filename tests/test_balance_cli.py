"""``saikoro simulate`` and the balance warning of ``saikoro validate``."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from balance_cases import CASES, KEGARE, text
from saikoro._cli import main as saikoro_main
from saikoro.balance import check_balance
from saikoro.scenario import validate_main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "scenarios" / "kegare-yashiro.yaml"


def _run(argv: list[str]) -> tuple[int, str, str]:
    from saikoro import _simulate as cli

    out, err = io.StringIO(), io.StringIO()
    code = cli.main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_json_has_the_documented_keys(tmp_path: Path) -> None:
    path = tmp_path / "k.yaml"
    path.write_text(text(KEGARE), "utf-8")
    code, out, _ = _run([str(path), "--battles", "600", "--seed", "4", "--format", "json"])
    assert code == 0
    (data,) = json.loads(out)  # a list for one file as for a folder
    for key in ("win", "win_low", "win_high", "battles", "rounds", "pcs", "seed"):
        assert key in data
    assert data["battles"] == 600 and data["seed"] == 4
    assert "exact" not in data  # two against two is not solved exactly
    assert [p["name"] for p in data["pcs"]] == ["前衛", "後衛"]


def test_exact_in_json_when_solved(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text(text(CASES["akatsuki"]), "utf-8")
    code, out, _ = _run([str(path), "--battles", "300", "--format", "json"])
    (data,) = json.loads(out)
    assert code == 0 and 0 < data["exact"] < 1 and "/" in data["exact_fraction"]


def test_same_json_whatever_jobs() -> None:
    base = [str(SAMPLE), "--battles", "700", "--seed", "9", "--format", "json"]
    one = _run([*base, "--jobs", "1"])[1]
    two = _run([*base, "--jobs", "2"])[1]
    assert one == two


def test_text_output_and_several_files() -> None:
    code, out, err = _run(
        [str(SAMPLE), str(ROOT / "scenarios" / "akatsuki-kouya.yaml"), "--battles", "300"]
    )
    assert code == 0, err
    assert out.count("勝率") == 2 and "厳密解" in out and "神楽の祓い手" in out
    assert "\r" not in err  # no progress bar when stderr is not a terminal


def test_party_file(tmp_path: Path) -> None:
    party = tmp_path / "party.yaml"
    party.write_text(text({"party": KEGARE["party"]}), "utf-8")
    code, out, _ = _run(
        [str(SAMPLE), "--party", str(party), "--battles", "300", "--format", "json"]
    )
    assert code == 0
    (data,) = json.loads(out)
    assert data["party"] == "party.yaml"
    assert [p["name"] for p in data["pcs"]] == ["前衛", "後衛"]


def test_bad_party_file_names_line_and_column(tmp_path: Path) -> None:
    party = tmp_path / "party.yaml"
    party.write_text("party:\n  - name: 甲\n    hp: many\n", "utf-8")
    code, _, err = _run([str(SAMPLE), "--party", str(party)])
    assert code == 1
    assert f"{party}:3:9: error: party[0].hp" in err
    assert "attack" in err  # every missing field is reported at once


def test_usage_and_missing_files(tmp_path: Path) -> None:
    assert _run([str(SAMPLE), "--battles", "0"])[0] == 2
    code, _, err = _run([str(SAMPLE), "--tactics", "nonsense", "--battles", "10"])
    assert code == 2 and "unknown tactic" in err
    code, _, err = _run([str(tmp_path / "nope.yaml")])
    assert code == 1 and "no such file" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: kegare\ntitle: x\nenemies: 3\n", "utf-8")
    code, _, err = _run([str(bad)])
    assert code == 1 and "bad.yaml:3:" in err


def test_subcommand_is_wired() -> None:
    assert saikoro_main(["simulate", "--help"]) == 0


def test_validate_warns_only_off_target(tmp_path: Path) -> None:
    def check(win: str) -> str:
        data = dict(KEGARE, balance={"win": win, "battles": 300})
        path = tmp_path / "b.yaml"
        path.write_text(text(data), "utf-8")
        out = io.StringIO()
        assert validate_main([str(path), "--lang", "en"], out, checks=(check_balance,)) == 0
        return out.getvalue()

    wide = check("0%-100%")
    assert "warning" not in wide.replace("0 warning", "")
    off = check("99%-100%")
    assert "scenario.balance.win: simulated win rate" in off
    assert "95% interval" in off and "300 battles, seed 0" in off
    line = next(
        i
        for i, s in enumerate(text(dict(KEGARE, balance={"win": "x"})).splitlines())
        if s.strip().startswith("win:")
    )
    assert f"b.yaml:{line + 1}:" in off


def test_validate_rejects_bad_balance_keys(tmp_path: Path) -> None:
    data = dict(KEGARE, balance={"win": "90%-60%", "defeat": ["nobody"], "tactics": "x"})
    path = tmp_path / "c.yaml"
    path.write_text(text(data), "utf-8")
    out = io.StringIO()
    assert validate_main([str(path), "--lang", "en"], out) == 1
    report = out.getvalue()
    assert "balance.win" in report and "win-rate range" in report
    assert "balance.tactics" in report and "unknown tactic" in report


def test_ctrl_c_reports_what_was_finished(tmp_path: Path) -> None:
    """Ctrl-C stops the run and the chunks finished are reported. On a loaded machine the
    first chunk may not be done when the signal comes (then nothing is reported, rightly):
    wait longer and try again, so the test checks the report, not the machine's speed."""
    path = tmp_path / "k.yaml"
    path.write_text(text(KEGARE), "utf-8")
    for wait in (4, 12, 30):
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "saikoro",
                "simulate",
                str(path),
                "--battles",
                "5000000",
                "--jobs",
                "2",
                "--format",
                "json",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        time.sleep(wait)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err  # Ctrl-C: the partial figures, marked
        (data,) = json.loads(out)
        assert data["interrupted"] is True
        assert "Traceback" not in err and "中断しました" in err
        if data["battles"] > 0:
            break
    assert 0 < data["battles"] < 5000000


def test_text_names_the_party_in_japanese_and_gives_shares_in_percent() -> None:
    """No internal label (reference-3), no 0.931 among the percentages, no per-PC rows
    where PCs are never downed (kokuryoku: the nation's power decides)."""
    import re

    chase = str(ROOT / "scenarios" / "cutaction-sokou.yaml")
    nation = str(ROOT / "scenarios" / "kokuryoku-yama.yaml")
    code, out, _ = _run([chase, nation, "--battles", "60", "--jobs", "1", "--no-exact"])
    assert code == 0
    assert "reference-" not in out
    assert "パーティ: 標準パーティ（3人） — " in out
    assert "パーティ: シナリオの party（4人） — " in out
    assert re.search(r"チェイスで逃走側が逃げ切った割合: \d+\.\d%\n", out), out
    assert re.search(r"戦闘に勝ってチェイスに進んだ割合: \d+\.\d%\n", out), out
    assert not re.search(r"割合: 0\.\d+", out), out
    nation_text = out[out.index("kokuryoku-yama") :]
    assert "PCごとの戦闘不能率: なし" in nation_text
    assert "山あいの小国: 0.0% (95%区間" not in nation_text
