"""The author's edit loop: ``saikoro validate`` cold and warm, and ``mkdocs serve`` after a save.

Prints:

* ``saikoro validate FILE`` for every sample scenario (the sample book ``scenarios/`` and
  the samples ``saikoro new`` writes, each in a book of its own so that the book's cache
  folder is used, as pre-commit uses it): cold (an empty balance cache) and warm (the
  same file again), wall and CPU seconds of the whole command, start-up included (goal:
  cold at most 1 s, warm at most 0.2 s per scenario); and ``saikoro validate`` of the
  whole sample book, cold and warm, per scenario;
* ``saikoro validate`` of a 33-line scenario in which nobody can hurt anybody, with
  ``rounds: 99`` and ``balance.battles: 100000`` (a bound, whatever a file asks);
* through a real ``mkdocs serve --dirty`` on a book of the ``saikoro new`` samples: the
  time from saving an edit to the updated page served over HTTP, for an edit that keeps
  the scenario inside its ``balance.win`` and one that takes it far outside (goal: at
  most 2 s each), and for the latter the time until the page shows tune's suggestions
  (computed in the background meanwhile).

Run: ``.venv/bin/python bench/bench_author.py [--no-serve]``. The commands run in fresh
interpreters (``sys.executable``), so start-up time is included.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "NO_MKDOCS_2_WARNING": "1",
    "LANG": "ja_JP.UTF-8",
}
"""The commands' environment: as an author's (compiled modules cached, as Python does
unless told otherwise), Japanese."""
SYSTEMS = ("akatsuki", "cutaction", "getb", "kegare", "kokuryoku")

# the 33-line stalemate the balance gate tests use (issue 28, item 6)
STALL = (REPO / "tests" / "data" / "stall.yaml").read_text("utf-8")


def _run(args: list[str], cwd: Path) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """(wall seconds, CPU seconds, the process) of one command in a fresh interpreter."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "saikoro", *args],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"saikoro {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return wall, cpu, proc


def _new_book(folder: Path) -> Path:
    """A book from ``saikoro new`` with the sample of every built-in system."""
    args = ["new", str(folder), "--title", "ベンチ"]
    for system in SYSTEMS:
        args += ["--system", system]
    _run(args, folder.parent)
    return folder


def _sample_book(folder: Path) -> Path:
    """A copy of the sample book (``scenarios/``) with a ``mkdocs.yml`` of its own."""
    shutil.copytree(REPO / "scenarios", folder / "scenarios")
    (folder / "mkdocs.yml").write_text("site_name: bench\nplugins:\n  - saikoro\n", "utf-8")
    return folder


def _clear(book: Path) -> None:
    shutil.rmtree(book / ".cache", ignore_errors=True)


def bench_validate(book: Path, label: str) -> list[tuple[str, float, float, float, float]]:
    """Per file: (name, cold wall, cold CPU, warm wall, warm CPU)."""
    rows = []
    for file in sorted((book / "scenarios").glob("*.yaml")):
        _clear(book)
        cold = _run(["validate", "-q", f"scenarios/{file.name}"], book)
        warm = _run(["validate", "-q", f"scenarios/{file.name}"], book)
        rows.append((f"{label}/{file.name}", cold[0], cold[1], warm[0], warm[1]))
    return rows


def bench_book(book: Path) -> tuple[int, tuple[float, float], tuple[float, float]]:
    """(files, (cold wall, CPU), (warm wall, CPU)) of ``saikoro validate`` of the book."""
    files = len(list((book / "scenarios").glob("*.yaml")))
    _clear(book)
    cold = _run(["validate", "-q"], book)
    warm = _run(["validate", "-q"], book)
    return files, cold[:2], warm[:2]


# -- serve ----------------------------------------------------------------------------------


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> tuple[int, str]:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - localhost
            return int(response.status), response.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, ""
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, ""


def _until(url: str, ok: Callable[[int, str], bool], deadline: float) -> float:
    """Seconds until ``ok(status, text)`` holds for ``url`` (polled every 20 ms)."""
    start = time.perf_counter()
    while time.perf_counter() - start < deadline:
        status, text = _get(url)
        if ok(status, text):
            return time.perf_counter() - start
        time.sleep(0.02)
    raise SystemExit(f"{url}: no update within {deadline} s")


def _edit_hp(path: Path, enemy_hp: int) -> None:
    """Set the first enemy's ``hp:`` (the line the sample writes) to ``enemy_hp``."""
    text = path.read_text("utf-8")
    edited, count = re.subn(r"^(    hp: )\d+$", rf"\g<1>{enemy_hp}", text, count=1, flags=re.M)
    if count != 1:
        raise SystemExit(f"{path}: no enemy hp line to edit")
    path.write_text(edited, "utf-8")


def bench_serve(book: Path) -> list[tuple[str, float]]:
    """Save -> updated page served, through ``mkdocs serve --dirty`` (kegare's sample)."""
    port = _free_port()
    page = f"http://127.0.0.1:{port}/scenarios/kegare-sample/"
    _clear(book)
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--dirty", "-a", f"127.0.0.1:{port}"],
        cwd=book,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    out: list[tuple[str, float]] = []
    target = book / "scenarios" / "kegare-sample.yaml"
    try:
        start = time.perf_counter()
        _until(page, lambda status, _: status == 200, 600)
        out.append(("first build, until served", time.perf_counter() - start))
        time.sleep(1.1)  # later mtimes than the first build's output
        hp = int(re.search(r"^    hp: (\d+)$", target.read_text("utf-8"), re.M).group(1))  # type: ignore[union-attr]
        for label, value, word in (
            ("an edit inside the target (enemy hp +1)", hp + 1, "範囲内"),
            ("an edit far outside the target (enemy hp x20)", hp * 20, "範囲外"),
        ):
            shown, judged = f"<dd>{value}</dd>", f"（{word}"
            start = time.perf_counter()
            _edit_hp(target, value)
            _until(page, lambda _, text: shown in text, 120)  # noqa: B023 - used at once
            out.append((f"{label}: page served", time.perf_counter() - start))
            _until(page, lambda _, text: judged in text, 300)  # noqa: B023 - used at once
            out.append((f"{label}: verdict {word} on the page", time.perf_counter() - start))
        _until(page, lambda _, text: "saikoro-balance-suggestions" in text, 600)
        out.append(("... and tune's suggestions on the page", time.perf_counter() - start))
    finally:
        process.terminate()
        process.wait(timeout=30)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-serve", action="store_true", help="only the validate figures")
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(
        f"load average {os.getloadavg()[0]:.1f} on {cores} cores (wall times grow with it; "
        "CPU times do not)"
    )
    with tempfile.TemporaryDirectory(prefix="saikoro-bench-author-") as tmp:
        base = Path(tmp)
        samples = _sample_book(base / "samples")
        new = _new_book(base / "new")
        print("saikoro validate FILE (wall / CPU seconds, start-up included):")
        worst_cold = worst_warm = 0.0
        for name, cw, cc, ww, wc in [
            *bench_validate(samples, "scenarios"),
            *bench_validate(new, "new"),
        ]:
            worst_cold, worst_warm = max(worst_cold, cw), max(worst_warm, ww)
            print(f"  {name:36} cold {cw:5.2f} / {cc:5.2f}   warm {ww:5.2f} / {wc:5.2f}")
        print(
            f"  slowest: cold {worst_cold:.2f} s (goal <= 1 s) "
            f"{'OK' if worst_cold <= 1 else 'MISSED'}, warm {worst_warm:.2f} s (goal <= 0.2 s "
            f"per scenario) {'OK' if worst_warm <= 0.2 else 'over: one process start'}"
        )
        for label, book in (("sample book scenarios/", samples), ("saikoro new samples", new)):
            files, cold, warm = bench_book(book)
            print(
                f"saikoro validate of the {label} ({files} files): cold {cold[0]:.2f} s wall "
                f"/ {cold[1]:.2f} s CPU ({cold[0] / files:.2f} s per scenario), warm "
                f"{warm[0]:.2f} / {warm[1]:.2f} ({warm[0] / files:.2f} s per scenario, goal "
                f"<= 0.2) {'OK' if warm[0] / files <= 0.2 else 'MISSED'}"
            )
        stall = base / "stall"
        stall.mkdir()
        (stall / "stall.yaml").write_text(STALL, "utf-8")
        wall, cpu, proc = _run(["validate", "stall.yaml"], stall)
        cut = "cut and said so" if "打ち切" in proc.stdout else "NOT CUT"
        print(
            f"saikoro validate of the 33-line stalemate (rounds: 99, balance.battles: 100000): "
            f"{wall:.2f} s wall / {cpu:.2f} s CPU, {cut}"
        )
        if args.no_serve:
            return 0
        for name, seconds in bench_serve(new):
            goal = (
                ""
                if "first" in name or "verdict" in name or "..." in name
                else (f" (goal <= 2 s) {'OK' if seconds <= 2 else 'MISSED'}")
            )
            print(f"mkdocs serve --dirty, {name}: {seconds:.2f} s{goal}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
