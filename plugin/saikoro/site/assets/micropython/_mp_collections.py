"""``collections`` for the lowered engine: MicroPython's ``deque`` and ``OrderedDict``,
and ordered ``defaultdict`` and ``Counter``."""

from collections import OrderedDict, deque  # noqa: F401


class defaultdict(OrderedDict):
    def __init__(self, default_factory=None, *args):
        super().__init__(*args)
        self.default_factory = default_factory

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self[key] = value
        return value

    def __getitem__(self, key):
        if key in self:
            return super().__getitem__(key)
        return self.__missing__(key)


class Counter(OrderedDict):
    def __init__(self, iterable=()):
        super().__init__()
        for item in iterable:
            self[item] = self.get(item, 0) + 1

    def __getitem__(self, key):
        return self.get(key, 0)

    def most_common(self, n=None):
        items = sorted(self.items(), key=lambda kv: -kv[1])
        return items if n is None else items[:n]
