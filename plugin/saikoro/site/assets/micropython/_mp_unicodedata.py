"""``unicodedata.normalize`` for the lowered engine: the browser's own Unicode tables
(``String.prototype.normalize``)."""

import _saikoro_js as _js


def normalize(form, text):
    if form not in ("NFC", "NFD", "NFKC", "NFKD"):
        raise ValueError("invalid normalization form")
    if all(ord(c) < 128 for c in text):
        return text
    return _js.normalize(text, form)
