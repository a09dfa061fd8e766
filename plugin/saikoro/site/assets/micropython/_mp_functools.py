"""``functools`` for the lowered engine: caches, ``partial``, ``reduce``, ``wraps``."""

from functools import partial, reduce  # noqa: F401


def wraps(wrapped, *args, **kwargs):
    def decorate(fn):
        return fn

    return decorate


def _key(args, kwargs):
    if not kwargs:
        return args
    return args + (_MARK,) + tuple(sorted(kwargs.items()))


_MARK = object()


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize):
        return _cached(maxsize, 128)

    def decorate(fn):
        return _cached(fn, maxsize)

    return decorate


def cache(fn):
    return _cached(fn, None)


def _cached(fn, maxsize):
    store = {}
    order = []

    def wrapper(*args, **kwargs):
        key = _key(args, kwargs)
        try:
            return store[key]
        except KeyError:
            pass
        value = fn(*args, **kwargs)
        if maxsize is not None and len(store) >= maxsize > 0:
            del store[order.pop(0)]
        if maxsize != 0:
            store[key] = value
            if maxsize is not None:
                order.append(key)
        return value

    def cache_clear():
        store.clear()
        order.clear()

    return _Wrapper(wrapper, cache_clear, fn)


class _Wrapper:
    """A cached function (MicroPython's functions take no attributes); a descriptor, so
    a cached method still binds its instance."""

    def __init__(self, call, clear, fn):
        self._call = call
        self.cache_clear = clear
        self.__wrapped__ = fn

    def __call__(self, *args, **kwargs):
        return self._call(*args, **kwargs)

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return partial(self._call, obj)


class cached_property:
    def __init__(self, fn):
        self.fn = fn
        self.name = None

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = self.fn(obj)
        obj.__dict__[self.name or self.fn.__name__] = value
        return value


def total_ordering(cls):
    d = cls.__dict__
    if "__lt__" in d:
        if "__gt__" not in d:
            cls.__gt__ = lambda a, b: b < a
        if "__le__" not in d:
            cls.__le__ = lambda a, b: not b < a
        if "__ge__" not in d:
            cls.__ge__ = lambda a, b: not a < b
    return cls


def cmp_to_key(compare):
    class Key:
        __slots__ = ("obj",)

        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return compare(self.obj, other.obj) < 0

        def __gt__(self, other):
            return compare(self.obj, other.obj) > 0

        def __eq__(self, other):
            return compare(self.obj, other.obj) == 0

    return Key
