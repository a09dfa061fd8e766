"""The plugin's browser files: styles, the copy button, Mermaid, and the roller's assets.

Mermaid: mkdocs-material loads Mermaid from a CDN unless a global ``mermaid`` already
exists. Every page therefore gets ``mermaid-shim.js`` (under 1 kB): it defines a
``mermaid`` object whose ``render`` loads the self-hosted ``mermaid.min.js`` (or the
configured CDN URL) on first use, so pages without flowcharts fetch nothing and no page
calls out to another host unless the site's author asked for a CDN.

The self-hosted Mermaid and MicroPython are the pinned copies bundled in the package
(:mod:`saikoro.site.vendor`), or for Mermaid a folder the author names (``mermaid_dir``);
nothing is searched for.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from . import _offline as offline
from . import _roller as roller
from ._config import SaikoroConfig
from .vendor import LICENSE_NAME, MERMAID_VERSION, VendorError, bundle_file

__all__ = ["ASSET_DIR", "Assets"]

ASSET_DIR = roller.ASSET_DIR
"""Where the plugin's own files go in the built site (the roller's folder too)."""

_OWN = ("saikoro.css", "saikoro.js")


def _shim(url: str | None) -> str:
    """The Mermaid shim; ``url`` None = next to the shim itself."""
    source = resources.files(__package__).joinpath("assets/mermaid-shim.js").read_text("utf-8")
    return source.replace("__SAIKORO_MERMAID_URL__", json.dumps(url))


class Assets:
    """Adds the files to the site and to every page's ``<head>``/scripts."""

    def __init__(self) -> None:
        self.mermaid_url: str | None = None
        self.mermaid_file: Path | None = None
        self.mermaid_missing: str | None = None
        self.mermaid_used = False
        self.settings: roller.RollerSettings | None = None
        """The roller's settings when ``roller.enabled``, else ``None`` (no roller)."""
        self.base = Path()

    def configure(self, config: SaikoroConfig, base: Path, *, serve: bool = False) -> None:
        """Read the plugin's options; find Mermaid (only where the options say).

        ``serve``: the site is served by ``mkdocs serve`` (no service worker then).
        """
        self.base = base
        self.mermaid_url = config.mermaid_url
        self.mermaid_used = False
        self.mermaid_file = None
        self.mermaid_missing = None
        if self.mermaid_url is None and config.mermaid_dir:
            candidate = (base / config.mermaid_dir / "mermaid.min.js").resolve()
            if not candidate.is_file():
                raise PluginError(
                    f"saikoro: the option mermaid_dir names {candidate.parent}, which holds no "
                    "mermaid.min.js; point it at a folder holding mermaid.min.js, or remove "
                    f"it to use the Mermaid {MERMAID_VERSION} bundled with saikoro"
                )
            self.mermaid_file = candidate
        elif self.mermaid_url is None:
            try:
                self.mermaid_file = bundle_file("mermaid", "mermaid.min.js")
            except VendorError as error:  # reported only if a page draws a flowchart
                self.mermaid_missing = str(error)
        self.settings = None
        if config.roller.enabled:
            self.settings = roller.RollerSettings(
                policy=config.roller.loading,
                config_dir=str(base),
                offline=config.roller.offline and not serve,
            )

    def add_to_config(self, config: MkDocsConfig) -> None:
        """Our CSS and scripts (and the roller's small loaders) on every page."""
        css = [f"{ASSET_DIR}/saikoro.css"]
        js = [f"{ASSET_DIR}/saikoro.js", f"{ASSET_DIR}/mermaid-shim.js"]
        if self.settings is not None:
            css += list(roller.EXTRA_CSS)
            js += list(roller.EXTRA_JS)
        for path in css:
            if path not in config.extra_css:
                config.extra_css.append(path)
        present = {str(s) for s in config.extra_javascript}
        for path in js:
            if path not in present:
                config.extra_javascript.append(path)

    def files(self, config: MkDocsConfig) -> list[File]:
        """The asset files, as generated files MkDocs copies (and serves)."""
        out = []
        package = resources.files(__package__).joinpath("assets")
        for name in _OWN:
            path = Path(str(package.joinpath(name)))
            out.append(File.generated(config, f"{ASSET_DIR}/{name}", abs_src_path=str(path)))
        out.append(
            File.generated(config, f"{ASSET_DIR}/mermaid-shim.js", content=_shim(self.mermaid_url))
        )
        if self.mermaid_file is not None:
            out.append(
                File.generated(
                    config, f"{ASSET_DIR}/mermaid.min.js", abs_src_path=str(self.mermaid_file)
                )
            )
            licence = self.mermaid_file.parent / LICENSE_NAME
            if licence.is_file():  # the bundled copy's MIT licence travels with it
                out.append(
                    File.generated(
                        config, f"{ASSET_DIR}/mermaid.LICENSE", abs_src_path=str(licence)
                    )
                )
        if self.settings is not None and self.settings.offline:
            out.extend(offline.files(config, ASSET_DIR))
        return out

    def page_head(self, page_url: str) -> str:
        """Tags for every page's ``<head>`` (the web app manifest when offline is on)."""
        if self.settings is None or not self.settings.offline:
            return ""
        return offline.head_tags(page_url)

    def note_page(self, html: str) -> None:
        """Remember whether any page draws a flowchart."""
        if 'class="mermaid"' in html:
            self.mermaid_used = True

    def post_build(self, config: MkDocsConfig) -> None:
        """Fail clearly when flowcharts need Mermaid but it was not found; install the roller."""
        if self.mermaid_used and self.mermaid_url is None and self.mermaid_file is None:
            raise PluginError(
                f"saikoro: pages draw flowcharts but {self.mermaid_missing}; or set the "
                "plugin option mermaid_url to a CDN copy of mermaid.min.js"
            )
        if self.settings is not None:
            try:
                roller.install_assets(config.site_dir, self.settings)
            except (OSError, ValueError, RuntimeError) as e:
                raise PluginError(f"saikoro: cannot install the dice roller: {e}") from e

    def write_offline(self, config: MkDocsConfig) -> None:
        """The service worker and its list of the site's files (last: it hashes them all)."""
        if self.settings is not None and self.settings.offline:
            roller.set_offline_bytes(config.site_dir, offline.site_download_bytes(config.site_dir))
            offline.write_service_worker(config.site_dir, roller.engine_paths(self.settings))
