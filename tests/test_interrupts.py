"""Ctrl-C stops every command promptly, exits 130 and never reports a partial figure.

Each command runs in a session of its own and gets SIGINT on its whole process group, as
a terminal sends it (workers of a process pool get it too). The signal is sent once the
command is past its imports (its CPU time says so), while it plays battles.
"""

from __future__ import annotations

import ast
import contextlib
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


# -- Ctrl-C while the command starts --------------------------------------------------------
#
# The command takes Ctrl-C as its own from the first line of saikoro._start.main (the
# console script's function): ``import saikoro`` loads nothing of the engine, so every
# import of the command runs under the guard. Before that there is only Python's own
# start (the interpreter, its ``site`` module, the script's first line), where a Ctrl-C
# ends the process as Python ends it; the tests below begin where saikoro's code does.

INTERRUPTED = "\nsaikoro: Ctrl-C で中断しました\n"
"""What every command prints on stderr for a Ctrl-C it did not expect (saikoro._start)."""

SIMULATE_STOPPED = (
    "saikoro simulate: Ctrl-C で中断しました（終えた戦闘の分を示します）",
    "saikoro simulate: Ctrl-C で中断しました",
)
"""What ``simulate`` says when Ctrl-C stops its battles (it prints those it finished)."""

SCRIPT = Path(sys.executable).with_name("saikoro")
"""The console script ``[project.scripts]`` installs (``make setup`` installs it)."""

STARTS = {
    "validate": ["validate", "k.yaml"],
    "simulate": ["simulate", "k.yaml", "--battles", "100000", "--jobs", "1"],
    "help": ["--help"],
}
"""The commands started and interrupted: a check and a simulation of minutes of battles
(:func:`_book`), and the top-level help (done in a tenth of a second)."""


def _book(folder: Path) -> Path:
    """A folder with a scenario whose check takes minutes (:func:`_slow_scenario`)."""
    _slow_scenario(folder / "k.yaml")
    return folder


def _env(folder: Path) -> dict[str, str]:
    return {
        **os.environ,
        "XDG_CACHE_HOME": str(folder / "cache"),
        "LANG": "ja_JP.UTF-8",
        "NO_MKDOCS_2_WARNING": "1",
        **LONG,
    }


def test_the_console_script_starts_in_the_guard() -> None:
    """pyproject's script is saikoro._start:main, and the installed script calls it."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["scripts"] == {"saikoro": "saikoro._start:main"}
    assert "from saikoro._start import main" in SCRIPT.read_text("utf-8")


def test_import_saikoro_loads_no_engine() -> None:
    """What runs before the guard is the package's ``__init__`` and saikoro._start: only
    the standard library's ``sys`` and what Python itself has loaded."""
    code = (
        "import sys; before = set(sys.modules); import saikoro._start; "
        "print(sorted(set(sys.modules) - before))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    loaded = set(ast.literal_eval(done.stdout))
    assert {"saikoro", "saikoro._start"} <= loaded <= {"__future__", "saikoro", "saikoro._start"}


_CTRL_C_AT_IMPORT = """
import os, runpy, signal, sys

signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal, whoever started us
target, marker, script = sys.argv[1:4]


class CtrlCAt:
    # a Ctrl-C at the moment ``target`` is first imported
    def find_spec(self, name, path=None, module=None):
        if name == target:
            sys.meta_path.remove(self)
            open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGINT)
        return None


sys.meta_path.insert(0, CtrlCAt())
sys.argv = [script, *sys.argv[4:]]
runpy.run_path(script, run_name="__main__")
"""


def _ctrl_c_sent_by(
    program: str, module: str, command: str, tmp_path: Path
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """Run saikoro ``command`` in a book through ``program`` (Python code that sends the
    Ctrl-C when ``module`` is imported, and leaves the marker file it is given then):
    the marker and the finished run."""
    book = _book(tmp_path)
    marker = tmp_path / "ctrl-c-sent"
    argv = [sys.executable, "-c", program, module, str(marker), str(SCRIPT)]
    done = subprocess.run(
        [*argv, *STARTS[command]],
        cwd=book,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return marker, done


@pytest.mark.parametrize(
    ("command", "module"),
    [
        ("validate", "saikoro._cli"),
        ("validate", "saikoro.dice"),
        ("validate", "argparse"),
        ("validate", "saikoro.systems"),
        ("validate", "yaml"),
        ("validate", "saikoro.scenario._validate"),
        ("validate", "saikoro.balance"),
        ("validate", "saikoro.systems._kegare.model"),
        ("simulate", "saikoro._cli"),
        ("simulate", "saikoro._simulate"),
        ("simulate", "saikoro.systems._kegare.simulator"),
        ("help", "saikoro._cli"),
        ("help", "saikoro.scenario"),
    ],
)
def test_ctrl_c_during_the_imports_exits_130_with_one_line(
    tmp_path: Path, command: str, module: str
) -> None:
    """A Ctrl-C that comes while ``module`` is imported (sent by the process to itself at
    that moment, through the console script as installed): exit 130, the one line, no
    traceback, nothing on stdout."""
    marker, done = _ctrl_c_sent_by(_CTRL_C_AT_IMPORT, module, command, tmp_path)
    assert marker.exists(), f"{module} was not imported by saikoro {command}"
    assert (done.returncode, done.stderr, done.stdout) == (130, INTERRUPTED, ""), done.stderr


AS_IN_A_TERMINAL = [
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])",
]
"""Run a program with Ctrl-C's default action, as a terminal's shell runs it (a test run in
the background of a shell inherits Ctrl-C ignored, and so would the program)."""


_CTRL_C_IN_A_CALLBACK = """
import os, runpy, signal, sys, weakref

signal.signal(signal.SIGINT, signal.default_int_handler)
target, marker, script = sys.argv[1:4]
refs = []


def callback(ref):
    # Python runs the Ctrl-C's handler here, in a callback whose errors it only reports
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(1000):
        pass


class CtrlCInACallback:
    def find_spec(self, name, path=None, module=None):
        if name == target:
            sys.meta_path.remove(self)
            open(marker, "w").close()
            thing = type("Thing", (), {})()
            refs.append(weakref.ref(thing, callback))
            del thing
        return None


sys.meta_path.insert(0, CtrlCInACallback())
sys.argv = [script, *sys.argv[4:]]
runpy.run_path(script, run_name="__main__")
"""


@pytest.mark.parametrize("module", ["yaml", "saikoro.balance"])
def test_ctrl_c_inside_a_callback_still_stops_the_command(tmp_path: Path, module: str) -> None:
    """Python only reports a KeyboardInterrupt raised in a weak reference's callback or a
    finaliser ("Exception ignored") and goes on: the command sends it again and stops."""
    marker, done = _ctrl_c_sent_by(_CTRL_C_IN_A_CALLBACK, module, "validate", tmp_path)
    assert marker.exists(), f"{module} was not imported"
    assert (done.returncode, done.stderr, done.stdout) == (130, INTERRUPTED, ""), done.stderr


def _saikoro_started(pid: int, library: str) -> bool:
    """Whether process ``pid`` has loaded ``library``: the command's imports have begun,
    inside saikoro._start's guard."""
    try:
        return library in Path(f"/proc/{pid}/maps").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False


def _first_guarded_library() -> str:
    """A compiled module the command imports first thing under its guard and Python's own
    start does not: ``_json`` (saikoro._cli's ``import json``) where it is a file of its
    own, else PyYAML's ``_yaml``."""
    import importlib.util

    for name in ("_json", "_yaml"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin and spec.origin.endswith(".so"):
            return Path(spec.origin).name
    raise AssertionError("neither _json nor _yaml is a shared library here")


@pytest.mark.parametrize("command", sorted(STARTS))
def test_ctrl_c_at_any_moment_of_a_start_exits_130_or_finishes(
    tmp_path: Path, command: str
) -> None:
    """A real Ctrl-C (SIGINT to the process group, as a terminal sends it) 0 to 0.5 s after
    the command's own code began: the command either stops (130, its one line on stderr,
    no traceback) or has finished normally. What each run did is checked, not when."""
    book = _book(tmp_path)
    library = _first_guarded_library()
    outcomes: list[str] = []
    for delay in (0, 0.02, 0.05, 0.1, 0.2, 0.5):
        proc = subprocess.Popen(
            [*AS_IN_A_TERMINAL, str(SCRIPT), *STARTS[command]],
            cwd=book,
            env=_env(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        deadline = time.monotonic() + 120
        while not _saikoro_started(proc.pid, library) and proc.poll() is None:
            assert time.monotonic() < deadline, "the command never started"
            time.sleep(0.001)
        time.sleep(delay)
        with contextlib.suppress(ProcessLookupError):  # it may have finished: that is fine
            os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert "Traceback" not in err, f"{delay} s: {err}"
        if proc.returncode == 130:
            stopped = err.endswith(INTERRUPTED) or (
                command == "simulate" and err.strip().splitlines()[-1] in SIMULATE_STOPPED
            )
            assert stopped, f"{delay} s: {err}"
            outcomes.append("stopped")
        else:  # finished before the Ctrl-C: as it finishes without one
            assert proc.returncode == 0, f"{delay} s: exit {proc.returncode}: {err}"
            assert out.strip(), f"{delay} s: finished without output"
            outcomes.append("finished")
    if command != "help":  # seconds of work: every Ctrl-C came in time to stop it
        assert outcomes == ["stopped"] * 6, outcomes
