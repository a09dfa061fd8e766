"""What the tests read from outside the repository, and what happens when it is missing.

``../shared`` (beside the checkout) holds the copyrighted rule texts (``seeds/``) and
BCDice's test vectors (``peer-vectors/bcdice/``). CI always provides it. A contributor's
clone without it still passes: the tests that need it skip, saying why; in CI (``$CI``
set) a missing folder fails them instead, so a skip never hides a test that should run.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SEEDS = SHARED / "seeds"
BCDICE_VECTORS = SHARED / "peer-vectors" / "bcdice"


def unavailable(reason: str) -> None:
    """Skip the calling test (or module) for ``reason``; in CI, fail it instead."""
    if os.environ.get("CI"):
        pytest.fail(f"cannot run in CI: {reason}")
    pytest.skip(reason, allow_module_level=True)


def require(path: Path, what: str) -> Path:
    """``path``, which must exist (else :func:`unavailable`)."""
    if not path.exists():
        unavailable(f"{what} not found at {path} (CI provides ../shared beside the checkout)")
    return path
