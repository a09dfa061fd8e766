"""穢れ skills as the simulator reads them: their ``kind`` and a few fixed phrases of their
``effect`` (after NFKC normalisation), the ruling ``balance_skills``:

* an attack skill's effect naming status effects gives each of them when its effects land
  (``毒(LV2)`` a level of poison, 1 when no level is written);
* a defence skill whose effect says ``ダメージ-N`` (or ``ダメージをN軽減``) cuts the damage
  of every attack it meets by N: the engine's ``guard`` (cancelled by 粉砕 and, by the
  ruling ``critical_guard``, on a critical; not usable while 混乱; how often: the ruling
  ``defence_skill_uses``);
* an always-on (常駐) skill with the same phrase cuts every damage the character takes
  (poison included);
* ``穢れがN以上のあいだ`` (or ``穢れN以上``) in either limits it to 穢れ N and above;
* a defence skill saying ``代わりに受ける`` (``XへのY攻撃を代わりに受ける``) covers: with the
  ``guard`` tactic a single attack aimed at an ally whose name contains X (every ally
  when no X is named, or X is 味方/仲間) is taken by the skill's owner instead, on its own
  defence (the cover is that defence skill's use: confusion and ``defence_skill_uses``
  apply, 粉砕 cannot undo a cover already made).

Everything else (support skills, pulling, buffs...) is named in the notes as not modelled.

>>> from saikoro.systems._kegare.model import KegareSkill
>>> robe = KegareSkill(name="衣", kind="passive", effect="穢れが5以上のあいだ、受けるダメージ-1。")
>>> read_skill(robe)
Reading(guard=0, cut=1, min_kegare=5, poison=0, statuses=(), modelled=True, cover=None)
>>> stance = KegareSkill(name="構え", kind="defence", effect="宮司への単体攻撃を代わりに受ける。")
>>> read_skill(stance).cover
'宮司'
>>> fire = KegareSkill(name="火", kind="attack", effect="毒(LV2)と呪いを受ける。")
>>> read_skill(fire).poison, read_skill(fire).statuses
(2, ('poison', 'curse'))
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from saikoro.systems._kegare.model import KegareSkill
from saikoro.systems._kegare.status import Status

__all__ = ["Reading", "read_skill"]

_CUT = re.compile(r"ダメージ\s*(?:-|−)\s*(\d+)|ダメージを\s*(\d+)\s*(?:点)?\s*軽減")
_KEGARE_AT_LEAST = re.compile(r"穢れ\s*(?:が|の値が)?\s*(\d+)\s*以上")
_POISON_LEVEL = re.compile(r"毒\s*[(（]?\s*LV\s*(\d)", re.IGNORECASE)
_COVER = re.compile(r"(?:([^、。\s]+?)への)?[^、。]*代わりに受ける")
_ANY_ALLY = ("", "味方", "仲間", "味方全員", "仲間全員")
_MAX_POISON = 5
"""Poison's highest level (the engine's :func:`~saikoro.systems._kegare.status.poison`)."""


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
def read_skill(skill: KegareSkill) -> Reading:
    """How the simulator reads ``skill`` (its kind and the phrases of its effect)."""
    text = unicodedata.normalize("NFKC", skill.effect or "")
    at = _KEGARE_AT_LEAST.search(text)
    floor = int(at.group(1)) if at else 0
    if skill.kind == "attack":
        named = tuple(st.name.lower() for st in Status if st.value in text)
        if not named:
            return Reading(modelled=not text)
        level = 0
        if "poison" in named:
            m = _POISON_LEVEL.search(text)
            level = min(_MAX_POISON, max(1, int(m.group(1)))) if m else 1
        return Reading(poison=level, statuses=named)
    cover = _COVER.search(text) if skill.kind == "defence" else None
    if cover:
        who = cover.group(1) or ""
        return Reading(min_kegare=floor, cover="" if who in _ANY_ALLY else who)
    cut = _CUT.search(text)
    if skill.kind in ("defence", "passive") and cut and "代わり" not in text:
        n = int(cut.group(1) or cut.group(2))
        if skill.kind == "defence":
            return Reading(guard=n, min_kegare=floor)
        return Reading(cut=n, min_kegare=floor)
    return Reading(modelled=False)
