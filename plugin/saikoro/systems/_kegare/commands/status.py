"""The recovery commands: ``KGR`` (再起判定), ``KGS`` (異常回復判定) and ``KGP`` (毒)."""

from __future__ import annotations

import re
from fractions import Fraction

from saikoro.dice import DiceSource, Odds, ParseError, Roll
from saikoro.systems._kegare import status
from saikoro.systems._kegare.checks import TWO_D6, Position, check_penalty
from saikoro.systems._kegare.rulings import Settings

from .common import num, options, probs, signed, terms, two_d6

__all__ = ["odds_status", "roll_status"]

_RECOVERY = re.compile(r"KGR(?P<m>(?:[+-]\d+)*)(?P<o>(?:C|呪い|K\d+|H[+-]?\d+)*)")
_STATUS = re.compile(r"KGS(?P<n>\d+)(?P<m>(?:[+-]\d+)*)(?P<o>(?:K\d+)*)")
_POISON = re.compile(r"KGP(?P<lv>\d+)")


def _recovery_options(command: str, text: str) -> dict[str, int | Position | bool]:
    """Options of ``KGR``; the recovery check is only for a character at HP 0 or below."""
    opts = options(command, text, "C,K,H")
    if num(opts, "H") > 0:
        raise ParseError(
            f"{command}: 再起判定は HP 0 以下（戦闘不能）のキャラクターだけが行えます"
            f"（H{num(opts, 'H')}）"
        )
    return opts


def _statuses(command: str, text: str) -> int:
    n = int(text)
    if not 1 <= n <= len(status.Status):
        raise ParseError(f"{command}: 状態異常の数は1〜{len(status.Status)}です")
    return n


def _poison_level(command: str, text: str) -> int:
    level = int(text)
    if not 1 <= level <= 5:
        raise ParseError(f"{command}: 毒のLVは1〜5です")
    return level


def roll_status(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    """Roll ``KGR``, ``KGS`` or ``KGP``, or return ``None`` when ``command`` is none of them."""
    if m := _RECOVERY.fullmatch(command):
        opts = _recovery_options(command, m["o"])
        mod = status.recovery_modifier(
            cursed=bool(opts.get("C")), kegare=num(opts, "K"), modifier=sum(terms(m["m"]))
        )
        die = source.roll(6)
        healed = status.recovered(die, mod)
        text = f"({command}) ＞ {die}[{die}]{signed(mod) if mod else ''} ＞ {healed}"
        if "H" not in opts:
            return Roll(command, text, value=healed)
        hp = num(opts, "H") + healed
        ok = hp >= 1 and not status.out_for_good(num(opts, "K"))
        word = "成功" if ok else "失敗"
        return Roll(
            command,
            f"{text} ＞ HP{hp} ＞ {word}",
            success=ok,
            failure=not ok,
            value=healed,
            outcome=word,
        )
    if m := _STATUS.fullmatch(command):
        n = _statuses(command, m["n"])
        opts = options(command, m["o"], "K")
        mod = sum(terms(m["m"])) + check_penalty(num(opts, "K"))
        target = status.status_recovery_target(n)
        total, dice = two_d6(source)
        value = total + mod
        ok = status.status_recovered(value, n, rule=settings.status_recovery)
        word = "成功" if ok else "失敗"
        text = (
            f"({command}) ＞ 目標値{target} ＞ {dice}{signed(mod) if mod else ''}"
            f" ＞ {value} ＞ {word}"
        )
        return Roll(command, text, success=ok, failure=not ok, value=value, outcome=word)
    if m := _POISON.fullmatch(command):
        level = _poison_level(command, m["lv"])
        faces = source.roll_many(level, 6)
        dmg = status.poison_damage(sum(faces), min_damage=settings.min_damage)
        text = f"({command}) ＞ {sum(faces)}[{','.join(map(str, faces))}]-2 ＞ {dmg}"
        return Roll(command, text, value=dmg)
    return None


def odds_status(command: str, settings: Settings) -> Odds | None:
    """Exact odds of ``KGR``, ``KGS`` or ``KGP``, or ``None`` when ``command`` is none of them."""
    if m := _RECOVERY.fullmatch(command):
        opts = _recovery_options(command, m["o"])
        cursed, kegare, mod = bool(opts.get("C")), num(opts, "K"), sum(terms(m["m"]))
        healed = status.recovery(cursed=cursed, kegare=kegare, modifier=mod)
        success: Fraction | None = None
        if "H" in opts:
            success = status.recovery_success(
                num(opts, "H"), cursed=cursed, kegare=kegare, modifier=mod
            )
        return Odds(command, probs(healed), success=success, label="回復量")
    if m := _STATUS.fullmatch(command):
        n = _statuses(command, m["n"])
        opts = options(command, m["o"], "K")
        mod = sum(terms(m["m"])) + check_penalty(num(opts, "K"))
        cured = status.status_recovery(
            n, kegare=num(opts, "K"), modifier=sum(terms(m["m"])), rule=settings.status_recovery
        )
        return Odds(command, probs(TWO_D6 + mod), success=cured, label="達成値")
    if m := _POISON.fullmatch(command):
        level = _poison_level(command, m["lv"])
        dist = status.poison(level, min_damage=settings.min_damage)
        return Odds(command, probs(dist), label="ダメージ")
    return None
