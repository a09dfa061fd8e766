"""Damage and guard checks and whole attacks: ``GDL+7``, ``GGT+5``, ``GFL+7/T+5/+2``.

>>> from saikoro.dice import DiceSource
>>> roll_damage("GDL+7", DiceSource(dice=[(10, 5), (10, 10), (10, 1), (10, 2)]), Settings()).text
'(GDL+7) ＞ 5,11[10,1],2+7 ＞ 25 ＞ クリティカル'
"""

from __future__ import annotations

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._getb.chain import ChainRoll, roll_chain, signed
from saikoro.systems._getb.damage import (
    ATTACK_FAILED,
    FAILED,
    GUARD_FAILED,
    PERFECT,
    PERFECT_GUARD,
    CheckSpec,
    GuardValue,
    damage_check_odds,
    guard_check_odds,
    op_recovery,
    resolve,
)
from saikoro.systems._getb.final import final_damage_odds
from saikoro.systems._getb.rulings import Settings

from .common import GD, GF, GG, SEP, attack_spec, guard_spec, no_fumble, total

__all__ = ["odds_damage", "roll_damage", "roll_final", "roll_guard"]


def _roll_damage_check(
    spec: CheckSpec, source: DiceSource, settings: Settings
) -> tuple[int | None, list[str], ChainRoll | None]:
    """Roll a damage check: (achievement or ``None`` when the attack failed, text, roll)."""
    spec = no_fumble(spec, settings.damage_fumble)
    if spec.dice <= 0:
        return None, ["ダイスなし", ATTACK_FAILED], None
    r = roll_chain(source, spec.dice, spec.modifier, critical=spec.critical, fumble=spec.fumble)
    parts = [r.dice_text(), str(r.total)]
    if r.critical:
        parts.append("クリティカル")
    if r.fumble:
        parts.append("ファンブル")
    if r.fumble or r.total <= 0:
        parts.append(ATTACK_FAILED)
        return None, parts, r
    return r.total, parts, r


def _roll_guard_check(
    spec: CheckSpec, source: DiceSource, settings: Settings
) -> tuple[GuardValue, list[str], ChainRoll | None]:
    spec = no_fumble(spec, settings.guard_fumble)
    if spec.dice <= 0:
        return FAILED, ["ダイスなし", GUARD_FAILED], None
    r = roll_chain(source, spec.dice, spec.modifier, critical=spec.critical, fumble=spec.fumble)
    parts = [r.dice_text(), str(r.total)]
    if r.critical:
        return PERFECT, [*parts, "クリティカル", PERFECT_GUARD], r
    if r.fumble:
        return FAILED, [*parts, "ファンブル", GUARD_FAILED], r
    return max(0, r.total), parts, r


def roll_damage(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    m = GD.fullmatch(command)
    if not m:
        return None
    spec = attack_spec(m.group("spec")).check
    value, parts, r = _roll_damage_check(spec, source, settings)
    return Roll(
        command=command,
        text=SEP.join([f"({command})", *parts]),
        success=value is not None,
        failure=value is None,
        critical=bool(r and r.critical),
        fumble=bool(r and r.fumble),
        value=value or 0,
        outcome=ATTACK_FAILED if value is None else ("クリティカル" if r and r.critical else None),
    )


def roll_guard(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    m = GG.fullmatch(command)
    if not m:
        return None
    spec = guard_spec(m.group("spec")).check
    value, parts, r = _roll_guard_check(spec, source, settings)
    word = {PERFECT: PERFECT_GUARD, FAILED: GUARD_FAILED}.get(str(value))
    if isinstance(value, int):
        shown_value = value
    elif value == PERFECT and r is not None:
        shown_value = max(0, r.total)
    else:
        shown_value = 0
    return Roll(
        command=command,
        text=SEP.join([f"({command})", *parts]),
        success=value != FAILED,
        failure=value == FAILED,
        critical=bool(r and r.critical),
        fumble=bool(r and r.fumble),
        value=shown_value,
        outcome=word,
    )


def roll_final(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    m = GF.fullmatch(command)
    if not m:
        return None
    atk = attack_spec(m.group("atk"))
    grd_text = m.group("grd")
    grd = None if grd_text in (None, "-") else guard_spec(grd_text)
    final_mod = total(m.group("fin"))
    attack, parts, r = _roll_damage_check(atk.check, source, settings)
    parts = ["ダメージ判定 " + parts[0], *parts[1:]]
    guard: GuardValue = None
    if attack is not None:
        if grd is None:
            guard = None
        else:
            guard, gparts, _ = _roll_guard_check(grd.check, source, settings)
            parts += ["ガード判定 " + gparts[0], *gparts[1:]]
    damage, word = resolve(attack, guard, final_modifier=final_mod, tie=settings.final_damage_tie)
    if word not in parts:
        parts.append(word)
    base, _ = resolve(attack, guard, tie=settings.final_damage_tie)
    if final_mod and base >= 1:
        parts.append(f"{base}{signed(final_mod)}")
    parts.append(f"最終ダメージ{damage}")
    if atk.melee and damage >= 1:
        op = op_recovery(damage, rounding=settings.op_rounding)
        if op:
            parts.append(f"OP回復{op}")
    return Roll(
        command=command,
        text=SEP.join([f"({command})", *parts]),
        success=damage >= 1,
        failure=damage < 1,
        critical=bool(r and r.critical),
        fumble=bool(r and r.fumble),
        value=damage,
        outcome=word,
    )


def odds_damage(command: str, settings: Settings) -> Odds | None:
    """Exact odds of a damage, guard or whole-attack command (``GD`` ``GG`` ``GF``), or ``None``.

    >>> odds_damage("GFL+7/T+5", Settings()).label
    '最終ダメージ'
    """
    if m := GD.fullmatch(command):
        spec = no_fumble(attack_spec(m.group("spec")).check, settings.damage_fumble)
        return damage_check_odds(spec, command=command)
    if m := GG.fullmatch(command):
        spec = no_fumble(guard_spec(m.group("spec")).check, settings.guard_fumble)
        return guard_check_odds(spec, command=command)
    if m := GF.fullmatch(command):
        atk = no_fumble(attack_spec(m.group("atk")).check, settings.damage_fumble)
        grd_text = m.group("grd")
        grd = (
            None
            if grd_text in (None, "-")
            else no_fumble(guard_spec(grd_text).check, settings.guard_fumble)
        )
        return final_damage_odds(
            atk,
            grd,
            final_modifier=total(m.group("fin")),
            tie=settings.final_damage_tie,
            command=command,
        )
    return None
