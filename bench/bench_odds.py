"""Benchmark: exact odds with saikoro against icepool, each in fresh processes.

For every command of the suite and each tool, a new Python process imports the tool
and computes the distribution; the time is measured inside that process and includes
the import (interpreter start-up is not counted). Each measurement is repeated and
the best (smallest) time kept, the one least disturbed by other load on the machine.
Both tools run with byte-code caching into one temporary directory
(``PYTHONPYCACHEPREFIX``) after a warm-up run, so neither pays for compiling sources.

The results must agree exactly; for exploding dice (``U``) icepool caps the explosion
depth while saikoro drops (and reports) the mass beyond it, so there the outcomes
must agree within the truncation saikoro reports.

Run: ``.venv/bin/python bench/bench_odds.py [--repeat N] [COMMAND ...]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SUITE = [
    "10D6",
    "30D6",
    "20D10",
    "4D6KH3",
    "8D10KH3",
    "12D10KH4",
    "9B10>=7",
    "3U10[10]",
    "6U10[10]",
]

SAIKORO = """
import time, json, sys
t0 = time.perf_counter()
import saikoro
odds = saikoro.odds(sys.argv[1])
elapsed = time.perf_counter() - t0
dist = {str(k): f"{p.numerator}/{p.denominator}" for k, p in odds.distribution.items()}
print(json.dumps({"time": elapsed, "dist": dist,
                  "truncated": f"{odds.truncated.numerator}/{odds.truncated.denominator}"}))
"""

ICEPOOL = """
import time, json, sys
t0 = time.perf_counter()
import icepool
die = eval(sys.argv[1], {"icepool": icepool})
denominator = die.denominator()
elapsed = time.perf_counter() - t0
dist = {str(k): f"{q}/{denominator}" for k, q in die.items()}
print(json.dumps({"time": elapsed, "dist": dist}))
"""


def icepool_expression(command: str, depth: int) -> str:
    """The icepool expression computing the same distribution as ``command``."""
    if "U" in command:
        times, rest = command.split("U")
        sides = rest.split("[")[0]
        return f"{times} @ icepool.d({sides}).explode(depth={depth})"
    if "B" in command:
        times, rest = command.split("B")
        sides, target = rest.split(">=")
        return f"{times} @ (icepool.d({sides}) >= {target})"
    if "KH" in command:
        dice, keep = command.split("KH")
        times, sides = dice.split("D")
        return f"icepool.d({sides}).highest({times}, {keep})"
    times, sides = command.split("D")
    return f"{times} @ icepool.d({sides})"


def run(script: str, arg: str, env: dict[str, str]) -> dict[str, object]:
    """Run one measurement in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", script, arg],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


def parse_dist(raw: object) -> dict[int, Fraction]:
    """JSON distribution back to exact fractions."""
    assert isinstance(raw, dict)
    return {int(k): Fraction(v) for k, v in raw.items()}


def agree(mine: dict[int, Fraction], theirs: dict[int, Fraction], truncated: Fraction) -> bool:
    """Exact agreement, or agreement within the reported truncation."""
    if truncated == 0:
        return mine == theirs
    keys = set(mine) | set(theirs)
    gap = sum(abs(mine.get(k, Fraction(0)) - theirs.get(k, Fraction(0))) for k in keys)
    return gap <= 2 * truncated


def depth_of(command: str) -> int:
    """The explosion depth saikoro uses for an exploding command."""
    sys.path.insert(0, str(ROOT / "plugin"))
    from saikoro.dice import depth_for

    times, rest = command.split("U")
    sides = int(rest.split("[")[0])
    threshold = int(rest.split("[")[1].rstrip("]"))
    return depth_for([(int(times), Fraction(max(0, sides - threshold + 1), sides))])


def main() -> int:
    """Run the suite and print the ratios; exit status 1 on any disagreement."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("commands", nargs="*", default=SUITE)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache
        env["PYTHONPATH"] = str(ROOT / "plugin")
        run(SAIKORO, "1D6", env)  # warm the byte-code caches
        run(ICEPOOL, "1 @ icepool.d6", env)
        ratios: list[float] = []
        failures = 0
        print(f"{'command':<12} {'saikoro ms':>11} {'icepool ms':>11} {'ratio':>7}  agree")
        for command in args.commands:
            depth = depth_of(command) if "U" in command else 0
            expression = icepool_expression(command, depth)
            mine_times, their_times = [], []
            mine: dict[str, object] = {}
            theirs: dict[str, object] = {}
            for _ in range(args.repeat):
                mine = run(SAIKORO, command, env)
                theirs = run(ICEPOOL, expression, env)
                mine_times.append(float(mine["time"]))  # type: ignore[arg-type]
                their_times.append(float(theirs["time"]))  # type: ignore[arg-type]
            a, b = min(mine_times), min(their_times)
            ok = agree(
                parse_dist(mine["dist"]),
                parse_dist(theirs["dist"]),
                Fraction(str(mine["truncated"])),
            )
            failures += not ok
            ratios.append(a / b)
            print(f"{command:<12} {a * 1000:11.1f} {b * 1000:11.1f} {a / b:7.2f}  {ok}")
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean ratio (saikoro/icepool): {geo:.3f}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
