"""Damage commands: ``CAD`` (a hit and its body resist check) and ``CAA`` (a whole attack).

``CAA`` rolls the attack against the defender's reaction (an opposed check the attacker
must win, ruling ``contest_rule``) and, on a hit, the damage with the resist check; an
exhausted defender (``H`` 0 or less) makes neither roll (ruling ``exhausted_resist_fails``).

>>> from saikoro.dice import DiceSource
>>> from saikoro.systems._cutaction.rulings import Settings
>>> m = ATTACK.fullmatch("CAA7,5,8R6")
>>> roll_attack("CAA7,5,8R6", m, DiceSource(dice=[(10, 3), (10, 6), (10, 3)]), Settings()).text
'(CAA7,5,8R6) ＞ 攻撃 3(達成値4) ＞ 防御 6(達成値-1) ＞ 命中 ＞ 抵抗 3 ＞ 達成値3 ＞ 成功 ＞ 体力-5'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

from saikoro.dice import DiceSource, Odds, ParseError, Roll
from saikoro.systems._cutaction.checks import CheckResult, check_results
from saikoro.systems._cutaction.damage import (
    Condition,
    DamageResult,
    attack_hits,
    attack_table,
    damage_table,
    resolve_damage,
)
from saikoro.systems._cutaction.expr import DamageExpr, evaluate
from saikoro.systems._cutaction.rulings import Settings

from .common import NUM, SEP, check_roll, describe, dice_of, sorted_ints, sv_note, word

__all__ = ["ATTACK", "DAMAGE", "odds_attack", "odds_damage", "roll_attack", "roll_damage"]

_TAIL = rf"(?:R(?P<sv>{NUM}))?(?:H(?P<hp>-?\d+)(?:/(?P<max>-?\d+))?)?"
DAMAGE = re.compile(rf"CAD(?P<dmg>[-+\dD]+?){_TAIL}")
"""``CAD8``, ``CAD2D6+3R6``, ``CAD10R6H12/15``."""
ATTACK = re.compile(rf"CAA(?P<atk>{NUM}),(?P<dfn>{NUM}),(?P<dmg>[-+\dD]+?){_TAIL}")
"""``CAA7,5,8R6``, ``CAA(9)/2,5,2D6R6H12``."""


def _damage(m: re.Match[str]) -> DamageExpr:
    """The damage of a command, which may not go below 0 (a hit never restores 体力)."""
    dmg = DamageExpr.parse(m.group("dmg"))
    if dmg.minimum < 0:
        raise ParseError(
            f"{m.string}: ダメージは0以上です（{m.group('dmg')} は最小で {dmg.minimum}）"
        )
    return dmg


def _hp(m: re.Match[str]) -> tuple[int | None, int | None]:
    hp = int(m.group("hp")) if m.group("hp") else None
    top = int(m.group("max")) if m.group("max") else None
    return hp, top


def _auto_fail(settings: Settings, hp: int | None) -> bool:
    return hp is not None and hp <= 0 and settings.exhausted_resist_fails


def _roll_hit(
    settings: Settings, m: re.Match[str], source: DiceSource
) -> tuple[list[str], DamageResult, CheckResult | None, bool]:
    """Roll the damage and the resist check; returns text parts, result, check, auto-failure."""
    dmg = _damage(m)
    hp, _ = _hp(m)
    damage, detail = dmg.roll(source)
    parts = [detail, f"ダメージ{damage}"] if dmg.has_dice else []
    check: CheckResult | None = None
    auto = False
    if m.group("sv") is not None:
        auto = _auto_fail(settings, hp)
        if auto:
            parts.append("抵抗 自動失敗(消耗)")
        else:
            raw = m.group("sv")
            sv = evaluate(raw)
            check, dice_text = check_roll(settings, sv, source)
            parts += [*sv_note(raw, sv), f"抵抗 {dice_text}", f"達成値{check.achievement}"]
            parts.append(word(check))
    res = resolve_damage(damage, check, failure=settings.resist_failure, auto_fail=auto)
    parts.append(f"体力-{res.hp_loss}" + (f" 負傷{res.injury}" if res.injury else ""))
    return parts, res, check, auto


def _state(m: re.Match[str], res: DamageResult) -> list[str]:
    """``体力12→5 最大15→8 消耗.. 危篤`` when the command gave 体力."""
    hp, given_top = _hp(m)
    if hp is None:
        return []
    top = given_top if given_top is not None else max(hp, 0) + res.injury
    after = Condition(top, min(hp, top), exhausted=hp <= 0).take(res)
    state = f"体力{hp}→{after.hp}"
    if given_top is not None and res.injury:
        state += f" 最大{top}→{after.current_max}"
    if after.exhausted:
        state += f" 消耗{after.exhaustion}"
    if given_top is not None and after.critical:
        state += " 危篤"
    return [state]


def roll_damage(command: str, m: re.Match[str], source: DiceSource, settings: Settings) -> Roll:
    """Roll ``CAD``: damage dice (if any), then the resist check."""
    parts, res, check, auto = _roll_hit(settings, m, source)
    resisted = m.group("sv") is not None
    return Roll(
        command,
        SEP.join([f"({command})", *parts, *_state(m, res)]),
        success=resisted and res.resisted,
        failure=resisted and not res.resisted,
        fumble=check is not None and check.fumble,
        value=res.hp_loss,
        outcome=word(check) if check else ("失敗" if auto else None),
    )


def roll_attack(command: str, m: re.Match[str], source: DiceSource, settings: Settings) -> Roll:
    """Roll ``CAA``: attack check, defence check, then on a hit damage and resist."""
    atk_raw, dfn_raw = m.group("atk"), m.group("dfn")
    atk, atk_text = check_roll(settings, evaluate(atk_raw), source)
    dfn: CheckResult | None = None
    if _auto_fail(settings, _hp(m)[0]):
        reaction = "防御 自動失敗(消耗)"
    else:
        dfn, dfn_text = check_roll(settings, evaluate(dfn_raw), source)
        reaction = f"防御 {describe(dfn, dfn_text)}"
    hit = attack_hits(atk, dfn, rule=settings.contest_rule)
    parts = [
        f"({command})",
        *sv_note(atk_raw, atk.success_value),
        f"攻撃 {describe(atk, atk_text)}",
        reaction,
        "命中" if hit else "命中せず",
    ]
    loss = 0
    if hit:
        hit_parts, res, _, _ = _roll_hit(settings, m, source)
        parts += [*hit_parts, *_state(m, res)]
        loss = res.hp_loss
    return Roll(
        command,
        SEP.join(parts),
        success=hit,
        failure=not hit,
        fumble=atk.fumble,
        value=loss,
        outcome="命中" if hit else "命中せず",
    )


# -- odds -----------------------------------------------------------------------------


def _hit_table(settings: Settings, m: re.Match[str]) -> tuple[dict[DamageResult, Fraction], bool]:
    hp, _ = _hp(m)
    sv = evaluate(m.group("sv")) if m.group("sv") is not None else None
    auto = sv is not None and _auto_fail(settings, hp)
    table = damage_table(
        _damage(m).dist(),
        sv,
        dice=dice_of(settings),
        failure=settings.resist_failure,
        auto_fail=auto,
    )
    return table, auto


def _damage_odds(
    command: str,
    m: re.Match[str],
    outcomes: list[tuple[DamageResult | None, Fraction]],
    *,
    success: Fraction | None,
    fumble: Fraction | None,
    events: dict[str, Fraction],
) -> Odds:
    """Odds of the HP loss over ``outcomes`` (``None`` = no hit), with state events."""
    hp, top = _hp(m)
    dist: dict[int | str, Fraction] = {}
    for r, p in outcomes:
        loss = r.hp_loss if r else 0
        dist[loss] = dist.get(loss, Fraction(0)) + p

    def prob(pred: Callable[[int, int], bool]) -> Fraction:
        hits = (p for r, p in outcomes if pred(r.hp_loss if r else 0, r.injury if r else 0))
        return sum(hits, Fraction(0))

    events["負傷"] = prob(lambda _, inj: inj > 0)
    events["無傷"] = prob(lambda loss, _: loss <= 0)
    if hp is not None:
        events["消耗"] = prob(lambda loss, inj: hp - loss <= 0 or (top is not None and top <= inj))
    if top is not None:
        events["危篤"] = prob(lambda _, inj: top - inj <= 0)
    return Odds(
        command,
        sorted_ints(dist),
        success=success,
        fumble=fumble,
        events=events,
        label="体力減少",
    )


def odds_damage(command: str, m: re.Match[str], settings: Settings) -> Odds:
    """Odds of ``CAD``: HP loss; success = the resist check succeeds."""
    table, auto = _hit_table(settings, m)
    success = fumble = None
    if m.group("sv") is not None:
        success = sum((p for r, p in table.items() if r.resisted), Fraction(0))
        fumble = Fraction(0)
        if not auto:
            sv = evaluate(m.group("sv"))
            results = check_results(sv, dice=dice_of(settings))
            fumble = sum((p for r, p in results if r.fumble), Fraction(0))
    return _damage_odds(command, m, list(table.items()), success=success, fumble=fumble, events={})


def odds_attack(command: str, m: re.Match[str], settings: Settings) -> Odds:
    """Odds of ``CAA`` (:func:`~saikoro.systems._cutaction.damage.attack_table`): HP loss
    (0 on a miss); success = the attack hits."""
    hp, _ = _hp(m)
    sv = evaluate(m.group("sv")) if m.group("sv") is not None else None
    attack = evaluate(m.group("atk"))
    table = attack_table(
        attack,
        evaluate(m.group("dfn")),
        _damage(m).dist(),
        sv,
        dice=dice_of(settings),
        rule=settings.contest_rule,
        failure=settings.resist_failure,
        auto_fail=_auto_fail(settings, hp),
    )
    hit = 1 - table.get(None, Fraction(0))
    fumble = sum(
        (p for r, p in check_results(attack, dice=dice_of(settings)) if r.fumble), Fraction(0)
    )
    outcomes = list(table.items())
    return _damage_odds(command, m, outcomes, success=hit, fumble=fumble, events={"命中": hit})
