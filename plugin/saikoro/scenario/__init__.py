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
  (English), ``text(lang)``, ``hint_text(lang)``, ``format(lang)``, ``to_json(lang)``,
  ``gate`` (:data:`Gate`: a verdict of the balance gate, which ``--strict`` leaves alone;
  :func:`fail_on_miss_env` reads :data:`FAIL_ON_MISS_ENV`, which makes a miss fail;
  :func:`balance_seconds_env` reads :data:`BALANCE_SECONDS_ENV`, the time one scenario's
  battles may take there).
* :func:`field_reference` ``(system) -> dict`` — every field, for the generated docs.
* :func:`json_schema` ``(system=None) -> dict`` — JSON Schema (draft 2020-12);
  :func:`schema_text` writes it as a file holds it, :data:`LOCAL_SCHEMA` is where a book
  keeps its copy and :func:`refresh_schemas` rewrites the stale copies scenarios name (a
  :class:`SchemaRefresh`).
* :func:`validate_main` ``(argv)``, :func:`schema_main` ``(argv)`` — ``saikoro validate``
  and ``saikoro schema``.
* :mod:`saikoro.scenario.model` — the typed model's classes (``Scenario.model``).

What the site, the simulator and the command line read besides (the rules of a scenario
file, written once, here): :data:`DEFINITIONS` (each system's whole definition),
:func:`reference_party` (the party a scenario without ``party:`` is simulated with),
:data:`MAX_BYTES` (the largest file read), :func:`scan_files` (the scenario files of a
folder and what could not be looked into, a :class:`FileScan`; :func:`find_files`: the
files), :func:`load_party_file` (a ``--party`` file), :func:`default_lang` (the language
of messages; :func:`render` a :class:`Msg` in it), :func:`find_book` (the :class:`Book` a
command runs in; :func:`book_scenarios`: the folder a command reads when no file is named), ids
(:data:`ID_PATTERN`, :func:`slug`, :func:`is_reserved`, :func:`volume_id`: the pages the
site keeps), the ranges an author writes (:func:`parse_win_range`, :func:`party_size`),
the parts of a scenario book (:data:`PHASE_LABELS`: a scene's phase in Japanese;
:func:`image_file`: the file an image's ``file:`` names; :func:`image_info`: an image's
format and size from its header, of the formats :data:`IMAGE_SUFFIXES`),
the simulator's tactics that ``balance.tactics`` names (:class:`Policy`,
:func:`parse_policy`, :data:`PRESETS`, :data:`ATOMS`, :func:`describe_tactic`,
:class:`TacticsError`), :func:`short_label` (a field's label), and how an author's files
are written without losing a byte: :func:`replace_file` (temporary file + rename, mode
kept), :func:`text_like` (new text with the original's line endings and BOM),
:func:`newline_of`; the one YAML reader every command reads scenarios with (YAML 1.2
core, each :class:`Node` with its line, column and character offsets): :func:`load_yaml`
(:func:`decode_yaml`: the bytes as it decodes them); and how every ``saikoro`` subcommand
reads its options: :class:`CommandParser` (argparse, its mistakes said in Japanese:
:func:`usage_error`; its help's own words: :func:`japanese_help`), :func:`bounded_int`,
:func:`quoted_arg` (a value as a message quotes it).

The authoring API of a system's scenario definition (its ``scenario`` part, see
:meth:`saikoro.systems.System.part`): the keys are declared once, in the system's model
(its ``model`` part: :func:`saikoro.scenario.model.key` fields of
:func:`saikoro.scenario.model.model` classes, whose ``kind`` is an :class:`Int`, a
:class:`Str` (:data:`NAME`, :data:`TEXT`, :data:`ID`), an :class:`Enum` of
:class:`Choice` s or an :class:`IntOrRange`); :func:`scenario_root` makes the whole
definition (:class:`Obj` s of :class:`Field` s, :class:`ListOf`, :class:`MapOf`,
:class:`Bool`...) of the system's :class:`~saikoro.scenario.model.ScenarioModel`, with
its checks by model class; :data:`BATTLE_CHECKS` are the side-mission keys of a battle. A
:data:`Check` ``(value, node, path, ctx)`` adds a rule across fields: it reports on
``ctx`` (:class:`Ctx`: ``error`` / ``warning`` at a :class:`Node`, paths joined with
:func:`join_path`) with a :class:`Msg` (:func:`show_value`, :func:`did_you_mean`,
:func:`warn_at`, :func:`odds_hint`, :func:`fraction_text`); :data:`INVALID` is what a
type's ``check`` returns for a value it refused. A check wrapped in :class:`Tolerant`
also runs on the valid part of a value with errors elsewhere (so a file's problems come
in one run); it must skip what it cannot be sure of.

This package is not shipped to the browser; it uses PyYAML (its C loader when present).

>>> r = validate_text("system: kegare\\ntitle: 試し\\nplayers: 3-4\\n", "t.yaml")
>>> r.ok, r.scenario.model.players
(True, '3-4')
"""

from __future__ import annotations

from ._args import CommandParser, bounded_int, japanese_help, quoted_arg, usage_error
from ._book import Book, book_scenarios, find_book
from ._cli import add_files_argument, files_or_book, schema_main, validate_main
from ._common import ID, ID_PATTERN, NAME, TEXT, fraction_text
from ._containers import Field, ListOf, MapOf, Obj
from ._defs import DEFINITIONS, reference_party, side_facts
from ._defs._shared import odds_hint, scenario_root, warn_at
from ._defs._side import BATTLE_CHECKS, SideFact
from ._export import field_reference, json_schema, short_label
from ._files import newline_of, replace_file, text_like
from ._ids import is_reserved, volume_id, windows_reserved
from ._images import IMAGE_SUFFIXES, image_info
from ._loader import MAX_BYTES, LoadError, Node, join_path, load_yaml
from ._loader import decode as decode_yaml
from ._problems import (
    BALANCE_SECONDS_ENV,
    FAIL_ON_MISS_ENV,
    Gate,
    Msg,
    Problem,
    balance_seconds_env,
    default_lang,
    fail_on_miss_env,
    render,
    show_value,
)
from ._ranges import parse_win_range, party_size
from ._schema import (
    INVALID,
    Bool,
    Check,
    Choice,
    Ctx,
    Enum,
    Int,
    IntOrRange,
    Str,
    Tolerant,
    Type,
    did_you_mean,
)
from ._schemafile import LOCAL_SCHEMA, SchemaRefresh, refresh_schemas, schema_text
from ._story import PHASE_LABELS, image_file
from ._tactics import ATOMS, PRESETS, Policy, TacticsError, describe_tactic, parse_policy
from ._validate import (
    FileScan,
    LoadResult,
    Scenario,
    find_files,
    load_party_file,
    load_scenario,
    load_scenarios,
    scan_files,
    slug,
    validate_text,
)

__all__ = [
    "ATOMS",
    "BALANCE_SECONDS_ENV",
    "BATTLE_CHECKS",
    "DEFINITIONS",
    "FAIL_ON_MISS_ENV",
    "ID",
    "ID_PATTERN",
    "IMAGE_SUFFIXES",
    "INVALID",
    "LOCAL_SCHEMA",
    "MAX_BYTES",
    "NAME",
    "PHASE_LABELS",
    "PRESETS",
    "TEXT",
    "Book",
    "Bool",
    "Check",
    "Choice",
    "CommandParser",
    "Ctx",
    "Enum",
    "Field",
    "FileScan",
    "Gate",
    "Int",
    "IntOrRange",
    "ListOf",
    "LoadError",
    "LoadResult",
    "MapOf",
    "Msg",
    "Node",
    "Obj",
    "Policy",
    "Problem",
    "Scenario",
    "SchemaRefresh",
    "SideFact",
    "Str",
    "TacticsError",
    "Tolerant",
    "Type",
    "add_files_argument",
    "balance_seconds_env",
    "book_scenarios",
    "bounded_int",
    "decode_yaml",
    "default_lang",
    "describe_tactic",
    "did_you_mean",
    "fail_on_miss_env",
    "field_reference",
    "files_or_book",
    "find_book",
    "find_files",
    "fraction_text",
    "image_file",
    "image_info",
    "is_reserved",
    "japanese_help",
    "join_path",
    "json_schema",
    "load_party_file",
    "load_scenario",
    "load_scenarios",
    "load_yaml",
    "newline_of",
    "odds_hint",
    "parse_policy",
    "parse_win_range",
    "party_size",
    "quoted_arg",
    "reference_party",
    "refresh_schemas",
    "render",
    "replace_file",
    "scan_files",
    "scenario_root",
    "schema_main",
    "schema_text",
    "short_label",
    "show_value",
    "side_facts",
    "slug",
    "text_like",
    "usage_error",
    "validate_main",
    "validate_text",
    "volume_id",
    "warn_at",
    "windows_reserved",
]
