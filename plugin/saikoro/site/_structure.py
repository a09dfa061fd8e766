"""Which files the plugin adds to the site: scenario pages, their exports, the index.

:class:`ScenarioBook` loads and validates the scenario folder and turns it into
``File.generated`` entries. It keeps its caches between ``mkdocs serve`` rebuilds (the
plugin instance survives them), keyed by the scenario file's digest (and bounded), so a
rebuild after one edit re-renders only that scenario.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel

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
    windows_reserved,
)

from ._config import dropped_by
from ._context import BuildContext
from ._log import log
from ._lru import Lru
from ._navigation import BookNav
from ._oddscache import OddsCache
from ._pages import balance, story
from ._pages.book import volumes
from ._pages.index import (
    BOOK_TEXT,
    PAGE,
    IndexEntry,
    Pager,
    SystemLinks,
    pages_of,
    render_index,
    render_listing,
)
from ._pages.scenario import Rendered, book_order, render_scenario, system_name
from ._safe import esc, md_escape, safe_title
from ._text import book_text, site_text
from ._vtt import VttSettings

__all__ = [
    "MAX_PAGES",
    "BookResult",
    "ScenarioBook",
    "ScenarioPage",
    "check_generated",
    "error_page",
    "load_folder",
    "origins_of",
    "page_url",
    "raise_errors",
    "rel_url",
]

_OFF_NAV = InclusionLevel.NOT_IN_NAV
"""Generated pages the navigation does not list by itself (see :mod:`._navigation`)."""

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
        book.warnings.extend(p for p in result.problems if p.severity == "warning")
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
    if ID_PATTERN.fullmatch(stem) and not is_reserved(stem) and not windows_reserved(stem):
        return stem
    name = slug(stem)
    if name and not is_reserved(name) and not windows_reserved(name):
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
        self.titles: dict[str, str] = {}
        """Page src_uri -> title of this build's index and listing pages."""
        self.sources: dict[str, str] = {}
        """Generated src_uri -> the scenario file it is made from (this build's)."""
        self.nav = BookNav("index.md", "")
        """Where this build's book pages go in the navigation (see :mod:`._navigation`)."""

    def render(
        self, scenario: Scenario, ctx: BuildContext, *, roller: bool, zip_href: str
    ) -> Rendered:
        """The rendered page of ``scenario`` in the build ``ctx``, cached by content (and by
        what the context changes: the page language, the バランス section's settings)."""
        # the context, and the バランス section's background work done (mkdocs serve)
        context_key = (*ctx.key(), balance.version(ctx.balance, scenario))
        key = (
            scenario.digest,
            scenario.id,
            scenario.system,
            roller,
            zip_href,
            self.vtt,
            context_key,
            story.images_key(scenario),
        )
        found = self._pages.get(key)
        if found is None:
            self.rendered += 1
            found = render_scenario(
                scenario, self.odds, roller=roller, zip_href=zip_href, vtt=self.vtt, ctx=ctx
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
        ctx: BuildContext,
        *,
        prefix: str,
        title: str,
        roller: bool,
    ) -> list[File]:
        """Generated files of the build ``ctx``: one page (+ zips) per scenario, error
        pages, the index and the systems' listing pages (:mod:`._pages.index`); their
        places in the navigation in ``self.nav``."""
        prefix = prefix.strip("/")
        out: list[File] = []
        listed: list[tuple[Scenario, str, tuple[str, str, float] | None]] = []
        self.slots = {}
        self.pages = {}
        self.titles = {}
        self.sources = {}
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
                log.warning(
                    f"シナリオの id {scenario.id!r} を2つのファイルが使っているので、"
                    "一方を飛ばします"
                )
                continue
            seen.add(scenario.id)
            page_uri = f"{prefix}/{scenario.id}.md"
            folder = f"{prefix}/{scenario.id}"
            source = _from_config(scenario.path, config)
            self.sources[page_uri] = source
            zip_href = "./" if directory_urls else f"{scenario.id}/"
            rendered = self.render(scenario, ctx, roller=roller, zip_href=zip_href)
            problems = self.page_problems(scenario, rendered)
            if problems:  # an error page in place of a page showing "?"
                self.errors.extend(problems)
                out.append(
                    self._file(config, page_uri, error_page(scenario.id, problems, self.lang))
                )
                continue
            # not in the navigation (see ._navigation): listed by the index pages
            out.append(self._file(config, page_uri, rendered.markdown, rendered.slots, _OFF_NAV))
            self.slots[page_uri] = rendered.slots
            self.pages[page_uri] = ScenarioPage(rendered.title, scenario.system)
            for export in rendered.files:
                out.append(self._file(config, f"{folder}/{export.name}", export.content))
                self.sources[f"{folder}/{export.name}"] = source
            for image in self._images(config, scenario, folder):
                out.append(image)
                self.sources[image.src_uri] = source
            listed.append((scenario, page_uri, balance.summary(ctx.balance, scenario)))
        for stem, problems in sorted(book.broken.items()):
            page_md = error_page(stem, problems, self.lang)
            out.append(self._file(config, f"{prefix}/{stem}.md", page_md))
        out.extend(self._index_files(config, prefix, title, listed, volumes(len(seen))))
        published = sorted((s for s, _, _ in listed), key=book_order)
        if published:  # the text edition of the whole book
            text = site_text(book_text(title, published))
            out.append(self._file(config, f"{prefix}/{BOOK_TEXT}", text))
        return out

    def _index_files(
        self,
        config: MkDocsConfig,
        prefix: str,
        title: str,
        listed: Sequence[tuple[Scenario, str, tuple[str, str, float] | None]],
        printed: Sequence[tuple[str, int, int]],
    ) -> list[File]:
        """The index, the systems' listing pages when the book has more than one system or
        more scenarios than one page lists, and the book's place in the navigation."""
        urls = not bool(config.use_directory_urls)
        index_uri = f"{prefix}/index.md"
        index_url = page_url(index_uri, html=urls)
        ordered = sorted(listed, key=lambda item: book_order(item[0]))
        by_system: dict[str, list[tuple[Scenario, str, tuple[str, str, float] | None]]] = {}
        for item in ordered:
            by_system.setdefault(item[0].system, []).append(item)
        self.nav = BookNav(index_uri, safe_title(title))
        self.nav.sequence = [uri for _, uri, _ in ordered]
        self.titles[index_uri] = safe_title(title)
        out: list[File] = []
        systems: list[SystemLinks] = []
        paged = len(by_system) > 1 or len(ordered) > PAGE
        for system, items in by_system.items() if paged else ():
            name = system_name(system)
            ranges = pages_of(len(items), PAGE)
            uris = [_listing_uri(prefix, system, k) for k in range(1, len(ranges) + 1)]
            hrefs = [page_url(uri, html=urls) for uri in uris]
            for k, (first, last) in enumerate(ranges, 1):
                here = hrefs[k - 1]
                entries = [
                    IndexEntry(s, rel_url(here, page_url(uri, html=urls)), balance=b)
                    for s, uri, b in items[first - 1 : last]
                ]
                pager = Pager(k, tuple(rel_url(here, href) for href in hrefs))
                up = (safe_title(title), rel_url(here, index_url))
                md, slots = render_listing(
                    system, entries, count=len(items), first=first, pager=pager, up=up
                )
                uri = uris[k - 1]
                out.append(self._file(config, uri, md, slots, _OFF_NAV))
                self.slots[uri] = slots
                self.titles[uri] = safe_title(name if k == 1 else f"{name} {first}〜{last}")
                if k > 1:
                    self.nav.parents[uri] = uris[0]
            for _, uri, _ in items:
                self.nav.parents[uri] = uris[0]
            self.nav.systems.append((safe_title(name), uris[0]))
            systems.append(
                SystemLinks(system, len(items), tuple(rel_url(index_url, h) for h in hrefs))
            )
        if not paged:
            self.nav.parents.update((uri, index_uri) for _, uri, _ in ordered)
        entries = [
            IndexEntry(s, rel_url(index_url, page_url(uri, html=urls)), balance=b)
            for s, uri, b in ordered
        ]
        index_md, index_slots = render_index(
            title, entries if len(entries) <= PAGE else [], printed, systems, len(entries)
        )
        out.append(self._file(config, index_uri, index_md, index_slots))
        self.slots[index_uri] = index_slots
        return out


def _listing_uri(prefix: str, system: str, number: int) -> str:
    """The page of ``system``'s listing page ``number`` (from 1): beside the index, in
    ``index/``, which no scenario's files can use (``index`` is a reserved id)."""
    return f"{prefix}/index/{system}.md" if number == 1 else f"{prefix}/index/{system}/{number}.md"


def page_url(uri: str, *, html: bool = False) -> str:
    """The site-relative URL MkDocs gives the page ``uri``: ``a/b.md`` -> ``a/b/`` (or
    ``a/b.html`` with ``html``, i.e. ``use_directory_urls: false``); ``a/index.md`` -> ``a/``
    (``a/index.html``).

    >>> page_url("s/index.md"), page_url("s/x.md"), page_url("s/x.md", html=True)
    ('s/', 's/x/', 's/x.html')
    """
    stem = uri.removesuffix(".md")
    if html:
        return f"{stem}.html"
    folder, _, name = stem.rpartition("/")
    if name == "index":
        return f"{folder}/" if folder else ""
    return f"{stem}/"


def check_generated(
    config: MkDocsConfig,
    files: Files,
    generated: Sequence[File],
    origins: Mapping[str, tuple[str, str]],
    listed: Iterable[str] = (),
) -> None:
    """A ``PluginError`` (all problems at once, in Japanese) when a generated file would
    replace one of the author's (the same source or output path: ``docs/<prefix>/<id>.md``,
    ``<id>/index.md``, ``index.md``, ``book.md``, the schema over a page...) or would be
    left out by MkDocs (:func:`._config.dropped_by`; ``listed``: the pages the navigation
    lists, checked against ``not_in_nav`` too).

    ``origins``: generated path -> (what makes it, the options that move it), for the
    message; a path not in it is one of saikoro's own files (:func:`origins_of`).
    """
    base = Path(config.config_file_path or ".").resolve().parent
    sources: dict[str, File] = {}
    outputs: dict[str, File] = {}
    for file in files:  # the author's (and the theme's) files, not other plugins'
        if file.generated_by is None and file.inclusion not in _LEFT_OUT:
            sources.setdefault(file.src_uri, file)
            outputs.setdefault(file.dest_uri, file)
    nav = set(listed)
    problems: list[str] = []
    for file in generated:
        origin, move = origins.get(file.src_uri, ("saikoro のファイル", ""))
        other = sources.get(file.src_uri) or outputs.get(file.dest_uri)
        if other is not None:
            shown = _shown(other, base)
            fix = f"{shown} の名前を変えるか、{move}を変えて" if move else f"{shown} の名前を変えて"
            problems.append(
                f"{shown}（作者のファイル）と、saikoro が作る {file.src_uri}（{origin}）が同じ "
                f"{file.dest_uri} になり、作者のファイルが置き換えられます。{fix}ください"
            )
        rule = dropped_by(file.src_uri, config, nav=file.src_uri in nav)
        if rule is not None:
            fix = f"{move}を変えるか、" if move else ""
            problems.append(
                f"saikoro が作る {file.src_uri}（{origin}）は、{rule}に当てはまり、"
                f"{'ナビゲーション' if 'not_in_nav' in rule else 'サイト'}から除かれます。"
                f"{fix}mkdocs.yml の除外の設定を直してください"
            )
    if problems:
        raise PluginError("saikoro: 生成するページ:\n" + "\n".join(f"  {p}" for p in problems))


_LEFT_OUT = frozenset({InclusionLevel.EXCLUDED, InclusionLevel.DRAFT})
"""Files of the author's that MkDocs leaves out of ``mkdocs build``: nothing to replace."""


def origins_of(
    generated: Sequence[File],
    *,
    prefix: str,
    sources: Mapping[str, str],
    reference: Iterable[str] = (),
    schema: str | None = None,
) -> dict[str, tuple[str, str]]:
    """What makes each generated file and the options that move it (for
    :func:`check_generated`): a scenario's page and exports (``sources``: path -> its
    file), the book's index, listing and print pages under ``prefix``, the ``reference``
    pages, the ``schema``."""
    out: dict[str, tuple[str, str]] = {}
    for file in generated:
        uri = file.src_uri
        if uri in sources:
            out[uri] = (f"シナリオ {sources[uri]} のページ", "シナリオの id か prefix ")
        elif uri.startswith(f"{prefix}/"):
            out[uri] = ("シナリオ一覧・印刷用のページ", "prefix ")
    for uri in reference:
        out[uri] = ("reference: true のリファレンス", "reference_prefix ")
    if schema is not None:
        out[schema] = ("エディタ用の JSON Schema", "schema_path ")
    return out


def _shown(file: File, base: Path) -> str:
    """The author's file as a path from the folder of ``mkdocs.yml`` (``docs/index.md``)."""
    if file.abs_src_path is None:
        return file.src_uri
    return _relative(Path(file.abs_src_path), base)


def _relative(path: Path, base: Path) -> str:
    """``path`` from ``base`` when it is inside it, else as it is."""
    try:
        return path.resolve().relative_to(base).as_posix()
    except ValueError:
        return str(path)


def _from_config(path: Path, config: MkDocsConfig) -> str:
    """``path`` as seen from the folder of ``mkdocs.yml`` (``scenarios/a.yaml``)."""
    return _relative(path, Path(config.config_file_path or ".").resolve().parent)


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
