"""What the site adds to VTT exports: the enemy's published URL and ココフォリア's flags.

Built once per build from ``mkdocs.yml`` (``site_url``, ``use_directory_urls``) and the
plugin's ``ccfolia`` options; immutable and hashable, so it is part of the page cache key.

>>> s = VttSettings("https://example.org/book/", "scenarios", True)
>>> s.enemy_url("getb-haito", "ogretail")
'https://example.org/book/scenarios/getb-haito/#enemy-ogretail'
>>> VttSettings("https://example.org", "s", False).enemy_url("a b", "x")
'https://example.org/s/a%20b.html#enemy-x'
>>> VttSettings().enemy_url("a", "x")
''
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import quote

from mkdocs.config.defaults import MkDocsConfig

from saikoro.export import CcfoliaVisibility, Character, enemy_character
from saikoro.scenario.model import Enemy
from saikoro.systems import OptionValue

from ._config import SaikoroConfig

__all__ = ["VttSettings"]


@dataclass(frozen=True)
class VttSettings:
    """Site-wide settings of the VTT exports.

    Attributes:
        site_url: the published site's root URL (``site_url`` of ``mkdocs.yml``); empty
            means no ``externalUrl``.
        prefix: URL prefix of the scenario pages (the plugin's ``prefix``).
        directory_urls: MkDocs' ``use_directory_urls``.
        ccfolia: ココフォリア's visibility flags for exported enemies.
    """

    site_url: str = ""
    prefix: str = "scenarios"
    directory_urls: bool = True
    ccfolia: CcfoliaVisibility = field(default_factory=CcfoliaVisibility)

    @classmethod
    def from_config(cls, config: MkDocsConfig, plugin: SaikoroConfig) -> VttSettings:
        """The settings of a build: ``mkdocs.yml``'s URLs and the plugin's options."""
        return cls(
            site_url=config.site_url or "",
            prefix=plugin.prefix.strip("/"),
            directory_urls=bool(config.use_directory_urls),
            ccfolia=CcfoliaVisibility(
                secret=plugin.ccfolia.secret,
                invisible=plugin.ccfolia.invisible,
                hide_status=plugin.ccfolia.hide_status,
            ),
        )

    def enemy_url(self, scenario_id: str, enemy_id: str) -> str:
        """The absolute URL of an enemy's stat block, or ``""`` without ``site_url``."""
        if not self.site_url:
            return ""
        page = quote(scenario_id) + ("/" if self.directory_urls else ".html")
        prefix = self.prefix.strip("/")
        path = f"{prefix}/{page}" if prefix else page
        return f"{self.site_url.rstrip('/')}/{path}#enemy-{quote(enemy_id)}"

    def npc_url(self, scenario_id: str, npc_id: str) -> str:
        """The absolute URL of an NPC on its scenario page, or ``""`` without ``site_url``."""
        enemy = self.enemy_url(scenario_id, "x")
        if not enemy:
            return ""
        page = enemy.rsplit("#", 1)[0]
        return f"{page}#{quote(scenario_id)}--npc-{quote(npc_id)}"

    def character(
        self,
        scenario_id: str,
        system: str,
        enemy: Enemy,
        options: Mapping[str, OptionValue] | None = None,
    ) -> Character:
        """The exported character of ``enemy`` (ruling ``options`` of its scenario)."""
        url = self.enemy_url(scenario_id, enemy.id)
        return enemy_character(system, enemy, options=options, url=url)
