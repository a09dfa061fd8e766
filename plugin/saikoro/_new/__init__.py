"""``saikoro new DIR``: start a scenario book that builds with ``mkdocs build --strict``.

The book is written from the templates in ``templates/`` (package data)::

    mkdocs.yml                      material, language ja, no Google Fonts, search + saikoro
    docs/index.md                   a ``dice`` and a ``flow`` block, links to the guide
    scenarios/<system>-sample.yaml  one sample per chosen system, with the schema line
    schema/scenario.schema.json     the JSON Schema the schema lines name (for editors)
    .pre-commit-config.yaml         a local hook running ``saikoro validate``
    .github/workflows/scenarios.yml validate, build --strict, deploy to GitHub Pages
    .gitignore

The folder may be new, empty, or a fresh repository: a version-control folder
(``.git``...) and GitHub's starter files (``README*``, ``LICENSE*``, ``.gitignore``...)
are kept as they are; an existing ``.gitignore`` only gets the lines it lacks appended.
``--add`` adds samples to an existing book (its ``mkdocs.yml``'s scenario folder) and
touches nothing else.

Dot-files are stored without their dot (``gitignore``): wheels and editors treat hidden
files in package data inconsistently. ``@NAME@`` placeholders are filled in; the
workflow's ``${{ }}`` expressions are left alone.

>>> plan = book_files(["kegare"], title="霧の本", site_url=None)
>>> sorted(plan)[:3]
['.github/workflows/scenarios.yml', '.gitignore', '.pre-commit-config.yaml']
>>> plan["scenarios/kegare-sample.yaml"].splitlines()[0]
'# yaml-language-server: $schema=../schema/scenario.schema.json'
>>> "site_name: \\"霧の本\\"" in plan["mkdocs.yml"], "kegare.attack" in plan["docs/index.md"]
(True, True)
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from saikoro import __version__
from saikoro.dice import SaikoroError
from saikoro.scenario import LOCAL_SCHEMA, find_book, schema_text
from saikoro.systems import SYSTEM_IDS, RegistryError, UnknownSystemError, system_class
from saikoro.systems import get as get_system

__all__ = [
    "GUIDE_HINT",
    "SCHEMA_PATH",
    "STARTER_FILES",
    "BookError",
    "BookExistsError",
    "add_samples",
    "book_files",
    "create_book",
    "main",
]

SCHEMA_PATH = "schema/scenario.schema.json"
"""Where a saikoro site publishes the scenario JSON Schema (the plugin's ``schema_path``)."""

STARTER_FILES = (
    ".git",
    ".hg",
    ".svn",
    ".jj",
    ".gitignore",
    ".gitattributes",
    "README*",
    "readme*",
    "LICENSE*",
    "LICENCE*",
    "license*",
    "COPYING*",
)
"""What may already be in the folder of a new book: version control and the files GitHub
creates with a repository (kept as they are)."""

GUIDE_HINT = "saikoro docs  # the author guide and the field reference, offline"
"""How the book's files and the command's output point to the guide."""

_RENAMES = {
    "gitignore": ".gitignore",
    "pre-commit-config.yaml": ".pre-commit-config.yaml",
    "github/workflows/scenarios.yml": ".github/workflows/scenarios.yml",
}


class BookError(SaikoroError, ValueError):
    """A book ``saikoro new`` cannot start as asked (no system chosen, no book to add to)."""


class BookExistsError(SaikoroError, FileExistsError):
    """The target folder holds other files (``saikoro new`` never overwrites anything)."""


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


def _samples(systems: Sequence[str], schema: str) -> dict[str, str]:
    """``<system>-sample.yaml`` -> text, their ``$schema`` lines naming ``schema``."""
    values = {"VERSION": __version__, "SCHEMA_URL": schema}
    return {f"{system}-sample.yaml": _fill(_sample(system), values) for system in systems}


def book_files(systems: Sequence[str], *, title: str, site_url: str | None) -> dict[str, str]:
    """The new book's files (path relative to the book -> text), nothing written.

    Args:
        systems: system ids (one sample scenario each, in this order).
        title: the site's name.
        site_url: the published address (``mkdocs.yml``'s ``site_url``); ``None``: the
            preview server's, until the workflow sets the Pages address.
    """
    url = site_url.rstrip("/") + "/" if site_url else None
    values = {
        "VERSION": __version__,
        "SITE_NAME": json.dumps(title, ensure_ascii=False),
        "FLOW": _flow(systems[0]),
    }
    markdown = {**values, "SITE_NAME": title}  # the page heading is Markdown, not YAML
    files: dict[str, str] = {}
    for name in ("mkdocs.yml", "docs/index.md", *_RENAMES):
        text = _fill(_template(name), values if name != "docs/index.md" else markdown)
        if name == "mkdocs.yml" and url:
            text = text.replace('"http://127.0.0.1:8000/"', json.dumps(url))
        files[_RENAMES.get(name, name)] = text
    for name, text in _samples(systems, f"../{LOCAL_SCHEMA}").items():
        files[f"scenarios/{name}"] = text
    files[LOCAL_SCHEMA] = schema_text()
    return dict(sorted(files.items()))


def _starter(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in STARTER_FILES)


def _gitignore_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _ignored(line: str) -> str:
    """A ``.gitignore`` pattern compared loosely: ``/site``, ``/site/``, ``site/`` alike."""
    return line.strip().strip("/")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def create_book(
    directory: Path,
    systems: Sequence[str] = SYSTEM_IDS,
    *,
    title: str | None = None,
    site_url: str | None = None,
) -> list[Path]:
    """Write a new scenario book into ``directory`` (created if missing); the files written.

    ``directory`` may hold version control and GitHub's starter files
    (:data:`STARTER_FILES`): they are kept; an existing ``.gitignore`` gets the lines
    the book needs appended (listed among the files written when it changes).

    Raises:
        BookError: no system is chosen.
        BookExistsError: ``directory`` is a file, or holds anything else.
        saikoro.systems.UnknownSystemError: a system is unknown.
    """
    chosen = list(dict.fromkeys(get_system(s).id for s in systems))
    if not chosen:
        raise BookError("choose at least one system")
    if directory.exists() and not directory.is_dir():
        raise BookExistsError(f"{directory} is a file: choose a new or empty folder")
    if directory.is_dir():
        others = sorted(p.name for p in directory.iterdir() if not _starter(p.name))
        if others:
            shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
            hint = (
                " (to add a sample to this book: saikoro new --add --system ID)"
                if any(n in ("mkdocs.yml", "mkdocs.yaml") for n in others)
                else ""
            )
            raise BookExistsError(
                f"{directory} already holds {shown}: choose a new or empty folder, or a "
                f"fresh repository (only .git, README, LICENSE, .gitignore){hint}"
            )
    files = book_files(chosen, title=title or directory.resolve().name, site_url=site_url)
    written = []
    for name, text in files.items():
        path = directory / name
        if name == ".gitignore" and path.exists():
            have = path.read_text(encoding="utf-8", errors="replace")
            present = {_ignored(x) for x in _gitignore_lines(have)}
            missing = [x for x in _gitignore_lines(text) if _ignored(x) not in present]
            if not missing:
                continue
            joined = "" if have.endswith("\n") or not have else "\n"
            addition = "\n# saikoro: the built site and the balance cache\n" + "\n".join(missing)
            path.write_text(have + joined + addition + "\n", encoding="utf-8")
        else:
            _write(path, text)
        written.append(path)
    return written


def add_samples(directory: Path, systems: Sequence[str]) -> list[Path]:
    """Add the samples of ``systems`` to the book ``directory`` is in; the files written.

    The samples go into the book's scenario folder (the plugin's ``scenarios:`` option,
    else ``scenarios/``), their ``$schema`` lines naming the book's copy of the schema,
    which is written too when the book has none. Nothing else is touched.

    Raises:
        BookError: no system is chosen, or ``directory`` is in no book (no ``mkdocs.yml``).
        BookExistsError: a sample's file already exists.
    """
    chosen = list(dict.fromkeys(get_system(s).id for s in systems))
    if not chosen:
        raise BookError("choose the systems to add with --system")
    book = find_book(directory)
    if book is None:
        raise BookError(
            f"{directory} is in no book (no mkdocs.yml there or above): "
            "start one with saikoro new DIR"
        )
    schema = book.root / LOCAL_SCHEMA
    line = Path(os.path.relpath(schema, book.scenarios)).as_posix()
    samples = _samples(chosen, line)
    taken = [name for name in samples if (book.scenarios / name).exists()]
    if taken:
        raise BookExistsError(f"{book.scenarios} already holds {', '.join(taken)}")
    written = []
    for name, text in samples.items():
        _write(book.scenarios / name, text)
        written.append(book.scenarios / name)
    if not schema.exists():
        _write(schema, schema_text())
        written.append(schema)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``saikoro new DIR [--system ID ...] [--title T] [--site-url URL] [--add]``; the
    exit status."""
    parser = argparse.ArgumentParser(
        prog="saikoro new",
        description="Start a scenario book: mkdocs.yml, docs/, sample scenarios, the JSON "
        "Schema for editors, a pre-commit hook and a GitHub workflow that validates, builds "
        "and deploys to Pages. DIR may be new, empty or a fresh repository (.git, README, "
        "LICENSE and .gitignore are kept). With --add: add samples to an existing book.",
        epilog="the author guide and the field reference, offline: saikoro docs",
    )
    parser.add_argument(
        "directory",
        metavar="DIR",
        type=Path,
        nargs="?",
        default=Path(),
        help="the new book's folder (new, empty or a fresh repository; default: here); "
        "with --add, a folder of the book",
    )
    parser.add_argument(
        "--system",
        action="append",
        metavar="ID",
        help=f"a system to add a sample scenario for (repeatable; default: all of "
        f"{', '.join(SYSTEM_IDS)}; with --add it must be given)",
    )
    parser.add_argument("--title", help="the site's name (default: the folder's name)")
    parser.add_argument(
        "--site-url",
        metavar="URL",
        help="where the site will be published, e.g. https://me.github.io/book/ "
        "(mkdocs.yml's site_url; default: the preview server, and the Pages address in CI)",
    )
    parser.add_argument(
        "--add",
        action="store_true",
        help="add the --system samples to the book DIR is in; nothing else is touched",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code not in (0, None) else 0
    try:
        if args.add:
            written = add_samples(args.directory, args.system or [])
        else:
            written = create_book(
                args.directory,
                args.system or SYSTEM_IDS,
                title=args.title,
                site_url=args.site_url,
            )
    except (UnknownSystemError, RegistryError) as error:
        print(f"saikoro new: {error}", file=sys.stderr)
        return 2
    except BookError as error:
        print(f"saikoro new: {error}", file=sys.stderr)
        return 2
    except BookExistsError as error:
        print(f"saikoro new: {error}; nothing was written", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"saikoro new: cannot write the book: {error}", file=sys.stderr)
        return 1
    shown = args.directory.as_posix()
    base = Path() if args.add else args.directory  # --add: paths from here
    count = f"{len(written)} file{'s' if len(written) != 1 else ''}"
    print(f"saikoro new: wrote {count}" + ("" if args.add else f" into {shown}/"))
    for path in written:
        print(f"  {Path(os.path.relpath(path, base)).as_posix()}")
    steps = [f"  cd {shown}"] if shown not in (".", "") and not args.add else []
    if not args.add:
        steps += [
            "  mkdocs serve        # preview on http://127.0.0.1:8000/ while you edit",
            "  saikoro validate    # check scenarios/ (CI runs this and mkdocs build --strict)",
        ]
    steps.append(f"  {GUIDE_HINT}")
    print("next:\n" + "\n".join(steps))
    return 0
