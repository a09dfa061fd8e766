"""The VTT-neutral character both exporters read."""

from __future__ import annotations

from dataclasses import dataclass

from saikoro.dice import SaikoroError

__all__ = ["Character", "ExportError"]


class ExportError(SaikoroError, ValueError):
    """A character holds text a VTT's format cannot carry (U+FFFE in a name for XML).

    Scenarios never get here (``saikoro validate`` refuses such text at its line); a
    :class:`Character` built by hand may.
    """


@dataclass(frozen=True)
class Character:
    """A character for a virtual tabletop, built from a scenario's enemy.

    Attributes:
        name: display name.
        initiative: the value the VTT sorts the turn order by.
        status: gauges as (label, value, max) — HP and the like.
        params: fixed values as (label, value).
        commands: the chat palette, one command per entry.
        memo: free text (plain).
        external_url: a link back to the scenario page (may be empty).
        dicebot: the BCDice game system the palette is written for (ユドナリウム's
            ``<chat-palette dicebot>``; ココフォリア's room chooses its own bot).
    """

    name: str
    initiative: int = 0
    status: tuple[tuple[str, int, int], ...] = ()
    params: tuple[tuple[str, str], ...] = ()
    commands: tuple[str, ...] = ()
    memo: str = ""
    external_url: str = ""
    dicebot: str = "DiceBot"
