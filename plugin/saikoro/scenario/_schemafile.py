"""The book's own copy of the JSON Schema, that scenarios' ``$schema`` lines name.

``saikoro new`` writes ``schema/scenario.schema.json`` into the book and points each
sample's ``# yaml-language-server: $schema=../schema/scenario.schema.json`` line at it,
so the editor checks scenarios before anything is built (and in a fresh clone). When
saikoro changes, the copy would go stale: ``saikoro validate`` and every MkDocs build
rewrite the copies their scenarios' ``$schema`` lines name, when they differ. Only a
file that is already a saikoro schema is rewritten (its ``$id`` says so): a ``$schema``
line is text from the scenario, never a licence to write anywhere else.

>>> modeline_target(Path("b/scenarios/x.yaml"), "# yaml-language-server: $schema=../s.json\\n")
PosixPath('b/scenarios/../s.json')
>>> modeline_target(Path("x.yaml"), "# yaml-language-server: $schema=https://a/s.json\\n")
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from pathlib import Path

from ._export import SCHEMA_ID, json_schema

__all__ = ["LOCAL_SCHEMA", "is_saikoro_schema", "modeline_target", "refresh_schemas", "schema_text"]

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


def refresh_schemas(scenarios: Iterable[Path]) -> list[Path]:
    """Rewrite the stale saikoro schemas the ``$schema`` lines of ``scenarios`` name; the
    files rewritten. A missing file, or one that is not a saikoro schema, is left alone."""
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
        if target is not None:
            targets.setdefault(target.resolve(), None)
    current = schema_text()
    written: list[Path] = []
    for target in targets:
        if not target.is_file() or not is_saikoro_schema(target):
            continue
        if target.read_text(encoding="utf-8") != current:
            target.write_text(current, encoding="utf-8")
            written.append(target)
    return written
