"""XML as ユドナリウム reads it back: every text exactly as written.

Udonarium parses its XML with the browser's ``DOMParser`` and then decodes the five XML
entities once more (``XmlUtil.decodeEntityReference``): on attribute values, which the
parser has already decoded, and on an element's ``innerHTML``, which the browser
re-escapes. So an attribute value is written entity-encoded twice (once for Udonarium,
once for XML) and element text once; both then read back as the text itself, ``&amp;``
and ``&lt;`` included. Before parsing, Udonarium also strips U+FFFD (and the characters
XML cannot carry) from the file's text, so U+FFFD is written as a character reference,
which survives. Characters XML 1.0 cannot carry at all (C0 controls but tab, line feed
and carriage return; U+FFFE, U+FFFF; lone surrogates) are refused.

>>> import xml.etree.ElementTree as ET
>>> e = ET.Element("data", {"name": "A&amp;B"}); e.text = "x < y \\ufffd"
>>> udonarium_xml_text(e).splitlines()[1]
'<data name="A&amp;amp;amp;B">x &lt; y &#xFFFD;</data>'
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ._model import ExportError

__all__ = ["NOT_XML", "check_xml_text", "udonarium_xml_text"]

NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""A character XML 1.0 cannot carry, even as a character reference."""

_UDONARIUM = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}
_TEXT = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;", "\ufffd": "&#xFFFD;"}
_ATTR = {**_TEXT, '"': "&quot;", "\n": "&#10;", "\t": "&#9;"}


def check_xml_text(where: str, text: str) -> None:
    """Raise :class:`ExportError` when ``text`` holds a character XML 1.0 cannot carry."""
    bad = NOT_XML.search(text)
    if bad is not None:
        code = f"U+{ord(bad.group()):04X}"
        raise ExportError(f"ユドナリウム: {where} holds {code}, which XML cannot carry")


def _escape(text: str, table: dict[str, str]) -> str:
    return "".join(table.get(ch, ch) for ch in text)


def _write(element: ET.Element, out: list[str]) -> None:
    tag = str(element.tag)
    attrs = "".join(
        f' {name}="{_escape(_escape(str(value), _UDONARIUM), _ATTR)}"'
        for name, value in element.attrib.items()
    )
    for value in (*element.attrib.values(), element.text or ""):
        check_xml_text(tag, str(value))
    if not len(element) and not element.text:
        out.append(f"<{tag}{attrs}></{tag}>")
        return
    out.append(f"<{tag}{attrs}>")
    if element.text:
        out.append(_escape(element.text, _TEXT))
    for child in element:
        _write(child, out)
    out.append(f"</{tag}>")


def udonarium_xml_text(root: ET.Element) -> str:
    """``root`` as an XML file Udonarium reads every attribute and text of exactly."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    _write(root, out)
    return "".join(out)
