"""The book's own copy of the JSON Schema, that scenarios' ``$schema`` lines name.

``saikoro new`` writes ``schema/scenario.schema.json`` into the book and points each
sample's ``# yaml-language-server: $schema=../schema/scenario.schema.json`` line at it,
so the editor checks scenarios before anything is built (and in a fresh clone). When
saikoro changes, the copy would go stale: ``saikoro validate`` and every MkDocs build
rewrite the copies their scenarios' ``$schema`` lines name, when they differ. Only a
file inside the scenario's book that is already a saikoro schema is rewritten (its
``$id`` says so): a ``$schema`` line is text from the scenario, never a licence to write
anywhere else (another project's schema, a file outside the book). A stale copy that
cannot be written (read-only) is reported, and the scenarios are still checked.

>>> modeline_target(Path("b/scenarios/x.yaml"), "# yaml-language-server: $schema=../s.json\\n")
PosixPath('b/scenarios/../s.json')
>>> modeline_target(Path("x.yaml"), "# yaml-language-server: $schema=https://a/s.json\\n")
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ._book import find_book
from ._export import SCHEMA_ID, json_schema
from ._files import replace_file, text_like

__all__ = [
    "LOCAL_SCHEMA",
    "SchemaRefresh",
    "is_saikoro_schema",
    "modeline_target",
    "refresh_schemas",
    "schema_text",
]

LOCAL_SCHEMA = "schema/scenario.schema.json"
"""Where ``saikoro new`` puts the book's copy (relative to the book's folder)."""

_MODELINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)", re.MULTILINE)
_HEAD_LINES = 5
"""yaml-language-server reads the line anywhere; saikoro looks at the first lines only."""


@functools.cache
def schema_text(url: str | None = None) -> str:
    """The scenario JSON Schema as a file holds it (pretty-printed), ``$id`` = ``url``.

    Made once per process (the schema follows saikoro's code and the systems registered,
    both fixed while it runs): every ``mkdocs serve`` rebuild compares the book's copy
    with it."""
    schema = dict(json_schema())
    if url:
        schema["$id"] = url
    return json.dumps(schema, ensure_ascii=False, indent=2) + "\n"


def modeline_target(scenario: Path, text: str) -> Path | None:
    """The local file the ``$schema`` line of ``text`` names (``None``: none, or a URL)."""
    head = "\n".join(text.splitlines()[:_HEAD_LINES])
    m = _MODELINE.search(head)
    if m is None:
        return None
    target = m.group(1)
    if "://" in target or not target.endswith(".json"):
        return None
    return scenario.parent / target


def is_saikoro_schema(path: Path) -> bool:
    """Whether ``path`` holds a scenario schema saikoro wrote (its ``$id`` or title)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    if not isinstance(data, dict):
        return False
    ident, title = data.get("$id"), data.get("title")
    return (isinstance(ident, str) and ident == SCHEMA_ID) or (
        isinstance(title, str) and title == json_schema()["title"] and "allOf" in data
    )


@dataclass(frozen=True)
class SchemaRefresh:
    """What :func:`refresh_schemas` did: the copies it rewrote, and the stale ones it could
    not (each with the system's reason: a read-only file or folder, a full disk)."""

    written: list[Path] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)

    def messages(self) -> list[str]:
        """A line in Japanese for each copy that could not be brought up to date."""
        return [
            f"{path} はこの saikoro のスキーマより古いのですが、書き換えられません（{reason}）。"
            "エディタの補完と検査が古いままになります。書き込めるようにしてください"
            "（次の saikoro validate か mkdocs build で新しくなります）"
            for path, reason in self.failed
        ]


def _boundary(scenario: Path) -> Path:
    """The folder whose schemas a scenario's ``$schema`` line may refresh: its book's."""
    book = find_book(scenario.parent)
    return (book.root if book is not None else scenario.parent).resolve()


def refresh_schemas(scenarios: Iterable[Path]) -> SchemaRefresh:
    """Rewrite the stale saikoro schemas the ``$schema`` lines of ``scenarios`` name.

    Only a file inside the scenario's book (the folder of its ``mkdocs.yml``; without one,
    the scenario's folder) that already is a saikoro schema is rewritten, keeping its line
    endings and mode (:func:`replace_file`): a line naming another project's file never
    writes there. A missing file, or one that is not a saikoro schema, is left alone; one
    that cannot be written is in ``failed``.
    """
    targets: dict[Path, None] = {}
    for scenario in scenarios:
        if not scenario.is_file():  # a FIFO, a device or a folder: never opened (no hang)
            continue
        try:
            with scenario.open(encoding="utf-8", errors="replace") as handle:
                head = "".join(handle.readline() for _ in range(_HEAD_LINES))
        except OSError:
            continue
        target = modeline_target(scenario, head)
        if target is None:
            continue
        target = target.resolve()
        bound = _boundary(scenario)
        if bound == target or bound in target.parents:
            targets.setdefault(target, None)
    done = SchemaRefresh()
    for target in targets:
        if not target.is_file() or not is_saikoro_schema(target):
            continue
        current = schema_text()  # made only when there is a copy to compare it with
        try:
            old = target.read_bytes()
        except OSError as e:
            done.failed.append((target, e.strerror or str(e)))
            continue
        if old.decode("utf-8", "replace").replace("\r\n", "\n") == current:
            continue
        try:
            replace_file(target, text_like(old, current))
        except OSError as e:
            done.failed.append((target, e.strerror or str(e)))
            continue
        done.written.append(target)
    return done
