"""Every built-in system package follows the one layout documented in saikoro.systems.

The convention (see the docstring of :mod:`saikoro.systems`): ``__init__`` (the System and
``SYSTEM``), ``rulings`` (``RULINGS`` and a frozen ``Settings`` built by
``Settings.from_options``), ``reference`` (``COMMANDS``), ``commands`` (module or package:
``roll_command(command, source, settings)`` and ``odds_command(command, settings)``),
``checks`` and ``flows``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems import BUILTIN, CommandDoc, Ruling, System, system_class

SYSTEMS = sorted(BUILTIN)
REQUIRED = ("rulings", "reference", "commands", "checks", "flows")


def _module(system_id: str, name: str) -> ModuleType:
    return importlib.import_module(f"{BUILTIN[system_id]}.{name}")


def test_the_five_builtin_systems_are_checked() -> None:
    assert SYSTEMS == ["akatsuki", "cutaction", "getb", "kegare", "kokuryoku"]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_required_modules_are_present(system_id: str) -> None:
    package = Path(importlib.import_module(BUILTIN[system_id]).__file__ or "").parent
    for name in REQUIRED:
        assert (package / f"{name}.py").is_file() or (package / name / "__init__.py").is_file(), (
            f"{system_id}: no {name}.py (or {name}/ package)"
        )
    for old in package.glob("cmd_*.py"):
        pytest.fail(f"{system_id}: {old.name} belongs in commands/ (named by topic)")


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_init_holds_the_system_class(system_id: str) -> None:
    package = importlib.import_module(BUILTIN[system_id])
    cls = package.SYSTEM
    assert isinstance(cls, type) and issubclass(cls, System)
    assert cls.__module__ == package.__name__, "the System subclass is defined in __init__"
    assert cls is system_class(system_id)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_rulings_give_a_frozen_settings_with_the_rulings_defaults(system_id: str) -> None:
    rulings = _module(system_id, "rulings")
    assert all(isinstance(r, Ruling) for r in rulings.RULINGS)
    assert system_class(system_id).rulings is rulings.RULINGS
    settings_cls: type[Any] = rulings.Settings
    fields = dataclasses.fields(settings_cls)  # raises TypeError if it is no dataclass
    assert fields
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(settings_cls(), fields[0].name, None)
    defaults = {r.option_name: r.default for r in rulings.RULINGS if r.option}
    assert settings_cls.from_options(defaults) == settings_cls()
    system = system_class(system_id)()
    assert system.settings == settings_cls()  # type: ignore[attr-defined]  # every System here has it
    assert isinstance(system.settings, settings_cls)  # type: ignore[attr-defined]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_settings_change_with_the_options(system_id: str) -> None:
    """``settings`` is built from the options in force, not from the defaults."""
    cls = system_class(system_id)
    base = cls()
    changed = 0
    for ruling in cls.rulings:
        if not ruling.option:
            continue
        other: object
        if ruling.choices:
            other = next(c for c in ruling.choices if c != ruling.default)
        elif isinstance(ruling.default, bool):
            other = not ruling.default
        else:
            continue
        if base.with_options(**{ruling.option_name: other}).settings != base.settings:  # type: ignore[attr-defined]
            changed += 1
    assert changed > 0


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_reference_documents_the_commands(system_id: str) -> None:
    reference = _module(system_id, "reference")
    assert reference.COMMANDS and all(isinstance(c, CommandDoc) for c in reference.COMMANDS)
    assert system_class(system_id).commands is reference.COMMANDS


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_command_functions_have_one_shape(system_id: str) -> None:
    commands = _module(system_id, "commands")
    roll = inspect.signature(commands.roll_command, eval_str=True)
    odds = inspect.signature(commands.odds_command, eval_str=True)
    settings_cls = _module(system_id, "rulings").Settings
    assert list(roll.parameters) == ["command", "source", "settings"]
    assert list(odds.parameters) == ["command", "settings"]
    assert [p.annotation for p in roll.parameters.values()] == [str, DiceSource, settings_cls]
    assert [p.annotation for p in odds.parameters.values()] == [str, settings_cls]
    assert roll.return_annotation == Roll | None
    assert odds.return_annotation == Odds | None


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_system_delegates_to_its_commands(system_id: str) -> None:
    """The System's roll/odds are the commands module's, with the settings in force."""
    cls = system_class(system_id)
    commands = _module(system_id, "commands")
    system = cls()
    for doc in cls.commands:
        for example in doc.examples[:2]:
            direct = commands.odds_command(example, system.settings)  # type: ignore[attr-defined]
            assert direct is not None, example
            assert system.odds_command(example) == direct
