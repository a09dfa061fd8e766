"""A bounded mapping that forgets the least recently used entry: the site's caches.

The plugin instance lives through every ``mkdocs serve`` rebuild, so a cache keyed by
content grows with every edit; each is bounded by an :class:`Lru`.

>>> c = Lru[str, int](2)
>>> c["a"] = 1; c["b"] = 2; c.get("a"); c["c"] = 3
1
>>> sorted(c), len(c)
(['a', 'c'], 2)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

from saikoro.dice import InternalError

__all__ = ["Lru"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """At most ``size`` entries; reading or writing one makes it the most recent."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise InternalError(f"an Lru holds at least one entry, not {size}")
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value of ``key`` (now the most recent), or ``None``."""
        found = self._data.get(key)
        if found is not None:
            self._data.move_to_end(key)
        return found

    def __setitem__(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.size:
            self._data.popitem(last=False)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def clear(self) -> None:
        """Forget every entry."""
        self._data.clear()
