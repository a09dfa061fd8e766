"""ココフォリア: the clipboard JSON it accepts when a character is pasted into a room.

Shape (ココフォリア's Clipboard API, docs.ccfolia.com "Clipboard API"): ``{"kind":
"character", "data": {name, initiative, status: [{label, value, max}], params: [{label,
value}], commands, memo, externalUrl, secret, invisible, hideStatus}}`` with
``commands`` the chat palette as newline-separated text. The three flags are the
character's visibility settings (see :class:`CcfoliaVisibility`).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from ._model import Character

__all__ = ["CcfoliaVisibility", "ccfolia_attribute", "ccfolia_json", "ccfolia_script"]


@dataclass(frozen=True)
class CcfoliaVisibility:
    """ココフォリア's three ways of hiding a character (all off by default, as in ココフォリア).

    Attributes:
        secret: ステータスを非公開 — players who do not own the piece see neither its
            status nor its initiative (shown as ``??``).
        invisible: 発言時キャラクターを表示しない — no character image above the
            message window when it speaks.
        hide_status: 盤面キャラクター一覧に表示しない — not listed in the board's
            character list (its piece can still be opened).
    """

    secret: bool = False
    invisible: bool = False
    hide_status: bool = False


def ccfolia_json(
    character: Character, visibility: CcfoliaVisibility | None = None
) -> dict[str, object]:
    """The clipboard object of ``character``.

    Examples:
        >>> ccfolia_json(Character("A", commands=("2D6", "1D10+3>=8")))["data"]["commands"]
        '2D6\\n1D10+3>=8'
        >>> ccfolia_json(Character("A"), CcfoliaVisibility(secret=True))["data"]["secret"]
        True
    """
    seen = visibility or CcfoliaVisibility()
    return {
        "kind": "character",
        "data": {
            "name": character.name,
            "initiative": character.initiative,
            "status": [{"label": k, "value": v, "max": m} for k, v, m in character.status],
            "params": [{"label": k, "value": v} for k, v in character.params],
            "commands": "\n".join(character.commands),
            "memo": character.memo,
            "externalUrl": character.external_url,
            "secret": seen.secret,
            "invisible": seen.invisible,
            "hideStatus": seen.hide_status,
        },
    }


def ccfolia_attribute(character: Character, visibility: CcfoliaVisibility | None = None) -> str:
    """The clipboard JSON as an HTML attribute value (escaped, quotes included).

    Pages carry it as ``data-ccfolia`` on the copy button: unlike a
    ``<script type="application/json">`` block, an attribute is never run as script
    (mkdocs-material's instant navigation re-creates content ``<script>`` elements).

    >>> ccfolia_attribute(Character('"><b>'))[:40]
    '{&quot;kind&quot;: &quot;character&quot;'
    >>> "<" in ccfolia_attribute(Character('"><b>'))
    False
    """
    text = json.dumps(ccfolia_json(character, visibility), ensure_ascii=False)
    return html.escape(text, quote=True)


def ccfolia_script(character: Character, element_id: str) -> str:
    """A ``<script type="application/json">`` holding the clipboard JSON.

    ``<``, ``>`` and ``&`` are written as ``\\u003c`` etc., so no text can close the
    script element.

    >>> ccfolia_script(Character("</script><b>"), "x")[:60]
    '<script type="application/json" id="x">{"kind": "character",'
    >>> "</script><b>" in ccfolia_script(Character("</script><b>"), "x")[:-9]
    False
    """
    text = json.dumps(ccfolia_json(character), ensure_ascii=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    safe_id = "".join(ch for ch in element_id if ch.isalnum() or ch in "-_")
    return f'<script type="application/json" id="{safe_id}">{text}</script>'
