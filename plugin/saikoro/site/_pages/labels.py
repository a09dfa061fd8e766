"""Reader-facing words for the values scenario YAML spells as ids.

A scenario writes ``placement: centre``, ``immune: [charm]``, ``rounds: 6`` and
``rulings: {both_fail: draw}``; a reader of a Japanese page must see 中央, 魅了,
「制限 6ラウンド」 and 「対抗判定で双方が失敗したとき：引き分け」. English pages
(``theme.language: en``) get English words. Unknown values are shown as written.

>>> configure("ja"); placement("out3"), placement("centre"), status("charm")
('アウトセル3', '中央', '魅了')
>>> mission_field("rounds", 6)
('制限ラウンド', '6ラウンド')
>>> configure("en"); placement("out3"), mission_field("rounds", 6)
('out-cell 3', ('round limit', '6 rounds'))
>>> configure("ja")
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from saikoro.systems import OptionValue

__all__ = ["configure", "language", "mission_field", "placement", "ruling", "status"]

_state = {"lang": "ja"}


def configure(lang: str) -> None:
    """Set the page language (``ja`` unless the theme's language is English)."""
    _state["lang"] = "en" if str(lang or "").lower().startswith("en") else "ja"


def language() -> str:
    """The page language set by :func:`configure`."""
    return _state["lang"]


def _pick(ja: str, en: str) -> str:
    return en if _state["lang"] == "en" else ja


_CELL = re.compile(r"^(in|out)(\d+)$")


def placement(value: object) -> str:
    """A GETB dial-clock cell: ``centre`` -> 中央, ``in4`` -> インセル4, ``out10`` ->
    アウトセル10."""
    text = str(value)
    if text in {"centre", "center"}:
        return _pick("中央", "centre")
    match = _CELL.match(text)
    if match:
        ring, number = match.groups()
        if ring == "in":
            return _pick(f"インセル{number}", f"in-cell {number}")
        return _pick(f"アウトセル{number}", f"out-cell {number}")
    return text


_STATUS = {
    "poison": ("毒", "poison"),
    "paralysis": ("麻痺", "paralysis"),
    "weakness": ("脱力", "weakness"),
    "daze": ("自失", "daze"),
    "curse": ("呪い", "curse"),
    "charm": ("魅了", "charm"),
    "confusion": ("混乱", "confusion"),
    "stun": ("気絶", "stun"),
    "sleep": ("睡眠", "sleep"),
    "fear": ("恐怖", "fear"),
    "blind": ("盲目", "blindness"),
    "silence": ("沈黙", "silence"),
    "bind": ("拘束", "bind"),
    "burn": ("炎上", "burn"),
}


def status(value: object) -> str:
    """A status effect (kegare's ``immune:`` list)."""
    found = _STATUS.get(str(value))
    return _pick(*found) if found else str(value)


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


def mission_field(key: object, value: object) -> tuple[str, str]:
    """(label, value) of a mission card row."""
    name = str(key)
    label = _pick(*_MISSION[name]) if name in _MISSION else name
    if name == "rounds" and isinstance(value, int):
        return label, _pick(f"{value}ラウンド", f"{value} rounds")
    if name == "turns" and isinstance(value, int):
        return label, _pick(f"{value}ターン", f"{value} turns")
    if name == "cuts" and isinstance(value, int):
        return label, _pick(f"{value}カット", f"{value} cuts")
    if isinstance(value, bool):
        return label, _pick("あり" if value else "なし", "yes" if value else "no")
    return label, str(value)


_CHOICES: Mapping[str, tuple[str, str]] = {
    "defender": ("防御側の勝ち", "defender wins"),
    "zero": ("ダメージ0", "no damage"),
    "fail": ("失敗扱い", "counts as a failure"),
    "none": ("特になし", "no effect"),
    "down": ("切り捨て", "round down"),
    "up": ("切り上げ", "round up"),
    "nearest": ("四捨五入", "round to nearest"),
    "max_ap": ("最大APの高い順", "highest maximum AP first"),
    "pc_first": ("PCが先", "PCs first"),
    "enemy_first": ("エネミーが先", "enemies first"),
    "require": ("行えない", "not allowed"),
    "allow": ("行える", "allowed"),
    "sum": ("合計する", "add both"),
    "max": ("大きい方だけ", "larger one only"),
    "nullify": ("防御スキルを無効にする", "cancels defence skills"),
    "apply": ("防御スキルも効く", "defence skills apply"),
    "at_least": ("目標値以上で成功", "success at the target or more"),
    "above": ("目標値を超えて成功", "success above the target"),
    "passive": ("受動側の勝ち", "passive side wins"),
    "draw": ("引き分け", "draw"),
    "compare": ("達成値を比べる", "compare results"),
    "final": ("ブースト後の出目で判断", "after boosts"),
    "before": ("ブースト前の出目で判断", "before boosts"),
    "raw": ("そのまま", "as rolled"),
    "clamp": ("目標値までに抑える", "capped at the target"),
    "pc": ("PCが先攻", "PC first"),
    "npc": ("NPCが先攻", "NPC first"),
    "dice": ("ダイスで決める", "roll for it"),
    "closest_first": ("目標値に近い順", "closest first"),
    "lowest_first": ("達成値の低い順", "lowest first"),
    "success_needed": ("成功した側だけが勝てる", "a winner must succeed"),
    "add": ("ダメージを加える", "damage is added"),
    "negative": ("負の値のまま", "stays negative"),
    "one": ("1エリア", "one area"),
    "difference": ("差の分", "by the difference"),
}


def choice(value: OptionValue) -> str:
    """An option's value as a reader reads it (「防御側の勝ち」 for ``defender``)."""
    return _choice(value)


def _choice(value: OptionValue) -> str:
    if isinstance(value, bool):
        return _pick("採用" if value else "不採用", "on" if value else "off")
    text = str(value)
    found = _CHOICES.get(text)
    return _pick(*found) if found else text


def ruling(system_id: str, option: str, value: OptionValue) -> str:
    """One ruling chosen by a scenario, as a reader reads it: 「<ruling title>：<choice>」.

    English pages name the option and value as written in YAML.
    """
    if _state["lang"] == "en":
        return f"{option} = {value}"
    from saikoro.systems import get as get_system

    title = option
    for rule in type(get_system(system_id)).rulings:
        if rule.option_name == option:
            title = rule.title
            break
    return f"{title}：{_choice(value)}"
