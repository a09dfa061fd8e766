"""Start-up of the ``saikoro`` command: a warm ``saikoro validate FILE`` in CPU seconds.

Prints, for every sample scenario (``scenarios/*.yaml``, in a copy of the sample book so
that its balance cache folder is used, as pre-commit uses it), the CPU seconds (user +
system, as ``/usr/bin/time -f %U+%S`` counts them) of ``saikoro validate FILE`` once its
balance figures are cached: the median and the least of ``--runs`` runs (goal: at most
0.2 s). What is left is start-up: the interpreter, the imports of one system's modules
and the check itself. Then the same for ``saikoro --help`` and ``saikoro roll 1D6``, and
Python's own start (``python -c pass``) for scale.

``--baseline DIR`` runs every command a second time with ``DIR`` (the ``plugin`` folder
of another checkout: ``git worktree add /tmp/base main``) first on ``PYTHONPATH``,
alternating with this checkout's runs, and prints both: before and after a change.

Run: ``.venv/bin/python bench/bench_startup.py [--runs N] [--baseline DIR]``. The
commands run through the installed console script (``saikoro`` beside
``sys.executable``), with compiled modules cached, as an author runs them.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("saikoro")
ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")},
    "NO_MKDOCS_2_WARNING": "1",
    "LANG": "ja_JP.UTF-8",
}
"""As an author's environment: compiled modules cached, Japanese."""
GOAL = 0.2
"""CPU seconds of a warm single-file validate (issue 30)."""


def _cpu(args: list[str], cwd: Path, pythonpath: str | None) -> float:
    """CPU seconds (user + system) of one run of ``args``."""
    env = dict(ENV) if pythonpath is None else {**ENV, "PYTHONPATH": pythonpath}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _entry(baseline: str) -> list[str]:
    """The baseline's command: its console script's function, whichever it is."""
    module = "_start" if (Path(baseline) / "saikoro" / "_start.py").is_file() else "_cli"
    code = f"import sys; from saikoro.{module} import main; sys.exit(main())"
    return [sys.executable, "-c", code]


def _measure(
    args: list[str], cwd: Path, runs: int, baseline: str | None
) -> tuple[list[float], list[float]]:
    """CPU seconds of ``runs`` runs each, after one run that fills the caches; this
    checkout's and the baseline's runs alternate (the same load for both)."""
    old = [*_entry(baseline), *args[1:]] if baseline and args[0] == str(SCRIPT) else args
    _cpu(args, cwd, None)
    if baseline:
        _cpu(old, cwd, baseline)
    now: list[float] = []
    before: list[float] = []
    for _ in range(runs):
        if baseline:
            before.append(_cpu(old, cwd, baseline))
        now.append(_cpu(args, cwd, None))
    return now, before


def _shown(values: list[float]) -> str:
    return f"{statistics.median(values):5.3f} (least {min(values):5.3f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command (default 7)")
    parser.add_argument("--baseline", help="another checkout's plugin folder, to compare")
    args = parser.parse_args()
    if not SCRIPT.is_file():
        raise SystemExit(f"no console script {SCRIPT}: run make setup")
    baseline = str(Path(args.baseline).resolve()) if args.baseline else None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(
        f"load average {os.getloadavg()[0]:.1f} on {cores} cores; CPU seconds, median of "
        f"{args.runs} warm runs{' (before -> after)' if baseline else ''}:"
    )
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="saikoro-bench-startup-") as tmp:
        book = Path(tmp)
        shutil.copytree(REPO / "scenarios", book / "scenarios")
        (book / "mkdocs.yml").write_text("site_name: bench\nplugins:\n  - saikoro\n", "utf-8")
        files = sorted(p.name for p in (book / "scenarios").glob("*.yaml"))
        commands = [(f"validate {f}", [str(SCRIPT), "validate", f"scenarios/{f}"]) for f in files]
        commands += [
            ("--help", [str(SCRIPT), "--help"]),
            ("roll 1D6", [str(SCRIPT), "roll", "1D6"]),
            ("python -c pass", [sys.executable, "-c", "pass"]),
        ]
        for label, argv in commands:
            now, before = _measure(argv, book, args.runs, baseline)
            if label.startswith("validate"):
                worst = max(worst, statistics.median(now))
            was = f"{_shown(before)} -> " if before else ""
            print(f"  {label:34} {was}{_shown(now)}")
    verdict = "OK" if worst <= GOAL else "MISSED"
    print(f"slowest warm validate: {worst:.3f} s CPU (goal <= {GOAL} s) {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
