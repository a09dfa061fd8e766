"""What to change: the smallest edits of a scenario's own numbers that bring its win rate
into its ``balance.win`` range.

The search reads the scenario's numbers from its definition (every integer of its enemies
and difficulty targets, with the bounds the schema gives, and the main mission's round
limit; the enemies' count), never from a list of fields per system, so any system is
tuned the same way. It goes in three steps:

1. **Sensitivity.** Each number moved by one step (1, or a tenth of a large value), the
   win rate measured again: how much it moves per step. Every measurement plays the same
   battles (one seed for all: common random numbers), so the differences are not noise,
   and uses the exact value wherever the encounter is small enough to be solved.
2. **Search.** Along the direction that moves the win rate towards the range, each number
   is stepped (1, 2, 3, 5, 8... steps, then bisected) until the screened estimate lands in
   the range; the edits found are ranked by their relative size. When no single edit
   reaches the range, pairs of the most sensitive numbers are tried.
3. **Confirmation.** The best candidates are played again with more battles until the 95 %
   interval lies inside the range (or the exact value does), or the battles' cap is reached
   (then the suggestion says it could not be confirmed).

Edits are written back by :mod:`saikoro.balance._apply` (comments and layout kept).
"""

from __future__ import annotations

import copy
import multiprocessing
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import yaml

from saikoro.dice import InternalError
from saikoro.scenario import DEFINITIONS, Int, ListOf, Obj, Scenario, validate_text

from ._budget import Budget, OutOfBudget
from ._check import scenario_tactics
from ._errors import BalanceError
from ._interval import wilson
from ._model import Encounter, encounter
from ._runner import _chunks, _ignore_sigint, run_chunk, simulate
from ._simulator import simulator_for
from ._verdict import verdict

__all__ = [
    "CONFIRM_MAX",
    "SCREEN",
    "Change",
    "Knob",
    "Sensitivity",
    "Suggestion",
    "TuneResult",
    "knobs",
    "tune",
]

SCREEN = 500
"""Battles per screening measurement (a candidate's first estimate)."""

CONFIRM_MAX = 40_000
"""The most battles a candidate is played to confirm it (doubling from :data:`SCREEN`)."""

EXACT_TUNE_STEPS = 1_000_000
"""The budget of one exact measurement while tuning (a tenth of a figure's own budget:
tuning measures many encounters)."""

SUGGESTIONS = 3
"""Suggestions confirmed and shown."""

FRESH = 10**6
"""The first chunk of the battles a confirmation plays: no screening reaches it (a
screening plays at most ``--screen``'s cap, 1,000,000 battles: 4,000 chunks)."""

SEARCHED = 6
"""Numbers searched one by one: those whose sensitivity predicts the smallest relative
edit (the others would need larger ones, or move the win rate too little to reach it)."""

_SECTIONS = ("enemies", "difficulty_targets")
"""The parts of a scenario whose numbers are the scenario's own (the party is the players')."""


@dataclass(frozen=True)
class Knob:
    """One number of the scenario that tuning may change.

    Attributes:
        path: its key path as validation names it (``scenario.enemies[0].hp``).
        keys: the keys leading to it in the scenario's data.
        value: its value in the file (``None``: not written; the round limit's default).
        low / high: the bounds the schema gives it.
        label: what it is, for a reader (``スライム の hp``).
        written: whether the file writes it (else tuning adds it).
    """

    path: str
    keys: tuple[str | int, ...]
    value: int
    low: int
    high: int
    label: str
    written: bool = True

    @property
    def step(self) -> int:
        """One step of this number: 1, or about a tenth of a large value."""
        return max(1, round(abs(self.value) / 10)) if abs(self.value) >= 20 else 1


@dataclass(frozen=True)
class Change:
    """One edit: a number set to a new value, or an enemy added or removed."""

    path: str
    label: str
    old: int | None
    new: int | None
    line: int
    column: int
    keys: tuple[str | int, ...] = ()
    kind: str = "set"
    """``set`` a number, ``add_enemy`` (a copy of the enemy at ``keys``), ``remove_enemy``."""

    def yaml_text(self) -> str:
        """The change as a person would write it in the file."""
        if self.kind == "add_enemy":
            return "enemies: 同じエネミーをもう1体"
        if self.kind == "remove_enemy":
            return "enemies: このエネミーを除く"
        key = self.path.rsplit(".", 1)[-1]
        return f"{key}: {self.old} → {self.new}" if self.old is not None else f"{key}: {self.new}"

    def to_json(self) -> dict[str, Any]:
        """The change as JSON."""
        return {
            "path": self.path,
            "label": self.label,
            "kind": self.kind,
            "old": self.old,
            "new": self.new,
            "line": self.line,
            "column": self.column,
        }


@dataclass(frozen=True)
class Sensitivity:
    """How much the win rate moves when one number moves by one step."""

    path: str
    label: str
    value: int
    step: int
    per_step: float
    """Change of the win rate per step up (positive: the number helps the PCs)."""

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "path": self.path,
            "label": self.label,
            "value": self.value,
            "step": self.step,
            "per_step": self.per_step,
        }


@dataclass(frozen=True)
class Measure:
    """A win rate measured for one version of the scenario."""

    win: float
    low: float
    high: float
    battles: int
    exact: Fraction | None = None

    @property
    def value(self) -> float:
        """The figure judged: the exact value where there is one."""
        return float(self.exact) if self.exact is not None else self.win


@dataclass(frozen=True)
class Suggestion:
    """Edits that bring the win rate into the range, with the figure that shows it."""

    changes: tuple[Change, ...]
    measure: Measure
    confirmed: bool
    size: float
    """The edits' relative size (what ranks suggestions: smaller first)."""

    @property
    def verdict(self) -> str:
        """The verdict of the new figure."""
        return verdict(self.measure.value)

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        m = self.measure
        out: dict[str, Any] = {
            "changes": [c.to_json() for c in self.changes],
            "win": m.win,
            "win_low": m.low,
            "win_high": m.high,
            "battles": m.battles,
            "confirmed": self.confirmed,
            "verdict": self.verdict,
        }
        if m.exact is not None:
            out["exact"] = float(m.exact)
            out["exact_fraction"] = str(m.exact)
        return out


@dataclass(frozen=True)
class TuneResult:
    """What tuning found for one scenario."""

    scenario: str
    target: tuple[Fraction, Fraction]
    target_text: str
    seed: int
    baseline: Measure
    sensitivities: tuple[Sensitivity, ...]
    suggestions: tuple[Suggestion, ...]
    reason: str | None = None
    """Why there is no suggestion (already in range, nothing to tune, none found)."""
    measured: int = 0
    """Versions of the scenario measured."""
    decisive: tuple[str, ...] = field(default_factory=tuple)
    """What decides the fight, in words: the enemy action that deals the party the most
    damage, the PC downed (or failing) most often, the check least likely to succeed."""

    @property
    def in_range(self) -> bool:
        """Whether the scenario's own figure already lies in the range."""
        low, high = self.target
        return low <= Fraction(self.baseline.value) <= high

    def to_json(self) -> dict[str, Any]:
        """As JSON (``--format json``)."""
        b = self.baseline
        out: dict[str, Any] = {
            "scenario": self.scenario,
            "target": self.target_text,
            "seed": self.seed,
            "baseline": {"win": b.win, "win_low": b.low, "win_high": b.high, "battles": b.battles},
            "in_range": self.in_range,
            "sensitivity": [s.to_json() for s in self.sensitivities],
            "suggestions": [s.to_json() for s in self.suggestions],
            "reason": self.reason,
            "measured": self.measured,
            "decisive": list(self.decisive),
        }
        if b.exact is not None:
            out["baseline"]["exact"] = float(b.exact)
            out["baseline"]["exact_fraction"] = str(b.exact)
        return out


# -- the numbers ----------------------------------------------------------------------------


def _walk(
    kind: object, data: object, keys: tuple[str | int, ...], path: str
) -> Iterator[tuple[tuple[str | int, ...], str, Int]]:
    """Every integer the definition ``kind`` allows inside ``data``, with its keys and path."""
    if isinstance(kind, Obj) and isinstance(data, dict):
        for f in kind.fields:
            if f.name in data:
                yield from _walk(f.type, data[f.name], (*keys, f.name), f"{path}.{f.name}")
    elif isinstance(kind, ListOf) and isinstance(data, list):
        for i, item in enumerate(data):
            yield from _walk(kind.item, item, (*keys, i), f"{path}[{i}]")
    elif isinstance(kind, Int) and isinstance(data, int) and not isinstance(data, bool):
        yield keys, path, kind


def _label(data: dict[str, Any], keys: tuple[str | int, ...]) -> str:
    """A reader's name for the number at ``keys``: the names of what holds it, then its key."""
    names = []
    node: Any = data
    for k in keys[:-1]:
        node = node[k]
        if isinstance(node, dict) and isinstance(node.get("name"), str):
            names.append(node["name"])
    return " の ".join([*names, str(keys[-1])])


def knobs(system: str, data: dict[str, Any]) -> list[Knob]:
    """The numbers of ``data`` (a valid scenario's plain data) that tuning may change."""
    root = DEFINITIONS[system]
    out: list[Knob] = []
    for section in _SECTIONS:
        if section not in data:
            continue
        kind = root.field(section).type
        for keys, path, bounds in _walk(kind, data[section], (section,), f"scenario.{section}"):
            value = _get(data, keys)
            if bounds.low == bounds.high:
                continue
            out.append(Knob(path, keys, value, bounds.low, bounds.high, _label(data, keys)))
    main = (data.get("missions") or {}).get("main")
    if isinstance(main, dict):
        rounds = main.get("rounds")
        default = simulator_for(system).default_rounds
        if isinstance(rounds, int) or default is not None:
            value = rounds if isinstance(rounds, int) else int(default or 1)
            out.append(
                Knob(
                    "scenario.missions.main.rounds",
                    ("missions", "main", "rounds"),
                    value,
                    1,
                    99,
                    "ラウンド上限（missions.main.rounds）",
                    written=isinstance(rounds, int),
                )
            )
    return out


def _get(data: Any, keys: Sequence[str | int]) -> Any:
    for k in keys:
        data = data[k]
    return data


def _set(data: Any, keys: Sequence[str | int], value: object) -> None:
    for k in keys[:-1]:
        data = data[k]
    data[keys[-1]] = value


# -- measuring ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Job:
    """One version of the scenario to measure (picklable: sent to worker processes)."""

    text: str
    filename: str
    battles: int
    seed: int
    exact: bool


def _encounter_of(text: str, filename: str) -> Encounter | None:
    result = validate_text(text, filename)
    if result.scenario is None:
        return None
    return encounter(result.scenario)


def _measure(job: _Job) -> Measure | None:
    """The win rate of one version (``None``: the edit makes the scenario invalid)."""
    enc = _encounter_of(job.text, job.filename)
    if enc is None:
        return None
    tactics = scenario_tactics(enc)
    exact: Fraction | None = None
    if job.exact:
        sim = simulator_for(enc.system)
        try:
            exact, _ = sim.exact(sim.prepare(enc, tactics), Budget(EXACT_TUNE_STEPS))
        except OutOfBudget:
            exact = None
    if exact is not None:
        p = float(exact)
        return Measure(p, p, p, 0, exact)
    r = simulate(enc, battles=job.battles, seed=job.seed, tactics=tactics, solve=False)
    return Measure(r.win, r.win_low, r.win_high, r.battles)


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


@dataclass(frozen=True)
class _Chunk:
    """Chunk ``index`` (``count`` battles) of one version's battles (picklable)."""

    text: str
    filename: str
    seed: int
    index: int
    count: int


def _play_chunk(job: _Chunk) -> tuple[int, int] | None:
    """(wins, battles) of one chunk, seeded as :func:`~._runner.simulate` seeds it (so a
    measurement of n battles is the first chunks of a longer one); ``None``: invalid."""
    enc = _cached_encounter(job.text, job.filename)
    if enc is None:
        return None
    tally = run_chunk((enc, scenario_tactics(enc), job.seed, job.index, job.count))
    return tally.wins, tally.battles


class _Measurer:
    """Measures versions of one scenario, caching by content, over a process pool.

    Battles are played in :func:`~._runner.simulate`'s seeded chunks, spread over the pool
    whatever the number of versions measured at once, and kept: a screening's figures are
    those ``simulate`` gives for the same seed and battles, and confirming a candidate with
    more battles plays only the chunks not played yet.
    """

    def __init__(self, filename: str, seed: int, exact: bool, jobs: int) -> None:
        self.filename = filename
        self.seed = seed
        self.exact = exact
        self.jobs = jobs
        self.cache: dict[tuple[str, int, bool], Measure | None] = {}
        self._chunks: dict[tuple[str, int, int], tuple[int, int] | None] = {}
        self._pool: Any = None

    def __enter__(self) -> _Measurer:
        if self.jobs > 1:
            ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
            self._pool = ctx.Pool(self.jobs, initializer=_ignore_sigint)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()

    def _map(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> list[Any]:
        if self._pool is not None and len(jobs) > 1:
            return list(self._pool.map(fn, jobs, chunksize=1))
        return [fn(j) for j in jobs]

    def many(
        self, texts: Sequence[str], battles: int, *, fresh: bool = False
    ) -> list[Measure | None]:
        """The measures of ``texts`` with ``battles`` battles each; ``fresh``: battles that
        no screening plays (chunks from :data:`FRESH` on), to confirm a candidate on
        battles other than those it was chosen on."""
        todo = [t for t in dict.fromkeys(texts) if (t, battles, fresh) not in self.cache]
        if self.exact:
            jobs = [_Job(t, self.filename, battles, self.seed, self.exact) for t in todo]
            for t, m in zip(todo, self._map(_measure, jobs), strict=True):
                self.cache[(t, battles, fresh)] = m
        else:
            self._play(todo, battles, fresh)
        return [self.cache[(t, battles, fresh)] for t in texts]

    def _play(self, texts: Sequence[str], battles: int, fresh: bool) -> None:
        first = FRESH if fresh else 0
        sizes = [(first + i, n) for i, n in enumerate(_chunks(battles))]
        needed = [
            _Chunk(t, self.filename, self.seed, i, n)
            for t in texts
            for i, n in sizes
            if (t, i, n) not in self._chunks
        ]
        for job, found in zip(needed, self._map(_play_chunk, needed), strict=True):
            self._chunks[(job.text, job.index, job.count)] = found
        for t in texts:
            parts = [self._chunks[(t, i, n)] for i, n in sizes]
            measure: Measure | None = None
            if all(part is not None for part in parts):
                wins = sum(part[0] for part in parts if part is not None)
                played = sum(part[1] for part in parts if part is not None)
                low, high = wilson(wins, played)
                measure = Measure(wins / played, low, high, played)
            self.cache[(t, battles, fresh)] = measure


# -- edits ----------------------------------------------------------------------------------


def _text(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def _edited(data: dict[str, Any], changes: Sequence[tuple[Knob, int]]) -> dict[str, Any]:
    out = copy.deepcopy(data)
    for knob, value in changes:
        _set(out, knob.keys, value)
    return out


def _size(changes: Sequence[tuple[Knob, int]]) -> float:
    """The relative size of edits (the sum over edits of |change| / |old value|)."""
    return sum(abs(v - k.value) / max(1, abs(k.value)) for k, v in changes)


def _side(m: Measure, low: Fraction, high: Fraction) -> int:
    """-1 below the range, 0 inside, +1 above."""
    v = Fraction(m.exact) if m.exact is not None else Fraction(m.win)
    return -1 if v < low else 1 if v > high else 0


_STEPS = (1, 2, 3, 5, 8, 13, 21, 34)


def _ladder(knob: Knob, direction: int) -> list[int]:
    """The values tried along ``direction`` (+1 up, -1 down), nearest first, within bounds."""
    out: list[int] = []
    for n in _STEPS:
        v = knob.value + direction * n * knob.step
        if v < knob.low or v > knob.high:
            edge = knob.high if direction > 0 else knob.low
            if edge != knob.value and edge not in out:
                out.append(edge)
            break
        out.append(v)
    return out


@dataclass(frozen=True)
class _Candidate:
    size: float
    changes: tuple[Change, ...]
    text: str
    measure: Measure


# -- the search -----------------------------------------------------------------------------


class _Search:
    """One scenario's search: its data, range, measurer and where its numbers are written."""

    def __init__(
        self,
        data: dict[str, Any],
        *,
        low: Fraction,
        high: Fraction,
        measurer: _Measurer,
        positions: dict[str, tuple[int, int]],
        screen: int,
    ) -> None:
        self.data = data
        self.low, self.high = low, high
        self.measurer = measurer
        self.positions = positions
        self.screen = screen

    def where(self, path: str) -> tuple[int, int]:
        probe = path
        while probe not in self.positions and "." in probe:
            probe = probe.rsplit(".", 1)[0]
        return self.positions.get(probe, (1, 1))

    def change(self, knob: Knob, value: int) -> Change:
        line, column = self.where(knob.path)
        old = knob.value if knob.written else None
        return Change(knob.path, knob.label, old, value, line, column, knob.keys)

    def measure(self, edits: Sequence[tuple[Knob, int]]) -> tuple[str, Measure | None]:
        text = _text(_edited(self.data, edits))
        (m,) = self.measurer.many([text], self.screen)
        return text, m

    def candidate(self, edits: Sequence[tuple[Knob, int]], text: str, m: Measure) -> _Candidate:
        changes = tuple(self.change(k, v) for k, v in edits)
        return _Candidate(_size(edits), changes, text, m)

    def single(self, knob: Knob, direction: int, start: int) -> _Candidate | None:
        """The value of ``knob`` nearest its own (along ``direction``) that lands in the
        range: the ladder of steps, then bisection back towards the original value."""
        ladder = _ladder(knob, direction)
        texts = [_text(_edited(self.data, [(knob, v)])) for v in ladder]
        previous = knob.value
        for v, text, m in zip(ladder, texts, self._along(texts), strict=True):
            if m is None:
                return None  # an edit the scenario's own rules refuse: so are those beyond
            side = _side(m, self.low, self.high)
            if side == start:
                previous = v
                continue
            # the range lies between ``previous`` (short of it) and ``v``: bisect
            best = (v, text, m) if side == 0 else None
            lo, hi = previous, v
            while abs(hi - lo) > 1:
                mid = (lo + hi) // 2
                mid_text, mm = self.measure([(knob, mid)])
                if mm is None:
                    break
                mid_side = _side(mm, self.low, self.high)
                if mid_side == start:
                    lo = mid
                else:
                    hi = mid
                    if mid_side == 0:
                        best = (mid, mid_text, mm)
            if best is None:
                return None  # the range is narrower than one step of this number
            return self.candidate([(knob, best[0])], best[1], best[2])
        return None

    def _along(self, texts: Sequence[str]) -> Iterator[Measure | None]:
        """The measures of ``texts`` in order, measured a few at a time (as many as there
        are processes), so that a ladder stops being measured where it reaches the range."""
        group = max(2, self.measurer.jobs)
        for i in range(0, len(texts), group):
            yield from self.measurer.many(texts[i : i + group], self.screen)

    def pair(self, a: Knob, da: int, b: Knob, db: int, start: int) -> _Candidate | None:
        """Both numbers moved along their helpful directions by the same number of steps."""
        for n in _STEPS:
            va = min(max(a.value + da * n * a.step, a.low), a.high)
            vb = min(max(b.value + db * n * b.step, b.low), b.high)
            edits = [(a, va), (b, vb)]
            text, m = self.measure(edits)
            if m is None:
                return None
            side = _side(m, self.low, self.high)
            if side == 0:
                return self.candidate(edits, text, m)
            if side != start or (va in (a.low, a.high) and vb in (b.low, b.high)):
                return None
        return None

    def counts(self, start: int) -> list[_Candidate]:
        """One enemy fewer (the PCs lose too often) or one more (they win too often)."""
        enemies = self.data.get("enemies") or []
        needed = set((self.data.get("balance") or {}).get("defeat") or ())
        ids = {str(e.get("id")) for e in enemies}
        out = []
        for i, e in enumerate(enemies):
            edited = copy.deepcopy(self.data)
            if start < 0:
                if len(enemies) < 2 or e.get("id") in needed:
                    continue
                del edited["enemies"][i]
                kind = "remove_enemy"
            else:
                twin = copy.deepcopy(e)
                twin["id"] = _fresh_id(str(e.get("id", "enemy")), ids)
                edited["enemies"].insert(i + 1, twin)
                kind = "add_enemy"
            text = _text(edited)
            (m,) = self.measurer.many([text], self.screen)
            if m is None or _side(m, self.low, self.high) != 0:
                continue
            path = f"scenario.enemies[{i}]"
            line, column = self.where(path)
            name = str(e.get("name", e.get("id")))
            change = Change(path, name, None, None, line, column, ("enemies", i), kind)
            out.append(_Candidate(1.0, (change,), text, m))
        return out

    def confirm(self, text: str, confirm_max: int) -> tuple[bool, Measure]:
        """Battles other than those the candidate was chosen on (so that its luck there
        does not confirm it), more of them (x4 each time) until the 95 % interval lies
        inside the range, the estimate leaves it, or the cap is reached; the exact value
        decides at once."""
        battles = self.screen
        while True:
            (m,) = self.measurer.many([text], battles, fresh=True)
            if m is None:
                raise InternalError("a candidate stopped validating")
            if m.exact is not None:
                return self.low <= m.exact <= self.high, m
            if float(self.low) <= m.low and m.high <= float(self.high):
                return True, m
            if battles >= confirm_max or _side(m, self.low, self.high) != 0:
                return False, m
            battles = min(confirm_max, battles * 4)


def _fresh_id(base: str, taken: set[str]) -> str:
    stem = re.sub(r"-\d+$", "", base)
    for n in range(2, 100):
        candidate = f"{stem}-{n}"
        if candidate not in taken:
            return candidate
    raise InternalError(f"no free id for a copy of {base!r}")


def tune(
    scenario: Scenario,
    *,
    seed: int = 0,
    jobs: int = 1,
    screen: int = SCREEN,
    confirm_max: int = CONFIRM_MAX,
    progress: Callable[[str], None] | None = None,
) -> TuneResult:
    """Search ``scenario``'s numbers for edits that bring its win rate into ``balance.win``.

    Raises:
        BalanceError: the scenario gives no ``balance.win`` range, or has no file.
    """
    model = scenario.model
    if model.balance is None or not model.balance.win:
        raise BalanceError(
            f"{scenario.path}: no balance.win range to tune towards "
            "(add e.g. `balance: {win: 60%-80%}`)"
        )
    enc = encounter(scenario)
    if enc.balance is None or enc.balance.win is None:
        raise InternalError(f"{scenario.id}: balance.win passed validation but has no range")
    low, high = enc.balance.win
    text = enc.balance.win_text
    tell = progress or (lambda _message: None)
    data = yaml.safe_load(scenario.path.read_text("utf-8")) if scenario.path.is_file() else None
    if not isinstance(data, dict):
        raise BalanceError(f"{scenario.path}: tuning needs the scenario's file")

    def result(base: Measure, measurer: _Measurer, **rest: Any) -> TuneResult:
        return TuneResult(
            scenario.id, (low, high), text, seed, base, measured=len(measurer.cache), **rest
        )

    with _Measurer(scenario.path.name, seed, _solvable(enc), jobs) as measurer:
        (base,) = measurer.many([_text(data)], screen)
        if base is None:
            raise InternalError(f"{scenario.id}: the scenario does not validate when re-read")
        tell("基準の勝率を測った")
        start = _side(base, low, high)
        search = _Search(
            data,
            low=low,
            high=high,
            measurer=measurer,
            positions=dict(scenario.positions),
            screen=screen,
        )
        found = knobs(scenario.system, data)
        sensitivities = _sensitivities(search, found, base)
        tell(f"{len(found)} 個の数値の感度を測った")
        decisive = _decisive(enc, seed, screen)
        if start == 0:
            return result(
                base,
                measurer,
                sensitivities=tuple(sensitivities),
                suggestions=(),
                reason="勝率はすでに目標の範囲内",
                decisive=decisive,
            )
        by_path = {k.path: k for k in found}
        up = start < 0  # the PCs win too rarely: move numbers in the PCs' favour
        moving = [s for s in sensitivities if s.per_step != 0]

        def helping(s: Sensitivity) -> tuple[Knob, int]:
            return by_path[s.path], 1 if (s.per_step > 0) == up else -1

        helpful = [helping(s) for s in moving]
        # the numbers searched one by one: those whose sensitivity predicts the smallest edits
        ranked = sorted(moving, key=lambda s: _predicted_size(s, base.value, low, high))
        candidates = [
            c
            for k, d in map(helping, ranked[:SEARCHED])
            if (c := search.single(k, d, start)) is not None
        ]
        candidates += search.counts(start)
        tell(f"{len(candidates)} 件の単独の変更が見つかった")
        if not candidates:
            top = helpful[:4]
            for i, (a, da) in enumerate(top):
                for b, db in top[i + 1 :]:
                    if (c := search.pair(a, da, b, db, start)) is not None:
                        candidates.append(c)
            tell(f"組み合わせを試した（{len(candidates)} 件）")
        candidates.sort(key=lambda c: (len(c.changes), c.size))
        suggestions = []
        for c in candidates[:SUGGESTIONS]:
            confirmed, m = search.confirm(c.text, confirm_max)
            suggestions.append(Suggestion(c.changes, m, confirmed, c.size))
            tell(f"候補を確かめた（{len(suggestions)}）")
        suggestions.sort(key=lambda s: (not s.confirmed, len(s.changes), s.size))
        reason = None
        if not suggestions:
            reason = (
                "1つか2つの数値の変更では目標の範囲に届かない"
                "（範囲を見直すか、エネミーや判定の構成を変える）"
            )
        return result(
            base,
            measurer,
            sensitivities=tuple(sensitivities),
            suggestions=tuple(suggestions),
            reason=reason,
        )


def _sensitivities(search: _Search, found: Sequence[Knob], base: Measure) -> list[Sensitivity]:
    """Each number one step up (down where it is at its upper bound), the same battles for
    all. Where that step changes nothing (a fight won or lost every time), five and then
    twenty-one steps each way say which way the number leads."""
    out: list[Sensitivity] = []
    flat: list[Knob] = list(found)
    for reach, signs in ((1, (1,)), (5, (1, -1)), (21, (1, -1))):
        todo = flat
        probes = []
        for k in todo:
            values = [min(max(k.value + s * reach * k.step, k.low), k.high) for s in signs]
            if reach == 1 and values[0] == k.value:  # at its upper bound
                values = [max(k.value - k.step, k.low)]
            probes += [(k, v) for v in dict.fromkeys(values) if v != k.value]
        texts = [_text(_edited(search.data, [(k, v)])) for k, v in probes]
        measured = search.measurer.many(texts, search.screen)
        slopes: dict[str, list[float]] = {}
        for (k, v), m in zip(probes, measured, strict=True):
            if m is not None:
                steps = (v - k.value) / k.step
                slopes.setdefault(k.path, []).append((m.value - base.value) / steps)
        flat = []
        for k in todo:
            if k.path not in slopes:
                if reach == 1:
                    flat.append(k)  # its one step was refused: try further, both ways
                continue
            slope = sum(slopes[k.path]) / len(slopes[k.path])
            if slope == 0 and reach < 21:
                flat.append(k)
                continue
            out.append(Sensitivity(k.path, k.label, k.value, k.step, slope))
    out.sort(key=lambda s: -abs(s.per_step))
    return out


def _predicted_size(s: Sensitivity, base: float, low: Fraction, high: Fraction) -> float:
    """The relative size of the edit of ``s``'s number the sensitivity predicts lands in the
    range (its middle): steps needed times the step, over the value."""
    aim = float(low + high) / 2
    steps = abs(aim - base) / abs(s.per_step)
    return steps * s.step / max(1, abs(s.value))


def _decisive(enc: Encounter, seed: int, battles: int) -> tuple[str, ...]:
    """The enemy action, the PC and the check that decide the fight (see TuneResult)."""
    r = simulate(enc, battles=battles, seed=seed, tactics=scenario_tactics(enc))
    out = []
    if r.dangerous is not None:
        action = r.dangerous[0].rpartition(":")[2]
        who = f"{r.dangerous_enemy}の" if r.dangerous_enemy else ""
        out.append(f"最も危険な敵の行動：{who}「{action}」（1戦あたり {r.dangerous[1]:.1f}）")
    sim = simulator_for(enc.system)
    if r.pcs and sim.pcs_go_down:
        worst = max(r.pcs, key=lambda p: p.downed)
        if worst.downed > 0:
            out.append(
                f"{sim.downed_caption}が最も高いPC：{worst.name}（{worst.downed * 100:.1f}%）"
            )
    checks = {k: v for k, v in r.exact_figures.items() if k.startswith("P(")}
    if checks:
        name, p = min(checks.items(), key=lambda kv: kv[1])
        out.append(f"最も成功しにくい判定：{name[2:-1]}（{float(p) * 100:.1f}%）")
    return tuple(out)


def _solvable(enc: Encounter) -> bool:
    """Whether measurements use the exact value (the encounter is solved within the tuning
    budget): noise-free and usually cheaper than the battles."""
    sim = simulator_for(enc.system)
    try:
        value, _ = sim.exact(sim.prepare(enc, scenario_tactics(enc)), Budget(EXACT_TUNE_STEPS))
    except OutOfBudget:
        return False
    return value is not None
