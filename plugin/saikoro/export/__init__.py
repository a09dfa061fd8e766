"""Enemies exported to virtual tabletops: ココフォリア (clipboard JSON) and ユドナリウム (zip).

>>> c = Character("オウガテイル", initiative=6, status=(("HP", 40, 40),), commands=("GB4>=8",))
>>> ccfolia_json(c)["kind"]
'character'
>>> sorted(udonarium_zip_names(c))
['data.xml']
"""

from __future__ import annotations

from .ccfolia import ccfolia_attribute, ccfolia_json, ccfolia_script
from .model import Character
from .udonarium import udonarium_xml, udonarium_zip, udonarium_zip_names

__all__ = [
    "Character",
    "ccfolia_attribute",
    "ccfolia_json",
    "ccfolia_script",
    "udonarium_xml",
    "udonarium_zip",
    "udonarium_zip_names",
]
