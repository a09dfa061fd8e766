"""The VTT-neutral character both exporters read."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Character"]


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
