"""Scenario files: YAML loading, validation with exact locations, JSON Schema.

Public API (stable; used by the MkDocs plugin and the CLI):

* :func:`load_scenario` ``(path) -> LoadResult`` — read and validate one file.
* :func:`load_scenarios` ``(folder) -> list[LoadResult]`` — every ``*.yaml``/``*.yml`` below.
* :func:`validate_text` ``(text, filename) -> LoadResult`` — validate text.
* :class:`LoadResult` — ``.scenario`` (``None`` on errors), ``.problems``, ``.errors``,
  ``.warnings``, ``.ok``, ``.file``.
* :class:`Scenario` — frozen: ``path``, ``id``, ``system``, ``title``, ``digest`` (sha256
  of the file bytes), ``positions``, ``model`` (the validated values, defaults filled
  in, as typed frozen dataclasses of the system, each with its position:
  :mod:`saikoro.scenario.model`).
* :class:`Problem` — ``file``, ``line``, ``column`` (1-based), ``severity``
  (``error``/``warning``), ``path`` (``scenario.enemies[0].hp``), ``message``, ``hint``
  (English), ``text(lang)``, ``hint_text(lang)``, ``format(lang)``, ``to_json(lang)``.
* :func:`field_reference` ``(system) -> dict`` — every field, for the generated docs.
* :func:`json_schema` ``(system=None) -> dict`` — JSON Schema (draft 2020-12).
* :mod:`saikoro.scenario._cli` — ``validate_main(argv)``, ``schema_main(argv)``.
* :mod:`saikoro.scenario.model` — the typed model's classes (``Scenario.model``).

The authoring API of a system's scenario definition (see ``System.scenario_def``): the
root :func:`scenario_root` of :func:`target_obj` and :func:`enemy_obj` entries made of
:class:`Field` s, whose types are :class:`Int`, :class:`Str`, :class:`Bool`,
:class:`Enum`, :class:`Choice`, :class:`IntOrRange`, :class:`ListOf`, :class:`MapOf`
and :class:`Obj` (a :class:`Check` adds a rule across fields).

This package is not shipped to the browser; it uses PyYAML (its C loader when present).

>>> r = validate_text("system: kegare\\ntitle: 試し\\nplayers: 3-4\\n", "t.yaml")
>>> r.ok, r.scenario.model.players
(True, '3-4')
"""

from __future__ import annotations

from ._containers import Field, ListOf, MapOf, Obj
from ._defs._shared import enemy_obj, scenario_root, target_obj
from ._export import field_reference, json_schema
from ._problems import Problem
from ._schema import Bool, Check, Choice, Enum, Int, IntOrRange, Str, Type
from ._validate import LoadResult, Scenario, load_scenario, load_scenarios, validate_text

__all__ = [
    "Bool",
    "Check",
    "Choice",
    "Enum",
    "Field",
    "Int",
    "IntOrRange",
    "ListOf",
    "LoadResult",
    "MapOf",
    "Obj",
    "Problem",
    "Scenario",
    "Str",
    "Type",
    "enemy_obj",
    "field_reference",
    "json_schema",
    "load_scenario",
    "load_scenarios",
    "scenario_root",
    "target_obj",
    "validate_text",
]
