"""Balance figures for the site: :class:`saikoro.balance.BalanceStore`, with serve's timing.

The figures, their key and their cache files are :mod:`saikoro.balance`'s (the store
``saikoro validate`` uses too, so that validate, pre-commit, ``mkdocs build`` and ``serve``
share one cache folder: the plugin's ``balance.cache_dir``), and so are tuning's
suggestions kept beside them (:func:`saikoro.tune.cached_tune`). What the site adds:

* a cache folder that cannot be used fails the build as a :class:`PluginError` naming the
  option to change; a garbled cache file is reported in the log and computed again;
* under ``mkdocs serve`` (:meth:`SiteBalanceStore.serve`), nothing slow runs on the save
  path. A fight not in the cache is simulated for at most :data:`SAVE_SECONDS`; when that
  is not enough, the page shows the battles played so far as pending and the rest runs
  in the background (:class:`~._background.Background`), and ``saikoro tune``'s
  suggestions for a scenario outside its target are always computed there. When a
  background job ends, its result goes into the cache, :meth:`SiteBalanceStore.version`
  of the scenarios waiting for it changes (the page cache's key) and the server rebuilds:
  the page then shows the finished figures. Under ``mkdocs build``, suggestions are shown
  when a cache holds them (``serve`` computed them) and are otherwise left to
  ``saikoro tune``, so that no build waits for them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from mkdocs.exceptions import PluginError

from saikoro.balance import SEED, BalanceResult, BalanceStore, Encounter, author_figures
from saikoro.scenario import Scenario
from saikoro.tune import TuneResult, cached_tune, tune, tune_key

from ._background import Background, Job
from ._log import log

__all__ = ["SAVE_SECONDS", "SiteBalanceStore"]

SAVE_SECONDS = 0.5
"""The most time a fight's battles may take on ``mkdocs serve``'s save path; a fight that
needs longer is finished in the background (the page says so meanwhile)."""


@dataclass
class SiteBalanceStore(BalanceStore):
    """The site's store: errors as :class:`PluginError`, serve's background work."""

    background: Background | None = field(default=None, repr=False)
    rebuild: Callable[[], None] | None = field(default=None, repr=False)
    """Asks ``mkdocs serve`` for a rebuild (set once the server exists)."""
    _partial: dict[str, BalanceResult] = field(default_factory=dict, repr=False)
    _waiting: dict[str, set[str]] = field(default_factory=dict, repr=False)
    _versions: dict[str, int] = field(default_factory=dict, repr=False)
    _failed: dict[str, str] = field(default_factory=dict, repr=False)
    _unwritten: dict[str, BalanceResult | TuneResult] = field(default_factory=dict, repr=False)
    """Results the background brought, kept in memory until the server's own thread writes
    them to the cache folder (:meth:`_flush`: a file is never created from two threads)."""
    _missed_rebuild: bool = field(default=False, repr=False)

    def __post_init__(self) -> None:
        self.report = log.info

    def _fail(self, message: str, error: OSError) -> None:
        raise PluginError(
            f"saikoro: {message} (set balance.cache_dir to a writable folder, or "
            "balance.cache: false)"
        ) from error

    # -- serve

    def serve(self) -> None:
        """Take what is slow off the save path from now on (``mkdocs serve``)."""
        if self.background is None:
            self.background = Background(self._done)

    def set_rebuild(self, rebuild: Callable[[], None]) -> None:
        """How to ask the server for a rebuild (a job that ended before it existed asks now)."""
        with self._lock:
            self.rebuild = rebuild
            missed, self._missed_rebuild = self._missed_rebuild, False
        if missed:
            rebuild()

    def hold(self) -> None:
        """A rebuild starts: background jobs wait for its end (:meth:`release`)."""
        if self.background is not None:
            self.background.hold()

    def release(self) -> None:
        """The rebuild is done: background jobs may start."""
        if self.background is not None:
            self.background.release()

    def close(self) -> None:
        """Stop the background work (the server is shutting down) and keep what it found."""
        if self.background is not None:
            self.background.close()
            self.background = None
        self._flush()

    def _flush(self) -> None:
        """Write what the background found to the cache folder (in the calling thread)."""
        with self._lock:
            results, self._unwritten = self._unwritten, {}
        for key, value in results.items():
            self._write(key, value)

    def version(self, scenario: Scenario) -> int:
        """Changes when background work ``scenario``'s page waited for has ended."""
        with self._lock:
            return self._versions.get(scenario.digest, 0)

    def _done(self, key: str, ok: bool, value: object) -> None:
        """A background job ended (in the background thread)."""
        if ok and isinstance(value, (BalanceResult, TuneResult)):
            with self._lock:
                self._remember(key, value)
                self._unwritten[key] = value
        else:
            message = value if not ok else f"unexpected result {type(value).__name__}"
            log.error(f"saikoro: balance work in the background failed:\n{message}")
            with self._lock:
                self._failed[key] = str(message)
        with self._lock:
            self._partial.pop(key, None)
            for digest in self._waiting.pop(key, set()):
                self._versions[digest] = self._versions.get(digest, 0) + 1
            rebuild = self.rebuild
            self._missed_rebuild = rebuild is None
        if rebuild is not None:
            rebuild()

    def _wait(self, key: str, scenario: Scenario, job: Job) -> None:
        with self._lock:
            failed = self._failed.pop(key, None)
            if failed is not None:
                raise PluginError(f"saikoro: {scenario.path}: balance figures failed:\n{failed}")
            self._waiting.setdefault(key, set()).add(scenario.digest)
        if self.background is None:  # pragma: no cover - callers check
            return
        self.background.submit(job)

    # -- what the pages ask

    def figures_now(
        self, scenario: Scenario, enc: Encounter, battles: int
    ) -> tuple[BalanceResult, bool]:
        """The figures of ``enc`` (read from ``scenario``) and whether they are pending
        (the battles played so far, the rest under way in the background)."""
        if self.background is None:
            return self.figures_of(enc, battles), False
        self._flush()
        key = self.key(enc, battles)
        found = self.recall(key, BalanceResult)
        if found is not None:
            return replace(found, scenario=enc.scenario), False
        with self._lock:
            partial = self._partial.get(key)
        if partial is None:
            with self._lock:
                self.simulated += 1
            partial = author_figures(enc, battles, seconds=SAVE_SECONDS)
            if partial.cut is None:  # done within the save path's time: the figures
                self.keep(key, partial)
                return replace(partial, scenario=enc.scenario), False
            with self._lock:
                self._partial[key] = partial
            job = Job(key, f"figures:{scenario.path}", author_figures, (enc, battles))
            self._wait(key, scenario, job)
        return replace(partial, scenario=enc.scenario), True

    def tune_now(self, scenario: Scenario) -> tuple[TuneResult | None, bool]:
        """``saikoro tune``'s suggestions for ``scenario`` if a cache holds them, and
        whether they are being computed (under serve, in the background; a build never
        computes them)."""
        self._flush()
        found = cached_tune(self, scenario)
        if found is not None or self.background is None:
            return found, False
        key = tune_key(scenario)
        work = functools.partial(tune, seed=SEED)  # the seed tune_key names
        self._wait(key, scenario, Job(key, f"tune:{scenario.path}", work, (scenario,)))
        return None, True
