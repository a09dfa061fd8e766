"""``random`` for the lowered engine: a ``Random``/``SystemRandom`` drawing from the
browser's cryptographic generator (MicroPython seeds its ``random`` from it)."""

import random as _random


class Random:
    def __init__(self, seed=None):
        if seed is not None:
            _random.seed(seed if type(seed) is int else hash(seed))

    def getrandbits(self, k):
        out = 0
        got = 0
        while got < k:
            take = min(30, k - got)
            out = (out << take) | _random.getrandbits(take)
            got += take
        return out

    def randbelow(self, n):
        if n <= 0:
            raise ValueError("empty range")
        k = _bits(n)
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        if stop is None:
            return self.randbelow(start)
        width = stop - start
        if step == 1:
            return start + self.randbelow(width)
        n = (width + step - 1) // step
        return start + step * self.randbelow(n)

    def randint(self, a, b):
        return a + self.randbelow(b - a + 1)

    def choice(self, seq):
        return seq[self.randbelow(len(seq))]

    def random(self):
        return self.getrandbits(53) / (1 << 53)

    def shuffle(self, x):
        for i in reversed(range(1, len(x))):
            j = self.randbelow(i + 1)
            x[i], x[j] = x[j], x[i]


SystemRandom = Random


def _bits(n):
    length = 0
    while n:
        n >>= 1
        length += 1
    return length


_default = Random()
randint = _default.randint
randrange = _default.randrange
choice = _default.choice
random = _default.random
shuffle = _default.shuffle
getrandbits = _default.getrandbits
