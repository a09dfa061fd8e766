"""One declarative definition per system: the whole scenario's :class:`~..schema.Obj`.

>>> sorted(DEFINITIONS)
['akatsuki', 'cutaction', 'getb', 'kegare', 'kokuryoku']
"""

from __future__ import annotations

from saikoro.scenario.containers import Obj

from . import akatsuki, cutaction, getb, kegare, kokuryoku

__all__ = ["DEFINITIONS"]

DEFINITIONS: dict[str, Obj] = {
    "akatsuki": akatsuki.ROOT,
    "cutaction": cutaction.ROOT,
    "getb": getb.ROOT,
    "kegare": kegare.ROOT,
    "kokuryoku": kokuryoku.ROOT,
}
"""System id -> the definition of its scenarios."""
