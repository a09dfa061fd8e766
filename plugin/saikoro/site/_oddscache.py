"""Odds from the engine, cached by content across builds and ``mkdocs serve`` rebuilds.

Key: system id + its ruling options + the command. The same command goes on the page's
roll button, so a page's roll follows its odds. Every cache here is bounded
(:class:`~saikoro.site._lru.Lru`): the plugin instance lives through every serve rebuild.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from saikoro.dice import DiceError, Odds
from saikoro.dice import odds as engine_odds
from saikoro.site._charts import bar_chart
from saikoro.site._lru import Lru
from saikoro.systems import OptionError, OptionValue, System, UnknownSystemError
from saikoro.systems import get as get_system

__all__ = ["MAX_FRAGMENTS", "MAX_ODDS", "OddsCache", "OddsResult"]

Options = tuple[tuple[str, OptionValue], ...]

MAX_ODDS = 20_000
"""Odds kept (the sample book's pages compute about 2,000)."""
MAX_FRAGMENTS = 50_000
"""Rendered HTML fragments of odds kept (grid cells, charts)."""


@dataclass
class OddsResult:
    """The odds of one command, or why there are none.

    Attributes:
        command: the command as written on the page.
        system: the system id (``None`` for generic commands).
        odds: the exact odds, or ``None``.
        error: the engine's message when the command was refused or not recognised.
        options: the system's ruling options the odds were computed under (sorted).
    """

    command: str
    system: str | None
    odds: Odds | None
    error: str | None = None
    options: Options = ()
    _tail: tuple[list[int], list[int], int] | None = field(default=None, repr=False)
    _mean: Fraction | None = field(default=None, repr=False)

    def _weights(self) -> tuple[list[int], list[int], int]:
        """Integer outcomes ascending, their tail sums (>=) as ints, and the denominator."""
        if self._tail is None:
            items = sorted(
                (k, p)
                for k, p in (self.odds.distribution.items() if self.odds else ())
                if isinstance(k, int)
            )
            denominator = math.lcm(*(p.denominator for _, p in items)) if items else 1
            ints = [p.numerator * (denominator // p.denominator) for _, p in items]
            tails = ints[:]
            for i in range(len(tails) - 2, -1, -1):
                tails[i] += tails[i + 1]
            self._tail = ([k for k, _ in items], tails, denominator)
        return self._tail

    def at_least(self, k: int) -> Fraction:
        """P(outcome >= k) over the integer outcomes (exact, computed with integers)."""
        outcomes, tails, denominator = self._weights()
        lo, hi = 0, len(outcomes)
        while lo < hi:
            mid = (lo + hi) // 2
            if outcomes[mid] < k:
                lo = mid + 1
            else:
                hi = mid
        return Fraction(tails[lo], denominator) if lo < len(outcomes) else Fraction(0)

    @property
    def mean(self) -> Fraction | None:
        """The odds' mean (cached)."""
        if self._mean is None and self.odds is not None:
            self._mean = self.odds.mean
        return self._mean


@dataclass
class _Memo:
    """What every view of one cache shares: the memoised odds, systems and fragments."""

    odds: Lru[tuple[str | None, Options, str], OddsResult]
    systems: Lru[tuple[str, Options], System]
    html: Lru[tuple[object, ...], str]
    computed: int = 0


class OddsCache:
    """Memoises the engine's odds by (system, options, command).

    The plugin keeps one for every build; a page's render takes a :meth:`watch` view of
    it, which shares the memo and records that render's failed lookups (so the shared
    cache carries no per-render state).
    """

    def __init__(self, size: int = MAX_ODDS, fragments: int = MAX_FRAGMENTS) -> None:
        self._memo = _Memo(Lru(size), Lru(256), Lru(fragments))
        self.failures: list[tuple[str, OddsResult]] | None = None
        """A :meth:`watch` view's failed lookups (cached or not), each with ``where``
        at the time; ``None`` for the shared cache, which records none."""
        self.where = "scenario"
        """The key path of the scenario part being rendered (``scenario.enemies[0]``): a
        view's, set as the render goes."""

    def watch(self) -> OddsCache:
        """A view of this cache for one render: the same memo, its own ``failures``
        (an empty list) and ``where``."""
        view = OddsCache.__new__(OddsCache)
        view._memo = self._memo
        view.failures = []
        view.where = "scenario"
        return view

    @property
    def computed(self) -> int:
        """How many odds were computed (not served from the cache), by every view."""
        return self._memo.computed

    @property
    def html(self) -> Lru[tuple[object, ...], str]:
        """Rendered fragments of cached odds (e.g. grid cells), keyed by their makers from
        what they show (command, system, options ...), never by object identity."""
        return self._memo.html

    def chart(self, result: OddsResult, label: str) -> str:
        """The bar chart of ``result`` (cached: the same odds draw the same chart)."""
        key = ("chart", result.system, result.options, result.command, label)
        found = self.html.get(key)
        if found is None:
            odds = result.odds
            found = bar_chart(odds.distribution, label=label) if odds else ""
            self.html[key] = found
        return found

    def system(self, system_id: str, options: Mapping[str, OptionValue] | None = None) -> System:
        """The configured system (cached)."""
        key = (system_id, tuple(sorted((options or {}).items())))
        found = self._memo.systems.get(key)
        if found is None:
            found = get_system(system_id, **dict(options or {}))
            self._memo.systems[key] = found
        return found

    def odds(
        self,
        command: str,
        system: str | None = None,
        options: Mapping[str, OptionValue] | None = None,
    ) -> OddsResult:
        """The odds of ``command`` under ``system`` with ruling ``options``."""
        opts = tuple(sorted((options or {}).items()))
        key = (system, opts, command)
        found = self._memo.odds.get(key)
        if found is not None:
            if found.odds is None and self.failures is not None:
                self.failures.append((self.where, found))
            return found
        self._memo.computed += 1
        try:
            configured = None if system is None else self.system(system, options)
            odds = engine_odds(command, extension=configured)
        except (DiceError, OptionError, UnknownSystemError) as e:
            # refused on purpose (a bound, bad syntax, an option): said where it is used;
            # any other exception is a bug and fails the build
            result = OddsResult(command, system, None, str(e) or type(e).__name__, opts)
        else:
            error = None if odds is not None else "コマンドとして認識できません"
            result = OddsResult(command, system, odds, error, opts)
        self._memo.odds[key] = result
        if result.odds is None and self.failures is not None:
            self.failures.append((self.where, result))
        return result
