"""The sample book validates, uses every field, and agrees with the JSON Schema."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no types-jsonschema in the dev tools
import pytest
import yaml

from saikoro.scenario import field_reference, json_schema, load_scenarios, validate_text
from saikoro.systems import SYSTEM_IDS

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "scenarios").glob("*.yaml"))
VALIDATOR = jsonschema.Draft202012Validator(json_schema())


def load(text: str) -> Any:
    """PyYAML's own safe loading (libyaml), independent of saikoro's loader."""
    return yaml.load(text, Loader=yaml.CSafeLoader)


def as_json(data: Any) -> Any:
    """What an editor sees: YAML data through JSON (keys become strings)."""
    return json.loads(json.dumps(data, ensure_ascii=False, default=str))


def schema_ok(text: str) -> bool:
    try:
        data = load(text)
    except yaml.YAMLError:
        return False
    return bool(VALIDATOR.is_valid(as_json(data)))


def test_schemas_are_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(json_schema())
    for system in SYSTEM_IDS:
        jsonschema.Draft202012Validator.check_schema(json_schema(system))


def test_sample_book_is_big_enough() -> None:
    systems = Counter(load(p.read_text("utf-8"))["system"] for p in SAMPLES)
    assert len(SAMPLES) >= 10
    assert set(systems) == set(SYSTEM_IDS)
    assert min(systems.values()) >= 2


def test_every_sample_is_valid_without_warnings() -> None:
    results = load_scenarios(ROOT / "scenarios")
    assert len(results) == len(SAMPLES)
    for result in results:
        assert result.problems == [], [p.format() for p in result.problems]
    ids = [r.scenario.id for r in results if r.scenario]
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_matches_json_schema(path: Path) -> None:
    text = path.read_text("utf-8")
    data = as_json(load(text))
    errors = list(VALIDATOR.iter_errors(data))
    assert errors == []
    jsonschema.validate(data, json_schema(data["system"]))


def _paths(ref: dict[str, Any], prefix: str = "") -> set[str]:
    out: set[str] = set()
    for f in ref.get("fields", []):
        path = f"{prefix}{f['name']}"
        out.add(path)
        inner = f.get("item", f)
        if inner.get("type") == "mapping":
            out |= _paths(inner, path + ".")
        if f.get("type") == "map" and f["value"].get("type") == "mapping":
            out |= _paths(f["value"], path + ".*.")
    return out


def _used(data: Any, prefix: str = "", in_map: bool = False) -> set[str]:
    out: set[str] = set()
    if isinstance(data, list):
        for item in data:
            out |= _used(item, prefix)
    elif isinstance(data, dict):
        for key, value in data.items():
            name = "*" if in_map else str(key)
            path = f"{prefix}{name}"
            out.add(path)
            child_map = key in ("entries",) and not in_map
            out |= _used(value, path + ".", child_map)
    return out


def test_samples_together_use_every_field() -> None:
    used: dict[str, set[str]] = {s: set() for s in SYSTEM_IDS}
    for path in SAMPLES:
        data = load(path.read_text("utf-8"))
        used[data["system"]] |= _used(data)
    for system in SYSTEM_IDS:
        missing = _paths(field_reference(system)) - used[system]
        assert not missing, f"{system}: no sample uses {sorted(missing)}"


def _mutations(text: str) -> list[str]:
    """Structurally invalid variants of a valid scenario."""
    data = load(text)
    out = []
    changes: tuple[Callable[[Any], object], ...] = (
        lambda d: d.pop("title"),
        lambda d: d.update(title=123),
        lambda d: d.update(players="many"),
        lambda d: d.update(unknown_key=1),
        lambda d: d.update(system="nope"),
        lambda d: d.update(enemies={"not": "a list"}),
        lambda d: d.update(difficulty_targets=[{"name": "x"}]),
        lambda d: d["enemies"][0].pop("id") if d.get("enemies") else d.update(enemies=[{}]),
        lambda d: d["enemies"][0].update(hp=-5) if d.get("enemies") else d.update(enemies=[1]),
        lambda d: d.update(missions={"main": {}}),
        lambda d: d.update(chase_tables=[{"name": "t", "die": "1X6", "entries": {}}]),
        lambda d: d.update(rulings={"Bad-Name": 1}),
        lambda d: d.update(rulings={"no_such_option": 1}),
    )
    for change in changes:
        mutated = copy.deepcopy(data)
        change(mutated)
        out.append(yaml.dump(mutated, Dumper=yaml.CSafeDumper, allow_unicode=True))
    return out


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_validators_agree_on_invalid_variants(path: Path) -> None:
    for variant in _mutations(path.read_text("utf-8")):
        ours = validate_text(variant, "v.yaml")
        assert not ours.ok, variant
        assert not schema_ok(variant), variant


def test_validators_agree_on_the_fixtures() -> None:
    structural = [
        "wrong-type.yaml",
        "typo-key.yaml",
        "bad-cell.yaml",
        "not-mapping.yaml",
        "unknown-system.yaml",
        "missing-title.yaml",
        "bad-enum.yaml",
        "empty.yaml",
    ]
    for name in structural:
        text = (ROOT / "tests" / "data" / "scenarios" / name).read_text("utf-8")
        assert not validate_text(text, name).ok
        assert not schema_ok(text), name
