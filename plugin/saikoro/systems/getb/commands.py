"""GETB commands: parsing, rolling (BCDice-style text) and exact odds.

Commands (upper-case, as the engine normalises them):

* ``GB3>=8`` — a check, 1D10 + 3 against 8 (``@9`` critical value, ``#2`` fumble value).
  A plain ``1D10+3>=8`` is the same check while the system is selected.
* ``GDL+7`` — a damage check: ``S``/``L``/``B`` blades (2/3/4 dice), ``G`` gun (1 die),
  a number of dice, or ``(L+1)``/``(G+2)`` for adjusted dice; then the fixed part.
* ``GGT+5`` — a guard check: ``B``/``S``/``T`` (buckler/shield/tower: 2/3/4 dice).
* ``GFL+7/T+5/+2`` — a whole attack: damage check / guard check (empty or ``-``: no
  guard) / final-damage modifier.
* ``GC3/2`` — a contest (対決): attacker's ability / defender's ability.

>>> from saikoro.dice import DiceSource
>>> roll_command("GB3>=8", DiceSource(dice=[(10, 7)]), Settings()).text
'(GB3>=8) ＞ 7[7]+3 ＞ 10 ＞ 成功'
>>> roll_command("GDL+7", DiceSource(dice=[(10, 5), (10, 10), (10, 1), (10, 2)]), Settings()).text
'(GDL+7) ＞ 5,11[10,1],2+7 ＞ 25 ＞ クリティカル'
>>> roll_command("2D6", DiceSource(dice=[]), Settings()) is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from saikoro.dice import DiceSource, Odds, ParseError, Roll

from .chain import (
    DEFAULT_CRITICAL,
    DEFAULT_FUMBLE,
    ChainRoll,
    roll_chain,
    signed,
    validate_thresholds,
)
from .checks import check_odds, check_outcome, contest_odds, contest_winner
from .damage import (
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
from .final import final_damage_odds
from .rulings import Settings
from .states import Shield, Weapon

__all__ = ["odds_command", "roll_command"]

SEP = " ＞ "


_SUM = r"[+-]?\d+(?:[+-]\d+)*"
_MODS = r"(?:[+-]\d+)*"
_OPTS = r"(?:[@#]\d+)*"
_GB = re.compile(rf"GB(?P<mod>{_SUM})?(?:(?:>=|=>)(?P<target>{_SUM}))?(?P<opts>{_OPTS})")
_PLAIN = re.compile(rf"1D10(?P<mod>{_MODS})(?:>=|=>)(?P<target>{_SUM})")
_ATK = rf"(?:\d+|[SLBG]|\((?:\d+|[SLBG])(?:[+-]\d+)*\)){_MODS}{_OPTS}"
_GRD = rf"(?:\d+|[BST]|\((?:\d+|[BST])(?:[+-]\d+)*\)){_MODS}{_OPTS}"
_SPEC = re.compile(
    r"(?P<dice>\d+|[A-Z]|\((?P<inner>(?:\d+|[A-Z])(?:[+-]\d+)*)\))(?P<mod>"
    + _MODS
    + r")(?P<opts>"
    + _OPTS
    + r")"
)
_GD = re.compile(rf"GD(?P<spec>{_ATK})")
_GG = re.compile(rf"GG(?P<spec>{_GRD})")
_GF = re.compile(rf"GF(?P<atk>{_ATK})(?:/(?P<grd>{_GRD}|-)?(?:/(?P<fin>{_SUM}))?)?")
_GC = re.compile(rf"GC(?P<a>{_SUM})?(?P<aopts>{_OPTS})/(?P<d>{_SUM})?(?P<dopts>{_OPTS})")
_WEAPONS = {w.code: w for w in Weapon}
_SHIELDS = {s.code: s for s in Shield}


def _sum(text: str | None) -> int:
    if not text:
        return 0
    return sum(int(t) for t in re.findall(r"[+-]?\d+", text))


def _opts(text: str) -> tuple[int, int]:
    critical, fumble = DEFAULT_CRITICAL, DEFAULT_FUMBLE
    seen: set[str] = set()
    for mark, value in re.findall(r"([@#])(\d+)", text):
        if mark in seen:
            raise ParseError(f"{mark} が2回指定されています")
        seen.add(mark)
        if mark == "@":
            critical = int(value)
        else:
            fumble = int(value)
    return critical, fumble


@dataclass(frozen=True)
class _Spec:
    check: CheckSpec
    melee: bool | None


def _spec(text: str, table: dict[str, int], melee: dict[str, bool]) -> _Spec:
    m = _SPEC.fullmatch(text)
    if not m:  # pragma: no cover - the command regexes only let valid specs through
        raise ParseError(f"ダイスの指定を読めません: {text}")
    head = m.group("inner") or m.group("dice")
    token = re.findall(r"\d+|[A-Z]", head)[0]
    kind: bool | None = None
    if token.isdigit():
        dice = int(token)
    else:
        dice = table[token]
        kind = melee.get(token)
    dice += _sum(head[len(token) :])
    critical, fumble = _opts(m.group("opts"))
    return _Spec(CheckSpec(dice, _sum(m.group("mod")), critical, fumble), kind)


def _attack_spec(text: str) -> _Spec:
    return _spec(
        text, {k: w.dice for k, w in _WEAPONS.items()}, {k: w.melee for k, w in _WEAPONS.items()}
    )


def _guard_spec(text: str) -> _Spec:
    return _spec(text, {k: s.dice for k, s in _SHIELDS.items()}, {})


def _no_fumble(spec: CheckSpec, rule: str) -> CheckSpec:
    """The spec with fumbles switched off when the ruling says so."""
    return CheckSpec(spec.dice, spec.modifier, spec.critical, 0) if rule == "none" else spec


# -- rolling ---------------------------------------------------------------------


def _roll_check(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    m = _GB.fullmatch(command)
    plain = _PLAIN.fullmatch(command) if m is None else None
    if m is None and plain is None:
        return None
    match = m if m is not None else plain
    if match is None:  # pragma: no cover - checked just above
        return None
    ability = _sum(match.group("mod"))
    target = None if match.group("target") is None else _sum(match.group("target"))
    critical, fumble = _opts(m.group("opts")) if m else (DEFAULT_CRITICAL, DEFAULT_FUMBLE)
    shown = command
    if plain is not None:
        shown = f"1D10{signed(ability)}>={target}"
    validate_thresholds(critical, fumble)
    die = source.roll(10)
    out = check_outcome(
        die, ability, target, critical=critical, fumble=fumble, miracle_tier=settings.miracle_tier
    )
    parts = [f"({shown})", f"{die}[{die}]{signed(ability)}", str(out.total)]
    if out.word:
        parts.append(out.word)
    return Roll(
        command=shown,
        text=SEP.join(parts),
        success=bool(out.success),
        failure=out.success is False,
        critical=out.critical,
        fumble=out.fumble,
        value=out.total,
        outcome=out.word,
    )


def _roll_damage_check(
    spec: CheckSpec, source: DiceSource, settings: Settings
) -> tuple[int | None, list[str], ChainRoll | None]:
    """Roll a damage check: (achievement or ``None`` when the attack failed, text, roll)."""
    spec = _no_fumble(spec, settings.damage_fumble)
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
    spec = _no_fumble(spec, settings.guard_fumble)
    if spec.dice <= 0:
        return FAILED, ["ダイスなし", GUARD_FAILED], None
    r = roll_chain(source, spec.dice, spec.modifier, critical=spec.critical, fumble=spec.fumble)
    parts = [r.dice_text(), str(r.total)]
    if r.critical:
        return PERFECT, [*parts, "クリティカル", PERFECT_GUARD], r
    if r.fumble:
        return FAILED, [*parts, "ファンブル", GUARD_FAILED], r
    return max(0, r.total), parts, r


def _roll_gd(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    m = _GD.fullmatch(command)
    if not m:
        return None
    spec = _attack_spec(m.group("spec")).check
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


def _roll_gg(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    m = _GG.fullmatch(command)
    if not m:
        return None
    spec = _guard_spec(m.group("spec")).check
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


def _roll_gf(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    m = _GF.fullmatch(command)
    if not m:
        return None
    atk = _attack_spec(m.group("atk"))
    grd_text = m.group("grd")
    grd = None if grd_text in (None, "-") else _guard_spec(grd_text)
    final_mod = _sum(m.group("fin"))
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


def _roll_gc(command: str, source: DiceSource, _settings: Settings) -> Roll | None:
    m = _GC.fullmatch(command)
    if not m:
        return None
    a_ability, d_ability = _sum(m.group("a")), _sum(m.group("d"))
    a_crit, a_fum = _opts(m.group("aopts"))
    d_crit, d_fum = _opts(m.group("dopts"))
    validate_thresholds(a_crit, a_fum)
    validate_thresholds(d_crit, d_fum)
    a_die = source.roll(10)
    a = check_outcome(a_die, a_ability, critical=a_crit, fumble=a_fum)
    parts = [f"({command})", f"攻撃側 {a_die}[{a_die}]{signed(a_ability)}", str(a.total)]
    if a.word:
        parts.append(a.word)
    d = None
    if not a.fumble:
        d_die = source.roll(10)
        d = check_outcome(
            d_die, d_ability, a.total, critical=d_crit, fumble=d_fum, miracle_tier=False
        )
        parts += [f"防御側 {d_die}[{d_die}]{signed(d_ability)}", str(d.total)]
        if d.critical or d.fumble:
            parts.append(str(d.word))
    winner = contest_winner(a, d)
    parts.append(winner)
    attacker_won = winner.startswith("攻撃側")
    return Roll(
        command=command,
        text=SEP.join(parts),
        success=attacker_won,
        failure=not attacker_won,
        critical=a.critical,
        fumble=a.fumble,
        value=winner,
        outcome=winner,
    )


def roll_command(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    """Roll a GETB command, or return ``None`` when ``command`` is not one."""
    for f in (_roll_check, _roll_gd, _roll_gg, _roll_gf, _roll_gc):
        result = f(command, source, settings)
        if result is not None:
            return result
    return None


# -- odds ------------------------------------------------------------------------


def odds_command(command: str, settings: Settings) -> Odds | None:
    """Exact odds of a GETB command, or ``None`` when ``command`` is not one.

    >>> odds_command("1D10+3>=8", Settings()).success
    Fraction(3, 5)
    >>> odds_command("GFL+7/T+5", Settings()).label
    '最終ダメージ'
    """
    m = _GB.fullmatch(command)
    plain = _PLAIN.fullmatch(command) if m is None else None
    if m is not None or plain is not None:
        match = m if m is not None else plain
        if match is None:  # pragma: no cover - checked just above
            return None
        ability = _sum(match.group("mod"))
        target = None if match.group("target") is None else _sum(match.group("target"))
        critical, fumble = _opts(m.group("opts")) if m else (DEFAULT_CRITICAL, DEFAULT_FUMBLE)
        shown = command if m else f"1D10{signed(ability)}>={target}"
        return check_odds(
            ability,
            target,
            critical=critical,
            fumble=fumble,
            miracle_tier=settings.miracle_tier,
            command=shown,
        )
    if m := _GD.fullmatch(command):
        spec = _no_fumble(_attack_spec(m.group("spec")).check, settings.damage_fumble)
        return damage_check_odds(spec, command=command)
    if m := _GG.fullmatch(command):
        spec = _no_fumble(_guard_spec(m.group("spec")).check, settings.guard_fumble)
        return guard_check_odds(spec, command=command)
    if m := _GF.fullmatch(command):
        atk = _no_fumble(_attack_spec(m.group("atk")).check, settings.damage_fumble)
        grd_text = m.group("grd")
        grd = (
            None
            if grd_text in (None, "-")
            else _no_fumble(_guard_spec(grd_text).check, settings.guard_fumble)
        )
        return final_damage_odds(
            atk,
            grd,
            final_modifier=_sum(m.group("fin")),
            tie=settings.final_damage_tie,
            command=command,
        )
    if m := _GC.fullmatch(command):
        a_crit, a_fum = _opts(m.group("aopts"))
        d_crit, d_fum = _opts(m.group("dopts"))
        return contest_odds(
            _sum(m.group("a")),
            _sum(m.group("d")),
            attacker_critical=a_crit,
            attacker_fumble=a_fum,
            defender_critical=d_crit,
            defender_fumble=d_fum,
            command=command,
        )
    return None
