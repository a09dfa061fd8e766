"""Checks and contests: ``GB3>=8`` (or a plain ``1D10+3>=8``) and ``GC3/2``.

>>> from saikoro.dice import DiceSource
>>> roll_check("GB3>=8", DiceSource(dice=[(10, 7)]), Settings()).text
'(GB3>=8) ＞ 7[7]+3 ＞ 10 ＞ 成功'
"""

from __future__ import annotations

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._getb.chain import (
    DEFAULT_CRITICAL,
    DEFAULT_FUMBLE,
    signed,
    validate_thresholds,
)
from saikoro.systems._getb.checks import check_odds, check_outcome, contest_odds, contest_winner
from saikoro.systems._getb.rulings import Settings

from .common import GB, GC, PLAIN, SEP, thresholds, total

__all__ = ["odds_check", "odds_contest", "roll_check", "roll_contest"]


def roll_check(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    m = GB.fullmatch(command)
    plain = PLAIN.fullmatch(command) if m is None else None
    if m is None and plain is None:
        return None
    match = m if m is not None else plain
    if match is None:  # pragma: no cover - checked just above
        return None
    ability = total(match.group("mod"))
    target = None if match.group("target") is None else total(match.group("target"))
    critical, fumble = thresholds(m.group("opts")) if m else (DEFAULT_CRITICAL, DEFAULT_FUMBLE)
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


def roll_contest(command: str, source: DiceSource, _settings: Settings) -> Roll | None:
    m = GC.fullmatch(command)
    if not m:
        return None
    a_ability, d_ability = total(m.group("a")), total(m.group("d"))
    a_crit, a_fum = thresholds(m.group("aopts"))
    d_crit, d_fum = thresholds(m.group("dopts"))
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


def odds_check(command: str, settings: Settings) -> Odds | None:
    """Exact odds of a check (``GB3>=8``, ``1D10+3>=8``), or ``None``.

    >>> odds_check("1D10+3>=8", Settings()).success
    Fraction(3, 5)
    """
    m = GB.fullmatch(command)
    plain = PLAIN.fullmatch(command) if m is None else None
    if m is not None or plain is not None:
        match = m if m is not None else plain
        if match is None:  # pragma: no cover - checked just above
            return None
        ability = total(match.group("mod"))
        target = None if match.group("target") is None else total(match.group("target"))
        critical, fumble = thresholds(m.group("opts")) if m else (DEFAULT_CRITICAL, DEFAULT_FUMBLE)
        shown = command if m else f"1D10{signed(ability)}>={target}"
        return check_odds(
            ability,
            target,
            critical=critical,
            fumble=fumble,
            miracle_tier=settings.miracle_tier,
            command=shown,
        )
    return None


def odds_contest(command: str, settings: Settings) -> Odds | None:  # noqa: ARG001
    """Exact odds of a contest (``GC3/2``), or ``None``."""
    if m := GC.fullmatch(command):
        a_crit, a_fum = thresholds(m.group("aopts"))
        d_crit, d_fum = thresholds(m.group("dopts"))
        return contest_odds(
            total(m.group("a")),
            total(m.group("d")),
            attacker_critical=a_crit,
            attacker_fumble=a_fum,
            defender_critical=d_crit,
            defender_fumble=d_fum,
            command=command,
        )
    return None
