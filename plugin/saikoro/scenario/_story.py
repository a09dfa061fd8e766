"""The parts of a scenario book every system shares: what a Japanese scenario is made of.

Besides the numbers (enemies, checks, tables), a scenario book has an overview for the
GM (``overview``), a trailer read to the players (``trailer``), one handout per PC
(``handouts``: a public part every player may read and a ``secret`` only that PC's
player reads), scenes from 導入 to エンディング with their branches (``scenes``), NPCs
who are not enemies (``npcs``), images (``images``: local files), the author, the play
time, credits and the author's own rights notice.

Scenes, handouts and NPCs name other parts: enemies, NPCs, scenes and images by ``id``,
difficulty targets and tables by ``name`` (as the ``scenario`` fence and a chase's
``table:`` do). Every name is checked, with a did-you-mean.

>>> from saikoro.scenario import validate_text
>>> text = '''system: kegare
... title: t
... scenes:
...   - {id: a, phase: 導入, title: 始まり, next: [b]}
...   - {id: b, phase: climax, title: 決戦, enemies: [oni]}
... '''
>>> print(validate_text(text, "s.yaml").problems[0].format("ja"))  # doctest: +ELLIPSIS
s.yaml:5:49: error: scenario.scenes[1].enemies[0]: ID 'oni' のエネミーはいません...
>>> sc = validate_text(text.replace(", enemies: [oni]", ""), "s.yaml").scenario
>>> [(s.phase, [b.scene for b in s.next or ()]) for s in sc.model.scenes]
[('opening', ['b']), ('climax', [])]
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._common import REF
from ._containers import Obj
from ._images import IMAGE_SUFFIXES, MAX_IMAGE_BYTES, WARN_IMAGE_BYTES, image_info
from ._loader import Node, join_path
from ._problems import Msg, show_value
from ._schema import INVALID, Choice, Ctx, Enum, Tolerant, did_you_mean

__all__ = [
    "PHASES",
    "PHASE_LABELS",
    "Branch",
    "Phase",
    "check_flow",
    "check_image",
    "check_story",
    "image_file",
    "image_folder",
    "successors",
]

PHASES = (
    Choice("opening", "導入(オープニング)", "opening"),
    Choice("middle", "ミドル", "middle"),
    Choice("climax", "クライマックス", "climax"),
    Choice("ending", "エンディング", "ending"),
)
"""The phases of a scenario, in order."""

PHASE_LABELS = {
    "opening": "導入",
    "middle": "ミドル",
    "climax": "クライマックス",
    "ending": "エンディング",
}
"""Phase -> its Japanese name (導入, ミドル, クライマックス, エンディング)."""

_ALIASES = {
    "導入": "opening",
    "オープニング": "opening",
    "ミドル": "middle",
    "クライマックス": "climax",
    "エンディング": "ending",
}


@dataclass(frozen=True)
class Phase(Enum):
    """A scene's phase: ``opening`` ... ``ending``, or its Japanese name (導入 ...), read as
    the English value."""

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        value = super().check(node, path, ctx)
        return value if value is INVALID else _ALIASES.get(value, value)


PHASE = Phase(
    PHASES
    + tuple(
        Choice(word, f"{word}({value} と同じ)", f"same as {value}")
        for word, value in _ALIASES.items()
    )
)


@dataclass(frozen=True)
class Branch(Obj):
    """Where a scene leads: a scene id alone (``next: [b]``) or ``{scene, condition}``."""

    def expected(self) -> Msg:
        return Msg("t.branch")

    def check(self, node: Node, path: str, ctx: Ctx) -> Any:
        if node.kind == "scalar":
            ctx.nodes[join_path(path, "scene")] = node
            value = REF.check(node, path, ctx)
            return value if value is INVALID else {"scene": value}
        return super().check(node, path, ctx)

    def json_schema(self) -> dict[str, Any]:
        return {"anyOf": [REF.json_schema(), super().json_schema()]}


def check_image(image: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """The file is a local image inside the book (when the scenario is a file on disk)."""
    written = image["file"]
    fpath = join_path(path, "file")
    where = ctx.nodes.get(fpath, node)
    shown = show_value(written)
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", written) or written.startswith(("data:", "//")):
        ctx.error(where, fpath, Msg("image.url", (shown,)), Msg("hint.image.url"))
        return
    if "\\" in written:
        meant = written.replace("\\", "/")
        ctx.error(where, fpath, Msg("image.backslash", (shown,)), Msg("hint.use", (meant,)))
        return
    if written.startswith("/") or re.match(r"^[A-Za-z]:", written):
        ctx.error(where, fpath, Msg("image.absolute", (shown,)), Msg("hint.image.relative"))
        return
    suffix = Path(written).suffix.lower()
    if suffix not in IMAGE_SUFFIXES:
        ctx.error(
            where,
            fpath,
            Msg("image.suffix", (shown,)),
            Msg("hint.known", (" ".join(IMAGE_SUFFIXES),)),
        )
        return
    folder = ctx.folder
    if folder is None:  # text validated without its file: nothing on disk to check
        return
    _check_file(folder, written, where, fpath, ctx)


def image_folder(scenario_path: Path) -> Path:
    """The folder an image's ``file:`` is relative to: the scenario file's, where it really
    is (a scenario reached through a symbolic link names the images beside the file its
    author wrote)."""
    return Path(os.path.realpath(scenario_path)).parent


def image_file(scenario_path: Path, written: str) -> Path:
    """The file an image's ``file:`` names (relative to the scenario file)."""
    return image_folder(scenario_path) / written


def _book_root(folder: Path) -> Path:
    """The folder images must stay inside: the book's (holding ``mkdocs.yml``), else the
    scenario file's own."""
    from ._book import find_book

    book = find_book(folder)
    return book.root.resolve() if book is not None else folder.resolve()


def _check_file(folder: Path, written: str, where: Node, fpath: str, ctx: Ctx) -> None:
    shown = show_value(written)
    path = folder / written
    root = _book_root(folder)
    resolved = path.resolve()
    if root not in resolved.parents:
        ctx.error(where, fpath, Msg("image.outside", (shown, str(root))), Msg("hint.image.inside"))
        return
    if not path.exists():
        near = []
        if path.parent.is_dir():
            near = sorted(
                p.relative_to(folder).as_posix() if p.is_relative_to(folder) else p.name
                for p in path.parent.iterdir()
                if p.suffix.lower() in IMAGE_SUFFIXES
            )
        hint = did_you_mean(written, near) or (
            Msg("hint.known", (", ".join(near),)) if near else None
        )
        ctx.error(where, fpath, Msg("image.missing", (shown, str(path))), hint)
        return
    if not path.is_file():
        ctx.error(where, fpath, Msg("image.not_file", (shown,)))
        return
    try:
        size = path.stat().st_size
        if size > MAX_IMAGE_BYTES:
            mb = f"{size / 1024 / 1024:.1f}"
            ctx.error(
                where,
                fpath,
                Msg("image.too_big", (shown, mb, MAX_IMAGE_BYTES // 1024 // 1024)),
                Msg("hint.image.smaller"),
            )
            return
        with path.open("rb") as f:
            data = f.read(MAX_IMAGE_BYTES + 1)
    except OSError as e:
        ctx.error(where, fpath, Msg("image.unreadable", (shown, e.strerror or str(e))))
        return
    info = image_info(data)
    if info is None:
        ctx.error(where, fpath, Msg("image.broken", (shown,)), Msg("hint.image.format"))
        return
    promised = IMAGE_SUFFIXES[path.suffix.lower()]
    if info[0] != promised:
        ctx.warning(
            where,
            fpath,
            Msg("image.mismatch", (shown, info[0].upper(), path.suffix)),
            Msg("hint.image.rename", (path.with_suffix(_SUFFIX[info[0]]).name,)),
        )
    if size > WARN_IMAGE_BYTES:
        ctx.warning(
            where,
            fpath,
            Msg("image.heavy", (shown, f"{size / 1024 / 1024:.1f}")),
            Msg("hint.image.smaller"),
        )


_SUFFIX = {"png": ".png", "jpeg": ".jpg", "gif": ".gif", "webp": ".webp"}


def _known(items: Any, key: str) -> list[str] | None:
    """The ``key`` of every item, or ``None`` when some item's is not known (invalid)."""
    if not isinstance(items, list):
        return [] if items is None else None
    out = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get(key), str):
            return None
        out.append(item[key])
    return out


@dataclass(frozen=True)
class _Names:
    """What the parts of a scenario are called (``None``: not known, some item invalid)."""

    images: list[str] | None
    enemies: list[str] | None
    npcs: list[str] | None
    scenes: list[str] | None
    checks: list[str] | None
    chases: list[str] | None
    tables: list[str] | None

    @classmethod
    def of(cls, root: dict[str, Any]) -> _Names:
        targets = root.get("difficulty_targets")
        checks = _known(targets, "name")
        chases = None
        if checks is not None:
            chases = [t["name"] for t in targets or [] if t.get("kind") == "chase"]
        return cls(
            images=_known(root.get("images"), "id"),
            enemies=_known(root.get("enemies"), "id"),
            npcs=_known(root.get("npcs"), "id"),
            scenes=_known(root.get("scenes"), "id"),
            checks=checks,
            chases=chases,
            tables=_known(root.get("chase_tables"), "name"),
        )


@dataclass(frozen=True)
class _Where:
    """Where problems are reported: the validation state and the root's node."""

    ctx: Ctx
    node: Node

    def unknown(self, path: str, value: object, known: list[str], code: str) -> None:
        """``value`` at ``path`` names nothing of ``known``: an error with a did-you-mean."""
        where = self.ctx.nodes.get(path, self.node)
        hint = did_you_mean(str(value), known) or Msg("hint.known", (", ".join(known) or "-",))
        self.ctx.error(where, path, Msg(code, (show_value(value),)), hint)

    def refs(self, path: str, values: Any, known: list[str] | None, code: str) -> None:
        """Every text of the list ``values`` names one of ``known`` (skipped when unknown)."""
        if known is None or not isinstance(values, list):
            return
        for i, value in enumerate(values):
            if isinstance(value, str) and value not in known:
                self.unknown(join_path(path, i), value, known, code)

    def error(self, path: str, msg: Msg, hint: Msg) -> None:
        self.ctx.error(self.ctx.nodes.get(path, self.node), path, msg, hint)


def _check_story(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """Every name a scene, handout or NPC uses is defined."""
    names = _Names.of(root)
    at = _Where(ctx, node)
    for key in ("handouts", "npcs", "scenes"):
        items = root.get(key)
        if not isinstance(items, list):
            continue
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            ipath = join_path(join_path(path, key), i)
            image = item.get("image")
            if isinstance(image, str) and names.images is not None and image not in names.images:
                at.unknown(join_path(ipath, "image"), image, names.images, "story.unknown_image")
            if key == "scenes":
                _check_scene(item, ipath, names, at)


def _check_scene(scene: dict[str, Any], path: str, names: _Names, at: _Where) -> None:
    """What one scene uses and where it leads."""
    for key, known, code in (
        ("enemies", names.enemies, "story.unknown_enemy"),
        ("npcs", names.npcs, "story.unknown_npc"),
        ("checks", names.checks, "story.unknown_check"),
        ("tables", names.tables, "story.unknown_table"),
    ):
        at.refs(join_path(path, key), scene.get(key), known, code)
    checks = scene.get("checks")
    if names.checks is not None and isinstance(checks, list):
        for i, value in enumerate(checks):
            count = names.checks.count(value) if isinstance(value, str) else 0
            if count > 1:
                msg = Msg("story.ambiguous_check", (show_value(value), count))
                at.error(join_path(join_path(path, "checks"), i), msg, Msg("hint.rename"))
    chases = scene.get("chases")
    if names.chases is not None and names.checks is not None and isinstance(chases, list):
        for i, value in enumerate(chases):
            if not isinstance(value, str) or value in names.chases:
                continue
            vpath = join_path(join_path(path, "chases"), i)
            if value in names.checks:
                msg = Msg("story.not_chase", (show_value(value),))
                at.error(vpath, msg, Msg("hint.story.checks"))
            else:
                at.unknown(vpath, value, names.chases, "story.unknown_chase")
    branches = scene.get("next")
    if isinstance(branches, list) and names.scenes is not None:
        for j, branch in enumerate(branches):
            target = branch.get("scene") if isinstance(branch, dict) else None
            if isinstance(target, str) and target not in names.scenes:
                bpath = join_path(join_path(join_path(path, "next"), j), "scene")
                at.unknown(bpath, target, names.scenes, "story.unknown_scene")


def successors(scenes: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Scene id -> the ids it leads to: its ``next``, else the following scene (none after
    the last, nor after an ending without ``next``)."""
    out: dict[str, list[str]] = {}
    for i, scene in enumerate(scenes):
        branches = scene.get("next")
        if branches is not None:
            out[scene["id"]] = [b["scene"] for b in branches]
        elif i + 1 < len(scenes) and scene.get("phase") != "ending":
            out[scene["id"]] = [scenes[i + 1]["id"]]
        else:
            out[scene["id"]] = []
    return out


def _check_reachable(root: dict[str, Any], node: Node, path: str, ctx: Ctx) -> None:
    """A warning at every scene no path from the first scene reaches (on a valid file:
    an invalid ``next`` would look like none)."""
    scenes = root.get("scenes")
    path = join_path(path, "scenes")
    if not isinstance(scenes, list) or not scenes:
        return
    graph = successors(scenes)
    if any(nxt not in graph for targets in graph.values() for nxt in targets):
        return  # a branch names no scene: that error is reported, the rest would follow it
    seen = {scenes[0]["id"]}
    todo = [scenes[0]["id"]]
    while todo:
        for nxt in graph.get(todo.pop(), []):
            if nxt not in seen and nxt in graph:
                seen.add(nxt)
                todo.append(nxt)
    for i, scene in enumerate(scenes):
        if scene["id"] not in seen:
            ipath = join_path(join_path(path, i), "id")
            where = ctx.nodes.get(ipath, node)
            ctx.warning(
                where,
                ipath,
                Msg("story.unreachable", (show_value(scene["id"]), show_value(scenes[0]["id"]))),
                Msg("hint.story.unreachable", (scene["id"],)),
            )


check_story = Tolerant(_check_story)
"""The root check of the names the shared parts use (tolerant: also on a file with errors
elsewhere)."""
check_flow = _check_reachable
"""The root check of the scenes' branches (on a valid file)."""
