"""``operator`` for the lowered engine: MicroPython's, plus what it lacks."""

from operator import *  # noqa: F403


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def neg(a):
    return -a


def index(a):
    if type(a) is int:
        return a
    if type(a) is bool:
        return int(a)
    method = getattr(a, "__index__", None)
    if method is None:
        raise TypeError("'" + type(a).__name__ + "' object cannot be interpreted as an integer")
    return method()


def itemgetter(*items):
    if len(items) == 1:
        item = items[0]
        return lambda obj: obj[item]
    return lambda obj: tuple(obj[i] for i in items)
