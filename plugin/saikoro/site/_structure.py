"""Which files the plugin adds to the site: scenario pages, their exports, the index.

:class:`ScenarioBook` loads and validates the scenario folder and turns it into
``File.generated`` entries. It keeps its caches between ``mkdocs serve`` rebuilds (the
plugin instance survives them), keyed by the scenario file's digest (and bounded), so a
rebuild after one edit re-renders only that scenario.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, InclusionLevel

from saikoro.scenario import (
    ID_PATTERN,
    LoadResult,
    Msg,
    Problem,
    Scenario,
    image_file,
    is_reserved,
    load_scenarios,
    replace_file,
    slug,
)

from ._log import log
from ._lru import Lru
from ._oddscache import OddsCache
from ._pages import balance, story
from ._pages.book import volumes
from ._pages.index import BOOK_TEXT, IndexEntry, render_index
from ._pages.scenario import Rendered, book_order, render_scenario
from ._safe import esc, md_escape
from ._text import book_text, site_text
from ._vtt import VttSettings

__all__ = [
    "MAX_PAGES",
    "BookResult",
    "ScenarioBook",
    "ScenarioPage",
    "error_page",
    "load_folder",
    "raise_errors",
    "rel_url",
]

MAX_PAGES = 512
"""Rendered scenario pages kept between serve rebuilds (by content and page options),
beyond the current book's own pages (see :meth:`ScenarioBook.files`)."""


@dataclass
class BookResult:
    """The outcome of loading the scenario folder."""

    scenarios: list[Scenario]
    errors: list[Problem]
    """Problems of severity ``error``."""
    warnings: list[Problem]
    """Problems of severity ``warning``."""
    broken: dict[str, list[Problem]]
    """File stem -> its error problems, for files that produced no scenario."""


@dataclass(frozen=True, slots=True)
class ScenarioPage:
    """What MkDocs would otherwise read from a scenario page's front matter."""

    title: str
    system: str


FileKey = tuple[str, int, int]
"""A scenario file by (path, mtime in ns, size)."""


def _load_results(folder: Path, cache: dict[FileKey, LoadResult] | None) -> list[LoadResult]:
    """Every file's ``LoadResult``; unchanged files (same mtime and size) come from ``cache``."""
    if not folder.is_dir():
        return []
    return load_scenarios(folder, cache=cache)


def load_folder(folder: Path, cache: dict[FileKey, LoadResult] | None = None) -> BookResult:
    """Validate every scenario file of ``folder`` (as ``saikoro.scenario.load_scenarios``).

    With ``cache`` (kept by the plugin across ``mkdocs serve`` rebuilds), files whose
    mtime and size did not change are not read again.
    """
    book = BookResult([], [], [], {})
    for result in _load_results(folder, cache):
        errors = [p for p in result.problems if p.severity == "error"]
        book.errors.extend(errors)
        book.warnings.extend(p for p in result.problems if p.severity != "error")
        if result.scenario is not None and not errors:
            book.scenarios.append(result.scenario)
        elif errors:
            book.broken[_page_name(Path(str(errors[0].file)).stem)] = errors
    return book


def _page_name(stem: str) -> str:
    """The page name of a broken file's error page: its stem when that is a valid id
    (as its page would be), else a slug of it (file names do not become URLs as they are);
    never the name of a page saikoro generates (``index.yaml`` is refused, and its error
    page must not replace the index)."""
    if ID_PATTERN.fullmatch(stem) and not is_reserved(stem):
        return stem
    name = slug(stem)
    if name and not is_reserved(name):
        return name
    return "broken-" + hashlib.sha256(stem.encode("utf-8")).hexdigest()[:8]


def rel_url(from_url: str, to_url: str) -> str:
    """``to_url`` relative to the page at ``from_url`` (both site-relative)."""
    base = from_url if from_url.endswith("/") or not from_url else posixpath.dirname(from_url)
    rel = posixpath.relpath(to_url or ".", base.rstrip("/") or ".")
    if to_url.endswith("/") and not rel.endswith("/"):
        rel += "/"
    return "./" if rel in {"./", "."} else rel


class ScenarioBook:
    """Scenario pages, exports and index as generated files (with caches)."""

    def __init__(self) -> None:
        self.odds = OddsCache()
        self._pages: Lru[tuple[object, ...], Rendered] = Lru(MAX_PAGES)
        self.lang = "ja"
        """Language of problem messages on error pages (the plugin's ``language``)."""
        self.loaded: dict[FileKey, LoadResult] = {}
        """LoadResults by (path, mtime, size), reused by serve rebuilds."""
        self._written: dict[str, str] = {}
        """Under ``mkdocs serve``: generated uri -> digest of what its cache file holds."""
        self._outputs: dict[str, str] = {}
        """Under ``mkdocs serve``: generated uri -> its output path, from the last build."""
        self.persist_dir: Path | None = None
        """Under ``mkdocs serve``: where generated files are kept (see :meth:`_file`)."""
        self.slots: dict[str, list[str]] = {}
        """Page src_uri -> the HTML of its placeholders, for the current build."""
        self.pages: dict[str, ScenarioPage] = {}
        """Page src_uri -> title and system of this build's scenario pages (their
        Markdown has no front matter; see ``Rendered.title``)."""
        self.vtt = VttSettings()
        """The VTT export settings of this build (set from the configuration)."""
        self.rendered = 0
        """How many scenario pages were rendered (not served from the cache) so far."""
        self.errors: list[Problem] = []
        """Errors found while generating the pages of the current build (see :meth:`files`)."""

    def render(self, scenario: Scenario, *, roller: bool, zip_href: str) -> Rendered:
        """The rendered page of ``scenario``, cached by content."""
        # the バランス section's settings, and its background work done (mkdocs serve)
        balance_key = (*balance.key(), balance.version(scenario))
        key = (
            scenario.digest,
            scenario.id,
            scenario.system,
            roller,
            zip_href,
            self.vtt,
            balance_key,
            story.images_key(scenario),
        )
        found = self._pages.get(key)
        if found is None:
            self.rendered += 1
            found = render_scenario(
                scenario, self.odds, roller=roller, zip_href=zip_href, vtt=self.vtt
            )
            self._pages[key] = found
        return found

    @staticmethod
    def page_problems(scenario: Scenario, rendered: Rendered) -> list[Problem]:
        """Errors at the scenario's positions for every value the page could not compute."""
        out = []
        for path, text in rendered.problems:
            line, column = scenario.position(path)
            msg = Msg("site.no_odds", (text,))
            out.append(Problem(str(scenario.path), line, column, "error", path, msg))
        return out

    def _images(self, config: MkDocsConfig, scenario: Scenario, folder: str) -> list[File]:
        """The scenario's images, copied into its folder (read at every build: a replaced
        image is published without editing the scenario). One that cannot be read now
        (removed since it was validated) is an error at its ``file:`` line."""
        out = []
        for i, image in enumerate(scenario.model.images):
            path = image_file(scenario.path, image.file)
            try:
                data = path.read_bytes()
            except OSError as e:
                where = f"scenario.images[{i}].file"
                line, column = scenario.position(where)
                msg = Msg("image.unreadable", (repr(image.file), e.strerror or str(e)))
                self.errors.append(Problem(str(scenario.path), line, column, "error", where, msg))
                continue
            name = story.image_name(scenario, image)
            out.append(self._file(config, f"{folder}/{name}", data))
        return out

    def forget_written(self) -> None:
        """Forget which generated files were written (their folder is gone)."""
        self._written.clear()
        self._outputs.clear()

    def _file(
        self,
        config: MkDocsConfig,
        uri: str,
        content: str | bytes,
        slots: Sequence[str] = (),
        inclusion: InclusionLevel = InclusionLevel.UNDEFINED,
    ) -> File:
        """A generated file; under ``mkdocs serve`` backed by a cache file.

        The cache file is rewritten only when what the page shows changes (its Markdown
        or the HTML of its ``slots``, put back after rendering), so its mtime tells MkDocs
        (``mkdocs serve --dirty``) which generated pages need rebuilding: after one
        scenario is edited, only its page (and the index) is rendered again.
        """
        if self.persist_dir is None:
            return File.generated(config, uri, content=content, inclusion=inclusion)
        path = self.persist_dir / uri
        data = content.encode("utf-8") if isinstance(content, str) else content
        digest = hashlib.sha256(data)
        for slot in slots:
            digest.update(b"\0" + slot.encode("utf-8"))
        key = digest.hexdigest()
        if self._written.get(uri) != key or not path.is_file():
            path.parent.mkdir(parents=True, exist_ok=True)
            replace_file(path, data, sync=False)
            self._written[uri] = key
        return File.generated(config, uri, abs_src_path=str(path), inclusion=inclusion)

    def drop_stale(self, config: MkDocsConfig, generated: Sequence[File]) -> list[str]:
        """Under ``mkdocs serve``: delete the output of generated files that are gone.

        A ``--dirty`` rebuild does not clean the site folder, so a deleted, renamed or
        re-identified scenario would stay served. Returns the site-relative paths removed.
        """
        current = {f.src_uri: f for f in generated}
        removed: list[str] = []
        site = Path(config.site_dir).resolve()
        for uri in sorted(set(self._outputs) - set(current)):
            dest = Path(self._outputs[uri]).resolve()
            if site not in dest.parents:  # pragma: no cover - generated files live in site_dir
                raise RuntimeError(f"generated file outside the site: {dest}")
            if dest.is_file():
                dest.unlink()
                removed.append(dest.relative_to(site).as_posix())
            for parent in dest.parents:
                if parent == site or not parent.is_dir() or any(parent.iterdir()):
                    break
                parent.rmdir()
            self._written.pop(uri, None)
            if self.persist_dir is not None:
                (self.persist_dir / uri).unlink(missing_ok=True)
        self._outputs = {uri: f.abs_dest_path for uri, f in current.items()}
        return removed

    def files(
        self,
        config: MkDocsConfig,
        book: BookResult,
        *,
        prefix: str,
        title: str,
        roller: bool,
    ) -> list[File]:
        """Generated files: one page (+ zips) per scenario, error pages, the index."""
        prefix = prefix.strip("/")
        out: list[File] = []
        entries: list[IndexEntry] = []
        self.slots = {}
        self.pages = {}
        self.errors = []
        # The book's own pages always fit (the whole-book page reuses them in the same
        # build, and a serve rebuild after one edit renders only that one); an LRU
        # smaller than the book would evict each page before it is asked for again.
        self._pages.size = len(book.scenarios) + MAX_PAGES
        # Every generated page sits in the prefix folder, so links between them and to
        # their export folders follow from use_directory_urls alone.
        directory_urls = bool(config.use_directory_urls)
        seen: set[str] = set()
        for scenario in sorted(book.scenarios, key=lambda s: s.id):
            if scenario.id in seen:
                log.warning(f"scenario id {scenario.id!r} is used by two files; one is skipped")
                continue
            seen.add(scenario.id)
            page_uri = f"{prefix}/{scenario.id}.md"
            folder = f"{prefix}/{scenario.id}"
            zip_href = "./" if directory_urls else f"{scenario.id}/"
            rendered = self.render(scenario, roller=roller, zip_href=zip_href)
            problems = self.page_problems(scenario, rendered)
            if problems:  # an error page in place of a page showing "?"
                self.errors.extend(problems)
                out.append(
                    self._file(config, page_uri, error_page(scenario.id, problems, self.lang))
                )
                continue
            out.append(self._file(config, page_uri, rendered.markdown, rendered.slots))
            self.slots[page_uri] = rendered.slots
            self.pages[page_uri] = ScenarioPage(rendered.title, scenario.system)
            out.extend(self._file(config, f"{folder}/{f.name}", f.content) for f in rendered.files)
            out.extend(self._images(config, scenario, folder))
            href = f"{scenario.id}/" if directory_urls else f"{scenario.id}.html"
            entries.append(IndexEntry(scenario, href, balance=balance.summary(scenario)))
        for stem, problems in sorted(book.broken.items()):
            page_md = error_page(stem, problems, self.lang)
            out.append(self._file(config, f"{prefix}/{stem}.md", page_md))
        index_md, index_slots = render_index(title, entries, volumes(len(seen)))
        out.append(self._file(config, f"{prefix}/index.md", index_md, index_slots))
        published = sorted((e.scenario for e in entries), key=book_order)
        if published:
            text = site_text(book_text(title, published))
            out.append(self._file(config, f"{prefix}/{BOOK_TEXT}", text))
        self.slots[f"{prefix}/index.md"] = index_slots
        return out


def error_page(stem: str, problems: Sequence[Problem], lang: str = "ja") -> str:
    """Markdown of the page shown (under ``mkdocs serve``) in place of a broken scenario."""
    items = "".join(f"<li><code>{esc(p.format(lang))}</code></li>" for p in problems)
    return (
        f"# {md_escape(stem)}\n\n"
        '<div class="admonition failure saikoro-error"><p class="admonition-title">'
        "このシナリオには誤りがあります</p>"
        f"<ul>{items}</ul><p>ファイルを直して保存すると、このページは自動で更新されます。</p></div>\n"
    )


def raise_errors(errors: Iterable[Problem], lang: str = "en") -> None:
    """Raise ``PluginError`` naming every error's file and line."""
    lines = [p.format(lang) for p in errors]
    if lines:
        raise PluginError("saikoro: invalid scenario files:\n" + "\n".join(lines))
