"""``saikoro new DIR``: start a scenario book that builds with ``mkdocs build --strict``.

The book is written from the templates in ``templates/`` (package data)::

    mkdocs.yml                      material, language ja, no Google Fonts, search + saikoro
    docs/index.md                   a ``dice`` and a ``flow`` block
    scenarios/<system>-sample.yaml  one sample per chosen system, with the schema line
    .pre-commit-config.yaml         a local hook running ``saikoro validate``
    .github/workflows/scenarios.yml validate, build --strict, deploy to GitHub Pages
    .gitignore

Dot-files are stored without their dot (``gitignore``): wheels and editors treat hidden
files in package data inconsistently. ``@NAME@`` placeholders are filled in; the
workflow's ``${{ }}`` expressions are left alone.

>>> plan = book_files(["kegare"], title="霧の本", site_url=None)
>>> sorted(plan)[:3]
['.github/workflows/scenarios.yml', '.gitignore', '.pre-commit-config.yaml']
>>> plan["scenarios/kegare-sample.yaml"].splitlines()[0]
'# yaml-language-server: $schema=../site/schema/scenario.schema.json'
>>> "site_name: \\"霧の本\\"" in plan["mkdocs.yml"], "kegare.attack" in plan["docs/index.md"]
(True, True)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from saikoro import __version__
from saikoro.dice._errors import SaikoroError
from saikoro.systems import SYSTEM_IDS, RegistryError, UnknownSystemError, system_class
from saikoro.systems import get as get_system

__all__ = ["SCHEMA_PATH", "BookError", "BookExistsError", "book_files", "create_book", "main"]

SCHEMA_PATH = "schema/scenario.schema.json"
"""Where a saikoro site publishes the scenario JSON Schema (the plugin's ``schema_path``)."""

_RENAMES = {
    "gitignore": ".gitignore",
    "pre-commit-config.yaml": ".pre-commit-config.yaml",
    "github/workflows/scenarios.yml": ".github/workflows/scenarios.yml",
}


class BookError(SaikoroError, ValueError):
    """A book ``saikoro new`` cannot start as asked (no system chosen)."""


class BookExistsError(SaikoroError, FileExistsError):
    """The target folder is not empty (``saikoro new`` never overwrites anything)."""


def _template(name: str) -> str:
    return resources.files(__name__).joinpath("templates", name).read_text(encoding="utf-8")


def _sample(system_id: str) -> str:
    """The sample scenario ``saikoro new`` writes for ``system_id`` (its ``sample_scenario``)."""
    where = system_class(system_id).sample_scenario
    package, _, name = where.partition(":")
    if not package or not name:
        raise RegistryError(
            f"system {system_id!r} names no sample_scenario (package:path): "
            "saikoro new has no sample scenario to write for it"
        )
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def _flow(system_id: str) -> str:
    """The flow id a new book's first page draws (its system's ``sample_flow``)."""
    flow = system_class(system_id).sample_flow
    if not flow:
        raise RegistryError(f"system {system_id!r} names no sample_flow for saikoro new")
    return flow


def _fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    return text


def book_files(systems: Sequence[str], *, title: str, site_url: str | None) -> dict[str, str]:
    """The new book's files (path relative to the book -> text), nothing written.

    Args:
        systems: system ids (one sample scenario each, in this order).
        title: the site's name.
        site_url: the published address; the scenarios' schema line points at the schema
            published there. ``None``: at the copy in the locally built ``site/``.
    """
    url = site_url.rstrip("/") + "/" if site_url else None
    schema = f"{url}{SCHEMA_PATH}" if url else f"../site/{SCHEMA_PATH}"
    values = {
        "VERSION": __version__,
        "SITE_NAME": json.dumps(title, ensure_ascii=False),
        "SCHEMA_URL": schema,
        "FLOW": _flow(systems[0]),
    }
    markdown = {**values, "SITE_NAME": title}  # the page heading is Markdown, not YAML
    files: dict[str, str] = {}
    for name in ("mkdocs.yml", "docs/index.md", *_RENAMES):
        text = _fill(_template(name), values if name != "docs/index.md" else markdown)
        if name == "mkdocs.yml" and url:
            text = text.replace('"http://127.0.0.1:8000/"', json.dumps(url))
        files[_RENAMES.get(name, name)] = text
    for system in systems:
        files[f"scenarios/{system}-sample.yaml"] = _fill(_sample(system), values)
    return dict(sorted(files.items()))


def create_book(
    directory: Path,
    systems: Sequence[str] = SYSTEM_IDS,
    *,
    title: str | None = None,
    site_url: str | None = None,
) -> list[Path]:
    """Write a new scenario book into ``directory`` (created if missing); the files written.

    Raises:
        BookError: no system is chosen.
        BookExistsError: ``directory`` exists and is not an empty folder.
        saikoro.systems.UnknownSystemError: a system is unknown.
    """
    chosen = list(dict.fromkeys(get_system(s).id for s in systems))
    if not chosen:
        raise BookError("choose at least one system")
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        what = "a file" if not directory.is_dir() else "not empty"
        raise BookExistsError(f"{directory} is {what}: choose a new or empty folder")
    files = book_files(chosen, title=title or directory.resolve().name, site_url=site_url)
    written = []
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``saikoro new DIR [--system ID ...] [--title T] [--site-url URL]``; the exit status."""
    parser = argparse.ArgumentParser(
        prog="saikoro new",
        description="Start a scenario book: mkdocs.yml, docs/, sample scenarios, a "
        "pre-commit hook and a GitHub workflow that validates, builds and deploys to Pages.",
    )
    parser.add_argument(
        "directory", metavar="DIR", type=Path, help="the new book's folder (new or empty)"
    )
    parser.add_argument(
        "--system",
        action="append",
        metavar="ID",
        help=f"a system to add a sample scenario for (repeatable; default: all of "
        f"{', '.join(SYSTEM_IDS)})",
    )
    parser.add_argument("--title", help="the site's name (default: the folder's name)")
    parser.add_argument(
        "--site-url",
        metavar="URL",
        help="where the site will be published, e.g. https://me.github.io/book/ (the "
        "scenarios' schema line points there; default: the local build's copy)",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code not in (0, None) else 0
    try:
        written = create_book(
            args.directory,
            args.system or SYSTEM_IDS,
            title=args.title,
            site_url=args.site_url,
        )
    except (UnknownSystemError, RegistryError) as error:
        print(f"saikoro new: {error}", file=sys.stderr)
        return 2
    except BookExistsError as error:
        print(f"saikoro new: {error}; nothing was written", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"saikoro new: cannot write the book: {error}", file=sys.stderr)
        return 1
    print(f"saikoro new: wrote {len(written)} files into {args.directory}/")
    for path in written:
        print(f"  {path.relative_to(args.directory).as_posix()}")
    print(
        "next:\n"
        f"  cd {args.directory}\n"
        "  mkdocs serve        # preview on http://127.0.0.1:8000/ while you edit\n"
        "  saikoro validate    # check scenarios/ (CI runs this and mkdocs build --strict)"
    )
    return 0
