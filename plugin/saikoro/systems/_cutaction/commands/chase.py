"""Chase table commands: ``CET`` (chase event table) and ``CFO`` (where falling objects land).

>>> from saikoro.dice import DiceSource
>>> from saikoro.systems._cutaction.rulings import Settings
>>> roll_event("CFO", DiceSource(dice=[(10, 5)]), Settings()).text
'(CFO) ＞ 5 ＞ 相対距離-3のエリアにいる全員に5点のダメージ'
"""

from __future__ import annotations

from fractions import Fraction

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._cutaction.events import CHASE_EVENTS, chase_event, falling_area
from saikoro.systems._cutaction.rulings import Settings

from .common import SEP, int_keys

__all__ = ["EVENT_COMMANDS", "odds_event", "roll_event"]

EVENT_COMMANDS = ("CET", "CFO")
"""The table commands."""


def roll_event(command: str, source: DiceSource, settings: Settings) -> Roll:
    """Roll ``CET`` (plus the falling-objects die on a 7) or ``CFO``."""
    rounding = settings.falling_area
    n = source.roll(10)
    if command == "CFO":
        area = falling_area(n, rounding=rounding)
        text = SEP.join(
            [f"({command})", str(n), f"相対距離{area}のエリアにいる全員に5点のダメージ"]
        )
        return Roll(command, text, value=area, outcome=f"相対距離{area}")
    ev = chase_event(n)
    parts = [f"({command})", str(n), f"{ev.name}：{ev.effect}"]
    if n == 7:
        k = source.roll(10)
        parts += [str(k), f"相対距離{falling_area(k, rounding=rounding)}のエリアに落下"]
    return Roll(command, SEP.join(parts), value=n, outcome=ev.name)


def odds_event(command: str, settings: Settings) -> Odds:
    """Odds of ``CET`` (each event 1/10; falling-object areas as events) or ``CFO``."""
    tenth = Fraction(1, 10)
    areas: dict[int, Fraction] = {}
    for k in range(1, 11):
        a = falling_area(k, rounding=settings.falling_area)
        areas[a] = areas.get(a, Fraction(0)) + tenth
    if command == "CFO":
        return Odds(command, int_keys(dict(sorted(areas.items()))), label="相対距離")
    dist: dict[int | str, Fraction] = {ev.name: tenth for ev in CHASE_EVENTS}
    events = {f"落下物(相対距離{a})": p * tenth for a, p in sorted(areas.items(), reverse=True)}
    return Odds(command, dist, events=events, label="チェイスイベント")
