"""Ctrl-C stops every command promptly, exits 130 and never reports a partial figure.

Each command runs in a session of its own and gets SIGINT on its whole process group, as
a terminal sends it (workers of a process pool get it too). The signal is sent once the
command is past its imports (its CPU time says so), while it plays battles.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from samples import copy_pictures

ROOT = Path(__file__).resolve().parents[1]
SLOW = "  battles: 100000\n"
"""Battles a scenario asks of validate and the build: far more than the test waits for."""

LONG = {"SAIKORO_BALANCE_SECONDS": "600"}
"""Validate and the build cut a scenario's battles after 5 s unless told otherwise: told
to play for minutes, they are still playing when Ctrl-C comes."""


def _slow_scenario(path: Path) -> None:
    """kegare-minato with ``balance.battles`` raised: minutes of battles."""
    text = (ROOT / "scenarios" / "kegare-minato.yaml").read_text("utf-8")
    text = re.sub(r"(?m)^(  win: .*\n)", lambda m: m.group(1) + SLOW, text, count=1)
    assert SLOW in text
    path.write_text(text, "utf-8")
    # its pictures, which validate requires beside it
    copy_pictures(path.parent)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def interrupt(
    argv: list[str],
    cwd: Path,
    *,
    busy: float,
    then: float = 0.0,
    env: dict[str, str] | None = None,
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``argv``, send SIGINT to its process group ``then`` seconds after it has used
    ``busy`` seconds of CPU, and return what it did and how long it took to stop."""
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})},
    )
    deadline = time.monotonic() + 300
    while _cpu_seconds(proc.pid) < busy:
        assert proc.poll() is None, f"{argv} ended before it was interrupted"
        assert time.monotonic() < deadline, f"{argv} never got busy"
        time.sleep(0.05)
    time.sleep(then)
    assert proc.poll() is None, f"{argv} ended before it was interrupted"
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    took = time.monotonic() - sent
    return subprocess.CompletedProcess(argv, proc.returncode, out, err), took


def test_validate_interrupted_exits_130_and_reports_no_figure(tmp_path: Path) -> None:
    """validate used to report the 0 % of battles it had played as the file's figure and
    exit 0 (so ``validate && deploy`` deployed)."""
    _slow_scenario(tmp_path / "k.yaml")
    argv = [sys.executable, "-m", "saikoro", "validate", "--lang", "ja", "k.yaml"]
    done, took = interrupt(argv, tmp_path, busy=2.0, env=LONG)
    assert done.returncode == 130, done.stderr
    assert "ファイルを検査" not in done.stdout and done.stdout == ""
    assert "中断しました" in done.stderr and "Traceback" not in done.stderr
    assert took < 15, f"stopped {took:.1f} s after Ctrl-C"  # a second, on an idle machine


def test_mkdocs_build_with_balance_stops_on_the_first_ctrl_c(tmp_path: Path) -> None:
    """The build used to take each Ctrl-C for the end of one scenario's battles (and
    cache that partial figure) and go on."""
    from saikoro._new import create_book

    book = tmp_path / "book"
    create_book(book, ["kegare"], title="t")
    _slow_scenario(book / "scenarios" / "slow.yaml")
    argv = [sys.executable, "-m", "mkdocs", "build"]
    done, took = interrupt(argv, book, busy=4.0, env={"XDG_CACHE_HOME": str(tmp_path), **LONG})
    assert done.returncode != 0, done.stderr
    assert "Documentation built" not in done.stderr
    assert took < 15, f"stopped {took:.1f} s after Ctrl-C"
    cached = [p for p in book.rglob("*.json") if ".cache" in p.parts]
    assert not any('"interrupted": true' in p.read_text("utf-8") for p in cached)


def test_simulate_with_a_pool_reports_the_battles_played_and_exits_130(tmp_path: Path) -> None:
    _slow_scenario(tmp_path / "k.yaml")
    argv = [sys.executable, "-m", "saikoro", "simulate", "k.yaml", "--jobs", "2"]
    argv += ["--battles", "5000000", "--format", "json"]
    done, took = interrupt(argv, tmp_path, busy=0.3, then=4.0)  # the workers play
    assert done.returncode == 130, done.stderr
    assert '"interrupted": true' in done.stdout
    assert "Traceback" not in done.stderr and took < 30


@pytest.mark.parametrize("command", ["schema", "odds"])
def test_a_quick_command_interrupted_at_once_says_so(tmp_path: Path, command: str) -> None:
    """Whatever runs when Ctrl-C comes, the command line answers 130 and one line."""
    from saikoro._cli import main

    def stop(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    with pytest.MonkeyPatch.context() as patch:
        if command == "schema":
            import saikoro.scenario

            patch.setattr(saikoro.scenario, "schema_main", stop)
        else:
            import saikoro

            patch.setattr(saikoro, "odds", stop)
        assert main([command, "2D6"] if command == "odds" else [command]) == 130
