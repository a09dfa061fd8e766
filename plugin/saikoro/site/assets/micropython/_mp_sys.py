"""``sys`` for the lowered engine: MicroPython's, with the recursion-limit calls as no-ops
(MicroPython's limit is its Python stack: a deep command fails with ``RuntimeError``)."""

from sys import *  # noqa: F403

_limit = [1000]


def getrecursionlimit():
    return _limit[0]


def setrecursionlimit(limit):
    _limit[0] = limit


def get_int_max_str_digits():
    return 0


def set_int_max_str_digits(limit):
    return None
