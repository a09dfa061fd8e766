"""``math`` for the lowered engine: MicroPython's, plus the integer functions it lacks."""

import math as _math
from math import *  # noqa: F403


def gcd(*numbers):
    a = 0
    for b in numbers:
        a, b = abs(a), abs(b)
        while b:
            a, b = b, a % b
    return a


def lcm(*numbers):
    out = 1
    for n in numbers:
        if n == 0:
            return 0
        out = abs(out * n) // gcd(out, n)
    return out


def comb(n, k):
    if k < 0 or n < 0:
        raise ValueError("n and k must be non-negative integers")
    if k > n:
        return 0
    k = min(k, n - k)
    out = 1
    for i in range(1, k + 1):
        out = out * (n - k + i) // i
    return out


def perm(n, k=None):
    if k is None:
        k = n
    if k < 0 or n < 0:
        raise ValueError("n and k must be non-negative integers")
    if k > n:
        return 0
    out = 1
    for i in range(n - k + 1, n + 1):
        out *= i
    return out


def factorial(n):
    out = 1
    for i in range(2, n + 1):
        out *= i
    return out


def isqrt(n):
    if n < 0:
        raise ValueError("isqrt() argument must be nonnegative")
    if n == 0:
        return 0
    x = 1 << ((_bits(n) + 1) // 2)
    while True:
        y = (x + n // x) // 2
        if y >= x:
            return x
        x = y


def _bits(n):
    import _mp

    return _mp.m_bit_length(n)


def prod(iterable, start=1):
    out = start
    for x in iterable:
        out *= x
    return out


def floor(x):
    if type(x) is int:
        return x
    f = getattr(x, "__floor__", None)
    return f() if f is not None else _math.floor(x)


def ceil(x):
    if type(x) is int:
        return x
    f = getattr(x, "__ceil__", None)
    return f() if f is not None else _math.ceil(x)


def trunc(x):
    if type(x) is int:
        return x
    f = getattr(x, "__trunc__", None)
    return f() if f is not None else _math.trunc(x)


def log(x, base=None):
    if type(x) is int and x >= 1 << 1000:
        shift = _bits(x) - 64
        value = _math.log(x >> shift) + shift * _math.log(2)
    else:
        value = _math.log(x)
    return value if base is None else value / log(base)


def log2(x):
    return log(x) / _math.log(2) if type(x) is int and x >= 1 << 1000 else _math.log2(x)


def log10(x):
    return log(x) / _math.log(10) if type(x) is int and x >= 1 << 1000 else _math.log10(x)
