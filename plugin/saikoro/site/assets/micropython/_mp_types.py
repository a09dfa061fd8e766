"""``types`` for the lowered engine: a read-only mapping view and a namespace."""

import _mp


class MappingProxyType:
    __slots__ = ("_mapping",)

    def __init__(self, mapping):
        object.__setattr__(self, "_mapping", mapping)

    def __getitem__(self, key):
        return self._mapping[key]

    def __contains__(self, key):
        return key in self._mapping

    def __iter__(self):
        return iter(self._mapping)

    def __len__(self):
        return len(self._mapping)

    def get(self, key, default=None):
        return self._mapping.get(key, default)

    def keys(self):
        return self._mapping.keys()

    def values(self):
        return self._mapping.values()

    def items(self):
        return self._mapping.items()

    def copy(self):
        return _mp.od(self._mapping)

    def __eq__(self, other):
        return dict(self.items()) == (dict(other.items()) if hasattr(other, "items") else other)

    def __repr__(self):
        return "mappingproxy(" + _mp.repr(self._mapping) + ")"

    def __setattr__(self, name, value):
        raise AttributeError("readonly")


class SimpleNamespace:
    def __init__(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)


FunctionType = type(lambda: None)
