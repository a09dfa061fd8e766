"""``fractions.Fraction`` for the lowered engine: exact rationals on MicroPython's big
integers (MicroPython has no ``fractions``). The operations the engine uses, with
CPython's results and text (``Fraction(7, 432)``, ``7/432``)."""

import _mp
from _mp_math import gcd


def _ratio(value):
    if type(value) is int or type(value) is bool:
        return int(value), 1
    if type(value) is Fraction:
        return value._n, value._d
    return None


class Fraction:
    __slots__ = ("_d", "_n")

    def __init__(self, numerator=0, denominator=None):
        if denominator is None:
            kind = type(numerator)
            if kind is int or kind is bool:
                n, d = int(numerator), 1
            elif kind is Fraction:
                n, d = numerator._n, numerator._d
            elif kind is float:
                n, d = _mp.m_as_integer_ratio(numerator)
            elif kind is str:
                n, d = _parse(numerator)
            else:
                raise TypeError("argument should be a string or a Rational instance")
        else:
            a, b = _ratio(numerator), _ratio(denominator)
            if a is None or b is None:
                raise TypeError("both arguments should be Rational instances")
            n, d = a[0] * b[1], a[1] * b[0]
        if d == 0:
            raise ZeroDivisionError("Fraction(" + str(n) + ", 0)")
        g = gcd(n, d)
        if d < 0:
            g = -g
        self._n = n // g
        self._d = d // g

    @classmethod
    def _make(cls, n, d):
        out = object.__new__(cls)
        out._n = n
        out._d = d
        return out

    numerator = property(lambda self: self._n)
    denominator = property(lambda self: self._d)

    def __repr__(self):
        return "Fraction(" + str(self._n) + ", " + str(self._d) + ")"

    def __str__(self):
        return str(self._n) if self._d == 1 else str(self._n) + "/" + str(self._d)

    def __format__(self, spec):
        if not spec:
            return str(self)
        return _mp.format(float(self), spec)

    def as_integer_ratio(self):
        return (self._n, self._d)

    def is_integer(self):
        return self._d == 1

    def limit_denominator(self, max_denominator=1000000):
        if self._d <= max_denominator:
            return Fraction(self)
        p0, q0, p1, q1 = 0, 1, 1, 0
        n, d = self._n, self._d
        while True:
            a = n // d
            q2 = q0 + a * q1
            if q2 > max_denominator:
                break
            p0, q0, p1, q1 = p1, q1, p0 + a * p1, q2
            n, d = d, n - a * d
        k = (max_denominator - q0) // q1
        bound1 = Fraction(p0 + k * p1, q0 + k * q1)
        bound2 = Fraction(p1, q1)
        if abs(bound2 - self) <= abs(bound1 - self):
            return bound2
        return bound1

    # ---- arithmetic ---------------------------------------------------------------------
    def _op(self, other, fn, reverse=False):
        r = _ratio(other)
        if r is None:
            if type(other) is float:
                return fn(float(other), float(self)) if reverse else fn(float(self), other)
            return NotImplemented
        a, b = (r, (self._n, self._d)) if reverse else ((self._n, self._d), r)
        return fn(a, b)

    def __add__(self, other):
        return self._op(other, _add)

    def __radd__(self, other):
        return self._op(other, _add, True)

    def __sub__(self, other):
        return self._op(other, _sub)

    def __rsub__(self, other):
        return self._op(other, _sub, True)

    def __mul__(self, other):
        return self._op(other, _mul)

    def __rmul__(self, other):
        return self._op(other, _mul, True)

    def __truediv__(self, other):
        return self._op(other, _div)

    def __rtruediv__(self, other):
        return self._op(other, _div, True)

    def __floordiv__(self, other):
        return self._op(other, _floordiv)

    def __rfloordiv__(self, other):
        return self._op(other, _floordiv, True)

    def __mod__(self, other):
        return self._op(other, _mod)

    def __rmod__(self, other):
        return self._op(other, _mod, True)

    def __pow__(self, power):
        if type(power) is int:
            if power >= 0:
                return Fraction._make(self._n**power, self._d**power)
            if self._n == 0:
                raise ZeroDivisionError("Fraction(" + str(self._d**-power) + ", 0)")
            n, d = self._d**-power, self._n**-power
            if d < 0:
                n, d = -n, -d
            return Fraction._make(n, d)
        return float(self) ** float(power)

    def __neg__(self):
        return Fraction._make(-self._n, self._d)

    def __pos__(self):
        return Fraction._make(self._n, self._d)

    def __abs__(self):
        return Fraction._make(abs(self._n), self._d)

    def __int__(self):
        n = abs(self._n) // self._d
        return -n if self._n < 0 else n

    __trunc__ = __int__

    def __floor__(self):
        return self._n // self._d

    def __ceil__(self):
        return -(-self._n // self._d)

    def __round__(self, ndigits=None):
        if ndigits is None:
            floor, remainder = divmod(self._n, self._d)
            twice = remainder * 2
            if twice < self._d or (twice == self._d and floor % 2 == 0):
                return floor
            return floor + 1
        shift = 10 ** abs(ndigits)
        if ndigits > 0:
            return Fraction(round(self * shift), shift)
        return Fraction(round(self / shift) * shift)

    def __float__(self):
        return _mp.truediv(self._n, self._d) if self._d != 1 else _mp.float(self._n)

    def __bool__(self):
        return self._n != 0

    # ---- comparisons -----------------------------------------------------------------------
    def __eq__(self, other):
        r = _ratio(other)
        if r is None:
            if type(other) is float:
                return (
                    other == other and Fraction(other) == self
                    if abs(other) != float("inf")
                    else False
                )
            return NotImplemented
        return self._n == r[0] and self._d == r[1]

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def _cmp(self, other):
        r = _ratio(other)
        if r is None:
            if type(other) is float:
                r = _mp.m_as_integer_ratio(other)
            else:
                return None
        return self._n * r[1] - r[0] * self._d

    def __lt__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is None else c < 0

    def __le__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is None else c <= 0

    def __gt__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is None else c > 0

    def __ge__(self, other):
        c = self._cmp(other)
        return NotImplemented if c is None else c >= 0

    def __hash__(self):
        if self._d == 1:
            return hash(self._n)
        return hash((self._n, self._d))

    __mp_check__ = None


def _norm(n, d):
    if d == 0:
        raise ZeroDivisionError("Fraction(" + str(n) + ", 0)")
    g = gcd(n, d)
    if d < 0:
        g = -g
    return Fraction._make(n // g, d // g)


def _add(a, b):
    return _norm(a[0] * b[1] + b[0] * a[1], a[1] * b[1])


def _sub(a, b):
    return _norm(a[0] * b[1] - b[0] * a[1], a[1] * b[1])


def _mul(a, b):
    return _norm(a[0] * b[0], a[1] * b[1])


def _div(a, b):
    if b[0] == 0:
        raise ZeroDivisionError("Fraction(" + str(a[0] * b[1]) + ", 0)")
    return _norm(a[0] * b[1], a[1] * b[0])


def _floordiv(a, b):
    return (a[0] * b[1]) // (a[1] * b[0])


def _mod(a, b):
    d = a[1] * b[1]
    return _norm((a[0] * b[1]) % (b[0] * a[1]), d)


def _parse(text):
    s = _mp.m_strip(text)
    sign = 1
    if s[:1] in "+-":
        sign = -1 if s[0] == "-" else 1
        s = s[1:]
    if "/" in s:
        top, _, bottom = s.partition("/")
        n, d = int(top), int(bottom)
    else:
        exponent = 0
        if "e" in s or "E" in s:
            s, _, e = s.replace("E", "e").partition("e")
            exponent = int(e)
        whole, _, part = s.partition(".")
        n = int((whole or "0") + part)
        d = 10 ** len(part)
        if exponent >= 0:
            n *= 10**exponent
        else:
            d *= 10**-exponent
    return sign * n, d
