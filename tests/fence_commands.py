"""The commands a ``dice`` fence line stands for, for the tests that check the rules pages.

A line may hold own-value placeholders, ``{名前=既定値:最小..最大}`` (the reader's own value,
rolled with steppers on the page): the line stands for every command its values make.
Written here from the guide's description of the syntax, not from the site's parser.

>>> expand("GB3>=8")
['GB3>=8']
>>> expand("GB{能力値=2:1..2}>={目標値=8:7..8}")
['GB1>=7', 'GB1>=8', 'GB2>=7', 'GB2>=8']
"""

from __future__ import annotations

import itertools
import re

_OWN = re.compile(r"\{[^{}=:]+=(-?\d+):(-?\d+)\.\.(-?\d+)\}")


def expand(line: str) -> list[str]:
    """Every command ``line`` rolls (itself when it has no placeholder)."""
    ranges = [range(int(m[2]), int(m[3]) + 1) for m in _OWN.finditer(line)]
    for m in _OWN.finditer(line):
        assert int(m[2]) <= int(m[1]) <= int(m[3]), f"{line}: default outside its range"
    pieces = _OWN.split(line)[::4]  # the text around the placeholders
    out = []
    for values in itertools.product(*ranges):
        text = pieces[0]
        for value, after in zip(values, pieces[1:], strict=True):
            text += str(value) + after
        out.append(text)
    return out
