"""Playing many battles: fixed chunks, each seeded from (seed, chunk), over processes.

Battles are split into chunks of :data:`CHUNK` battles; chunk *i* draws from
``random.Random(f"saikoro-balance:{seed}:{i}")``. Chunks are independent, so the figures
for a seed are the same whatever ``jobs`` is (1 runs in this process; more use a
process pool), and a run stopped with Ctrl-C reports the chunks it finished.

>>> from saikoro.balance import encounter
>>> from saikoro.scenario import validate_text
>>> sc = validate_text("system: akatsuki\\ntitle: t\\nplayers: 2\\n"
...     "difficulty_targets:\\n  - {name: a, ability: 体躯}\\n", "t.yaml").scenario
>>> r = simulate(encounter(sc), battles=200, seed=1)
>>> r.battles, r.exact is not None, r.win_low <= float(r.exact) <= r.win_high
(200, True, True)
"""

from __future__ import annotations

import os
import random
import signal
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from fractions import Fraction
from typing import Any

from saikoro.dice import InternalError

from ._budget import EXACT_STEPS, Budget, OutOfBudget
from ._errors import BalanceError
from ._model import Encounter
from ._simulator import Simulator, simulator_for
from ._stats import BalanceResult, RulingUsed, Tally, summarise
from ._tactics import Tactics, tactics_for

__all__ = [
    "CHUNK",
    "MAX_JOBS",
    "MAX_SEED",
    "chunk_sizes",
    "default_jobs",
    "rulings_used",
    "run_chunk",
    "simulate",
    "worker_pool",
]

CHUNK = 250
"""Battles per chunk (the unit of seeding and of parallel work)."""

MAX_SEED = 2**64 - 1
"""The largest seed the commands take (``--seed`` of ``saikoro simulate`` and ``tune``)."""

MAX_JOBS = 256
"""The most processes the commands take (``--jobs``)."""


def run_chunk(
    args: tuple[Encounter, Tactics, int, int, int],
    outcomes: list[bool] | None = None,
    deadline: float | None = None,
) -> Tally:
    """Play chunk ``index`` (``count`` battles) of a run seeded ``seed``; ``outcomes``
    (when given) gets whether each battle was won, in order (:mod:`saikoro.tune` pairs
    two versions' battles by it). With ``deadline`` (``time.monotonic``) it stops after
    the battle during which it passed: the battles played are the chunk's first ones,
    whatever the machine (only how many depends on its speed)."""
    enc, tactics, seed, index, count = args
    sim = simulator_for(enc.system)
    prep = sim.prepare(enc, tactics)
    rng = random.Random(f"saikoro-balance:{seed}:{index}")  # see the module
    tally = _tally(enc)
    for _ in range(count):
        won = tally.wins
        sim.battle(prep, rng, tally)
        if outcomes is not None:
            outcomes.append(tally.wins > won)
        if deadline is not None and time.monotonic() >= deadline:
            break
    return tally


def _tally(enc: Encounter) -> Tally:
    """An empty tally for ``enc``: its party, the side missions' conditions to judge."""
    checks = tuple(s.condition for s in enc.side if s.condition is not None)
    return Tally(pcs=len(enc.party.members), checks=checks)


Solved = tuple[Fraction | None, dict[str, Fraction], dict[int, Fraction], str | None]
"""The exact solution: P(win), the named figures, the side missions', why none."""


def solve_exact(args: tuple[Encounter, Tactics, int]) -> Solved:
    """Solve ``enc`` exactly under ``tactics`` (P(win), then the side missions: ``win:``
    alone from P(win), others by :meth:`Simulator.side_exact`; each within its own counted
    :class:`Budget` of ``steps``); in a worker beside the battles' chunks when there are
    several processes."""
    enc, tactics, steps = args
    sim = simulator_for(enc.system)
    prep = sim.prepare(enc, tactics)
    budget = Budget(steps)
    exact: Fraction | None = None
    figures: dict[str, Fraction] = {}
    reason: str | None = None
    try:
        exact, figures = sim.exact(prep, budget)
        if exact is None:
            reason = "この戦闘は厳密解の対象外（シミュレーションのみ）"
    except OutOfBudget:
        reason = f"状態が多すぎるため厳密には解かない（計算量の上限 {budget.limit:,} 手"
        if steps < EXACT_STEPS:  # an author's path: say where a bigger budget is tried
            reason += f"。saikoro simulate は {EXACT_STEPS:,} 手まで試す"
        reason += "）"
    sides: dict[int, Fraction] = {}
    budget = Budget(steps)
    try:
        for spec in enc.side:
            c = spec.condition
            if c is not None and c.only_win and exact is not None:
                sides[spec.index] = exact if c.win else 1 - exact
            elif c is not None and (value := sim.side_exact(prep, c, budget)) is not None:
                sides[spec.index] = value
    except OutOfBudget:
        sides = {}
    return exact, figures, sides, reason


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool and reports."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_pool(jobs: int) -> Any:
    """The one kind of process pool balance plays on (``simulate``'s battles and exact
    solution, :mod:`saikoro.tune`'s versions): forked where the platform can, workers that
    leave Ctrl-C to the parent."""
    import multiprocessing  # here: a run that plays no battle (a cached figure) starts faster

    ctx = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    return ctx.Pool(jobs, initializer=_ignore_sigint)


def default_jobs() -> int:
    """Every core this process may use (``os.process_cpu_count`` where Python has it)."""
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        found: int | None = counter()
    elif hasattr(os, "sched_getaffinity"):
        found = len(os.sched_getaffinity(0))
    else:  # pragma: no cover - platforms without affinity
        found = os.cpu_count()
    return found or 1


def chunk_sizes(battles: int) -> list[int]:
    """How ``battles`` battles are split into chunks (each seeded by its index, see the module)."""
    full, rest = divmod(battles, CHUNK)
    return [CHUNK] * full + ([rest] if rest else [])


def simulate(
    enc: Encounter,
    *,
    battles: int = 2000,
    seed: int = 0,
    tactics: Tactics | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    solve: bool = True,
    keep_partial: bool = False,
    steps: int = EXACT_STEPS,
    seconds: float | None = None,
) -> BalanceResult:
    """Play ``battles`` battles of ``enc`` (and solve it exactly when small).

    ``progress(done, total)`` is called once before the first battle (``done`` 0) and
    after each chunk. Ctrl-C (KeyboardInterrupt) stops the run: with ``keep_partial``
    (``saikoro simulate``) the result then covers the chunks finished and says
    ``interrupted``; otherwise it propagates, so no caller (validate, a build, a cache)
    ever takes a partial figure for the result.
    The exact solution may take ``steps`` of work (:class:`Budget`); with ``seconds``, the
    battles stop once they have taken that long, and the result says so (``cut``: the
    figures are those of the battles played, ``requested`` how many were asked for).
    """
    if battles < 1:
        raise BalanceError("battles must be at least 1")
    tactics = tactics or tactics_for(enc.system)
    sim = simulator_for(enc.system)
    prep = sim.prepare(enc, tactics)
    work = [(enc, tactics, seed, i, n) for i, n in enumerate(chunk_sizes(battles))]
    total = _tally(enc)
    interrupted = False
    cut = False
    deadline = None if seconds is None else time.monotonic() + seconds
    jobs = max(1, min(jobs, len(work)))
    if progress:
        progress(0, battles)
    solved: Solved | None = None
    pending: Any = None  # the exact solution being solved in a worker
    try:
        with ExitStack() as stack:
            if jobs == 1:
                parts: Iterable[Tally] = (run_chunk(item, None, deadline) for item in work)
            else:
                pool = stack.enter_context(worker_pool(jobs))  # terminated on leaving
                # the exact solution in one worker while the others play the battles
                pending = pool.apply_async(solve_exact, ((enc, tactics, steps),)) if solve else None
                parts = pool.imap(run_chunk, work)
            for part in parts:
                total = total + part
                if progress:
                    progress(total.battles, battles)
                if deadline is not None and time.monotonic() >= deadline:
                    cut = total.battles < battles
                    break
            if pending is not None:
                solved = pending.get()
        if solve and solved is None:
            solved = solve_exact((enc, tactics, steps))
    except KeyboardInterrupt:  # Ctrl-C: report the battles finished, without the solution
        if not keep_partial:
            raise
        interrupted = True
    if solved is None or interrupted:
        solved = None, {}, {}, None
    exact, figures, sides, reason = solved
    limit, written = sim.round_limit(enc)
    return summarise(
        total,
        enc,
        side_exact=sides,
        ends=sim.ends_for(prep),
        tactics=tactics.label,
        seed=seed,
        exact=exact,
        exact_figures=figures,
        interrupted=interrupted,
        notes=sim.notes(prep),
        round_limit=limit,
        round_limit_written=written,
        rulings=rulings_used(enc, sim),
        exact_reason=reason,
        requested=battles,
        cut=seconds if cut else None,
    )


def rulings_used(enc: Encounter, sim: Simulator[object]) -> tuple[RulingUsed, ...]:
    """The rulings ``sim``'s figures rely on (:attr:`Simulator.rulings`), each option with
    its value in force for ``enc`` (the scenario's ``rulings:``).

    Raises:
        InternalError: the simulator names a ruling its system does not have.
    """
    rules = enc.rules
    by_key = {r.key: r for r in rules.rulings}
    out = []
    for key in sim.rulings:
        ruling = by_key.get(key)
        if ruling is None:
            raise InternalError(f"{enc.system}: the simulator relies on an unknown ruling {key!r}")
        if ruling.option:
            value = rules.options[ruling.option_name]
            out.append(RulingUsed(key, ruling.title, value, value == ruling.default))
        else:
            out.append(RulingUsed(key, ruling.title))
    return tuple(out)
