"""What the oracles share: dice enumeration, the CLI runner, the interval checks."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import yaml

Dist = dict[int, Fraction]


@cache
def dice_sum(count: int, sides: int) -> tuple[tuple[int, Fraction], ...]:
    """Every total of ``count`` dice of ``sides`` faces, by brute-force enumeration."""
    weights: dict[int, int] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        weights[sum(faces)] = weights.get(sum(faces), 0) + 1
    n = sides**count
    return tuple((t, Fraction(w, n)) for t, w in sorted(weights.items()))


def add(d: dict[Any, Fraction], key: Any, p: Fraction) -> None:
    """Accumulate probability ``p`` on ``key``."""
    if p:
        d[key] = d.get(key, Fraction(0)) + p


def write(tmp: Path, name: str, data: Mapping[str, Any]) -> Path:
    """The scenario ``data`` as a YAML file in ``tmp``."""
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump(dict(data), allow_unicode=True, sort_keys=False), "utf-8")
    return path


def simulate(path: Path, battles: int, seed: int, *extra: str) -> dict[str, Any]:
    """``saikoro simulate PATH --format json`` in this process (the CLI's ``main``)."""
    from saikoro._cli import main

    out, err = io.StringIO(), io.StringIO()
    argv = ["simulate", str(path), "--format", "json", "--battles", str(battles)]
    argv += ["--seed", str(seed), "--jobs", "1", *extra]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    assert code == 0, (code, err.getvalue())
    (result,) = json.loads(out.getvalue())  # one object per scenario
    assert isinstance(result, dict)
    return result


def simulate_subprocess(path: Path, battles: int, seed: int, *extra: str) -> dict[str, Any]:
    """The same through ``python -m saikoro`` in a child process (the real entry point)."""
    argv = [sys.executable, "-m", "saikoro", "simulate", str(path), "--format", "json"]
    argv += ["--battles", str(battles), "--seed", str(seed), *extra]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    (result,) = json.loads(done.stdout)  # one object per scenario
    assert isinstance(result, dict)
    return result


@dataclass(frozen=True)
class Figures:
    """One oracle case's figures, for the report and the assertion messages."""

    name: str
    oracle: Fraction
    estimates: tuple[tuple[float, float, float], ...]
    exact: str | None

    def line(self) -> str:
        """A readable summary line."""
        runs = ", ".join(f"{w:.4f} [{lo:.4f}, {hi:.4f}]" for w, lo, hi in self.estimates)
        ex = f" exact={self.exact}" if self.exact is not None else ""
        return f"{self.name}: oracle={self.oracle} ({float(self.oracle):.5f}) cli={runs}{ex}"


def check_case(
    name: str,
    path: Path,
    oracle: Fraction,
    *,
    battles: int,
    seeds: Sequence[int],
    extra: Iterable[str] = (),
    misses: int = 0,
    subprocess_run: bool = False,
    tolerance: Fraction = Fraction(0),
) -> Figures:
    """Run the CLI once per seed and check it against ``oracle``.

    Every run's 95 % interval must contain the oracle's value, ``misses`` excepted; when
    the first run gives ``exact``, its fraction must equal the oracle's exactly (within
    ``tolerance``, for an oracle that adds floats). The exact value does not depend on the
    seed: the later seeds' runs skip it (``--no-exact``), so each case is solved once.
    """
    extra = tuple(extra)
    run = simulate_subprocess if subprocess_run else simulate
    estimates = []
    exact: str | None = None
    missed = 0
    for i, seed in enumerate(seeds):
        later = ("--no-exact",) if i and "--no-exact" not in extra else ()
        r = run(path, battles, seed, *extra, *later)
        assert r["battles"] == battles and r["seed"] == seed
        assert sum(r["rounds"].values()) == battles
        lo, hi = r["win_low"], r["win_high"]
        estimates.append((r["win"], lo, hi))
        if not lo <= float(oracle) <= hi:
            missed += 1
        if "exact_fraction" in r:
            exact = r["exact_fraction"]
    fig = Figures(name, oracle, tuple(estimates), exact)
    if exact is not None:
        gap = abs(Fraction(exact) - oracle)
        assert gap <= tolerance, f"exact differs from the oracle: {fig.line()}"
    assert missed <= misses, f"{missed} intervals miss the oracle: {fig.line()}"
    return fig
