"""One registration per system: engine, scenario definition, model, page profile, VTT export
and simulator, all in the system's bundle (a sixth system from its own package:
``tests/test_toy_system.py``)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from saikoro import systems
from saikoro.scenario import DEFINITIONS, Obj
from saikoro.scenario._defs import definition
from saikoro.scenario.model import model_class
from saikoro.site import Profile
from saikoro.site._profiles import profile
from saikoro.systems import (
    BUILTIN,
    SYSTEM_IDS,
    RegistryError,
    UnknownSystemError,
    registry,
    system_class,
)


def _folder(module: str) -> Path:
    return Path(importlib.import_module(module).__file__ or "").parent


def _modules(package: str, *skip: str) -> set[str]:
    """The modules of ``package`` (its ``.py`` files but ``__init__`` and ``skip``)."""
    names = {p.stem for p in _folder(package).glob("*.py")} - {"__init__", *skip}
    return {f"{package}.{n}" for n in names}


def test_builtin_systems_are_the_registry() -> None:
    assert tuple(BUILTIN) == SYSTEM_IDS == tuple(registry())
    systems_dir = _folder("saikoro.systems")
    packages = {p for p in systems_dir.iterdir() if (p / "__init__.py").is_file()}
    assert packages == {_folder(module) for module in BUILTIN.values()}
    assert list(DEFINITIONS) == list(SYSTEM_IDS)


@pytest.mark.parametrize("system_id", SYSTEM_IDS)
def test_the_parts_of_a_system_agree(system_id: str) -> None:
    cls = system_class(system_id)
    assert cls.id == system_id
    root = definition(system_id)
    assert isinstance(root, Obj)
    assert root is importlib.import_module(f"{BUILTIN[system_id]}.scenario").ROOT
    assert model_class(system_id) is importlib.import_module(f"{BUILTIN[system_id]}.model").MODEL
    assert DEFINITIONS[system_id] is root
    shown = profile(system_id)
    assert isinstance(shown, Profile) and shown.system == system_id
    export = cls.part("vtt")
    assert callable(export.character) and callable(export.palette)


def test_every_part_of_a_system_is_in_its_bundle() -> None:
    """The parts above the engine sit in the system's own folder, one module each, and the
    shared packages hold none of them (no per-system module outside a bundle)."""
    for system_id, where in BUILTIN.items():
        cls = system_class(system_id)
        assert cls.package() == where
        for part in cls.PARTS:
            module = cls.part(part)
            assert module.__name__ == f"{where}.{part}", (system_id, part, module)
        package, _, sample = cls.sample_scenario.partition(":")
        assert package == where and sample == "sample.yaml"
    shared = {
        "saikoro.scenario._defs": {"_shared", "_party", "_side", "_sense"},
        "saikoro.site._profiles": {"base"},
        "saikoro.scenario.model": {"_build", "_derive", "_common", "_keys"},
    }
    for package, allowed in shared.items():
        assert _modules(package) == {f"{package}.{n}" for n in allowed}, package


def test_a_missing_part_is_named() -> None:
    """A part the system's package lacks: an error naming the module and what it holds, or
    ``None`` where the part is optional; a name that is no part is refused."""

    class Partless(systems.System):
        id = "partless"

    assert Partless.package() == ""  # defined in a test module: no package, no parts
    assert Partless.part("vtt", required=False) is None
    with pytest.raises(RegistryError, match=r"'partless' has no simulator part .*SIMULATOR"):
        Partless.part("simulator")
    with pytest.raises(RegistryError, match="'engine' is not a part"):
        system_class("getb").part("engine")


def test_unknown_ids_are_refused_by_every_part() -> None:
    with pytest.raises(UnknownSystemError):
        system_class("nope")
    with pytest.raises(UnknownSystemError):
        definition("nope")
    with pytest.raises(UnknownSystemError):
        profile("nope")
    with pytest.raises(UnknownSystemError):
        model_class("nope")
    with pytest.raises(KeyError):
        DEFINITIONS["nope"]
    assert "nope" not in DEFINITIONS


@pytest.fixture
def fake_entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """Entry points the registry reads instead of the installed packages'."""
    points: list[EntryPoint] = []

    def entry_points(*, group: str) -> list[EntryPoint]:
        return [p for p in points if p.group == group]

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    registry.cache_clear()
    yield points
    registry.cache_clear()
    systems._classes.pop("elsewhere", None)


def test_two_registrations_of_one_id_are_an_error(fake_entry_points: list[EntryPoint]) -> None:
    fake_entry_points.append(EntryPoint("getb", "somewhere_else", systems.ENTRY_POINT_GROUP))
    with pytest.raises(RegistryError, match="'getb' is registered twice"):
        registry()


def test_a_registration_must_lead_to_its_own_class(fake_entry_points: list[EntryPoint]) -> None:
    fake_entry_points.append(
        EntryPoint("elsewhere", "saikoro.systems._getb", systems.ENTRY_POINT_GROUP)
    )
    assert "elsewhere" in registry()
    with pytest.raises(RegistryError, match="the class of 'getb', not 'elsewhere'"):
        system_class("elsewhere")
