"""The in-browser dice roller: widget markup and the files it needs in the built site.

The roller runs the same engine as the site's odds: a module Web Worker fetches a zip of
``saikoro/__init__.py``, ``saikoro/dice`` and ``saikoro/systems`` (made here, at build
time, see :func:`engine_zip`) while Pyodide starts, unpacks it into Pyodide's file system
(no micropip, no package index), imports :mod:`saikoro` and answers each roll by calling
:func:`saikoro.roll` through a Python function proxy. Pyodide is self-hosted by default
(the pinned copy bundled in the package, :mod:`saikoro.site.vendor`) or taken from a CDN
base URL.

Site layout written by :func:`install_assets` (all under :data:`ASSET_DIR`)::

    assets/saikoro/roller.js     tiny classic script on every page (EXTRA_JS)
    assets/saikoro/roller.css    widget styles (EXTRA_CSS)
    assets/saikoro/worker.js     module worker: loads Pyodide + the engine, answers rolls
    assets/saikoro/engine.zip    the engine's Python files (deterministic)
    assets/saikoro/pyodide/      pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm, ... LICENSE

With ``offline`` (the default; never under ``mkdocs serve``) the page registers the
service worker written at the site root by :mod:`saikoro.site._offline`, which keeps the
engine's files (:func:`engine_paths`) once the reader has rolled, and then the whole site.

A page without a widget fetches only ``roller.js`` and ``roller.css``: the worker and
Pyodide are started by the first widget that becomes visible (policy ``visible``), by a
click (``click``) or at once on a page with a widget (``eager``).

>>> print(widget("2D6>=7", system="getb"))  # doctest: +NORMALIZE_WHITESPACE
<div class="saikoro-roller" data-command="2D6&gt;=7" data-system="getb"><button type="button"
class="saikoro-roll" title="ダイスを振る">2D6&gt;=7</button><output class="saikoro-output"
aria-live="polite"></output></div>

A scenario's ruling options (``rulings:``) travel with its widgets as ``data-options``
(JSON), so a roll follows the same options as the page's odds:

>>> print(widget("KK3", system="kokuryoku", options={"die": 6}))  # doctest: +NORMALIZE_WHITESPACE
<div class="saikoro-roller" data-command="KK3" data-system="kokuryoku"
data-options="{&quot;die&quot;:6}"><button type="button" class="saikoro-roll"
title="ダイスを振る">KK3</button><output class="saikoro-output"
aria-live="polite"></output></div>
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import os
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from saikoro.dice import SaikoroError
from saikoro.scenario import replace_file
from saikoro.systems import BUILTIN, SYSTEM_IDS, OptionValue, all_systems, system_class

from .vendor import BUNDLES, LICENSE_NAME, PYODIDE_VERSION, VendorError, bundle_dir

__all__ = [
    "ASSET_DIR",
    "EXTRA_CSS",
    "EXTRA_JS",
    "MAX_COMMAND_LENGTH",
    "POLICIES",
    "PYODIDE_CDN_URL",
    "PYODIDE_FILES",
    "PYODIDE_VERSION",
    "RollerAssetError",
    "RollerSettings",
    "engine_paths",
    "engine_zip",
    "find_pyodide_dir",
    "free_widget",
    "install_assets",
    "options_json",
    "widget",
]

PYODIDE_CDN_URL = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
"""jsDelivr's copy of the pinned version, for sites that opt into a CDN."""

PYODIDE_FILES = BUNDLES["pyodide"].files
"""The Pyodide files the roller needs (no packages from the lock file are loaded)."""

POLICIES = ("eager", "visible", "click")
"""Loading policies: at page load, when a roller is seen or approached, on the first click."""

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
    """The roller's files cannot be installed (e.g. Pyodide missing and no CDN URL)."""


@dataclass(frozen=True)
class RollerSettings:
    """How the roller is installed and when it loads.

    Attributes:
        policy: ``eager`` | ``visible`` | ``click`` (see :data:`POLICIES`).
        pyodide_url: ``None`` to self-host Pyodide; else the base URL of the same pinned
            version on a CDN (e.g. :data:`PYODIDE_CDN_URL`).
        pyodide_dir: a folder holding the pinned Pyodide's files (e.g. a local mirror);
            ``None`` = the copy bundled in the saikoro package. Relative to ``config_dir``.
        config_dir: the folder of ``mkdocs.yml`` (what a relative ``pyodide_dir`` means).
        load_timeout: seconds before a still-loading engine is reported as failed.
        roll_timeout: seconds one roll may take before the worker is stopped.
        max_length: the page's command length cap.
        offline: register the service worker that keeps the engine and the site on the
            reader's device (``saikoro-sw.js`` at the site root; see :mod:`._offline`).

    >>> RollerSettings(policy="sometimes")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    saikoro.site._roller.RollerAssetError: unknown roller policy 'sometimes'; use eager, ...
    """

    policy: str = "visible"
    pyodide_url: str | None = None
    pyodide_dir: str | None = None
    config_dir: str | None = None
    load_timeout: float = 120.0
    roll_timeout: float = 10.0
    max_length: int = MAX_COMMAND_LENGTH
    offline: bool = False

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise RollerAssetError(
                f"unknown roller policy {self.policy!r}; use eager, visible or click"
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
) -> str:
    """HTML of one roll button for ``command`` with its live result area.

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

    >>> widget('"><img src=x onerror=alert(1)>', label="<b>")  # doctest: +ELLIPSIS
    '<div class="saikoro-roller" data-command="&quot;&gt;&lt;img src=x ...&lt;b&gt;</button>...'
    >>> widget("2D6", options={"die": 6})  # no system: no options
    '<div class="saikoro-roller" data-command="2D6"><button ...'
    """
    system_attr = f' data-system="{_attr(system)}"' if system else ""
    if personal:
        system_attr += f' data-personal="{_attr(personal)}"'
    text = label if label is not None else command
    return (
        f'<div class="saikoro-roller" data-command="{_attr(command)}"{system_attr}'
        f"{_options_attr(system, options)}>"
        f'<button type="button" class="saikoro-roll" title="{_LABEL_TITLE}">'
        f"{html.escape(text)}</button>"
        '<output class="saikoro-output" aria-live="polite"></output></div>'
    )


def _system_names() -> list[tuple[str, str]]:
    return [(system.id, system.name or system.id) for system in all_systems()]


def _resolve_system(system: str | None) -> str:
    if not system:
        return ""
    if system in SYSTEM_IDS:
        return system
    from saikoro.systems import get

    return get(system).id


def free_widget(
    *, system: str | None = None, options: Mapping[str, OptionValue] | None = None
) -> str:
    """HTML of a free-form roller: command field, system choice, button and result.

    Args:
        system: the system preselected (id or alias); ``None`` preselects 汎用 (generic).
        options: that system's ruling options (a scenario's ``rulings:``), written as
            ``data-options``; the page applies them while the preselected system is
            chosen, not when the reader picks another one. Ignored without ``system``.

    Raises:
        saikoro.systems.UnknownSystemError: ``system`` names no system.

    >>> html_ = free_widget(system="getb")
    >>> '<option value="getb" selected>' in html_ and 'data-system="getb"' in html_
    True
    >>> 'data-options="{&quot;die&quot;:6}"' in free_widget(system="国力", options={"die": 6})
    True
    """
    selected = _resolve_system(system)
    none = "" if selected else " selected"
    choices = [f'<option value=""{none}>汎用（システムなし）</option>']
    for system_id, name in _system_names():
        mark = " selected" if system_id == selected else ""
        choices.append(f'<option value="{_attr(system_id)}"{mark}>{html.escape(name)}</option>')
    keys = "".join(
        f'<button type="button" class="saikoro-key" data-insert="{_attr(k)}" '
        f'title="{_attr(k)} を入れる">{html.escape(k)}</button>'
        for k in INSERT_KEYS
    )
    return (
        f'<div class="saikoro-roller saikoro-free" data-system="{_attr(selected)}"'
        f"{_options_attr(selected, options)}>"
        '<div class="saikoro-chips" role="group" aria-label="このページのコマンド" hidden></div>'
        '<label class="saikoro-field"><span>コマンド</span>'
        f'<input type="text" class="saikoro-command" maxlength="{MAX_COMMAND_LENGTH}" '
        'autocomplete="off" autocapitalize="off" spellcheck="false" '
        'placeholder="2D6&gt;=7" enterkeyhint="go"></label>'
        '<label class="saikoro-field"><span>システム</span>'
        f'<select class="saikoro-system">{"".join(choices)}</select></label>'
        f'<button type="button" class="saikoro-roll" title="{_LABEL_TITLE}">振る</button>'
        f'<div class="saikoro-keys" role="group" aria-label="記号を入れる">{keys}</div>'
        '<output class="saikoro-output" aria-live="polite"></output>'
        '<p class="saikoro-offline" aria-live="polite" hidden></p></div>'
    )


def _parts_above_engine() -> tuple[Path, ...]:
    """The files and folders of the built-in systems' parts above the engine (their
    scenario definitions, models, page profiles, exports and simulators): they import
    the rest of saikoro, so the browser's engine leaves them out."""
    out: list[Path] = []
    for system_id in BUILTIN:
        for module in system_class(system_id).part_modules():
            relative = Path(*module.split(".")[1:])
            folder = _PACKAGE / relative
            out.append(folder if folder.is_dir() else folder.with_suffix(".py"))
    return tuple(out)


def _is_part(path: Path, parts: tuple[Path, ...]) -> bool:
    return any(path == p or p in path.parents for p in parts)


def engine_zip() -> bytes:
    """The engine's Python files as a zip (byte-for-byte the same for the same sources).

    Holds ``saikoro/__init__.py`` and every ``.py`` under ``saikoro/dice`` and
    ``saikoro/systems`` of the installed package but the systems' parts above the engine
    (:meth:`~saikoro.systems.System.part_modules`), with fixed dates and modes.

    >>> names = zipfile.ZipFile(io.BytesIO(engine_zip())).namelist()
    >>> names[0], "saikoro/dice/_dist.py" in names, any("/site/" in n for n in names)
    ('saikoro/__init__.py', True, False)
    >>> any(n.endswith(("/page.py", "/simulator/__init__.py")) for n in names)
    False
    >>> engine_zip() == engine_zip()
    True
    """
    files = [_PACKAGE / "__init__.py"]
    above = _parts_above_engine()
    for sub in ("dice", "systems"):
        files += sorted(
            p
            for p in (_PACKAGE / sub).rglob("*.py")
            if "__pycache__" not in p.parts and not _is_part(p, above)
        )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in files:
            info = zipfile.ZipInfo(
                "saikoro/" + path.relative_to(_PACKAGE).as_posix(), (1980, 1, 1, 0, 0, 0)
            )
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    return buffer.getvalue()


def find_pyodide_dir(settings: RollerSettings) -> Path:
    """The folder holding the Pyodide files (see :attr:`RollerSettings.pyodide_dir`).

    Nothing is searched for: the folder is the one given, or the package's own copy.

    Raises:
        RollerAssetError: the folder lacks a file of :data:`PYODIDE_FILES` or is not
            version :data:`PYODIDE_VERSION`, or the package's copy is missing (the
            message names the fix).
    """
    if not settings.pyodide_dir:
        try:
            return bundle_dir("pyodide")
        except VendorError as error:
            raise RollerAssetError(
                f"{error}; or set the roller's pyodide_url to a CDN copy of Pyodide "
                f"{PYODIDE_VERSION} (e.g. {PYODIDE_CDN_URL})"
            ) from error
    folder = Path(settings.pyodide_dir)
    if not folder.is_absolute() and settings.config_dir:
        folder = Path(settings.config_dir) / folder
    missing = [name for name in PYODIDE_FILES if not (folder / name).is_file()]
    if missing:
        raise RollerAssetError(
            f"the roller's pyodide_dir {folder} lacks {', '.join(missing)} of Pyodide "
            f"{PYODIDE_VERSION}: point it at a folder holding {', '.join(PYODIDE_FILES)}, "
            "or remove the option to use the copy bundled with saikoro"
        )
    _check_version(folder)
    return folder


def _check_version(folder: Path) -> None:
    package = folder / "package.json"
    if not package.is_file():
        return
    version = json.loads(package.read_text(encoding="utf-8")).get("version")
    if version != PYODIDE_VERSION:
        raise RollerAssetError(
            f"{folder} holds Pyodide {version}; saikoro's roller is pinned to {PYODIDE_VERSION}"
        )


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


def _client_config(settings: RollerSettings, version: str, engine_bytes: int) -> dict[str, object]:
    url = settings.pyodide_url
    if url is not None and not url.endswith("/"):
        url += "/"
    return {
        "policy": settings.policy,
        "pyodideURL": url,
        "version": version,
        "loadTimeout": int(settings.load_timeout * 1000),
        "rollTimeout": int(settings.roll_timeout * 1000),
        "maxLength": settings.max_length,
        "engineBytes": engine_bytes,
        # relative to roller.js (assets/saikoro/): the worker sits at the site root
        "serviceWorker": f"../../{SERVICE_WORKER}" if settings.offline else None,
    }


_FETCHED = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""The Pyodide files the worker fetches (counted for its progress bar; pyodide.mjs and
pyodide.asm.mjs are imported as modules)."""


def engine_paths(settings: RollerSettings) -> list[str]:
    """Site-relative paths of every file the engine loads (self-hosted Pyodide only).

    >>> engine_paths(RollerSettings())[:2]
    ['assets/saikoro/worker.js', 'assets/saikoro/engine.zip']
    >>> engine_paths(RollerSettings(pyodide_url="https://cdn.example/"))
    ['assets/saikoro/worker.js', 'assets/saikoro/engine.zip']
    """
    paths = [f"{ASSET_DIR}/worker.js", f"{ASSET_DIR}/engine.zip"]
    if settings.pyodide_url is None:
        paths += [f"{ASSET_DIR}/pyodide/{name}" for name in PYODIDE_FILES]
    return paths


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

    Unchanged files are left alone, so rebuilds under ``mkdocs serve`` stay cheap.

    Raises:
        RollerAssetError: Pyodide is to be self-hosted but its files are missing.
    """
    pyodide = None if settings.pyodide_url else find_pyodide_dir(settings)
    target = Path(site_dir) / ASSET_DIR
    engine = engine_zip()
    worker = (_ASSETS / "worker.js").read_bytes()
    version = hashlib.sha256(engine + worker).hexdigest()[:12]
    fetched = len(engine)
    if pyodide is not None:
        fetched += sum(
            (pyodide / name).stat().st_size for name in _FETCHED if name in PYODIDE_FILES
        )
    config = json.dumps(_client_config(settings, version, fetched), sort_keys=True)
    script = (_ASSETS / "roller.js").read_text(encoding="utf-8")
    script = compact_script(script)
    if _CONFIG_MARK not in script or "`" in script:  # pragma: no cover - guards the asset
        raise RollerAssetError("roller.js lost its configuration marker or has a template literal")
    _write(target / "roller.js", script.replace(_CONFIG_MARK, config).encode("utf-8"))
    _write(target / "roller.css", (_ASSETS / "roller.css").read_bytes())
    _write(target / "worker.js", worker)
    _write(target / "engine.zip", engine)
    if pyodide is not None:
        for name in PYODIDE_FILES:
            _copy(pyodide / name, target / "pyodide" / name)
        if (pyodide / LICENSE_NAME).is_file():
            _copy(pyodide / LICENSE_NAME, target / "pyodide" / LICENSE_NAME)
