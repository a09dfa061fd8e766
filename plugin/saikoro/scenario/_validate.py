"""Validating scenario files: :func:`validate_text`, :func:`load_scenario`, :func:`load_scenarios`.

>>> r = validate_text("system: getb\\ntitle: 試し\\n", "try.yaml")
>>> r.ok, r.scenario.id, r.scenario.system, r.scenario.model.enemies
(True, 'try', 'getb', ())
>>> r = validate_text("system: gteb\\ntitle: x\\n", "bad.yaml")
>>> print(r.problems[0].format())
bad.yaml:1:9: error: scenario.system: unknown system 'gteb' (hint: did you mean 'getb'?)
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from saikoro import systems
from saikoro.systems import UnknownSystemError
from saikoro.systems import get as get_system

from ._book import find_book
from ._common import ID_PATTERN
from ._defs import DEFINITIONS
from ._ids import is_reserved, windows_reserved
from ._inputs import FileTooLargeError, NotRegularFileError, read_bounded
from ._loader import MAX_BYTES, LoadError, Node, load_yaml
from ._problems import Msg, Problem, show_value
from ._schema import INVALID, Ctx, did_you_mean
from ._story import image_folder
from .model import ScenarioModel, build_model

__all__ = [
    "SUFFIXES",
    "FileKey",
    "FileScan",
    "LoadResult",
    "Scenario",
    "find_files",
    "load_party_file",
    "load_scenario",
    "load_scenarios",
    "scan_files",
    "unique_ids",
    "unreadable",
    "validate_bytes",
    "validate_text",
]


@dataclass(frozen=True)
class Scenario:
    """A valid scenario.

    Attributes:
        path: the file.
        id: ``id`` from the file, or the file name without extension.
        system: the system id.
        title: the title.
        digest: sha256 (hex) of the file's bytes, for caching.
        positions: key path (``scenario.enemies[0]``) -> (line, column) of its value in
            the file, so later stages (the site) can report problems at their place.
        model: the typed model (:mod:`saikoro.scenario.model`): the validated values,
            defaults filled in, as frozen dataclasses of the system, each with its
            position (``to_data(model)`` gives them back as plain data).
    """

    path: Path
    id: str
    system: str
    title: str
    digest: str = ""
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, hash=False, compare=False)
    model: ScenarioModel = field(kw_only=True, hash=False, compare=False, repr=False)

    def position(self, path: str) -> tuple[int, int]:
        """(line, column) of the value at ``path``, or of its nearest enclosing key path."""
        while path not in self.positions and path != "scenario":
            path = path[: max(path.rfind("."), path.rfind("["))]
        return self.positions.get(path, (1, 1))


@dataclass(frozen=True)
class LoadResult:
    """What loading one file gave: the scenario (``None`` on errors), every problem and
    the notes."""

    file: str
    scenario: Scenario | None
    problems: list[Problem] = field(default_factory=list, hash=False)
    notes: list[Problem] = field(default_factory=list, hash=False)
    """How values were read (the ``note`` severity: what a skill's effect text is
    simulated as...): shown by ``saikoro validate``, never problems."""

    @property
    def errors(self) -> list[Problem]:
        """The errors."""
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        """The warnings."""
        return [p for p in self.problems if p.severity == "warning"]

    @property
    def ok(self) -> bool:
        """No errors (warnings allowed)."""
        return not self.errors


def _system_id(root: Node, ctx: Ctx) -> str | None:
    pair = root.value.get("system")
    if pair is None:
        ctx.error(
            root,
            "scenario.system",
            Msg("missing", ("system", Msg("t.enum", (" | ".join(systems.SYSTEM_IDS),)))),
        )
        return None
    node = pair[1]
    value = node.value
    if node.kind == "scalar" and systems.registered(value):
        return str(value)
    hint = None
    if node.kind == "scalar" and isinstance(value, str):
        try:
            hint = Msg("hint.use_id", (show_value(get_system(value).id),))
        except UnknownSystemError:  # not a name or alias either
            hint = did_you_mean(value, systems.SYSTEM_IDS) or Msg(
                "hint.known", (", ".join(systems.SYSTEM_IDS),)
            )
        ctx.error(node, "scenario.system", Msg("system.unknown", (show_value(value),)), hint)
    else:
        ctx.wrong(node, "scenario.system", Msg("t.enum", (" | ".join(systems.SYSTEM_IDS),)))
    return None


@cache
def _default_options(system_id: str) -> dict[str, Any]:
    """The system's ruling options with their defaults."""
    return dict(get_system(system_id).options)


def validate_bytes(data: bytes | str, filename: str, path: Path | None = None) -> LoadResult:
    """Validate a scenario given as bytes (UTF-8) or text; ``filename`` names it in messages.

    Every problem of the file is reported in the result. Exceptions mean a bug in
    saikoro (or a rule system that cannot load): they propagate, so the CLI exits with
    its internal-error status and tests fail, rather than a broken check passing.
    """
    problems: list[Problem] = []
    try:
        root = load_yaml(data, filename, problems)
    except LoadError as e:
        return LoadResult(filename, None, sorted(e.problems, key=Problem.sort_key))
    ctx = Ctx(filename, problems, folder=None if path is None else image_folder(path))
    system_id = _system_id(root, ctx)
    scenario = None
    if system_id is not None:
        ctx.system = system_id
        ctx.options = dict(_default_options(system_id))
        rulings = root.get("rulings")
        if rulings is not None and rulings.kind == "map":
            ctx.options.update(
                (k, v.value) for k, (_, v) in rulings.value.items() if v.kind == "scalar"
            )
        value = DEFINITIONS[system_id].check(root, "scenario", ctx)
        file_path = path or Path(filename)
        if value is not INVALID and "id" not in value:
            value["id"] = _id_from_name(file_path, root, ctx)
        if value is not INVALID and is_reserved(value["id"]):
            _reserved(value["id"], root, ctx)
        if value is not INVALID and not any(p.severity == "error" for p in ctx.problems):
            raw = data.encode("utf-8") if isinstance(data, str) else data
            positions = {k: (n.line, n.column) for k, n in ctx.nodes.items()}
            scenario = Scenario(
                path=file_path,
                id=value["id"],
                system=system_id,
                title=value["title"],
                digest=hashlib.sha256(raw).hexdigest(),
                positions=positions,
                model=build_model(
                    system_id, value, file=filename, positions={"scenario": (1, 1), **positions}
                ),
            )
    problems = sorted(ctx.problems, key=Problem.sort_key)
    return LoadResult(filename, scenario, problems, sorted(ctx.notes, key=Problem.sort_key))


def slug(name: str) -> str:
    """A scenario id made from a file name: NFKC, lower case, runs of other characters -> ``-``.

    >>> slug("Boss Fight!"), slug("ＡＢＣ_2"), slug("山道")
    ('boss-fight', 'abc_2', '')
    """
    text = unicodedata.normalize("NFKC", name).lower()
    return re.sub(r"[^a-z0-9_]+", "-", text).strip("-_")[:64]


def _id_from_name(file_path: Path, root: Node, ctx: Ctx) -> str:
    """The default id (the file name without extension); an error unless it is a valid id.

    File names become URLs, so upper case, spaces or markup characters are refused
    rather than published as they are (``Boss.yaml`` and ``boss.yaml`` would also
    collide on case-insensitive file systems).
    """
    stem = file_path.stem
    if ID_PATTERN.fullmatch(stem) is None or len(stem) > 64:
        suggestion = slug(stem)
        if suggestion and (windows_reserved(suggestion) or is_reserved(suggestion)):
            suggestion += "-1"  # a suggestion that is refused in turn helps nobody
        hint = (
            Msg("hint.id_from_name", (suggestion,)) if suggestion else Msg("hint.id_from_name_none")
        )
        ctx.error(root, "scenario.id", Msg("id.file_name", (show_value(stem),)), hint)
    elif windows_reserved(stem):
        msg = Msg("id.windows", (show_value(stem),))
        ctx.error(root, "scenario.id", msg, Msg("hint.id_windows_file"))
    return stem


def _reserved(scenario_id: str, root: Node, ctx: Ctx) -> None:
    """An error at ``id:`` (or the file, whose name gave the id): a page saikoro generates
    beside the scenario pages has this name (the index, a print volume of the book)."""
    written = root.get("id")
    where = written if written is not None else root
    hint = (
        Msg("hint.reserved_id", (scenario_id,))
        if written is not None
        else Msg("hint.reserved_id_file")
    )
    ctx.error(where, "scenario.id", Msg("site.reserved_id", (show_value(scenario_id),)), hint)


def validate_text(text: str, filename: str = "text.yaml") -> LoadResult:
    """Validate scenario text; ``filename`` names it in messages (and gives the default id)."""
    return validate_bytes(text, filename)


def load_scenario(path: str | Path, display: str | None = None) -> LoadResult:
    """Read and validate one scenario file (``display`` is the name used in messages)."""
    file_path = Path(path)
    name = display or str(path)
    try:
        data = read_bounded(file_path, MAX_BYTES)
    except OSError as e:
        return LoadResult(name, None, [Problem(name, 1, 1, "error", "scenario", unreadable(e))])
    return validate_bytes(data, name, file_path)


def unreadable(e: OSError) -> Msg:
    """Why a file could not be read: not a file, too large, or the system's reason."""
    if isinstance(e, NotRegularFileError):
        return Msg("load.not_regular", (Msg(f"kind.{e.kind.split()[0].lower()}"),))
    if isinstance(e, FileTooLargeError):
        return Msg("load.too_big", (e.size, e.limit))
    return Msg("load.unreadable", (e.strerror or str(e),))


SUFFIXES = (".yaml", ".yml")
"""The scenario files' suffixes (compared without case: ``boss.YAML`` is read too)."""


@dataclass(frozen=True)
class FileScan:
    """What :func:`scan_files` found: the scenario files, and the problems with what it
    could not look into (an unreadable folder, a link leading out of the book)."""

    files: list[Path]
    problems: list[Problem]


def scan_files(folder: str | Path, *, within: Path | None = None) -> FileScan:
    """Every scenario file under ``folder`` (``*.yaml`` / ``*.yml``, any case), sorted,
    hidden files and folders skipped, and an error for each place not looked into.

    A symbolic link to a folder is followed when it leads to a folder inside ``within``
    (default: the book ``folder`` is in, else ``folder`` itself), and reported otherwise:
    a scenario folder never pulls in files from elsewhere without a word. A folder that
    cannot be listed (no permission) is an error, never a folder of no scenarios. Anything
    with a scenario's name but a folder is listed -- a FIFO, a device, a broken link -- so
    that reading it says what it is.
    """
    root = Path(folder)
    if within is None:
        book = find_book(root)
        within = book.root if book is not None else root
    bound = Path(os.path.realpath(within))
    files: list[Path] = []
    problems: list[Problem] = []
    seen: set[str] = set()

    def problem(path: Path, msg: Msg) -> None:
        problems.append(Problem(str(path), 1, 1, "error", "scenario", msg))

    def walk(here: Path) -> None:
        real = os.path.realpath(here)
        if real in seen:  # a link back to a folder already read: read once
            return
        seen.add(real)
        try:
            with os.scandir(here) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as e:
            problem(here, Msg("files.unreadable_folder", (e.strerror or str(e),)))
            return
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = here / entry.name
            try:
                is_dir = entry.is_dir()
            except OSError:  # a link loop: reading it says so
                is_dir = False
            if is_dir:
                if entry.is_symlink():
                    target = Path(os.path.realpath(path))
                    if target != bound and bound not in target.parents:
                        problem(path, Msg("files.link_outside", (str(target), str(within))))
                        continue
                walk(path)
            elif Path(entry.name).suffix.lower() in SUFFIXES:
                files.append(path)

    if root.is_dir():
        walk(root)
    return FileScan(sorted(files), problems)


def find_files(folder: str | Path) -> list[Path]:
    """The scenario files under ``folder`` (:func:`scan_files`' files; its problems are
    for the commands that read the files to report)."""
    return scan_files(folder).files


FileKey = tuple[str, int, int]
"""A file as :func:`load_scenarios` caches it: its path, mtime (ns) and size."""


def load_scenarios(
    folder: str | Path, *, cache: MutableMapping[FileKey, LoadResult] | None = None
) -> list[LoadResult]:
    """Load every scenario file under ``folder`` (see :func:`scan_files`; what it could
    not look into comes as a result of its own, with the error and no scenario).

    Scenario ids must be unique across the files: a later file reusing an id gets an
    error (and no scenario).

    With ``cache`` (kept by the caller: the site's plugin keeps one across ``mkdocs serve``
    rebuilds), a file whose mtime and size did not change is not read again; afterwards
    ``cache`` holds this call's files only.
    """
    scan = scan_files(folder)
    unread = [LoadResult(p.file, None, [p]) for p in scan.problems]
    if cache is None:
        return unique_ids([*(load_scenario(p) for p in scan.files), *unread])
    results = []
    fresh: dict[FileKey, LoadResult] = {}
    for path in scan.files:
        try:
            stat = path.stat()
        except OSError:  # a broken link: loading it says so (and it is never cached)
            results.append(load_scenario(path))
            continue
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        found = cache.get(key)
        if found is None:
            found = load_scenario(path)
        fresh[key] = found
        results.append(found)
    cache.clear()
    cache.update(fresh)
    return unique_ids([*results, *unread])


def load_party_file(path: Path, system: str) -> tuple[list[Any] | None, list[Problem]]:
    """A party file (``saikoro simulate --party``) validated as ``system``'s ``party:``.

    The file is YAML with a ``party:`` list, or the list itself, read as scenario files
    are (a regular file of at most ``MAX_BYTES``). Returns the validated list (defaults
    filled in) and no problems, or ``None`` and the problems.
    """
    name = str(path)
    try:
        root = load_yaml(read_bounded(path, MAX_BYTES), name)
    except OSError as e:
        return None, [Problem(name, 1, 1, "error", "party", unreadable(e))]
    except LoadError as e:
        return None, list(e.problems)
    node = root.get("party") if root.kind == "map" else root
    ctx = Ctx(name)
    party = DEFINITIONS[system].field("party").type
    if node is None:
        ctx.wrong(root, "party", party.expected())
        return None, ctx.problems
    value = party.check(node, "party", ctx)
    if value is INVALID or ctx.problems:
        return None, ctx.problems
    return value, []


def unique_ids(results: list[LoadResult]) -> list[LoadResult]:
    """``results`` with an error added to every file whose scenario id is already taken,
    and to every file whose path differs from an earlier one only in case."""
    seen: dict[str, str] = {}
    folded: dict[str, str] = {}
    out: list[LoadResult] = []
    for result in results:
        key = unicodedata.normalize("NFC", result.file).casefold()
        first = folded.setdefault(key, result.file)
        if first != result.file:
            msg = Msg("cli.case_clash", (f"'{result.file}'", f"'{first}'"))
            problem = Problem(result.file, 1, 1, "error", "scenario", msg)
            out.append(LoadResult(result.file, None, [problem, *result.problems]))
            continue
        sc = result.scenario
        if sc is not None and sc.id in seen:
            msg = Msg("cli.dup_scenario", (show_value(sc.id), seen[sc.id]))
            problem = Problem(result.file, 1, 1, "error", "scenario.id", msg)
            out.append(LoadResult(result.file, None, [problem, *result.problems]))
            continue
        if sc is not None:
            seen[sc.id] = result.file
        out.append(result)
    return out
