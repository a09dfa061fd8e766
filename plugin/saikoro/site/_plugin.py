"""The ``saikoro`` MkDocs plugin: a thin class over :class:`~._config.SaikoroConfig`.

Each hook says what it does and why; the work is done in :mod:`._structure` (scenario
files), :mod:`._fences` (Markdown fences), :mod:`.assets` and :mod:`._reference`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Literal

import jinja2
import jinja2.bccache
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink
from pymdownx import slugs

from saikoro.scenario import (
    balance_seconds_env,
    fail_on_miss_env,
    find_files,
    is_reserved,
    refresh_schemas,
)

from . import _assets as assets
from . import _exact as exact
from . import _lazysearch as lazysearch
from ._balancecache import SiteBalanceStore
from ._config import SaikoroConfig, check_options, idle_options
from ._context import BuildContext
from ._fences import FenceContext, add_custom_fences, fence_lines
from ._log import log
from ._mermaid import append_linked_flows
from ._navigation import add_to_nav, arrange_nav
from ._pages import balance, labels
from ._pages.book import BOOK_TITLE, book_files, print_toc
from ._pages.reference import rule_topics
from ._pages.scenario import fill_slots
from ._reference import reference_files, schema_file
from ._roller import free_widget
from ._rulelinks import RuleLinks
from ._searchconfig import add_tiers, japanese_search, page_tier, use_worker, worker_file
from ._structure import (
    ScenarioBook,
    check_generated,
    load_folder,
    origins_of,
    raise_errors,
    rel_url,
)
from ._typography import JapaneseLineBreaks, phrase_html, punctuate, typeset_html
from ._vtt import VttSettings
from ._watch import request_rebuild, watch_scenarios

__all__ = ["RULES_BOOST", "MemoryBytecodeCache", "SaikoroPlugin"]

RULES_BOOST = 2.0
"""Material's search boost of rules pages (front matter ``system:``); the rulings and
commands pages have 0.5."""


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled Jinja templates kept in memory (keyed by Jinja's own template checksum)."""

    def __init__(self) -> None:
        self._store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = self._store.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._store[bucket.key] = bucket.bytecode_to_string()


def _punctuate_toc(items: Iterable[AnchorLink]) -> None:
    """The titles of a page's table of contents with :func:`._typography.punctuate`."""
    for item in items:
        item.title = punctuate(item.title)
        _punctuate_toc(item.children)


class SaikoroPlugin(BasePlugin[SaikoroConfig]):  # type: ignore[no-untyped-call]
    """Scenario YAML -> pages; ``dice`` / ``flow`` / ``scenario`` fences; VTT exports."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self.is_serve = False
        self.book = ScenarioBook()
        self.fences = FenceContext(odds=self.book.odds)
        self.folder = Path("scenarios")
        self.assets = assets.Assets()
        self.templates = MemoryBytecodeCache()
        self.balance = SiteBalanceStore()
        self.rule_links = RuleLinks()
        self.reference_pages: set[str] = set()
        """The reference pages of this build (``reference: true``), under ``reference_prefix``."""
        self.search_worker = False
        """Whether the site's search is Japanese: saikoro's search worker replaces Material's."""
        self.search_tiers: dict[str, int] = {}
        """Each page's kind in search results, by URL (see .searchconfig.page_tier)."""
        self.build = BuildContext()
        """This build's state (page language, balance settings, the pages' exact values):
        made anew in on_config, passed to what renders pages (see ._context)."""

    # Defining on_startup makes MkDocs keep this instance across `mkdocs serve`
    # rebuilds, so the odds and page caches survive an edit; we also learn whether
    # we are serving (scenario errors become error pages instead of failures).
    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], **_: object) -> None:
        self.is_serve = command == "serve"
        self.balance.close()
        self.balance = SiteBalanceStore()  # a new command starts from the disk cache alone
        if self.is_serve:  # nothing slow on the save path: it goes to the background
            self.balance.serve()
        if self.is_serve and self.book.persist_dir is None:
            self.book.persist_dir = Path(tempfile.mkdtemp(prefix="saikoro-serve-"))
        elif not self.is_serve:
            self.on_shutdown()

    # Remove the files kept for `mkdocs serve --dirty` rebuilds; stop the background work.
    def on_shutdown(self) -> None:
        self.balance.close()
        if self.book.persist_dir is not None:
            shutil.rmtree(self.book.persist_dir, ignore_errors=True)
            self.book.persist_dir = None
            self.book.forget_written()

    # Resolve the scenario folder against mkdocs.yml, register the fences as
    # pymdownx.superfences custom fences (authors configure nothing; a fence shown as
    # code stays code) and add our CSS/JS to every page.
    # Late (after Material's search has filled in its defaults): Japanese search
    # separators get the katakana/kanji boundaries (see .searchconfig).
    @event_priority(-10)
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        check_options(self.config, config)  # nothing the options ask for may be lost
        for idle in idle_options(self.config):
            log.warning(idle)
        base = Path(config.config_file_path or ".").resolve().parent
        # an explicit `scenarios:` was checked to exist by the config; unset, the
        # folder next to mkdocs.yml is used when there is one
        self.folder = Path(self.config.scenarios or base / "scenarios").resolve()
        # The fences' state is per build (a serve rebuild reads the configuration again):
        # made here, where the fences are registered; the odds cache outlives it.
        # VTT exports link back to the published enemy and carry the ココフォリア flags.
        vtt = VttSettings.from_config(config, self.config)
        self.book.vtt = vtt
        self.fences = FenceContext(odds=self.book.odds, vtt=vtt, roller=self.config.roller.enabled)
        skipped = add_custom_fences(config.markdown_extensions, config.mdx_configs, self.fences)
        for name in skipped:
            log.info(f"the site configures its own {name!r} fence; saikoro's is not added")
        self.search_worker = japanese_search(config.plugins)
        config.markdown_extensions.append(JapaneseLineBreaks())  # type: ignore[arg-type]
        # Readable, stable anchors: a Japanese heading's id is its own text (「目標値の目安」
        # -> #目標値の目安), not #_8, which changes whenever a section is added before it;
        # a site that configures its own slugify keeps it.
        toc = config.mdx_configs.setdefault("toc", {})
        if "slugify" not in toc:
            toc["slugify"] = slugs.slugify(case="lower")
        self.assets.configure(self.config, base, serve=self.is_serve)
        self.assets.add_to_config(config)
        # Balance figures: simulated while pages render, kept in memory (this instance
        # survives serve rebuilds) and in cache_dir (a later build simulates only the
        # fights that changed); off, the pages get no section and nothing is simulated.
        options = self.config.balance
        self.balance.hold()  # under serve: background work waits for this build's end
        self.balance.cache_dir = (base / options.cache_dir) if options.cache else None
        self.balance.reset_counts()
        on = None  # the バランス section's settings: None, off
        if options.enabled:
            fail_on_miss = options.fail_on_miss
            try:
                balance_seconds_env()  # checked here: the figures read it
                if fail_on_miss is None:  # not set in mkdocs.yml: the environment (CI) decides
                    fail_on_miss = fail_on_miss_env()
            except ValueError as e:
                raise PluginError(f"saikoro: {e}") from e
            on = balance.Settings(
                self.balance, options.battles, fail_on_miss=fail_on_miss, lang=self.config.language
            )
        # this build's state, passed down (a failed build's is dropped with it)
        self.build = BuildContext(labels.language(config.theme.get("language")), on)
        return config

    # Validate every scenario and generate its page, its exports and the index. Errors
    # fail the build naming file and line (under serve they become an error page so
    # the server keeps running); warnings go through the logger so --strict fails.
    @event_priority(50)
    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        book = load_folder(self.folder, self.book.loaded if self.is_serve else None)
        lang = self.config.language
        self.book.lang = lang
        for problem in book.warnings:
            log.warning(problem.format(lang))
        self.fences.scenarios = {s.id: s for s in book.scenarios}
        prefix = self.config.prefix.strip("/")
        generated = self.book.files(
            config,
            book,
            self.build,
            prefix=prefix,
            title=self.config.title,
            roller=self.config.roller.enabled,
        )
        # invalid files, then values the pages of valid ones could not show: all at once
        errors = sorted([*book.errors, *self.book.errors], key=lambda p: p.sort_key())
        if errors and not self.is_serve:
            raise_errors(errors, lang)
        self._balance_gate(lang)
        for problem in errors:
            log.error(problem.format(lang))
        if book.scenarios:  # the whole book on one page, for print and PDF
            roller = self.config.roller.enabled
            generated.extend(
                book_files(
                    self.book,
                    config,
                    book,
                    prefix,
                    self.config.title,
                    roller=roller,
                    ctx=self.build,
                    paper=self.config.pdf.paper,
                )
            )
        reference = []
        if self.config.reference:
            options = self.config
            reference = reference_files(config, options.schema_path, options.reference_prefix)
            generated.extend(reference)
            self.rule_links.topics = rule_topics()
        self.reference_pages = {f.src_uri for f in reference}
        if self.config.schema:
            generated.append(schema_file(config, self.config.schema_path))
        # The book's own copy of the schema (what the scenarios' $schema lines name,
        # written by `saikoro new`) follows this saikoro: rewritten when it differs.
        refreshed = refresh_schemas(find_files(self.folder) if self.folder.is_dir() else [])
        for path in refreshed.written:
            log.info(f"refreshed {path} to this saikoro's scenario schema")
        for line in refreshed.messages():
            log.warning(line)
        generated.extend(self.assets.files(config))
        if self.search_worker:
            generated.append(worker_file(config))
        if self.is_serve:
            for gone in self.book.drop_stale(config, generated):
                log.info(f"removed {gone} (its scenario is gone)")
        if book.scenarios:  # the print book, last in the book's section
            self.book.nav.after.append((BOOK_TITLE, f"{prefix}/book.md"))
        # a generated file over an author's, or one MkDocs would leave out: an error
        origins = origins_of(
            generated,
            prefix=prefix,
            sources=self.book.sources,
            reference=[f.src_uri for f in reference],
            schema=self.config.schema_path if self.config.schema else None,
        )
        check_generated(config, files, generated, origins, self.book.nav.listed())
        existing = files.src_uris  # computed once: Files rebuilds this map on every change
        for file in generated:
            if file.src_uri in existing:
                files.remove(existing[file.src_uri])
        for file in generated:
            files.append(file)
        add_to_nav(config, self.book.nav)  # the index, the systems, the print book
        return files

    def _balance_gate(self, lang: str) -> None:
        """With ``balance.fail_on_miss``, the targets clearly missed fail the build, all named
        at once (under serve they are logged, and the page says 範囲外)."""
        misses = balance.take_misses(self.build.balance)
        if self.is_serve:
            for problem in misses:
                log.info(problem.format(lang))
        elif misses:
            lines = "\n".join(replace(p, severity="error").format(lang) for p in misses)
            raise PluginError(
                f"saikoro: balance.win の目標から明らかに外れたシナリオがあります"
                f"（balance.fail_on_miss: true）:\n{lines}"
            )

    # Scenario pages have no front matter (a non-empty `meta` makes Material's nav look
    # up three more keys per entry on every page: quadratic in a large book), so their
    # titles are given here, before any page is read or the nav rendered; under
    # `serve --dirty` the pages not re-read keep their titles in the nav this way too.
    # The index and listing pages get their titles (the theme prints titles raw: see
    # safe_title) and, without an explicit nav, the book's section its entries.
    def on_nav(
        self, nav: Navigation, *, config: MkDocsConfig, files: Files, **_: object
    ) -> Navigation:
        titles = {**self.book.titles, **{u: i.title for u, i in self.book.pages.items()}}
        for uri, title in titles.items():
            file = files.get_file_from_path(uri)
            if file is not None and file.page is not None:
                file.page.title = title
        arrange_nav(nav, files, self.book.nav, listed=config.nav is not None)
        return nav

    # Tell the fences which page they are on: its system (a rules page's front-matter
    # `system:`, a scenario's own) is the default system of `dice` fences, its path and
    # the fences' lines in its source name places in warnings, and its URL makes links
    # to a scenario's exports relative.
    def on_page_markdown(self, markdown: str, *, page: Page, **_: object) -> str:
        self.fences.page = page.file.src_uri
        self.fences.lines = fence_lines(page.file.content_string)
        self.fences.line = 0
        scenario = self.book.pages.get(page.file.src_uri)
        system = scenario.system if scenario else page.meta.get("system")
        if system and not scenario and isinstance(page.meta.get("search", {}), dict):
            # a rules page: search ranks its sections above the rulings and commands
            # lists that name the same terms (a page's own `search: boost:` wins)
            page.meta.setdefault("search", {}).setdefault("boost", RULES_BOOST)
        self.fences.page_system = str(system) if system else None
        uri = page.file.src_uri
        if uri in self.reference_pages:  # ranked as the reference pages, wherever they sit
            uri = uri.removeprefix(f"{self.config.reference_prefix}/")
        self.search_tiers[page.url] = page_tier(uri, page.meta, scenario=scenario is not None)
        prefix = self.config.prefix.strip("/")
        page_url = page.file.url
        self.fences.zip_href = lambda sid: rel_url(page_url, f"{prefix}/{sid}/")
        return markdown

    # Scenario pages: put back the HTML kept out of their Markdown (it is slow to parse
    # as raw HTML). Rules pages (front matter `system:`) get a free-form roller at
    # the end; scenario pages already carry theirs.
    def on_page_content(self, html: str, *, page: Page, **_: object) -> str:
        slots = self.book.slots.get(page.file.src_uri)
        if slots:
            html = fill_slots(html, slots)
        if self._is_book(page):  # the printed contents, from the page's own headings
            html = print_toc(html)
        self.assets.note_page(html)
        html, values = exact.compact(html, page.file.dest_uri)  # long fractions -> JSON
        if values is not None:
            self.build.odds_files[exact.json_name(page.file.dest_uri)] = values
        if 'class="saikoro-flow-links"' in html:
            html = append_linked_flows(html)  # charts that steps link to, if not on the page
        if page.meta.get("system") and page.file.src_uri not in self.book.pages:
            html += free_widget(system=str(page.meta["system"]), enabled=self.fences.roller)
        # Japanese typography as a rule, on every page: full-width brackets and colons
        # where they touch Japanese (page text, the table of contents), phrase breaks in
        # headings and table cells (see .typography; text without Japanese is untouched)
        if self.config.typography:
            html = typeset_html(html)
            _punctuate_toc(page.toc)
        if (
            self.config.reference
            and page.meta.get("system")
            and page.file.src_uri not in (self.book.pages)
        ):  # a rules page: the rulings and commands pages link to its sections
            title = str(page.meta.get("title") or page.title or "")
            self.rule_links.note_page(str(page.meta["system"]), page.url, title, html, page.toc)
        if self._is_book(page):
            # the book's contents list its scenarios; their sections (難易度, エネミー in
            # every one) would make a sidebar of hundreds of same-named entries
            for top in page.toc:
                for part in top.children:
                    part.children = []
        return html

    def _is_book(self, page: Page) -> bool:
        """Whether ``page`` is a print volume of the whole book (``<prefix>/book.md``...)."""
        folder, _, name = page.file.src_uri.rpartition("/")
        stem = name.removesuffix(".md")
        return (
            folder == self.config.prefix.strip("/")
            and stem.startswith("book")
            and is_reserved(stem)
        )

    # Under `mkdocs serve`, keep the theme's compiled templates between rebuilds: each
    # rebuild gets a fresh Jinja environment, and recompiling mkdocs-material's
    # templates is the largest fixed cost of a rebuild after a one-scenario edit.
    def on_env(self, env: jinja2.Environment, **_: object) -> jinja2.Environment:
        if self.is_serve:
            env.bytecode_cache = self.templates
        return env

    # The finished page: Material's search index is held back until the reader uses search
    # (the bundle would fetch it on every page), and the <head> links the web app manifest.
    # The rulings and commands pages link to the rules sections that concern each entry:
    # known once every page has rendered, so filled in here (see .rulelinks).
    def on_post_page(self, output: str, *, page: Page, **_: object) -> str:
        folder = f"{self.config.reference_prefix}/" if self.config.reference_prefix else ""
        if self.config.reference and page.file.src_uri in {
            f"{folder}rulings.md",
            f"{folder}commands.md",
        }:
            typeset = phrase_html if self.config.typography else (lambda html: html)
            output = self.rule_links.fill(output, page.url, typeset)
        output = lazysearch.hold_search_index(output)
        if self.search_worker:
            output = use_worker(output)
        head = self.assets.page_head(page.file.url)
        if head and "</head>" in output:
            output = output.replace("</head>", head + "</head>", 1)
        return output

    # The 404 page is a theme template, not a page: its search index is held back too.
    def on_post_template(self, output_content: str, *, template_name: str, **_: object) -> str:
        if template_name == "404.html":
            output_content = lazysearch.hold_search_index(output_content)
            return use_worker(output_content) if self.search_worker else output_content
        return output_content

    # Copy the roller's engine and MicroPython files, then write the service worker with the
    # content hash of every file: late, once every other plugin has written its files
    # (the search index among them).
    @event_priority(-100)
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        self.assets.post_build(config)
        exact.write(config.site_dir, self.build.odds_files)
        if self.search_worker:
            add_tiers(config.site_dir, self.search_tiers)
        self.assets.write_offline(config)
        if self.config.balance.enabled:
            store = self.balance
            log.info(
                f"balance: {store.simulated} fights simulated, "
                f"{store.memory_hits + store.disk_hits} from the cache"
            )
        self.build = BuildContext()
        self.balance.release()

    # A build that failed (a scenario error under `mkdocs build`, an exception): its state
    # is dropped (the next build makes its own), and the balance store's background work,
    # held for the build, goes on.
    def on_build_error(self, *, error: Exception) -> None:  # noqa: ARG002 - MkDocs' signature
        self.build = BuildContext()
        self.balance.release()

    # Rebuild when a scenario changes, not only when docs/ does (and, with the reference
    # pages on, when a page of the author guide does).
    def on_serve(self, server: LiveReloadServer, **_: object) -> LiveReloadServer:
        # background balance work that ends asks for a rebuild, as an edit does
        self.balance.set_rebuild(lambda: request_rebuild(server))
        if self.folder.is_dir():
            watch_scenarios(server, self.folder)
        if self.config.reference:  # the guide's pages live in the package
            from ._guide import folder

            server.watch(str(folder()))
        return server
