"""Compare the sample book's exact figures and roll commands between two versions of saikoro.

Builds the repository's sample book (``mkdocs.yml``, ``docs/``, ``scenarios/``) with the
saikoro of a git ref (or of the working tree) and collects, page by page and in order,
every ``data-probability``, ``data-command``, ``data-system`` and ``data-options``
attribute of the built HTML: the exact values the pages show and the commands their roll
buttons send. A refactoring must leave them identical::

    .venv/bin/python bench/build_attributes.py a3b42fb HEAD      # two refs
    .venv/bin/python bench/build_attributes.py a3b42fb           # a ref and the working tree

It prints the figures per side and, when they differ, the first differences; the exit
status is 1 when they differ. The Pyodide/Mermaid files (git-ignored) are copied from the
working tree's ``plugin/saikoro/site/vendor``.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENDOR = ROOT / "plugin" / "saikoro" / "site" / "vendor"
ATTRIBUTE = re.compile(r'\b(data-(?:probability|command|system|options))="([^"]*)"')
WORKTREE = "WORKTREE"

Attributes = dict[str, list[tuple[str, str]]]


def _checkout(ref: str, dest: Path) -> Path:
    """The book and the package of ``ref`` (or of the working tree) under ``dest``."""
    parts = ["plugin", "mkdocs.yml", "docs", "scenarios"]
    dest.mkdir(parents=True)
    if ref == WORKTREE:
        for part in parts:
            source = ROOT / part
            if source.is_dir():
                shutil.copytree(source, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(source, dest / part)
    else:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", ref, *parts],
            check=True,
            capture_output=True,
        ).stdout
        tar_path = dest / "src.tar"
        tar_path.write_bytes(archive)
        with tarfile.open(tar_path) as tar:
            tar.extractall(dest, filter="data")
        tar_path.unlink()
    vendor = dest / "plugin" / "saikoro" / "site" / "vendor"
    for entry in VENDOR.iterdir():  # the bundled files, not the checkout's own code
        if entry.name == "__pycache__" or (vendor / entry.name).exists():
            continue
        if entry.is_dir():
            shutil.copytree(entry, vendor / entry.name)
        else:
            shutil.copy2(entry, vendor / entry.name)
    return dest


def build(ref: str) -> Attributes:
    """Every page's attributes, in document order, built with ``ref``'s saikoro."""
    with tempfile.TemporaryDirectory(prefix="saikoro-attrs-") as tmp:
        book = _checkout(ref, Path(tmp) / "book")
        site = Path(tmp) / "site"
        env = dict(os.environ, PYTHONPATH=str(book / "plugin"), NO_MKDOCS_2_WARNING="1")
        where = subprocess.run(
            [sys.executable, "-c", "import saikoro; print(saikoro.__file__)"],
            check=True,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,
        ).stdout.strip()
        if not where.startswith(str(book)):
            raise SystemExit(f"{ref}: saikoro came from {where}, not from the checkout")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "mkdocs",
                "build",
                "--quiet",
                "-f",
                "mkdocs.yml",
                "-d",
                str(site),
            ],
            check=True,
            env=env,
            cwd=book,
        )
        found: Attributes = {}
        for page in sorted(site.rglob("*.html")):
            text = page.read_text(encoding="utf-8")
            pairs = [(name, html.unescape(value)) for name, value in ATTRIBUTE.findall(text)]
            if pairs:
                found[page.relative_to(site).as_posix()] = pairs
        return found


def _summary(label: str, found: Attributes) -> str:
    counts: dict[str, int] = {}
    for pairs in found.values():
        for name, _ in pairs:
            counts[name] = counts.get(name, 0) + 1
    figures = ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))
    return f"{label}: {len(found)} pages; {figures}"


def differences(a: Attributes, b: Attributes, limit: int = 20) -> list[str]:
    """The first ``limit`` differences between two builds (empty: identical)."""
    out: list[str] = []
    for page in sorted(set(a) | set(b)):
        left, right = a.get(page, []), b.get(page, [])
        if left == right:
            continue
        if len(left) != len(right):
            out.append(f"{page}: {len(left)} attributes vs {len(right)}")
        out.extend(
            f"{page} #{i}: {x} != {y}"
            for i, (x, y) in enumerate(zip(left, right, strict=False))
            if x != y
        )
    return out[:limit]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="git ref of the version to compare against")
    parser.add_argument("after", nargs="?", default=WORKTREE, help="git ref (default: worktree)")
    parser.add_argument("--json", type=Path, help="also write both sides' attributes here")
    args = parser.parse_args(argv)
    before, after = build(args.before), build(args.after)
    print(_summary(args.before, before))
    print(_summary(args.after, after))
    if args.json:
        args.json.write_text(
            json.dumps({"before": before, "after": after}, ensure_ascii=False, indent=1),
            encoding="utf-8",
        )
    diff = differences(before, after)
    if diff:
        print("DIFFERENT:")
        print("\n".join(diff))
        return 1
    print("identical: every data-probability, data-command, data-system and data-options")
    return 0


if __name__ == "__main__":
    sys.exit(main())
