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
import re
import xml.etree.ElementTree as ET
import zipfile

from ._model import Character, ExportError

__all__ = ["udonarium_xml", "udonarium_zip", "udonarium_zip_names"]

_EPOCH = (1980, 1, 1, 0, 0, 0)
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""A character XML 1.0 cannot carry, even as a character reference."""


def _xml_safe(character: Character) -> None:
    """Raise :class:`ExportError` for text of ``character`` that XML 1.0 cannot carry."""
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
        bad = _NOT_XML.search(text)
        if bad is not None:
            code = f"U+{ord(bad.group()):04X}"
            raise ExportError(f"ユドナリウム: {field} holds {code}, which XML cannot carry")


def _data(parent: ET.Element, name: str, value: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, "data", {"name": name, **attrs})
    if value is not None:
        element.text = value
    return element


def udonarium_xml(character: Character) -> str:
    """``data.xml`` of ``character`` (UTF-8 text, XML-escaped by ElementTree).

    >>> print(udonarium_xml(Character("A&B", status=(("HP", 3, 5),)))[:80])
    <?xml version="1.0" encoding="UTF-8"?>
    <character location.name="table" location

    Raises:
        ExportError: a text holds a character XML 1.0 cannot carry (U+FFFE, U+0001).
    """
    _xml_safe(character)
    root = ET.Element(
        "character",
        {
            "location.name": "table",
            "location.x": "0",
            "location.y": "0",
            "posZ": "0",
            "rotate": "0",
            "roll": "0",
        },
    )
    sheet = _data(root, "character")
    image = _data(sheet, "image")
    _data(image, "imageIdentifier", "", type="image")
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
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body


@functools.lru_cache(maxsize=1024)
def udonarium_zip(character: Character) -> bytes:
    """The zip ユドナリウム imports (drag and drop): one ``data.xml`` (cached per character)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo("data.xml", date_time=_EPOCH)
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, udonarium_xml(character).encode("utf-8"))
    return buffer.getvalue()


def udonarium_zip_names(character: Character) -> list[str]:
    """The member names of :func:`udonarium_zip` (for checks)."""
    with zipfile.ZipFile(io.BytesIO(udonarium_zip(character))) as archive:
        return archive.namelist()
