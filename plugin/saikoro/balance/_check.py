"""``saikoro validate``'s balance check: simulate, and judge the ``balance:`` target.

Runs only for scenarios that give ``balance.win``. The figures are the site's
(:func:`~saikoro.balance._cache.author_figures`: ``balance.battles`` battles, 400 by
default, from seed 0, the exact solution where the encounter is small), from the book's
cache when the fight was computed before (by validate, pre-commit, a build or serve: the
cache folder of the book the file is in, see :attr:`saikoro.scenario.Book.balance_cache`),
and :func:`~saikoro.balance.judge_target` judges them as the site does:

* the target clearly missed (the exact value, or the whole 95 % interval, outside the
  range): a warning on the ``balance.win`` line that ``--strict`` leaves alone (an error
  with ``saikoro validate --fail-on-miss``: the author decides whether a miss fails);
* an interval across a bound: a warning, never a failure, saying how many battles would
  settle it;
* battles cut by the time limit (:data:`~saikoro.balance.AUTHOR_SECONDS`): a warning on
  the ``balance.battles`` line, never a failure, saying how many were played.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import replace
from pathlib import Path

from saikoro.scenario import Gate, LoadResult, Msg, Problem, Scenario, find_book

from ._cache import SEED, BalanceStore
from ._model import encounter
from ._stats import BalanceResult
from ._verdict import judge_target

__all__ = ["balance_problems", "check_balance", "figures"]

_STORES: dict[Path | None, BalanceStore] = {}
"""One store per cache folder (``None``: files outside any book, memory only)."""


def _percent(x: float) -> str:
    return f"{x * 100:.1f}%"


def _report(message: str) -> None:
    sys.stderr.write(f"saikoro: {message}\n")


@functools.cache
def _cache_folder(folder: Path) -> Path | None:
    book = find_book(folder)
    return book.balance_cache if book is not None else None


def figures(scenario: Scenario) -> BalanceResult:
    """The scenario's balance figures as validation computes them (and the site shows them,
    with the same battles), from the store of the book the file is in when unchanged (its
    cache folder, memory only outside a book; one that cannot be used is reported on
    stderr, never a failure)."""
    where = _cache_folder(Path(scenario.path).resolve().parent)
    store = _STORES.get(where)
    if store is None:
        store = _STORES[where] = BalanceStore(cache_dir=where, report=_report, tolerant=True)
    return store.figures(scenario)


def check_balance(result: LoadResult) -> LoadResult:
    """``result`` with the balance target's verdict added (see the module)."""
    sc = result.scenario
    if sc is None or sc.model.balance is None or not sc.model.balance.win:
        return result
    added = balance_problems(sc, figures(sc), result.file)
    if not added:
        return result
    return replace(result, problems=sorted([*result.problems, *added], key=Problem.sort_key))


def balance_problems(sc: Scenario, r: BalanceResult, file: str) -> list[Problem]:
    """What validate and the build say of ``sc``'s figures ``r`` (``file``: the name to
    show): the ``balance.win`` verdict unless the target is met (``gate`` ``miss`` or
    ``note``), and a note when the battles were cut by time."""
    enc = encounter(sc)
    spec = enc.balance
    out: list[Problem] = []

    def warn(path: str, msg: Msg, gate: Gate) -> None:
        line, column = sc.positions.get(path, sc.positions.get("scenario.balance", (1, 1)))
        out.append(Problem(file, line, column, "warning", path, msg, gate=gate))

    if r.cut is not None:
        cut = (f"{r.requested:,}", f"{r.cut:g}", f"{r.battles:,}", r.requested)
        warn("scenario.balance.battles", Msg("balance.cut", cut), "note")
    if spec is None or spec.win is None:
        return out
    found = judge_target(
        spec.win, win=r.win, low=r.win_low, high=r.win_high, battles=r.battles, exact=r.exact
    )
    figure = (_percent(r.win), _percent(r.win_low), _percent(r.win_high), r.battles, SEED)
    win = "scenario.balance.win"
    if found.state == "out" and r.exact is not None:
        exact = (_percent(float(r.exact)), str(r.exact))
        shown = (*exact, _percent(r.win), r.battles, SEED, spec.win_text)
        warn(win, Msg("balance.outside_exact", shown), "miss")
    elif found.state == "out":
        warn(win, Msg("balance.outside", (*figure, spec.win_text)), "miss")
    elif found.state == "uncertain" and found.needed is None:
        warn(win, Msg("balance.uncertain_edge", (*figure, spec.win_text)), "note")
    elif found.state == "uncertain":
        warn(win, Msg("balance.uncertain", (*figure, spec.win_text, f"{found.needed}")), "note")
    return out
