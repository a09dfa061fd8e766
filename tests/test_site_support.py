"""Shared scenario texts and site builders for the site/export tests (not a test module)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MKDOCS = [sys.executable, "-m", "mkdocs"]

EVIL = (
    '</title><script>alert(1)</script>"><img src=x onerror=alert(2)>[x](javascript:alert(3))'
    '" onmouseover="alert(5)'
)
"""Markup put in every long text field of the hostile scenario."""

NAME = '</title><script>alert(1)</script>" onclick="a()"><img src=x onerror=a()>'
"""Markup for the short text fields (names and titles, at most 80 characters)."""


def Q(text: str) -> str:  # noqa: N802 - reads like a quote mark in the template
    """A YAML double-quoted scalar."""
    return json.dumps(text, ensure_ascii=False)


HOSTILE = f"""\
system: getb
id: hostile
title: {Q(NAME)}
summary: |
  {EVIL}

  [a](javascript:alert(4)) [b](data:text/html,hi) [c](vbscript:x) <iframe src=x>
  ![i](https://evil.example/x.png)
players: 3-5
difficulty_targets:
  - name: {Q(NAME)}
    check: agility
    target: 8
    note: {Q(EVIL)}
enemies:
  - id: evil
    name: {Q(NAME)}
    abilities: {{strength: 4, agility: 3, intellect: 1, endurance: 4}}
    hp: 40
    ap: 6
    st: 3
    placement: out3
    attacks:
      - name: {Q(NAME)}
        weapon: long-blade
        element: physical
        power: 5
        range: 0-1
        effect: {Q(EVIL)}
    guard: {{shield: buckler, armor: 2}}
    notes: {Q(EVIL)}
missions:
  main:
    success: {Q(EVIL)}
    failure: {Q(EVIL)}
  side:
    - success: {Q(EVIL)}
      reward: {Q(EVIL)}
chase_tables:
  - name: {Q(NAME)}
    die: 1D6
    entries:
      1-3: {{title: {Q(NAME)}, effect: {Q(EVIL)}}}
      4-6: {{title: ok}}
"""

TWO_D6 = """\
system: getb
id: twod6
title: 二つのダイスの表
players: 2
difficulty_targets:
  - name: 高い壁
    check: strength
    target: 12
chase_tables:
  - name: 山道表
    die: 2D6
    entries:
      2: {title: 崖}
      3: {title: 落石}
      4: {title: 霧}
      5: {title: 獣道}
      6: {title: 小川}
      7: {title: 平地}
      8: {title: 林}
      9: {title: 岩場}
      10: {title: 吊り橋}
      11: {title: 洞窟}
      12: {title: 頂上}
"""

KOKURYOKU_D6 = """\
system: kokuryoku
id: kkdie6
title: 六面ダイスの卓
players: 3
difficulty_targets:
  - name: 砦を築く
    target: 7
    gain: 4
enemies:
  - id: rival
    name: 隣国
    kind: nation
    power: 60
    attack: 4
    defence: 3
rulings:
  die: 6
"""
"""A kokuryoku scenario whose ``rulings:`` switch checks to one six-sided die."""


def env() -> dict[str, str]:
    """Subprocess environment (no MkDocs 2 banner)."""
    e = dict(os.environ)
    e["NO_MKDOCS_2_WARNING"] = "1"
    return e


def make_author_site(root: Path, *, with_samples: bool = True) -> Path:
    """A minimal author site: ``plugins: [saikoro]``, theme material, scenarios/."""
    (root / "docs").mkdir(parents=True)
    (root / "scenarios").mkdir()
    (root / "mkdocs.yml").write_text(
        "site_name: author\ntheme:\n  name: material\n  font: false\nplugins:\n  - saikoro\n",
        "utf-8",
    )
    (root / "docs" / "index.md").write_text(
        "---\nsystem: getb\n---\n# 本\n\n```dice\nGB3>=8\n2D6>=7\n```\n\n"
        "```scenario\ntwod6#table:山道表\n```\n\n```flow\ngetb.attack\n```\n",
        "utf-8",
    )
    if with_samples:
        shutil.copytree(REPO / "scenarios" / "images", root / "scenarios" / "images")
        for path in sorted((REPO / "scenarios").glob("*.y*ml")):
            shutil.copy(path, root / "scenarios" / path.name)
            evil = hostile_variant(path.read_text("utf-8"), path.stem)
            (root / "scenarios" / f"evil-{path.stem}.yaml").write_text(evil, "utf-8")
    (root / "scenarios" / "hostile.yaml").write_text(HOSTILE, "utf-8")
    (root / "scenarios" / "twod6.yaml").write_text(TWO_D6, "utf-8")
    (root / "scenarios" / "kkdie6.yaml").write_text(KOKURYOKU_D6, "utf-8")
    return root


def build(root: Path, *, strict: bool = True) -> subprocess.CompletedProcess[str]:
    """``mkdocs build`` in ``root`` (a subprocess, so plugin state never leaks)."""
    args = [*MKDOCS, "build", "-q"]
    if strict:
        args.append("--strict")
    return subprocess.run(
        args, cwd=root, env=env(), capture_output=True, text=True, timeout=600, check=False
    )


def hostile_variant(text: str, stem: str) -> str:
    """The scenario ``text`` with markup put into every free-text value and key.

    Every string leaf (and mapping key) is replaced by :data:`EVIL` or :data:`NAME`
    when the scenario still validates with it, so each system's own text fields
    (skills, specialties, ability names...) are covered without listing them.
    """
    import yaml

    from saikoro.scenario import validate_text

    data = yaml.safe_load(text)
    data["id"] = f"evil-{stem}"

    def valid() -> bool:  # JSON is YAML, and much faster to write than yaml.safe_dump
        dumped = json.dumps(data, ensure_ascii=False)
        return bool(validate_text(dumped, f"{stem}.yaml").ok)

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key in list(node):
                value = node[key]
                if key not in {"system", "id"} and isinstance(value, str):
                    for candidate in (EVIL, NAME):
                        node[key] = candidate
                        if valid():
                            break
                        node[key] = value
                else:
                    walk(value)
                if isinstance(key, str) and key not in {"system", "id"}:
                    renamed = {(NAME if k == key else k): v for k, v in node.items()}
                    original = dict(node)
                    node.clear()
                    node.update(renamed)
                    if not valid():
                        node.clear()
                        node.update(original)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                if isinstance(value, str):
                    node[i] = NAME
                    if not valid():
                        node[i] = value
                else:
                    walk(value)

    walk(data)
    return json.dumps(data, ensure_ascii=False, indent=1)


def event_handlers(page: str) -> list[tuple[str, str]]:
    """(tag, attribute) of every ``on*`` attribute in ``page``, as a browser parses it."""
    from html.parser import HTMLParser

    found: list[tuple[str, str]] = []

    class Finder(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.extend((tag, name) for name, _ in attrs if name.lower().startswith("on"))

    Finder().feed(page)
    return found


def tags(page: str, name: str) -> list[dict[str, str | None]]:
    """The attributes of every ``<name>`` start tag in ``page``."""
    from html.parser import HTMLParser

    found: list[dict[str, str | None]] = []

    class Finder(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == name:
                found.append(dict(attrs))

    Finder().feed(page)
    return found


# a kegare scenario with no id (taken from its file name) and one enemy
KEGARE = """\
system: kegare
title: 港
enemies:
  - id: oni
    name: 鬼
    hp: 60
    attack: 2
    defence: 1
    initiative: 3
    skills:
      - {name: 爪, kind: attack, damage: 3}
"""
