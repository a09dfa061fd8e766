"""The in-browser dice roller: widget markup and the files it needs in the built site.

The roller runs the same engine as the site's odds and the command line, on MicroPython's
WebAssembly port (about 220 kB gzip; Pyodide, which the roller used before, is 6.7 MB a
first roll): a module Web Worker loads MicroPython and the engine's modules, lowered for
MicroPython at build time (:mod:`saikoro.site._lowering`) and packed as gzipped bundles
(:func:`engine_bundles`): ``core`` (``saikoro``, ``saikoro.dice``, the system registry and
the shims) and one bundle per system, fetched only when a page rolls that system. Each roll
calls ``_mp_worker.roll`` (``assets/micropython/_mp_worker.py``).

Site layout written by :func:`install_assets` (all under :data:`ASSET_DIR`)::

    assets/saikoro/roller.js                 classic script on every page (EXTRA_JS), bundled
                                             from the ES modules assets/roller/*.js
    assets/saikoro/roller.css                widget styles (EXTRA_CSS)
    assets/saikoro/worker.js                 module worker: MicroPython + the engine
    assets/saikoro/mphost.mjs                what MicroPython borrows from JavaScript
    assets/saikoro/engine/<name>.<hash>.gz   the engine's bundles (content-addressed)
    assets/saikoro/micropython/              micropython.mjs, micropython.wasm, LICENSE

With ``offline`` (the default; never under ``mkdocs serve``) the page registers the
service worker written at the site root by :mod:`saikoro.site._offline`: it keeps what
the reader's browser fetched through it, and the whole book when the reader asks for it
(「オフライン用に保存」, with its size).

A page without a widget fetches only ``roller.js`` and ``roller.css``: the worker starts
when the reader points at, touches or focuses a roller (policy ``intent``, the default),
when one becomes visible (``visible``), on a click (``click``) or at once (``eager``).

>>> print(widget("2D6>=7", system="getb"))  # doctest: +NORMALIZE_WHITESPACE
<div class="saikoro-roller" data-command="2D6&gt;=7" data-system="getb"
data-search-exclude><button type="button" class="saikoro-roll"
title="ダイスを振る">2D6&gt;=7</button><output class="saikoro-output"
aria-live="polite"></output></div>

A scenario's ruling options (``rulings:``) travel with its widgets as ``data-options``
(JSON), so a roll follows the same options as the page's odds:

>>> print(widget("KK3", system="kokuryoku", options={"die": 6}))  # doctest: +NORMALIZE_WHITESPACE
<div class="saikoro-roller" data-command="KK3" data-system="kokuryoku"
data-options="{&quot;die&quot;:6}" data-search-exclude><button type="button" class="saikoro-roll"
title="ダイスを振る">KK3</button><output class="saikoro-output"
aria-live="polite"></output></div>
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from saikoro.dice import SaikoroError
from saikoro.scenario import replace_file
from saikoro.systems import (
    BUILTIN,
    ENTRY_POINT_GROUP,
    SYSTEM_IDS,
    OptionValue,
    System,
    all_systems,
    registry,
    system_class,
)

from ._lowering import enum_names, lower
from ._lru import Lru
from .vendor import BUNDLES, LICENSE_NAME, MICROPYTHON_VERSION, VendorError, bundle_dir

__all__ = [
    "ASSET_DIR",
    "EXTRA_CSS",
    "EXTRA_JS",
    "MAX_COMMAND_LENGTH",
    "MICROPYTHON_VERSION",
    "POLICIES",
    "ROLLER_MODULES",
    "RUNTIME_FILES",
    "EngineBundle",
    "RollerAssetError",
    "RollerSettings",
    "engine_bundles",
    "engine_paths",
    "find_runtime_dir",
    "free_widget",
    "install_assets",
    "options_json",
    "roller_script",
    "widget",
]

RUNTIME_FILES = BUNDLES["micropython"].files
"""The MicroPython files the roller's worker loads."""

POLICIES = ("intent", "eager", "visible", "click")
"""Loading policies: when the reader points at, touches or focuses a roller (the default),
at page load, when a roller is seen, on the first click."""

ASSET_DIR = "assets/saikoro"
"""Site-relative folder of every roller file."""

EXTRA_CSS = [f"{ASSET_DIR}/roller.css"]
"""Stylesheets to add to every page (site-relative)."""

EXTRA_JS = [f"{ASSET_DIR}/roller.js"]
"""Scripts to add to every page (site-relative; plain classic scripts, not modules)."""

MAX_COMMAND_LENGTH = 500
"""Longest command the page sends to the engine; longer text is refused in the page."""

INSERT_KEYS = (">=", "<=", "+", "-", "D")
"""Keys of the free-form roller that insert what a phone's keyboard hides (``>=``)."""

SERVICE_WORKER = "saikoro-sw.js"
"""The service worker's file at the site root (written by :mod:`saikoro.site._offline`)."""

_ASSETS = Path(__file__).parent / "assets"
_PACKAGE = Path(__file__).resolve().parents[1]
_CONFIG_MARK = "/*@saikoro-config*/null"
_LABEL_TITLE = "ダイスを振る"


class RollerAssetError(SaikoroError, ValueError):
    """The roller's files cannot be installed (e.g. the bundled MicroPython is missing)."""


@dataclass(frozen=True)
class RollerSettings:
    """How the roller is installed and when it loads.

    Attributes:
        policy: ``intent`` | ``eager`` | ``visible`` | ``click`` (see :data:`POLICIES`).
        config_dir: the folder of ``mkdocs.yml``.
        load_timeout: seconds before a still-loading engine is reported as failed.
        roll_timeout: seconds one roll may take before the worker is stopped.
        max_length: the page's command length cap.
        offline: register the service worker that keeps the engine and the site on the
            reader's device (``saikoro-sw.js`` at the site root; see :mod:`._offline`).

    >>> RollerSettings(policy="sometimes")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    saikoro.site._roller.RollerAssetError: unknown roller policy 'sometimes'; use intent, ...
    """

    policy: str = "intent"
    config_dir: str | None = None
    load_timeout: float = 120.0
    roll_timeout: float = 10.0
    max_length: int = MAX_COMMAND_LENGTH
    offline: bool = False

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise RollerAssetError(
                f"unknown roller policy {self.policy!r}; use intent, eager, visible or click"
            )
        if self.load_timeout <= 0 or self.roll_timeout <= 0 or self.max_length <= 0:
            raise RollerAssetError("roller timeouts and max_length must be positive")


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def options_json(options: Mapping[str, OptionValue] | None) -> str:
    """The ruling options as the compact JSON the worker reads (``""`` when none).

    Keys are sorted, so the same options always give the same text (the worker caches
    configured systems by it). The text is not escaped: :func:`widget` escapes it.

    >>> options_json({"die": 6, "equal_power": "npc"}), options_json(None)
    ('{"die":6,"equal_power":"npc"}', '')
    """
    if not options:
        return ""
    return json.dumps(dict(options), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _options_attr(system: str | None, options: Mapping[str, OptionValue] | None) -> str:
    text = options_json(options) if system else ""
    return f' data-options="{_attr(text)}"' if text else ""


def widget(
    command: str,
    *,
    system: str | None = None,
    label: str | None = None,
    options: Mapping[str, OptionValue] | None = None,
    personal: str | None = None,
    enabled: bool = True,
) -> str:
    """HTML of one roll button for ``command`` with its live result area (``""`` when not
    ``enabled``: the plugin's ``roller.enabled``, passed down from the build, so a site can
    show odds without rollers).

    Args:
        command: the command the button rolls (shown on the button unless ``label``).
        system: the system id or alias the command belongs to (``None``: generic).
        label: the button's text.
        options: the system's ruling options (``saikoro.get_system(system, **options)``),
            written as ``data-options`` JSON when non-empty; ignored without ``system``.
            They are not checked here: the page's odds were computed with them, and the
            worker reports a bad option as the roll's error.
        personal: JSON (``data-personal``) telling the page how the command follows the
            reader's own value (a difficulty target's; see ``roller.js``).
        enabled: whether the page has rollers.

    >>> widget('"><img src=x onerror=alert(1)>', label="<b>")  # doctest: +ELLIPSIS
    '<div class="saikoro-roller" data-command="&quot;&gt;&lt;img src=x ...&lt;b&gt;</button>...'
    >>> widget("2D6", options={"die": 6})  # no system: no options
    '<div class="saikoro-roller" data-command="2D6" data-search-exclude><button ...'
    """
    if not enabled:
        return ""
    system_attr = f' data-system="{_attr(system)}"' if system else ""
    if personal:
        system_attr += f' data-personal="{_attr(personal)}"'
    text = label if label is not None else command
    return (
        # a button's label is not text to search (data-search-exclude)
        f'<div class="saikoro-roller" data-command="{_attr(command)}"{system_attr}'
        f"{_options_attr(system, options)} data-search-exclude>"
        f'<button type="button" class="saikoro-roll" title="{_LABEL_TITLE}">'
        f"{html.escape(text)}</button>"
        '<output class="saikoro-output" aria-live="polite"></output></div>'
    )


def _system_names() -> list[tuple[str, str]]:
    return [(system.id, system.name or system.id) for system in all_systems()]


GENERIC_EXAMPLE = "2D6>=7"
"""The free-form roller's placeholder when no system is chosen."""


def _example(system_id: str) -> str:
    """A system's first documented command, the free-form roller's placeholder for it."""
    docs = system_class(system_id).commands if system_id else ()
    return next((e for doc in docs for e in doc.examples), GENERIC_EXAMPLE)


def _resolve_system(system: str | None) -> str:
    if not system:
        return ""
    if system in SYSTEM_IDS:
        return system
    from saikoro.systems import get

    return get(system).id


def free_widget(
    *,
    system: str | None = None,
    options: Mapping[str, OptionValue] | None = None,
    enabled: bool = True,
) -> str:
    """HTML of a free-form roller: command field, system choice, button and result, in a
    ``<section data-search-exclude>`` (its labels and choices are not text to search: a
    section, as Material's indexer ends an excluded element at the first closing tag of its
    name, and the roller holds divs); ``""`` when not ``enabled`` (see :func:`widget`).

    Args:
        system: the system preselected (id or alias); ``None`` preselects 汎用 (generic).
        options: that system's ruling options (a scenario's ``rulings:``), written as
            ``data-options``; the page applies them while the preselected system is
            chosen, not when the reader picks another one. Ignored without ``system``.
        enabled: whether the page has rollers.

    Raises:
        saikoro.systems.UnknownSystemError: ``system`` names no system.

    >>> html_ = free_widget(system="getb")
    >>> '<option value="getb" selected' in html_ and 'data-system="getb"' in html_
    True
    >>> 'placeholder="GB3&gt;=8"' in html_  # the system's own example
    True
    >>> 'data-options="{&quot;die&quot;:6}"' in free_widget(system="国力", options={"die": 6})
    True
    """
    if not enabled:
        return ""
    selected = _resolve_system(system)
    none = "" if selected else " selected"
    # each choice names its own example: the placeholder follows the system chosen
    generic = f' data-example="{_attr(GENERIC_EXAMPLE)}"'
    choices = [f'<option value=""{none}{generic}>汎用（システムなし）</option>']
    for system_id, name in _system_names():
        mark = " selected" if system_id == selected else ""
        choices.append(
            f'<option value="{_attr(system_id)}"{mark} data-example="{_attr(_example(system_id))}">'
            f"{html.escape(name)}</option>"
        )
    keys = "".join(
        f'<button type="button" class="saikoro-key" data-insert="{_attr(k)}" '
        f'title="{_attr(k)} を入れる">{html.escape(k)}</button>'
        for k in INSERT_KEYS
    )
    return (
        "<section data-search-exclude>"
        f'<div class="saikoro-roller saikoro-free" data-system="{_attr(selected)}"'
        f"{_options_attr(selected, options)}>"
        '<div class="saikoro-chips" role="group" aria-label="このページのコマンド" hidden></div>'
        '<label class="saikoro-field"><span>コマンド</span>'
        f'<input type="text" class="saikoro-command" maxlength="{MAX_COMMAND_LENGTH}" '
        'autocomplete="off" autocapitalize="off" spellcheck="false" '
        f'placeholder="{_attr(_example(selected))}" enterkeyhint="go"></label>'
        '<label class="saikoro-field"><span>システム</span>'
        f'<select class="saikoro-system">{"".join(choices)}</select></label>'
        f'<button type="button" class="saikoro-roll" title="{_LABEL_TITLE}">振る</button>'
        f'<div class="saikoro-keys" role="group" aria-label="記号を入れる">{keys}</div>'
        '<output class="saikoro-output" aria-live="polite"></output>'
        '<p class="saikoro-offline" aria-live="polite" hidden></p></div></section>'
    )


# ---- the engine's bundles ----------------------------------------------------------------------

_SHIMS = _ASSETS / "micropython"
"""MicroPython-only modules shipped in the core bundle (``_mp*.py``: not lowered)."""


@dataclass(frozen=True)
class EngineBundle:
    """One gzipped bundle of lowered engine modules.

    Attributes:
        name: ``core`` or a system id.
        files: (path inside the engine's file system, text) pairs, sorted.
        data: the gzipped JSON ``{"files": [[path, text], ...]}`` (deterministic).
    """

    name: str
    files: tuple[tuple[str, str], ...]
    data: bytes

    @property
    def path(self) -> str:
        """Site-relative path, named by content: a new build of a changed bundle is a new
        file, so no cache ever serves a stale one."""
        digest = hashlib.sha256(self.data).hexdigest()[:12]
        return f"{ASSET_DIR}/engine/{self.name}.{digest}.gz"


@dataclass(frozen=True)
class _Source:
    """One engine module: its path in the engine's file system, its bundle, its file."""

    name: str
    bundle: str
    path: Path


def _package_folder(system_id: str) -> tuple[str, Path]:
    """(package, folder) of a system's engine: the package its class is defined in."""
    cls = system_class(system_id)
    package = cls.package()
    if not package:  # a system in a top-level module: that module alone is its engine
        where = sys.modules[cls.__module__].__file__
        if where is None:
            raise RollerAssetError(f"system {system_id!r}: {cls.__module__} has no source file")
        return "", Path(where)
    module = sys.modules[package]
    folders = list(getattr(module, "__path__", ()))
    if not folders:
        raise RollerAssetError(f"system {system_id!r}: package {package} has no folder")
    return package, Path(folders[0]).resolve()


def _is_part(relative: Path) -> bool:
    """Whether a file of a system's package (relative to it) is one of its parts above the
    engine (``scenario.py``, ``simulator/...``): they import the rest of saikoro, so the
    browser's engine leaves them out."""
    first = relative.parts[0]
    return (first if len(relative.parts) > 1 else relative.stem) in System.PARTS


def _python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def _engine_sources() -> list[_Source]:
    """The engine's modules, each with its path in the engine's file system and its bundle.

    ``core``: ``saikoro/__init__.py`` and every module under ``saikoro/dice`` and
    ``saikoro/systems`` outside a system's package. Each registered system (built in, or
    added by an installed package through its entry point) has a bundle of its own: its
    package's modules but its parts above the engine, and for an installed system the
    ``__init__.py`` of the packages around its own.
    """
    found = [_Source("saikoro/__init__.py", "core", _PACKAGE / "__init__.py")]
    systems = {system_id: _package_folder(system_id) for system_id in registry()}
    inside = {folder for package, folder in systems.values() if package}
    for sub in ("dice", "systems"):
        for path in _python_files(_PACKAGE / sub):
            if not any(folder in path.parents for folder in inside):
                name = "saikoro/" + path.relative_to(_PACKAGE).as_posix()
                found.append(_Source(name, "core", path))
    for system_id, (package, folder) in systems.items():
        if not package:
            found.append(_Source(folder.name, system_id, folder))
            continue
        depth = package.count(".")
        root = folder.parents[depth]
        if package.partition(".")[0] != "saikoro":  # the packages around an installed one's
            for level in range(depth, 0, -1):
                init = folder.parents[level - 1] / "__init__.py"
                found.append(_Source(init.relative_to(root).as_posix(), system_id, init))
        found.extend(
            _Source(path.relative_to(root).as_posix(), system_id, path)
            for path in _python_files(folder)
            if not _is_part(path.relative_to(folder))
        )
    return found


def _installed_packages() -> frozenset[str]:
    """The top-level packages of the installed systems (those not in :data:`BUILTIN`)."""
    return frozenset(
        (system_class(s).package() or system_class(s).__module__).partition(".")[0]
        for s in registry()
        if s not in BUILTIN
    )


_lowered: Lru[tuple[str, int, int, frozenset[str], frozenset[str]], str] = Lru(1024)
"""Lowered modules by file, size and time (and the names the lowering reads beyond the
file): a serve rebuild lowers only what changed."""


def _lowered_text(source: _Source, enums: frozenset[str], packages: frozenset[str]) -> str:
    stat = source.path.stat()
    key = (str(source.path), stat.st_size, stat.st_mtime_ns, enums, packages)
    text = _lowered.get(key)
    if text is None:
        text = lower(source.path.read_text(encoding="utf-8"), source.name, enums, packages)
        _lowered[key] = text
    return text


def _registry_module() -> str:
    """``_mp_registry``: the entry points of the systems beyond the built-in ones (each
    with its bundle in the archive), read by the browser's ``importlib.metadata`` shim."""
    points = tuple((name, value) for name, value in registry().items() if name not in BUILTIN)
    return (
        f"ENTRY_POINTS = ({(ENTRY_POINT_GROUP, points)!r},)\n" if points else "ENTRY_POINTS = ()\n"
    )


def _pack(name: str, files: dict[str, str]) -> EngineBundle:
    pairs = tuple(sorted(files.items()))
    text = json.dumps({"files": pairs}, ensure_ascii=False, separators=(",", ":"))
    data = gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
    return EngineBundle(name, pairs, data)


_bundles: Lru[tuple[object, ...], dict[str, EngineBundle]] = Lru(1)


def engine_bundles() -> dict[str, EngineBundle]:
    """The engine for the browser: ``core`` and one bundle per registered system (id
    order), an installed system's among them, with the registry of those in ``core``.

    Byte-for-byte the same for the same sources.

    >>> bundles = engine_bundles()
    >>> list(bundles)[:2], "saikoro/dice/_dist.py" in dict(bundles["core"].files)
    (['core', 'akatsuki'], True)
    >>> [p for b in bundles.values() for p, _ in b.files if p.endswith(("/page.py", "/model.py"))]
    []
    >>> engine_bundles()["getb"].data == engine_bundles()["getb"].data
    True
    """
    sources = _engine_sources()
    shims = sorted(_SHIMS.glob("_mp*.py"))
    registered = tuple(registry().items())
    key = (
        registered,
        tuple((s.name, s.bundle) for s in sources),
        tuple(
            (str(p), p.stat().st_size, p.stat().st_mtime_ns)
            for p in [*(s.path for s in sources), *shims]
        ),
    )
    found = _bundles.get(key)
    if found is not None:
        return found
    enums = frozenset(enum_names(s.path.read_text(encoding="utf-8") for s in sources))
    packages = _installed_packages()
    groups: dict[str, dict[str, str]] = {"core": {}}
    groups.update({system_id: {} for system_id in registry()})
    for source in sources:
        groups[source.bundle][source.name] = _lowered_text(source, enums, packages)
    for shim in shims:
        groups["core"][shim.name] = shim.read_text(encoding="utf-8")
    groups["core"]["_mp_registry.py"] = _registry_module()
    bundles = {name: _pack(name, files) for name, files in groups.items()}
    _bundles[key] = bundles
    return bundles


def find_runtime_dir() -> Path:
    """The folder of the bundled MicroPython (:data:`RUNTIME_FILES` and its licence).

    Raises:
        RollerAssetError: the package's copy is missing (the message names the fix).
    """
    try:
        return bundle_dir("micropython")
    except VendorError as error:
        raise RollerAssetError(str(error)) from error


def _write(path: Path, data: bytes) -> None:
    if path.is_file() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(
        path, data, sync=False
    )  # whole or not at all: a served site never shows half of it


def _copy(source: Path, target: Path) -> None:
    stat = source.stat()
    if target.is_file():
        mine = target.stat()
        if mine.st_size == stat.st_size and int(mine.st_mtime) == int(stat.st_mtime):
            return
    target.parent.mkdir(parents=True, exist_ok=True)
    replace_file(target, source.read_bytes(), mode=stat.st_mode & 0o777, sync=False)
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the next build skips it


_HOST = "mphost.mjs"
"""What MicroPython borrows from JavaScript (imported by the worker)."""


def _relative(path: str) -> str:
    """A site-relative path under :data:`ASSET_DIR` as the roller's script sees it."""
    return path[len(ASSET_DIR) + 1 :]


_gzip_sizes: Lru[tuple[str, int, int], int] = Lru(64)


def _gzip_size(path: Path) -> int:
    """What a web host sends for ``path`` (gzip), for the size the loader shows."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    found = _gzip_sizes.get(key)
    if found is None:
        found = len(gzip.compress(path.read_bytes(), compresslevel=6, mtime=0))
        _gzip_sizes[key] = found
    return found


def _client_config(
    settings: RollerSettings, version: str, bundles: dict[str, EngineBundle], runtime: Path
) -> dict[str, object]:
    raw = sum((runtime / name).stat().st_size for name in RUNTIME_FILES)
    download = sum(_gzip_size(runtime / name) for name in RUNTIME_FILES)
    return {
        "policy": settings.policy,
        "version": version,
        "loadTimeout": int(settings.load_timeout * 1000),
        "rollTimeout": int(settings.roll_timeout * 1000),
        "maxLength": settings.max_length,
        # what the worker downloads: the runtime (decoded bytes, for the progress bar, and
        # gzip bytes, for the size shown) and each bundle (sent as it is)
        "runtime": {"bytes": raw, "download": download},
        "engine": {
            name: {"url": _relative(b.path), "bytes": len(b.data)} for name, b in bundles.items()
        },
        # relative to roller.js (assets/saikoro/): the worker sits at the site root
        "serviceWorker": f"../../{SERVICE_WORKER}" if settings.offline else None,
        "offlineBytes": 0,
    }


def engine_paths(settings: RollerSettings) -> list[str]:
    """Site-relative paths of every file the engine loads, as the worker requests them
    (``?v=`` on the files whose name does not change with their content).

    >>> paths = engine_paths(RollerSettings())
    >>> paths[0].startswith("assets/saikoro/worker.js?v="), paths[2].split("?")[0]
    (True, 'assets/saikoro/micropython/micropython.mjs')
    >>> any(p.startswith("assets/saikoro/engine/getb.") for p in paths)
    True
    """
    del settings  # every setting loads the same files
    bundles = engine_bundles()
    version = _version(bundles)
    paths = [f"{ASSET_DIR}/worker.js?v={version}", f"{ASSET_DIR}/{_HOST}?v={version}"]
    paths += [f"{ASSET_DIR}/micropython/{name}?v={version}" for name in RUNTIME_FILES]
    paths += [b.path for b in bundles.values()]
    return paths


def _version(bundles: dict[str, EngineBundle]) -> str:
    hasher = hashlib.sha256()
    for name in ("worker.js", _HOST):
        hasher.update((_ASSETS / name).read_bytes())
    for bundle in bundles.values():
        hasher.update(bundle.data)
    return hasher.hexdigest()[:12]


_ROLLER = _ASSETS / "roller"
"""The roller's page script as ES modules (``// @ts-check``, type-checked by ``make lint-js``)."""

ROLLER_MODULES = (
    "config",
    "values",
    "engine",
    "widgets",
    "cells",
    "personal",
    "own",
    "free",
    "events",
    "offline",
    "main",
)
"""The roller's modules in the order the page runs them (each one's top-level code runs
after the modules before it, as in the script the site ships)."""

_ROLLER_HEAD = """\
// saikoro dice roller: the page side, bundled from assets/roller/*.js (see roller_script).
(function () {
  "use strict";
  if (window.saikoroRoller) return;
"""
_IMPORT = re.compile(r'^import \{[^}]*\} from "\./([a-z]+)\.js";\n', re.MULTILINE)
_EXPORT = re.compile(r"^export (?=(?:async )?function |const |let )", re.MULTILINE)
_CAST = re.compile(r"/\*\* @type \{[^{}]*\} \*/ ")
_TOP_NAME = re.compile(r"^(?:export )?(?:(?:async )?function|const|let) (\w+)", re.MULTILINE)


def roller_script() -> str:
    """``roller.js``, the classic script every page loads: the roller's ES modules
    (:data:`ROLLER_MODULES` in ``assets/roller/``, each type-checked with ``// @ts-check``)
    in one function scope, their imports dropped, their exports made plain declarations
    and their ``/** @type {...} */`` casts (for the type checker) left out. A classic
    script runs at once and needs no module loader, so the page fetches one small file
    whatever the source's layout.

    Raises:
        RollerAssetError: a module is missing or not listed, lacks ``// @ts-check``,
            declares a name another module declares, or imports or exports in a form the
            bundle cannot carry (a bug of the assets: it fails the build).
    """
    found = {p.stem for p in _ROLLER.glob("*.js")}
    if found != set(ROLLER_MODULES):
        raise RollerAssetError(
            f"assets/roller/ holds {sorted(found)}, the bundle lists {sorted(ROLLER_MODULES)}"
        )
    parts = [_ROLLER_HEAD]
    owners: dict[str, str] = {}
    for name in ROLLER_MODULES:
        text = (_ROLLER / f"{name}.js").read_text(encoding="utf-8")
        if not text.startswith("// @ts-check\n"):
            raise RollerAssetError(f"assets/roller/{name}.js: its first line must be // @ts-check")
        for imported in _IMPORT.findall(text):
            if imported not in ROLLER_MODULES:
                raise RollerAssetError(f"assets/roller/{name}.js imports ./{imported}.js")
        body = _EXPORT.sub("", _IMPORT.sub("", text.removeprefix("// @ts-check\n")))
        body = _CAST.sub("", body)  # for the type checker only
        if re.search(r"^\s*(?:import|export)\b", body, re.MULTILINE):
            raise RollerAssetError(f"assets/roller/{name}.js: an import or export not bundled")
        for top in _TOP_NAME.findall(body):
            if top in owners:
                raise RollerAssetError(
                    f"assets/roller/{name}.js declares {top}, as {owners[top]}.js does"
                )
            owners[top] = name
        parts.append(
            "".join(f"  {line}" if line.strip() else line for line in body.splitlines(True))
        )
        parts.append("\n")
    parts.append("})();\n")
    return "".join(parts)


def compact_script(source: str) -> str:
    """A classic script without its comment lines, blank lines and indentation.

    What every page fetches stays small while the source keeps its comments. Only whole
    lines are dropped or stripped, so this is safe for a script without multi-line strings
    (template literals), which :func:`install_assets` checks.

    >>> compact_script("  // a comment\\n  const a = 1; // kept\\n\\n  return a;\\n")
    'const a = 1; // kept\\nreturn a;\\n'
    """
    lines = (line.strip() for line in source.splitlines())
    return "".join(f"{line}\n" for line in lines if line and not line.startswith("//"))


def install_assets(site_dir: str, settings: RollerSettings) -> None:
    """Write the roller's files into the built site at ``site_dir``/:data:`ASSET_DIR`.

    Unchanged files are left alone, so rebuilds under ``mkdocs serve`` stay cheap; engine
    bundles of earlier builds are removed.

    Raises:
        RollerAssetError: the bundled MicroPython is missing.
    """
    runtime = find_runtime_dir()
    target = Path(site_dir) / ASSET_DIR
    bundles = engine_bundles()
    version = _version(bundles)
    config = json.dumps(_client_config(settings, version, bundles, runtime), sort_keys=True)
    script = compact_script(roller_script())
    if _CONFIG_MARK not in script or "`" in script:  # pragma: no cover - guards the asset
        raise RollerAssetError("roller.js lost its configuration marker or has a template literal")
    _write(target / "roller.js", script.replace(_CONFIG_MARK, config).encode("utf-8"))
    _write(target / "roller.css", (_ASSETS / "roller.css").read_bytes())
    _write(target / "worker.js", (_ASSETS / "worker.js").read_bytes())
    _write(target / _HOST, (_ASSETS / _HOST).read_bytes())
    keep = {Path(site_dir) / b.path for b in bundles.values()}
    folder = target / "engine"
    if folder.is_dir():
        for old in folder.iterdir():
            if old not in keep:
                old.unlink()
    for bundle in bundles.values():
        _write(Path(site_dir) / bundle.path, bundle.data)
    for name in (*RUNTIME_FILES, LICENSE_NAME):
        _copy(runtime / name, target / "micropython" / name)


def set_offline_bytes(site_dir: str, total: int) -> None:
    """Write the size of the whole offline copy into the built ``roller.js`` (the offer
    「オフライン用に保存（2.4 MB）」 shows it before the reader taps)."""
    path = Path(site_dir) / ASSET_DIR / "roller.js"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'"offlineBytes": \d+', f'"offlineBytes": {total}', text, count=1)
    _write(path, text.encode("utf-8"))
