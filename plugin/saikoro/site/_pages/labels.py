"""Reader-facing words the site itself owns for values scenario YAML spells as ids.

A scenario writes ``rounds: 6`` and ``rulings: {both_fail: draw}``; a reader of a
Japanese page must see 「制限 6ラウンド」 and 「対抗判定で双方が失敗したとき：引き分け」.
English pages (``theme.language: en``: the build context's ``lang``) get English words,
and a ruling as written in YAML. The words of a system's own values are the system's:
a ruling's choices on its :class:`~saikoro.systems.Ruling` (:meth:`Ruling.word
<saikoro.systems.Ruling.word>`), a map cell or a status on its page profile.

>>> mission_field("rounds", 6)
('制限ラウンド', '6ラウンド')
>>> mission_field("rounds", 6, "en")
('round limit', '6 rounds')
>>> ruling("akatsuki", "both_fail", "draw")
'対抗判定で双方が失敗したとき：引き分け'
"""

from __future__ import annotations

from saikoro.systems import OptionValue, system_class

__all__ = ["language", "mission_field", "ruling", "ruling_word"]


def language(theme_language: object) -> str:
    """The page language of a theme's ``language``: ``en`` for English, else ``ja``."""
    return "en" if str(theme_language or "").lower().startswith("en") else "ja"


def _pick(lang: str, ja: str, en: str) -> str:
    return en if lang == "en" else ja


_MISSION = {
    "success": ("成功条件", "success"),
    "failure": ("失敗条件", "failure"),
    "reward": ("報酬", "reward"),
    "penalty": ("ペナルティ", "penalty"),
    "condition": ("条件", "condition"),
    "rounds": ("制限ラウンド", "round limit"),
    "turns": ("制限ターン", "turn limit"),
    "cuts": ("制限カット", "cut limit"),
}

_UNITS = {
    "rounds": ("ラウンド", " rounds"),
    "turns": ("ターン", " turns"),
    "cuts": ("カット", " cuts"),
}


def mission_field(key: object, value: object, lang: str = "ja") -> tuple[str, str]:
    """(label, value) of a mission card row, in ``lang``."""
    name = str(key)
    label = _pick(lang, *_MISSION[name]) if name in _MISSION else name
    if name in _UNITS and isinstance(value, int) and not isinstance(value, bool):
        ja, en = _UNITS[name]
        return label, _pick(lang, f"{value}{ja}", f"{value}{en}")
    if isinstance(value, bool):
        return label, _pick(lang, "あり" if value else "なし", "yes" if value else "no")
    return label, str(value)


def ruling_word(system_id: str, key: str, value: OptionValue) -> str:
    """The value a scenario chose for the ruling ``key`` (``getb.ap_tie``) as a reader
    reads it: the ruling's own word (:meth:`saikoro.systems.Ruling.word`)."""
    for rule in system_class(system_id).rulings:
        if rule.key == key:
            return rule.word(value)
    return "採用" if value is True else "不採用" if value is False else str(value)


def ruling(system_id: str, option: str, value: OptionValue, lang: str = "ja") -> str:
    """One ruling chosen by a scenario, as a reader reads it: 「<ruling title>：<word>」.

    English pages name the option and value as written in YAML.
    """
    if lang == "en":
        return f"{option} = {value}"
    for rule in system_class(system_id).rulings:
        if rule.option_name == option:
            return f"{rule.title}：{rule.word(value)}"
    return f"{option}：{value}"
