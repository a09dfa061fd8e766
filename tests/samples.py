"""The sample book's scenarios, for tests that copy one elsewhere.

The samples name pictures (``images:``, a scene's or an NPC's ``image:``) that validate
requires beside the file: a copy either takes the pictures along or leaves them out.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICTURES = ROOT / "scenarios" / "images"


def copy_pictures(folder: Path) -> None:
    """The samples' ``images/`` folder into ``folder`` (a scenario copied there finds them)."""
    shutil.copytree(PICTURES, folder / "images", dirs_exist_ok=True)


def drop_pictures(node: object) -> None:
    """Every ``images`` and ``image`` key of a loaded scenario, removed in place."""
    if isinstance(node, dict):
        node.pop("images", None)
        node.pop("image", None)
        for value in node.values():
            drop_pictures(value)
    elif isinstance(node, list):
        for value in node:
            drop_pictures(value)
