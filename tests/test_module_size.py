"""No module of the package is over 400 lines (issue 11), so that a reader can hold one.

A module that grows past it is split along a seam of its subject (topic modules, or a
``commands/`` / ``flows/`` package as in the systems), never into arbitrary halves. The
bundled Pyodide and Mermaid (``site/vendor/``) are not saikoro's code and are not counted.
"""

from __future__ import annotations

from pathlib import Path

import saikoro

PACKAGE = Path(saikoro.__file__).resolve().parent
MAX_LINES = 400


def _dotted(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def lengths() -> dict[str, int]:
    """Every module of the package (vendored files left out) -> its number of lines."""
    return {
        _dotted(path): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(PACKAGE.rglob("*.py"))
        if "vendor" not in path.relative_to(PACKAGE).parts
    }


def test_no_module_is_over_400_lines() -> None:
    over = {name: n for name, n in lengths().items() if n > MAX_LINES}
    assert over == {}, f"split these along a natural seam (max {MAX_LINES} lines)"


def test_every_module_is_counted() -> None:
    # A walk that found nothing (a wrong folder) would pass the test above.
    found = lengths()
    assert len(found) > 150
    assert {"saikoro", "saikoro.dice", "saikoro.systems._cutaction.chase"} <= set(found)
    assert not any(".vendor" in name for name in found)
    assert max(found.values()) > 300
