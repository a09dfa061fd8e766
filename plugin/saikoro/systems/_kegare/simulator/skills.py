"""穢れ skills as the simulator reads them: their ``kind`` and a few fixed phrases of their
``effect`` (after NFKC normalisation; see :func:`read_skill`):

* an attack skill's effect naming status effects gives them (``毒(LV2)`` a level of poison);
* a defence skill whose effect says ``ダメージ-N`` (or ``ダメージをN軽減``) cuts the damage
  of every attack it meets by N: the engine's ``guard`` (cancelled by 粉砕 and, by the
  ruling ``critical_guard``, on a critical; not usable while 混乱; how often: the ruling
  ``defence_skill_uses``);
* an always-on (常駐) skill with the same phrase cuts every damage the character takes;
* ``穢れがN以上のあいだ`` (or ``穢れN以上``) in either limits it to 穢れ N and above;
* a defence skill saying ``代わりに受ける`` (``XへのY攻撃を代わりに受ける``) covers: with the
  ``guard`` tactic a single attack aimed at an ally whose name contains X (every ally
  when no X is named, or X is 味方/仲間) is taken by the skill's owner instead, on its own
  defence (the cover is that defence skill's use: confusion and ``defence_skill_uses``
  apply, 粉砕 cannot undo a cover already made).

Everything else (support skills, pulling, buffs...) is listed as not modelled.

>>> robe = KegareSkill("衣", 0, kind="passive", effect="穢れが5以上のあいだ、受けるダメージ-1。")
>>> read_skill(robe)
Reading(guard=0, cut=1, min_kegare=5, status=None, level=0, modelled=True, cover=None, statuses=())
>>> stance = KegareSkill("構え", 0, kind="defence", effect="宮司への単体攻撃を代わりに受ける。")
>>> read_skill(stance).cover
'宮司'
>>> fire = KegareSkill("火", 4, status="poison", effect="命中した相手は毒(LV2)を受ける。")
>>> read_skill(fire).level
2
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from saikoro.systems._kegare.status import Status

from .shapes import KegareEnemy, KegareSkill

__all__ = ["Reading", "read_skill", "unmodelled"]

_CUT = re.compile(r"ダメージ\s*(?:-|−)\s*(\d+)|ダメージを\s*(\d+)\s*(?:点)?\s*軽減")
_KEGARE_AT_LEAST = re.compile(r"穢れ\s*(?:が|の値が)?\s*(\d+)\s*以上")
_POISON_LEVEL = re.compile(r"毒\s*[(（]?\s*LV\s*(\d)", re.IGNORECASE)
_COVER = re.compile(r"(?:([^、。\s]+?)への)?[^、。]*代わりに受ける")
_ANY_ALLY = ("", "味方", "仲間", "味方全員", "仲間全員")


@dataclass(frozen=True)
class Reading:
    """What the simulator makes of one skill.

    Attributes:
        guard: a defence skill's damage cut (0: none).
        cut: an always-on skill's damage cut (0: none).
        min_kegare: the skill works only from this 穢れ on (0: always).
        status: the status an attack skill gives (``None``: none).
        level: the poison level it gives (1 when the text names none).
        modelled: the whole effect is simulated (else it is listed as not modelled).
        cover: a covering defence skill: the allies it protects (``""``: every ally).
        statuses: every status an attack skill's effect names (``status`` is the first).
    """

    guard: int = 0
    cut: int = 0
    min_kegare: int = 0
    status: str | None = None
    level: int = 0
    modelled: bool = True
    cover: str | None = None
    statuses: tuple[str, ...] = ()


@cache
def read_skill(skill: KegareSkill) -> Reading:
    """How the simulator reads ``skill`` (its kind and the phrases of its effect)."""
    text = unicodedata.normalize("NFKC", skill.effect or "")
    at = _KEGARE_AT_LEAST.search(text)
    floor = int(at.group(1)) if at else 0
    if skill.kind == "attack":
        if skill.status is None:
            return Reading(modelled=not text)
        m = _POISON_LEVEL.search(text) if skill.status == "poison" else None
        level = min(5, max(1, int(m.group(1)))) if m else 1
        named = tuple(st.name.lower() for st in Status if st.value in text)
        return Reading(status=skill.status, level=level, statuses=named or (skill.status,))
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


def unmodelled(enemies: tuple[KegareEnemy, ...]) -> tuple[str, ...]:
    """``name（enemy）`` of every skill whose effect is not (wholly) simulated."""
    out = [
        f"{s.name}（{e.name}）"
        for e in enemies
        for s in (*e.skills, *e.other_skills)
        if not read_skill(s).modelled
    ]
    return tuple(dict.fromkeys(out))
