"""``collections.abc`` for the lowered engine: classes whose ``isinstance`` checks what
an object can do (``_mp.isinstance`` calls ``__mp_check__``)."""

from collections import OrderedDict


def _mapping(obj):
    return type(obj) in (dict, OrderedDict) or (
        hasattr(obj, "items") and hasattr(obj, "__getitem__") and hasattr(obj, "keys")
    )


def _sequence(obj):
    from _mp_namedtuple import NamedTupleBase

    return type(obj) in (list, tuple, str, range, bytes) or isinstance(obj, NamedTupleBase)


def _iterable(obj):
    if type(obj) in (list, tuple, str, dict, OrderedDict, set, frozenset, range, bytes):
        return True
    try:
        iter(obj)
    except TypeError:
        return False
    return True


class Mapping:
    __mp_check__ = staticmethod(_mapping)


class MutableMapping:
    __mp_check__ = staticmethod(lambda obj: type(obj) in (dict, OrderedDict))


class Sequence:
    __mp_check__ = staticmethod(_sequence)


class MutableSequence:
    __mp_check__ = staticmethod(lambda obj: type(obj) is list)


class Iterable:
    __mp_check__ = staticmethod(_iterable)


class Collection:
    __mp_check__ = staticmethod(lambda obj: _iterable(obj) and hasattr(obj, "__len__"))


class Iterator:
    __mp_check__ = staticmethod(lambda obj: hasattr(obj, "__next__"))


class Generator:
    __mp_check__ = staticmethod(lambda obj: type(obj).__name__ == "generator")


class Callable:
    __mp_check__ = staticmethod(callable)


class Hashable:
    @staticmethod
    def __mp_check__(obj):
        try:
            hash(obj)
        except TypeError:
            return False
        return True


class Set:
    __mp_check__ = staticmethod(lambda obj: type(obj) in (set, frozenset))
