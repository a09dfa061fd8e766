"""ユドナリウム: a zip holding ``data.xml`` with one ``<character>``.

The character has ``<data name="character">`` with ``image`` / ``common`` (name, size)
/ ``detail`` (resources, parameters and the memo as a ``note``) sections, and a
``<chat-palette dicebot="DiceBot">`` whose text is the palette, one command per line
(Udonarium's ``ChatPalette``; ``dicebot`` is the BCDice game system its lines are sent
to, and a line starting with ``//`` would be a variable, which ours never are). The zip
is built deterministically (fixed timestamps), so identical enemies give identical bytes.
"""

from __future__ import annotations

import functools
import io
import xml.etree.ElementTree as ET
import zipfile

from ._model import Character
from ._xml import check_xml_text, udonarium_xml_text
from ._zip import deterministic_zip

__all__ = [
    "character_element",
    "udonarium_xml",
    "udonarium_zip",
    "udonarium_zip_names",
]


def _xml_safe(character: Character) -> None:
    """Raise :class:`~saikoro.export.ExportError` for text of ``character`` that XML 1.0
    cannot carry."""
    texts = [
        ("name", character.name),
        ("memo", character.memo),
        ("external_url", character.external_url),
        ("dicebot", character.dicebot),
        *(("status", label) for label, _, _ in character.status),
        *(("params", text) for pair in character.params for text in pair),
        *(("commands", command) for command in character.commands),
    ]
    for field, text in texts:
        check_xml_text(field, text)


def _data(parent: ET.Element, name: str, value: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, "data", {"name": name, **attrs})
    if value is not None:
        element.text = value
    return element


def character_element(
    character: Character,
    *,
    location: str = "table",
    x: float = 0,
    y: float = 0,
    image: str = "",
) -> ET.Element:
    """The ``<character>`` of ``character`` standing at (``x``, ``y``) px in ``location``
    (``table``, or ``common``: the shared inventory), its piece the image whose
    identifier (SHA-256) is ``image`` (none when empty).

    Raises:
        ExportError: a text holds a character XML 1.0 cannot carry (U+FFFE, U+0001).
    """
    _xml_safe(character)
    root = ET.Element(
        "character",
        {
            "location.name": location,
            "location.x": _number(x),
            "location.y": _number(y),
            "posZ": "0",
            "rotate": "0",
            "roll": "0",
        },
    )
    sheet = _data(root, "character")
    picture = _data(sheet, "image")
    _data(picture, "imageIdentifier", image, type="image")
    common = _data(sheet, "common")
    _data(common, "name", character.name)
    _data(common, "size", "1")
    detail = _data(sheet, "detail")
    resources = _data(detail, "リソース")
    for label, value, maximum in character.status:
        _data(resources, label, str(value), type="numberResource", currentValue=str(value))
        # ``numberResource``: the text is the maximum, currentValue the current value.
        resources[-1].text = str(maximum)
    _data(resources, "イニシアティブ", str(character.initiative))
    params = _data(detail, "パラメータ")
    for label, text in character.params:
        _data(params, label, text)
    if character.memo or character.external_url:
        info = _data(detail, "情報")
        if character.memo:
            _data(info, "メモ", character.memo, type="note")
        if character.external_url:
            _data(info, "URL", character.external_url)
    palette = ET.SubElement(root, "chat-palette", {"dicebot": character.dicebot})
    palette.text = "\n".join(character.commands)
    return root


def _number(value: float) -> str:
    """A coordinate as Udonarium writes it (``100``, ``12.5``)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")


def udonarium_xml(character: Character) -> str:
    """``data.xml`` of ``character`` (UTF-8 text, XML-escaped by ElementTree).

    >>> print(udonarium_xml(Character("A&B", status=(("HP", 3, 5),)))[:80])
    <?xml version="1.0" encoding="UTF-8"?>
    <character location.name="table" location

    Raises:
        ExportError: a text holds a character XML 1.0 cannot carry (U+FFFE, U+0001).
    """
    return udonarium_xml_text(character_element(character))


@functools.lru_cache(maxsize=1024)
def udonarium_zip(character: Character) -> bytes:
    """The zip ユドナリウム imports (drag and drop): one ``data.xml`` (cached per character)."""
    return deterministic_zip({"data.xml": udonarium_xml(character).encode("utf-8")})


def udonarium_zip_names(character: Character) -> list[str]:
    """The member names of :func:`udonarium_zip` (for checks)."""
    with zipfile.ZipFile(io.BytesIO(udonarium_zip(character))) as archive:
        return archive.namelist()
