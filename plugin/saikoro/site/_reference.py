"""saikoro's own reference pages (option ``reference: true``): rulings, commands, fields.

Generated from the engine and the scenario definitions, so they cannot drift:

* ``rulings.md`` — every ``System.rulings`` entry (key, title, what the rules say,
  decision, reasoning, option name/default/choices);
* ``commands.md`` — BCDice's generic command families and every system ``CommandDoc``,
  each example followed by its odds (a ``dice`` fence);
* ``authoring/fields.md`` — the scenario field reference
  (``saikoro.scenario.field_reference``);
* ``authoring/*.md`` — the author guide, shipped in the package (:mod:`saikoro.site._guide`);
and the JSON Schema for editors (``saikoro.scenario.json_schema()``), published by every
site unless its ``schema`` option is off (:func:`schema_file`).
"""

from __future__ import annotations

import posixpath

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File

from ._pages.reference import commands_page, fields_page, rulings_page, schema_text

__all__ = ["reference_files", "schema_file"]


def reference_files(config: MkDocsConfig, schema_path: str, prefix: str = "") -> list[File]:
    """The generated reference pages (the field reference links to ``schema_path``) and
    the author guide's pages from the package (:mod:`saikoro.site._guide`), under ``authoring/``;
    all in the folder ``prefix`` of the site (the plugin's ``reference_prefix``; empty: the
    site's root). The guide's pages link to each other and to ``../rulings.md`` and
    ``../commands.md``, which move with them; their links to the schema are re-pointed."""
    from ._guide import guide_pages

    folder = f"{prefix.strip('/')}/" if prefix.strip("/") else ""
    schema = posixpath.relpath(schema_path.strip("/"), f"{folder}authoring")
    guide = [
        File.generated(
            config,
            f"{folder}authoring/{name}",
            content=text.replace(f"]({_GUIDE_SCHEMA})", f"]({schema})"),
        )
        for name, text in guide_pages()
    ]
    return [
        File.generated(config, f"{folder}rulings.md", content=rulings_page()),
        File.generated(config, f"{folder}commands.md", content=commands_page()),
        File.generated(
            config, f"{folder}authoring/fields.md", content=fields_page(schema_path, schema)
        ),
        *guide,
    ]


_GUIDE_SCHEMA = "../schema/scenario.schema.json"
"""How the guide's pages link to the schema (as published by default, from ``authoring/``)."""


def schema_file(config: MkDocsConfig, schema_path: str) -> File:
    """The scenario JSON Schema at ``schema_path``, its ``$id`` the published URL.

    Without ``site_url`` the ``$id`` stays the package's placeholder (a relative
    ``$id`` would be resolved against each editor's file, not the site).
    """
    site_url = config.site_url or ""
    url = site_url.rstrip("/") + "/" + schema_path.strip("/") if site_url else None
    return File.generated(config, schema_path.strip("/"), content=schema_text(url))
