"""A scenario enemy as a VTT character: palette lines BCDice rolls, the whole stat block.

Each system's ``vtt`` part (``saikoro/systems/_getb/vtt.py`` ...) turns the enemy's
attacks and checks into :class:`~._palette.PaletteLine` s (generic BCDice commands, derived
from the system's dice rules) and gives the gauges and parameters;
:func:`~._memo.enemy_memo` writes the memo from the scenario definitions. Both VTTs run
BCDice's generic bot (``DiceBot``): none of the five systems is a BCDice game system.

>>> from saikoro.scenario import validate_text
>>> sc = validate_text("system: kegare\\ntitle: t\\nenemies:\\n  - {id: t, name: 祟り神, "
...     "hp: 30, attack: 6, defence: 4, initiative: 5, "
...     "skills: [{name: 祟り火, kind: attack, damage: 8}]}\\n", "t.yaml").scenario
>>> c = enemy_character("kegare", sc.model.enemies[0], url="https://x/#e")
>>> c.commands[0].split(" ※")[0], c.dicebot, c.external_url
('2D6+6 祟り火', 'DiceBot', 'https://x/#e')
>>> print(c.memo.splitlines()[0])
HP: 30
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import ModuleType

from saikoro.scenario.model import Enemy
from saikoro.systems import OptionValue, System, get

from ._memo import enemy_memo
from ._model import Character
from ._palette import PaletteLine

__all__ = [
    "DICEBOT",
    "compare_options",
    "enemy_character",
    "enemy_palette",
]

DICEBOT = "DiceBot"
"""BCDice's generic game system: the dice bot the exported palettes are written for."""


def compare_options(system: str | System) -> dict[str, OptionValue]:
    """The options under which the system's palette lines roll exactly like their generic
    commands (the export module's ``COMPARE_OPTIONS``; GETB: fumbles off, since BCDice's
    upper dice do not know them)."""
    return dict(getattr(_module(_system(system, None)), "COMPARE_OPTIONS", {}))


def _system(system: str | System, options: Mapping[str, OptionValue] | None) -> System:
    return get(system, **dict(options or {}))


def _module(system: System) -> ModuleType:
    """The system's export module: its ``vtt`` part (:meth:`saikoro.systems.System.part`).

    Its ``palette(enemy, system)`` and ``character(enemy)`` take the enemy's model object
    (:mod:`saikoro.scenario.model`), as the page profiles do.
    """
    return system.part("vtt")


def enemy_palette(
    system: str | System, enemy: Enemy, options: Mapping[str, OptionValue] | None = None
) -> list[PaletteLine]:
    """The palette lines of ``enemy`` under the scenario's ruling ``options``."""
    chosen = _system(system, options)
    module = _module(chosen)
    make: Callable[[object, System], list[PaletteLine]] = module.palette
    return make(enemy, chosen)


def enemy_character(
    system: str | System,
    enemy: Enemy,
    *,
    options: Mapping[str, OptionValue] | None = None,
    url: str = "",
) -> Character:
    """The VTT character of ``enemy``.

    Args:
        system: the scenario's system (id or configured system).
        enemy: the enemy (of the scenario's model, :attr:`saikoro.scenario.Scenario.model`).
        options: the scenario's ruling options (``rulings:``), which can change dice.
        url: where the enemy is published (``externalUrl``), or ``""``.
    """
    chosen = _system(system, options)
    module = _module(chosen)
    make: Callable[[object], Character] = module.character
    base = make(enemy)
    make_lines: Callable[[object, System], list[PaletteLine]] = module.palette
    lines = make_lines(enemy, chosen)
    return dataclasses.replace(
        base,
        commands=tuple(line.text for line in lines),
        memo=enemy_memo(chosen.id, enemy),
        external_url=url,
        dicebot=DICEBOT,
    )
