"""穢れ skills' ``effect`` as the simulator reads it: a few fixed phrases (after NFKC
normalisation), the ruling ``balance_skills``, and what was read, in words.

* an attack skill's effect naming status effects gives each of them when its effects land
  (``毒(LV2)`` a level of poison, 1 when no level is written); a name is found anywhere in
  the text, so 「猛毒にする」 reads as 毒 LV1 -- :func:`describe` says so, and validation
  shows it at the effect's line;
* a defence skill whose effect says ``ダメージ-N`` (or ``ダメージをN軽減``) cuts the damage
  of every attack it meets by N: the engine's ``guard`` (cancelled by 粉砕 and, by the
  ruling ``critical_guard``, on a critical; not usable while 混乱; how often: the ruling
  ``defence_skill_uses``);
* an always-on (常駐) skill with the same phrase cuts every damage the character takes
  (poison included);
* ``穢れがN以上のあいだ`` (or ``穢れN以上``) in either limits it to 穢れ N and above;
* a defence skill saying ``代わりに受ける`` (``XへのY攻撃を代わりに受ける``) covers: with the
  ``guard`` tactic a single attack aimed at an ally whose name contains X (every ally
  when no X is named, or X is 味方/仲間) is taken by the skill's owner instead.

Everything else (support skills, pulling, buffs...) is not modelled; text that names a
state the rules do not have (「石化させる」) is what :func:`unread_state` finds.

>>> r = read_effect("attack", "毒(LV2)と呪いを受ける。")
>>> r.poison, r.statuses, describe(r)
(2, ('poison', 'curse'), '毒 LV2・呪い')
>>> describe(read_effect("attack", "猛毒にする"))
'毒 LV1'
>>> describe(read_effect("passive", "穢れが5以上のあいだ、受けるダメージ-1。"))
'受けるダメージ-1（穢れ5以上のとき）'
>>> unread_state("命中した相手を石化させる"), unread_state("麻痺させる")
('石化', None)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from .status import Status

__all__ = ["STATE_WORDS", "Reading", "describe", "read_effect", "unread_state"]

_CUT = re.compile(r"ダメージ\s*(?:-|−)\s*(\d+)|ダメージを\s*(\d+)\s*(?:点)?\s*軽減")
_KEGARE_AT_LEAST = re.compile(r"穢れ\s*(?:が|の値が)?\s*(\d+)\s*以上")
_POISON_LEVEL = re.compile(r"毒\s*[(（]?\s*LV\s*(\d)", re.IGNORECASE)
_COVER = re.compile(r"(?:([^、。\s]+?)への)?[^、。]*代わりに受ける")
_ANY_ALLY = ("", "味方", "仲間", "味方全員", "仲間全員")
_MAX_POISON = 5
"""Poison's highest level (the engine's :func:`~saikoro.systems._kegare.status.poison`)."""

STATE_WORDS = (
    "石化",
    "睡眠",
    "眠り",
    "気絶",
    "朦朧",
    "スタン",
    "出血",
    "炎上",
    "火傷",
    "凍結",
    "恐怖",
    "盲目",
    "暗闇",
    "沈黙",
    "拘束",
    "転倒",
    "放心",
    "狂気",
    "衰弱",
    "束縛",
)
"""States other games give that 穢れ's rules do not have: named in an effect, they are
not simulated (a warning says so)."""
_STATE_PHRASE = re.compile(r"([^\s、。「」()（）]{1,6}?)(?:状態に(?:する|させる|なる)|状態異常)")


@dataclass(frozen=True)
class Reading:
    """What the simulator makes of one skill.

    Attributes:
        guard: a defence skill's damage cut (0: none).
        cut: an always-on skill's damage cut (0: none).
        min_kegare: the skill works only from this 穢れ on (0: always).
        poison: the poison level an attack skill gives (0: none).
        statuses: every status an attack skill's effect names (ids, the rule's order).
        modelled: the whole effect is simulated (else the notes name the skill).
        cover: a covering defence skill: the allies it protects (``""``: every ally).
    """

    guard: int = 0
    cut: int = 0
    min_kegare: int = 0
    poison: int = 0
    statuses: tuple[str, ...] = ()
    modelled: bool = True
    cover: str | None = None


@cache
def read_effect(kind: str, effect: str | None) -> Reading:
    """How the simulator reads a skill of ``kind`` with ``effect`` (see the module)."""
    text = unicodedata.normalize("NFKC", effect or "")
    at = _KEGARE_AT_LEAST.search(text)
    floor = int(at.group(1)) if at else 0
    if kind == "attack":
        named = tuple(st.name.lower() for st in Status if st.value in text)
        if not named:
            return Reading(modelled=not text)
        level = 0
        if "poison" in named:
            m = _POISON_LEVEL.search(text)
            level = min(_MAX_POISON, max(1, int(m.group(1)))) if m else 1
        return Reading(poison=level, statuses=named)
    cover = _COVER.search(text) if kind == "defence" else None
    if cover:
        who = cover.group(1) or ""
        return Reading(min_kegare=floor, cover="" if who in _ANY_ALLY else who)
    cut = _CUT.search(text)
    if kind in ("defence", "passive") and cut and "代わり" not in text:
        n = int(cut.group(1) or cut.group(2))
        if kind == "defence":
            return Reading(guard=n, min_kegare=floor)
        return Reading(cut=n, min_kegare=floor)
    return Reading(modelled=False)


_NAMES = {st.name.lower(): st.value for st in Status}


def describe(reading: Reading) -> str:
    """What was read, in words (「毒 LV2・呪い」, 「ダメージ-2 で防ぐ」...); the empty text
    when nothing was read."""
    floor = f"（穢れ{reading.min_kegare}以上のとき）" if reading.min_kegare else ""
    if reading.statuses:
        names = [
            f"{_NAMES[s]} LV{reading.poison}" if s == "poison" else _NAMES[s]
            for s in reading.statuses
        ]
        return "・".join(names)
    if reading.cover is not None:
        who = f"「{reading.cover}」を名に含む味方" if reading.cover else "味方"
        return f"{who}への単体攻撃を代わりに受ける{floor}"
    if reading.guard:
        return f"防御でダメージ-{reading.guard}{floor}"
    if reading.cut:
        return f"受けるダメージ-{reading.cut}{floor}"
    return ""


def unread_state(effect: str | None) -> str | None:
    """A state ``effect`` names that the rules do not have (「石化」「睡眠状態にする」),
    when it names none of the seven status effects; else ``None``."""
    text = unicodedata.normalize("NFKC", effect or "")
    if any(st.value in text for st in Status):
        return None
    for word in STATE_WORDS:
        if word in text:
            return word
    phrase = _STATE_PHRASE.search(text)
    return phrase.group(1) if phrase else None
