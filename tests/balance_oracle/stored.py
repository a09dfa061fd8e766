"""Stored values of the slow oracle cases, keyed by the digest of the oracle and the case."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

STORED = Path(__file__).resolve().parents[1] / "data" / "oracle_values.json"
"""The values of the oracle cases that take the oracle more than :data:`SLOW` seconds,
each with the digest of the oracle's source and the case it was computed from: a fresh
clone checks the engine against them without solving them again. A value whose digest no
longer matches (the oracle or the case changed) is solved again, and a test fails until
``python tests/test_balance_oracle.py --store`` writes the file anew."""

SLOW = 1.0
"""Seconds above which an oracle value is stored (the cheap ones are always solved)."""


def oracle_digest(data: Mapping[str, Any]) -> str:
    """The digest of the oracle's source (every module of this package but this one, which
    only keeps values) and one case."""
    h = hashlib.sha256()
    for f in sorted(Path(__file__).resolve().parent.glob("*.py")):
        if f.name == Path(__file__).name:
            continue
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    h.update(json.dumps(dict(data), sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()


@cache
def stored_values() -> dict[str, dict[str, str]]:
    """name -> {"digest", "value" (a fraction as text), "seconds"} from :data:`STORED`."""
    if not STORED.is_file():
        return {}
    found: dict[str, dict[str, str]] = json.loads(STORED.read_text("utf-8"))
    return found


def oracle_value(
    name: str, oracle: Callable[[dict[str, Any]], Fraction], data: dict[str, Any]
) -> Fraction:
    """The oracle's value of case ``name``: stored when its digest matches, else solved."""
    kept = stored_values().get(name)
    if kept is not None and kept["digest"] == oracle_digest(data):
        return Fraction(kept["value"])
    return oracle(data)
