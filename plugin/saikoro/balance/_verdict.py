"""A verdict in words for a win rate, with documented thresholds.

>>> [verdict(p) for p in (0.95, 0.75, 0.5, 0.2)]
['易しい', '標準', '厳しい', '非常に厳しい']
"""

from __future__ import annotations

__all__ = ["VERDICTS", "verdict"]

VERDICTS: tuple[tuple[float, str, str], ...] = (
    (0.90, "易しい", "90% 以上：ほぼ負けない。緊張感を出すなら敵を強めてよい。"),
    (0.65, "標準", "65% 以上 90% 未満：たいてい勝てるが、出目や判断次第で負けもある。"),
    (0.35, "厳しい", "35% 以上 65% 未満：勝ち負けが半々に近い。"),
    (0.0, "非常に厳しい", "35% 未満：負けるほうが多い。"),
)
"""(lowest win rate, verdict, explanation), from the easiest down."""


def verdict(win: float) -> str:
    """The verdict for a win rate ``win`` (0..1)."""
    for low, word, _ in VERDICTS:
        if win >= low:
            return word
    return VERDICTS[-1][1]
