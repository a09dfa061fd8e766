"""穢れ skills as the simulator reads them: their ``kind`` and a few fixed phrases of their
``effect`` (read in :mod:`saikoro.systems._kegare.effects`, which validation and the page
share), the ruling ``balance_skills``:

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

from saikoro.systems._kegare.effects import Reading, read_effect
from saikoro.systems._kegare.model import KegareSkill

__all__ = ["Reading", "read_skill"]


def read_skill(skill: KegareSkill) -> Reading:
    """How the simulator reads ``skill`` (its kind and the phrases of its effect)."""
    return read_effect(skill.kind, skill.effect)
