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

import contextlib
import fnmatch
import html
import json
import os
import re
import sys
import unicodedata
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from saikoro import __version__
from saikoro.dice import SaikoroError
from saikoro.scenario import (
    LOCAL_SCHEMA,
    CommandParser,
    find_book,
    newline_of,
    replace_file,
    schema_text,
)
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
    "check_site_url",
    "check_title",
    "create_book",
    "main",
    "markdown_text",
    "site_name",
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
        "SITE_NAME": json.dumps(site_name(title), ensure_ascii=False),  # YAML-quoted
        "FLOW": _flow(systems[0]),
    }
    markdown = {**values, "SITE_NAME": markdown_text(title)}  # the page heading
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


_MARKDOWN_SPECIAL = re.compile(r"([!#()*+\-.>\[\\\]_`{|}])")
"""What Python-Markdown (with the book's extensions) lets a backslash escape."""


def markdown_text(text: str) -> str:
    """``text`` as Markdown that shows it as it is: no tag, entity, emphasis, link,
    attribute list (``{: ...}``) or heading mark of it takes effect.

    >>> markdown_text("<b>霧</b> & *本* {: .x}")
    '&lt;b&gt;霧&lt;/b&gt; &amp; \\\\*本\\\\* \\\\{: \\\\.x\\\\}'
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def site_name(title: str) -> str:
    """``title`` as ``mkdocs.yml``'s ``site_name``: themes write the site name into pages
    as it is (Material puts it in a ``<title>``, the header and an attribute without
    escaping), so ``<``, ``>`` and ``"`` are written as character references there.

    >>> site_name('霧 & "本" <i>')
    '霧 & &quot;本&quot; &lt;i&gt;'
    """
    return title.replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _starter(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in STARTER_FILES)


def _gitignore_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _ignored(line: str) -> str:
    """A ``.gitignore`` pattern compared loosely: ``/site``, ``/site/``, ``site/`` alike."""
    return line.strip().strip("/")


MAX_TITLE = 200
"""Characters of a book's title at most."""
MAX_URL = 2000
"""Characters of ``--site-url`` at most."""
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _bad_character(text: str) -> str | None:
    """Why ``text`` cannot be a title or an address: the first character no page, YAML
    file or browser takes as it is (``None``: none).

    >>> _bad_character("霧の本"), _bad_character("a\\udcffb"), _bad_character("a\\ufffe")
    (None, 'UTF-8 ではないバイト列（\\\\udcff）', '使えない文字 U+FFFE')
    """
    for char in text:
        if "\ud800" <= char <= "\udfff":
            return f"UTF-8 ではないバイト列（{char!a}）".replace("'", "")
        category = unicodedata.category(char)
        if category in ("Cc", "Cn", "Cs", "Zl", "Zp") or char in _BIDI_CONTROLS:
            return f"使えない文字 U+{ord(char):04X}"
    return None


def check_title(title: str, *, from_folder: bool = False) -> str:
    """``title`` if a book may carry it (what pages show and mkdocs.yml holds).

    Raises:
        BookError: it is empty, too long, or holds a control character, a noncharacter
            (U+FFFE), a line separator, a bidirectional override or bytes that were not
            UTF-8 (a folder name, when ``from_folder``: then ``--title`` is the way out).
    """
    where = f"フォルダ名 {title!a}" if from_folder else "--title"
    fix = "--title で題名を指定してください" if from_folder else "題名を直してください"
    bad = _bad_character(title)
    if bad is not None:
        raise BookError(f"{where} に {bad} が含まれています。{fix}")
    if not title.strip():
        raise BookError(f"{where} が空です。{fix}")
    if len(title) > MAX_TITLE:
        raise BookError(f"{where} が長すぎます（{len(title)} 文字。{MAX_TITLE} 文字まで）。{fix}")
    return title


def check_site_url(url: str) -> str:
    """``url`` if it is a published site's address: ``http(s)://host/path``, nothing else.

    Raises:
        BookError: another scheme (``javascript:``), no host, a query or fragment, spaces,
            quotes or control characters, or more than :data:`MAX_URL` characters.
    """
    bad = _bad_character(url)
    problem = None
    if bad is not None:
        problem = bad + " が含まれています"
    elif len(url) > MAX_URL:
        problem = f"長すぎます（{len(url)} 文字。{MAX_URL} 文字まで）"
    elif any(c.isspace() or c in "\"'<>\\^`{|}" for c in url):
        problem = "空白や引用符などアドレスに使えない文字が含まれています"
    else:
        try:
            parts = urlsplit(url)
            host = parts.hostname
            parts.port  # noqa: B018 - raises ValueError for a port out of range
        except ValueError:
            parts, host = None, None
        if parts is None or parts.scheme not in ("http", "https") or not host:
            problem = "http:// か https:// で始まるサイトのアドレスではありません"
        elif parts.query or parts.fragment:
            problem = "? や # のついたアドレスはサイトのアドレスになりません"
    if problem is not None:
        raise BookError(
            f"--site-url {ascii(url[:60]) if bad else repr(url[:60])}: {problem}"
            "（例: https://me.github.io/book/）"
        )
    return url


class _Writer:
    """Writes a book's files, each whole (:func:`saikoro.scenario.replace_file`), and
    remembers what it made: leaving its ``with`` block by an exception (a full disk,
    Ctrl-C) removes exactly that."""

    def __init__(self) -> None:
        self.made: list[Path] = []
        """The files and folders this run created, in order."""

    def __enter__(self) -> _Writer:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not None:
            self.undo()

    def folder(self, path: Path) -> None:
        missing = [p for p in (path, *path.parents) if not p.exists()]
        for folder in reversed(missing):
            folder.mkdir()
            self.made.append(folder)

    def write(self, path: Path, data: bytes) -> None:
        self.folder(path.parent)
        new = not path.exists()
        replace_file(path, data)
        if new:
            self.made.append(path)

    def undo(self) -> None:
        """Remove what this run created (newest first); a folder only when empty."""
        for path in reversed(self.made):
            with contextlib.suppress(OSError):
                if path.is_dir() and not path.is_symlink():
                    path.rmdir()
                else:
                    path.unlink()


def _inside(path: Path, folder: Path) -> bool:
    real, root = Path(os.path.realpath(path)), Path(os.path.realpath(folder))
    return real == root or root in real.parents


def _gitignore_update(path: Path, directory: Path, text: str) -> tuple[bytes | None, str | None]:
    """The new bytes of the book's ``.gitignore`` (``None``: leave it) and a note to print.

    An existing file is kept byte for byte -- its encoding, line endings and mode -- and
    only the lines it lacks are appended, in its line ending. A link leading out of the
    book is not written through: the note lists the lines to add there by hand.

    Raises:
        BookExistsError: ``.gitignore`` is a folder (or another thing that is no file).
    """
    if not path.exists() and not path.is_symlink():
        return text.encode("utf-8"), None
    if path.is_symlink() and not _inside(path, directory):
        missing = _gitignore_lines(text)
        return None, (
            f"{path} はシナリオ集の外（{os.path.realpath(path)}）へのリンクなので書き換えて"
            f"いません。必要なら次の行を足してください: {' '.join(missing)}"
        )
    if not path.is_file():
        raise BookExistsError(
            f"{path} はファイルではありません。.gitignore を書けないので、別のフォルダを"
            "指定するか、それを移してください"
        )
    have = path.read_bytes()
    present = {_ignored(x) for x in _gitignore_lines(have.decode("utf-8", "surrogateescape"))}
    missing = [x for x in _gitignore_lines(text) if _ignored(x) not in present]
    if not missing:
        return None, None
    newline = newline_of(have).encode("ascii")
    lines = ["", "# saikoro: the built site and the balance cache", *missing]
    joined = b"" if not have or have.endswith((b"\n", b"\r")) else newline
    return have + joined + newline.join(x.encode("utf-8") for x in lines) + newline, None


def create_book(
    directory: Path,
    systems: Sequence[str] = SYSTEM_IDS,
    *,
    title: str | None = None,
    site_url: str | None = None,
    notes: list[str] | None = None,
) -> list[Path]:
    """Write a new scenario book into ``directory`` (created if missing); the files written.

    ``directory`` may hold version control and GitHub's starter files
    (:data:`STARTER_FILES`): they are kept; an existing ``.gitignore`` gets the lines
    the book needs appended (listed among the files written when it changes), and is
    otherwise kept byte for byte. Everything is checked before the first file is written;
    a failure while writing (a full disk, Ctrl-C) removes what this call made, so the
    folder is as it was. What the user should know (a ``.gitignore`` left alone) is
    appended to ``notes``.

    Raises:
        BookError: no system is chosen, or the title or site URL is unusable.
        BookExistsError: ``directory`` is a file, or holds anything else.
        saikoro.systems.UnknownSystemError: a system is unknown.
    """
    chosen = list(dict.fromkeys(get_system(s).id for s in systems))
    if not chosen:
        raise BookError("システムを一つ以上選んでください")
    name = check_title(title) if title is not None else None
    url = check_site_url(site_url) if site_url is not None else None
    if directory.is_symlink() and not directory.exists():
        raise BookExistsError(f"{directory} はリンク先のないリンクです。フォルダを指定してください")
    if directory.exists() and not directory.is_dir():
        raise BookExistsError(
            f"{directory} はフォルダではありません。新しいフォルダか空のフォルダを指定してください"
        )
    if directory.is_dir():
        others = sorted(p.name for p in directory.iterdir() if not _starter(p.name))
        if others:
            shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
            hint = (
                "（このシナリオ集にサンプルを足すには: saikoro new --add --system ID）"
                if any(n in ("mkdocs.yml", "mkdocs.yaml") for n in others)
                else ""
            )
            raise BookExistsError(
                f"{directory} にはすでに {shown} があります。新しいフォルダか空のフォルダ、"
                "またはできたばかりのリポジトリ（.git、README、LICENSE、.gitignore だけ）を"
                f"指定してください{hint}"
            )
    if name is None:
        name = check_title(directory.resolve().name, from_folder=True)
    files = book_files(chosen, title=name, site_url=url)
    ignore, note = _gitignore_update(directory / ".gitignore", directory, files.pop(".gitignore"))
    if note is not None and notes is not None:
        notes.append(note)
    written = []
    with _Writer() as writer:
        writer.folder(directory)
        for relative, text in files.items():
            writer.write(directory / relative, text.encode("utf-8"))
            written.append(directory / relative)
        if ignore is not None:  # last: every other file is in place when it changes
            writer.write(directory / ".gitignore", ignore)
            written.append(directory / ".gitignore")
    return written


def add_samples(directory: Path, systems: Sequence[str]) -> list[Path]:
    """Add the samples of ``systems`` to the book ``directory`` is in; the files written.

    The samples go into the book's scenario folder (the plugin's ``scenarios:`` option,
    else ``scenarios/``), their ``$schema`` lines naming the book's copy of the schema,
    which is written too when the book has none. Nothing else is touched; a failure while
    writing removes what was written.

    Raises:
        BookError: no system is chosen, or ``directory`` is in no book (no ``mkdocs.yml``).
        BookExistsError: a sample's file already exists.
    """
    chosen = list(dict.fromkeys(get_system(s).id for s in systems))
    if not chosen:
        raise BookError("足すシステムを --system で選んでください")
    book = find_book(directory)
    if book is None:
        raise BookError(
            f"{directory} はシナリオ集の中ではありません（そこにもその上にも mkdocs.yml が"
            "ありません）。新しいシナリオ集は saikoro new DIR で作れます"
        )
    schema = book.root / LOCAL_SCHEMA
    line = Path(os.path.relpath(schema, book.scenarios)).as_posix()
    samples = _samples(chosen, line)
    taken = [name for name in samples if (book.scenarios / name).exists()]
    if taken:
        raise BookExistsError(f"{book.scenarios} にはすでに {', '.join(taken)} があります")
    written = []
    with _Writer() as writer:
        for name, text in samples.items():
            writer.write(book.scenarios / name, text.encode("utf-8"))
            written.append(book.scenarios / name)
        if not schema.exists():
            writer.write(schema, schema_text().encode("utf-8"))
            written.append(schema)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``saikoro new DIR [--system ID ...] [--title T] [--site-url URL] [--add]``; the
    exit status."""
    parser = CommandParser(
        prog="saikoro new",
        description="シナリオブックを始める: mkdocs.yml、docs/、サンプルシナリオ、エディタ用の "
        "JSON Schema、pre-commit のフック、検査・ビルドして Pages に公開する GitHub の"
        "ワークフローを書く。DIR は新しいか空のフォルダ、または作ったばかりのリポジトリ"
        "（.git、README、LICENSE、.gitignore はそのまま残す）。--add なら既存のブックに"
        "サンプルを足す。",
        epilog="作者ガイドと項目の一覧（オフライン）: saikoro docs",
    )
    parser.add_argument(
        "directory",
        metavar="DIR",
        type=Path,
        nargs="?",
        default=Path(),
        help="新しいブックのフォルダ（新しいか空のフォルダ、または作ったばかりのリポジトリ。"
        "既定: ここ）。--add ならブックの中のフォルダ",
    )
    parser.add_argument(
        "--system",
        action="append",
        metavar="ID",
        help=f"サンプルシナリオを入れるシステム（何度でも指定できる。既定: "
        f"{', '.join(SYSTEM_IDS)} のすべて。--add では必須）",
    )
    parser.add_argument("--title", help="サイトの名前（既定: フォルダの名前）")
    parser.add_argument(
        "--site-url",
        metavar="URL",
        help="サイトを公開する場所。例: https://me.github.io/book/（mkdocs.yml の site_url。"
        "既定: プレビューのサーバー、CI では Pages のアドレス）",
    )
    parser.add_argument(
        "--add",
        action="store_true",
        help="DIR のあるブックに --system のサンプルを足す（ほかは何も変えない）",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code not in (0, None) else 0
    notes: list[str] = []
    try:
        if args.add:
            written = add_samples(args.directory, args.system or [])
        else:
            written = create_book(
                args.directory,
                args.system or SYSTEM_IDS,
                title=args.title,
                site_url=args.site_url,
                notes=notes,
            )
    except UnknownSystemError as error:
        print(f"saikoro new: --system: {error.ja}。何も書いていません", file=sys.stderr)
        return 2
    except RegistryError as error:
        print(f"saikoro new: {error}", file=sys.stderr)
        return 2
    except BookError as error:
        print(f"saikoro new: {error}。何も書いていません", file=sys.stderr)
        return 2
    except BookExistsError as error:
        print(f"saikoro new: {error}。何も書いていません", file=sys.stderr)
        return 1
    except OSError as error:
        reason = error.strerror or str(error)
        print(
            f"saikoro new: シナリオ集を書けません（{reason}）。書きかけのファイルは残していません",
            file=sys.stderr,
        )
        return 1
    shown = args.directory.as_posix()
    base = Path() if args.add else args.directory  # --add: paths from here
    where = "" if args.add else f"{shown}/ に "
    print(f"saikoro new: {where}{len(written)} 個のファイルを書きました")
    for path in written:
        print(f"  {Path(os.path.relpath(path, base)).as_posix()}")
    for note in notes:
        print(f"saikoro new: 注意: {note}", file=sys.stderr)
    steps = [f"  cd {shown}"] if shown not in (".", "") and not args.add else []
    if not args.add:
        steps += [
            "  mkdocs serve        # preview on http://127.0.0.1:8000/ while you edit",
            "  saikoro validate    # check scenarios/ (CI runs this and mkdocs build --strict)",
        ]
    steps.append(f"  {GUIDE_HINT}")
    print("next:\n" + "\n".join(steps))
    return 0
