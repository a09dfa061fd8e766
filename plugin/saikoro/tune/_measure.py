"""Measuring versions of one scenario for tuning: ``simulate``'s own battles, kept and paired.

Every version is played in :func:`~saikoro.balance.simulate`'s seeded chunks, so a measurement of
*n* battles with seed *s* is the figure ``saikoro simulate --battles n --seed s`` gives for
that version (the first chunks of a longer run are the shorter run). Chunks are kept, so
playing more battles plays only the chunks not played yet, and each chunk keeps which of
its battles were won: two versions measured with the same seed are compared battle by
battle (:func:`difference`, a paired interval), the way common random numbers are meant
to be used. Where the encounter is solved within :data:`EXACT_TUNE_STEPS`, the exact value
is measured instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from saikoro.balance import (
    Budget,
    Encounter,
    OutOfBudget,
    chunk_sizes,
    encounter,
    run_chunk,
    scenario_tactics,
    simulator_for,
    wilson,
    worker_pool,
)
from saikoro.dice import InternalError
from saikoro.scenario import validate_text

__all__ = ["EXACT_TUNE_STEPS", "Difference", "Measure", "Measurer", "difference", "solvable"]

EXACT_TUNE_STEPS = 1_000_000
"""The budget of one exact measurement while tuning (a tenth of a figure's own budget:
tuning measures many encounters)."""


@dataclass(frozen=True)
class Measure:
    """A win rate measured for one version of the scenario.

    ``win`` / ``low`` / ``high`` / ``battles`` / ``seed`` are ``simulate``'s figure for the
    version (its estimate and 95 % Wilson interval); ``exact`` the exact value where the
    version was solved (then no battles were played: ``battles`` is 0).
    """

    win: float
    low: float
    high: float
    battles: int
    seed: int = 0
    exact: Fraction | None = None

    @property
    def value(self) -> float:
        """The figure judged: the exact value where there is one."""
        return float(self.exact) if self.exact is not None else self.win


@dataclass(frozen=True)
class Difference:
    """How much a version's win rate differs from another's: the estimate and its 95 %
    interval (both ends equal when both are exact)."""

    value: float
    low: float
    high: float
    exact: bool = False
    """Both sides exact values."""
    unmoved: bool = False
    """No battle changed its outcome (or the exact values are equal)."""

    @property
    def settled(self) -> bool:
        """Whether its sign is known: the interval leaves out 0 (an exact difference:
        it is not 0)."""
        return self.low > 0 or self.high < 0

    def scaled(self, by: float) -> Difference:
        """The difference divided by ``by`` (steps), the interval too (``by`` > 0)."""
        return Difference(self.value / by, self.low / by, self.high / by, self.exact, self.unmoved)


def difference(changed: Measure, base: Measure, changed_won: int, base_won: int) -> Difference:
    """``changed`` minus ``base``, with a 95 % interval; ``*_won``: bit *i* set when battle
    *i* was won.

    Both measured by battles with the same seed: the battles are paired (the same chunks'
    generators) and the interval is Newcombe's hybrid score interval for paired
    proportions (his method 10: the two Wilson intervals, combined through the
    correlation of the paired outcomes), which keeps inside [-1, 1] and behaves at 0 and
    100 %. An exact value on either side has no error of its own.

    >>> a, b = Measure(0.5, 0.2, 0.8, 8), Measure(0.75, 0.4, 0.9, 8)
    >>> d = difference(b, a, 0b00111111, 0b00001111)
    >>> round(d.value, 3), d.low < 0.25 < d.high, d.settled
    (0.25, True, False)
    >>> d = difference(Measure(0.9, 0.87, 0.92, 400), Measure(0.5, 0.45, 0.55, 400),
    ...                (1 << 360) - 1, (1 << 200) - 1)
    >>> d.settled, d.low > 0.3
    (True, True)
    """
    if changed.exact is not None and base.exact is not None:
        v = float(changed.exact - base.exact)
        return Difference(v, v, v, exact=True, unmoved=v == 0)
    if base.exact is not None:
        e = float(base.exact)
        return Difference(changed.win - e, changed.low - e, changed.high - e)
    if changed.exact is not None:
        e = float(changed.exact)
        return Difference(e - base.win, e - base.high, e - base.low)
    n = base.battles
    if changed.battles != n or changed.seed != base.seed or n == 0:
        raise InternalError("a paired difference needs the same battles of the same seed")
    mask = (1 << n) - 1
    both = (changed_won & base_won).bit_count()
    only_changed = (changed_won & ~base_won & mask).bit_count()
    only_base = (base_won & ~changed_won & mask).bit_count()
    neither = n - both - only_changed - only_base
    p1, p2 = (both + only_changed) / n, (both + only_base) / n
    l1, u1 = wilson(both + only_changed, n)
    l2, u2 = wilson(both + only_base, n)
    rows = (both + only_changed) * (only_base + neither)
    margins = rows * (both + only_base) * (only_changed + neither)
    phi = 0.0 if margins == 0 else (both * neither - only_base * only_changed) / math.sqrt(margins)
    theta = p1 - p2
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    above = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    unmoved = only_changed == only_base == 0
    return Difference(theta, max(-1.0, theta - below), min(1.0, theta + above), False, unmoved)


def _encounter_of(text: str, filename: str) -> Encounter | None:
    result = validate_text(text, filename)
    if result.scenario is None:
        return None
    return encounter(result.scenario)


_ENCOUNTERS: dict[tuple[str, str], Encounter | None] = {}
"""This process's encounters by (text, file name): a worker validates a version once for all
its chunks (cleared when large)."""


def _cached_encounter(text: str, filename: str) -> Encounter | None:
    key = (text, filename)
    if key not in _ENCOUNTERS:
        if len(_ENCOUNTERS) > 64:
            _ENCOUNTERS.clear()
        _ENCOUNTERS[key] = _encounter_of(text, filename)
    return _ENCOUNTERS[key]


def solvable(enc: Encounter) -> bool:
    """Whether measurements use the exact value (the encounter is solved within the tuning
    budget): noise-free and usually cheaper than the battles."""
    sim = simulator_for(enc.system)
    try:
        value, _ = sim.exact(sim.prepare(enc, scenario_tactics(enc)), Budget(EXACT_TUNE_STEPS))
    except OutOfBudget:
        return False
    return value is not None


_INVALID = "invalid"


def _solve(job: tuple[str, str]) -> Fraction | str | None:
    """The exact value of a version (``None``: not solved within the budget; ``"invalid"``:
    the version does not validate)."""
    enc = _cached_encounter(*job)
    if enc is None:
        return _INVALID
    sim = simulator_for(enc.system)
    try:
        value, _ = sim.exact(sim.prepare(enc, scenario_tactics(enc)), Budget(EXACT_TUNE_STEPS))
    except OutOfBudget:
        return None
    return value


@dataclass(frozen=True)
class _Chunk:
    """Chunk ``index`` (``count`` battles) of one version's battles (picklable)."""

    text: str
    filename: str
    seed: int
    index: int
    count: int


def _play_chunk(job: _Chunk) -> tuple[int, int] | None:
    """(battles, won bits) of one chunk, seeded as :func:`~saikoro.balance.simulate` seeds it;
    ``None``: the version does not validate."""
    enc = _cached_encounter(job.text, job.filename)
    if enc is None:
        return None
    outcomes: list[bool] = []
    tally = run_chunk((enc, scenario_tactics(enc), job.seed, job.index, job.count), outcomes)
    bits = sum(1 << i for i, won in enumerate(outcomes) if won)
    if bits.bit_count() != tally.wins:
        raise AssertionError("the chunk's tally and its outcomes disagree")
    return tally.battles, bits


class Measurer:
    """Measures versions of one scenario, caching by content, over a process pool.

    Battles are played in :func:`~saikoro.balance.simulate`'s seeded chunks, spread over the pool
    whatever the number of versions measured at once, and kept (see the module).
    """

    def __init__(self, filename: str, exact: bool, jobs: int) -> None:
        self.filename = filename
        self.exact = exact
        self.jobs = jobs
        self.cache: dict[tuple[str, int, int], Measure | None] = {}
        self.won: dict[tuple[str, int, int], int] = {}
        """(text, battles, seed) -> the battles won, bit *i* for battle *i*."""
        self._chunks: dict[tuple[str, int, int, int], tuple[int, int] | None] = {}
        self._solved: dict[str, Fraction | str | None] = {}
        self._pool: Any = None

    def __enter__(self) -> Measurer:
        if self.jobs > 1:
            self._pool = worker_pool(self.jobs)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()

    @property
    def versions(self) -> int:
        """Versions of the scenario measured."""
        return len({text for text, _, _ in self.cache})

    def _map(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> list[Any]:
        if self._pool is not None and len(jobs) > 1:
            return list(self._pool.map(fn, jobs, chunksize=1))
        return [fn(j) for j in jobs]

    def many(self, texts: Sequence[str], battles: int, seed: int) -> list[Measure | None]:
        """The measures of ``texts``: each ``simulate``'s figure for ``battles`` battles
        seeded ``seed`` (the exact value where solved); ``None``: the text does not
        validate."""
        todo = [t for t in dict.fromkeys(texts) if (t, battles, seed) not in self.cache]
        played = todo
        if self.exact:
            unsolved = [t for t in todo if t not in self._solved]
            jobs = [(t, self.filename) for t in unsolved]
            for t, value in zip(unsolved, self._map(_solve, jobs), strict=True):
                self._solved[t] = value
            played = [t for t in todo if self._solved[t] is None]
            for t in todo:
                value = self._solved[t]
                if isinstance(value, Fraction):
                    p = float(value)
                    self.cache[(t, battles, seed)] = Measure(p, p, p, 0, seed, value)
                elif value == _INVALID:
                    self.cache[(t, battles, seed)] = None
        self._play(played, battles, seed)
        return [self.cache[(t, battles, seed)] for t in texts]

    def _play(self, texts: Sequence[str], battles: int, seed: int) -> None:
        sizes = list(enumerate(chunk_sizes(battles)))
        needed = [
            _Chunk(t, self.filename, seed, i, n)
            for t in texts
            for i, n in sizes
            if (t, seed, i, n) not in self._chunks
        ]
        for job, found in zip(needed, self._map(_play_chunk, needed), strict=True):
            self._chunks[(job.text, seed, job.index, job.count)] = found
        for t in texts:
            parts = [self._chunks[(t, seed, i, n)] for i, n in sizes]
            measure: Measure | None = None
            if all(part is not None for part in parts):
                played = 0
                bits = 0
                for part in parts:
                    if part is not None:
                        bits |= part[1] << played
                        played += part[0]
                wins = bits.bit_count()
                low, high = wilson(wins, played)
                measure = Measure(wins / played, low, high, played, seed)
                self.won[(t, battles, seed)] = bits
            self.cache[(t, battles, seed)] = measure

    def difference(self, changed: str, base: str, battles: int, seed: int) -> Difference | None:
        """How much ``changed``'s win rate differs from ``base``'s (both measured with
        ``battles`` and ``seed``; see :func:`difference`); ``None``: either is invalid."""
        a, b = self.many([changed, base], battles, seed)
        if a is None or b is None:
            return None
        return difference(
            a, b, self.won.get((changed, battles, seed), 0), self.won.get((base, battles, seed), 0)
        )
