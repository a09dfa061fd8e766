"""Finding the scenario book a command runs in: the folder holding ``mkdocs.yml``.

``saikoro validate`` without paths checks the book's scenario folder, from wherever in
the book it runs (``mybook/``, ``mybook/scenarios/``, ``mybook/docs/``), and ``saikoro
new --add`` adds a sample to it. The folder is the saikoro plugin's ``scenarios:``
option when ``mkdocs.yml`` sets it (relative to ``mkdocs.yml``), else ``scenarios/``.
MkDocs is not imported: ``mkdocs.yml`` is read as YAML, its tags (``!ENV``,
``!!python/name:``) taken as nothing.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> _ = (root / "mkdocs.yml").write_text("plugins:\\n  - saikoro:\\n      scenarios: s\\n")
>>> (root / "docs").mkdir()
>>> book = find_book(root / "docs")
>>> book.root == root, book.scenarios == root / "s"
(True, True)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

__all__ = ["CONFIG_NAMES", "Book", "book_scenarios", "find_book"]

CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")
"""The names MkDocs looks for."""


BALANCE_CACHE = ".cache/plugin/saikoro/balance"
"""The balance figures' cache folder in a book, relative to ``mkdocs.yml`` (the plugin's
``balance.cache_dir`` default)."""


@dataclass(frozen=True)
class Book:
    """A scenario book: its folder, its ``mkdocs.yml`` and its scenario folder.

    ``balance_cache`` is the folder of balance figures shared by ``saikoro validate`` and
    the site's builds (the plugin's ``balance.cache_dir``; ``None`` when its
    ``balance.cache`` is false).
    """

    root: Path
    config: Path
    scenarios: Path
    balance_cache: Path | None = None


class _TagsAsNothing(yaml.SafeLoader):
    """A safe loader for ``mkdocs.yml``: every tag it does not know reads as ``None``."""


def _nothing(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> None:  # noqa: ARG001
    return None


_TagsAsNothing.add_multi_constructor("", _nothing)


def _plugin_options(config: Path) -> Mapping[str, Any]:
    """The saikoro plugin's options in ``config`` (empty: none given, or unreadable)."""
    try:
        text = config.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    return _options_in(text)


@functools.lru_cache(maxsize=8)
def _options_in(text: str) -> Mapping[str, Any]:
    """The saikoro plugin's options in a ``mkdocs.yml`` text, parsed once per text (a
    validate asks for the book of each scenario and of its images), read-only."""
    try:
        data: Any = yaml.load(text, Loader=_TagsAsNothing)  # noqa: S506 - a safe loader
    except yaml.YAMLError:
        return {}
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if isinstance(plugins, dict):
        plugins = [{k: v} for k, v in plugins.items()]
    for entry in plugins if isinstance(plugins, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("saikoro"), dict):
            return MappingProxyType(entry["saikoro"])
    return {}


def _scenarios_option(options: Mapping[str, Any]) -> str | None:
    """The saikoro plugin's ``scenarios:`` (``None``: not set)."""
    folder = options.get("scenarios")
    return folder if isinstance(folder, str) and folder.strip() else None


def _balance_cache(folder: Path, options: Mapping[str, Any]) -> Path | None:
    """The book's balance cache folder as the plugin's ``balance:`` options set it."""
    balance = options.get("balance")
    balance = balance if isinstance(balance, dict) else {}
    if balance.get("cache") is False:
        return None
    where = balance.get("cache_dir")
    return folder / (where if isinstance(where, str) and where.strip() else BALANCE_CACHE)


def find_book(start: Path | None = None) -> Book | None:
    """The book ``start`` (default: the current folder) is in, or ``None`` outside any."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        for name in CONFIG_NAMES:
            config = folder / name
            if config.is_file():
                options = _plugin_options(config)
                option = _scenarios_option(options)
                return Book(
                    folder,
                    config,
                    folder / (option or "scenarios"),
                    _balance_cache(folder, options),
                )
    return None


def book_scenarios(start: Path | None = None) -> str | None:
    """What ``saikoro validate``, ``simulate`` and ``tune`` read when no file is named: the
    ``scenarios/`` folder here, else the scenario folder of the book ``start`` (default: the
    current folder) is in, as a path to show (relative to ``start`` where it can be);
    ``None`` outside any book."""
    here = start or Path.cwd()
    if (here / "scenarios").is_dir():
        return "scenarios"
    book = find_book(here)
    if book is None:
        return None
    try:
        shown = book.scenarios.relative_to(here.resolve())
    except ValueError:  # above the current folder
        shown = Path(os.path.relpath(book.scenarios, here.resolve()))
    return shown.as_posix()
