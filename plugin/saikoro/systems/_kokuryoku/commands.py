"""The nation-building game's dice commands: parsing, rolling and exact odds.

Commands (upper case, as the engine passes them):

- ``KK3`` / ``KK3+2>=9``: one check, ability (+ modifiers) + base dice.
- ``KKM[3,3,2]>=20G25``: a middle-phase cooperative check (starter first) with the
  national power gained (``G``, optional).
- ``KKA[3,2]VS[3,2]``: attack check with supporters against defence check with
  supporters; ``KKA[3,2]/9VS[3,2]/6`` adds the damage step (attack power 9 against
  defence power 6); ``VS-`` is a declined reaction; ``>=N`` asks for N damage or more.
- ``KKD3+6VS6`` / ``KKD9``: the damage step alone (``KKD9``: reaction declined).
- ``KKI90VS100``: which side goes first (PC power against NPC power).

>>> from saikoro.dice import DiceSource
>>> roll_command("KK3>=9", DiceSource(dice=[(10, 6)]), Settings()).text
'(KK3>=9) ＞ 6[6]+3 ＞ 9 ＞ 成功'
>>> odds_command("KK3>=9", Settings()).success
Fraction(1, 2)
>>> roll_command("2D6", DiceSource(dice=[]), Settings()) is None
True
"""

from __future__ import annotations

import re
from fractions import Fraction

from saikoro.dice import DiceSource, Dist, LimitError, Odds, ParseError, Roll

from . import checks
from .rulings import Settings

__all__ = ["odds_command", "roll_command"]

_EXPR = r"[+-]?\d+(?:[+-]\d+)*"
_LIST = rf"{_EXPR}(?:,{_EXPR})*"
_CHECK = re.compile(rf"KK(?P<ab>{_EXPR})(?:>=(?P<t>[+-]?\d+))?")
_MIDDLE = re.compile(rf"KKM\[?(?P<ab>{_LIST})\]?>=(?P<t>[+-]?\d+)(?:G(?P<g>\d+))?")
_ATTACK = re.compile(
    rf"KKA\[?(?P<a>{_LIST})\]?(?:/(?P<ap>{_EXPR}))?"
    rf"VS(?:(?P<declined>-)|\[?(?P<d>{_LIST})\]?(?:/(?P<dp>{_EXPR}))?)"
    r"(?:>=(?P<t>\d+))?"
)
_DAMAGE = re.compile(rf"KKD(?P<ap>{_EXPR})(?:VS(?P<dp>{_EXPR}))?(?:>=(?P<t>\d+))?")
_FIRST = re.compile(r"KKI(?P<p>\d+)VS(?P<n>\d+)")
_TERM = re.compile(r"[+-]?\d+")

WIN = "攻撃側勝利"
LOSE = "防御側勝利"


def _value(expr: str) -> int:
    return sum(int(t) for t in _TERM.findall(expr))


def _values(text: str) -> list[int]:
    values = [_value(part) for part in text.split(",")]
    if len(values) > checks.MAX_PARTICIPANTS:
        raise LimitError(
            f"1回の判定に参加できるのは{checks.MAX_PARTICIPANTS}人までです", bound="participants"
        )
    return values


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _expr_text(expr: str) -> str:
    return "".join(_signed(int(t)) for t in _TERM.findall(expr))


class _Roller:
    """Rolls base dice from a source and writes them BCDice-style (``9[4,5]``)."""

    def __init__(self, source: DiceSource, settings: Settings) -> None:
        self.source = source
        self.settings = settings

    def base(self) -> tuple[int, str]:
        faces = self.source.roll_many(self.settings.count, self.settings.die)
        total = sum(faces)
        return total, f"{total}[{','.join(map(str, faces))}]"

    def check(self, ability: int) -> tuple[int, str]:
        total, text = self.base()
        return total + ability, f"{text}{_signed(ability)}={total + ability}"

    def group(self, abilities: list[int]) -> tuple[int, str]:
        parts = [self.check(a) for a in abilities]
        return sum(v for v, _ in parts), ", ".join(t for _, t in parts)


def roll_command(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    """Roll one of the commands, or return ``None`` when ``command`` is not one."""
    r = _Roller(source, settings)
    if m := _CHECK.fullmatch(command):
        total, text = r.base()
        value = total + _value(m["ab"])
        out = f"({command}) ＞ {text}{_expr_text(m['ab'])} ＞ {value}"
        if m["t"] is None:
            return Roll(command, out, value=value)
        ok = value >= int(m["t"])
        word = "成功" if ok else "失敗"
        return Roll(
            command, f"{out} ＞ {word}", success=ok, failure=not ok, value=value, outcome=word
        )
    if m := _MIDDLE.fullmatch(command):
        abilities, target = _values(m["ab"]), int(m["t"])
        parts: list[str] = []
        value = 0
        for a in abilities:
            v, t = r.check(a)
            value += v
            parts.append(t)
            if checks.reached(value, target):
                break
        ok = checks.reached(value, target)
        word = "成功" if ok else "失敗"
        out = f"({command}) ＞ {', '.join(parts)} ＞ {value} ＞ {word}"
        if m["g"] is not None:
            out += f" ＞ 国力+{checks.gain_for(ok, int(m['g']))}"
        return Roll(command, out, success=ok, failure=not ok, value=value, outcome=word)
    if m := _ATTACK.fullmatch(command):
        return _roll_attack(command, m, r)
    if m := _DAMAGE.fullmatch(command):
        ap = _value(m["ap"])
        if m["dp"] is None:
            a, at = r.base()
            dmg = checks.damage_dealt(a + ap, None, settings.floor)
            out = f"({command}) ＞ {at}{_expr_text(m['ap'])} ＞ {dmg}"
        else:
            dp = _value(m["dp"])
            a, at = r.base()
            d, dt = r.base()
            dmg = checks.damage_dealt(a + ap, d + dp, settings.floor)
            out = (
                f"({command}) ＞ 攻撃 {at}{_expr_text(m['ap'])}={a + ap}"
                f" ／ 防御 {dt}{_expr_text(m['dp'])}={d + dp} ＞ {dmg}"
            )
        return _with_target(command, out, dmg, m["t"])
    if m := _FIRST.fullmatch(command):
        return _roll_first(command, int(m["p"]), int(m["n"]), r)
    return None


def _with_target(command: str, out: str, dmg: int, target: str | None) -> Roll:
    if target is None:
        return Roll(command, out, value=dmg)
    ok = dmg >= int(target)
    word = "成功" if ok else "失敗"
    return Roll(command, f"{out} ＞ {word}", success=ok, failure=not ok, value=dmg, outcome=word)


def _roll_attack(command: str, m: re.Match[str], r: _Roller) -> Roll:
    atk = _values(m["a"])
    a_total, a_text = r.group(atk)
    out = f"({command}) ＞ 攻撃 {a_text} ＞ {a_total}"
    if m["declined"]:
        out += " ／ リアクションなし"
        won = True
    else:
        d_total, d_text = r.group(_values(m["d"]))
        out += f" ／ 防御 {d_text} ＞ {d_total}"
        won = checks.attack_wins(a_total, d_total)
    word = WIN if won else LOSE
    out += f" ＞ {word}"
    if m["ap"] is None:
        if m["t"] is not None:
            raise ParseError(f"{command}: ダメージの目標値には攻撃力 (/攻撃力) が必要です")
        return Roll(command, out, success=won, failure=not won, value=word, outcome=word)
    dmg = 0
    if won:
        ap = _value(m["ap"])
        a, at = r.base()
        if m["declined"]:
            dmg = checks.damage_dealt(a + ap, None, r.settings.floor)
            out += f" ＞ ダメージ {at}{_expr_text(m['ap'])}={a + ap} ＞ {dmg}"
        else:
            dp = _value(m["dp"] or "0")
            d, dt = r.base()
            dmg = checks.damage_dealt(a + ap, d + dp, r.settings.floor)
            out += (
                f" ＞ ダメージ {at}{_expr_text(m['ap'])}={a + ap}"
                f" - {dt}{_expr_text(m['dp'] or '0')}={d + dp} ＞ {dmg}"
            )
    else:
        out += " ＞ 0"
    if m["t"] is not None:
        ok = dmg >= int(m["t"])
        res = "成功" if ok else "失敗"
        return Roll(command, f"{out} ＞ {res}", success=ok, failure=not ok, value=dmg, outcome=word)
    return Roll(command, out, success=won, failure=not won, value=dmg, outcome=word)


def _roll_first(command: str, pc: int, npc: int, r: _Roller) -> Roll:
    side = checks.first_player(pc, npc, r.settings.equal_power)
    sign = "＞" if pc > npc else "＜" if pc < npc else "＝"
    out = f"({command}) ＞ PC国力{pc} {sign} NPC国力{npc}"
    rolls: list[str] = []
    while side is None:
        p, pt = r.base()
        n, nt = r.base()
        rolls.append(f"PC {pt} ／ NPC {nt}")
        if p != n:
            side = "PC" if p > n else "NPC"
        elif len(rolls) >= 100:
            raise LimitError("先攻決めの振り直しが100回を超えました", bound="rerolls")
    if rolls:
        out += " ＞ " + " ＞ ".join(rolls)
    word = f"{side}先攻"
    return Roll(command, f"{out} ＞ {word}", value=word, outcome=word)


def _probs(dist: Dist[int]) -> dict[int | str, Fraction]:
    return dict(dist.probabilities().items())


def odds_command(command: str, settings: Settings) -> Odds | None:
    """Exact odds of one of the commands, or ``None`` when ``command`` is not one."""
    if m := _CHECK.fullmatch(command):
        dist = settings.base + _value(m["ab"])
        success = None if m["t"] is None else dist.at_least(int(m["t"]))
        return Odds(command, _probs(dist), success=success, label="達成値")
    if m := _MIDDLE.fullmatch(command):
        return _odds_middle(command, m, settings)
    if m := _ATTACK.fullmatch(command):
        return _odds_attack(command, m, settings)
    if m := _DAMAGE.fullmatch(command):
        dp = None if m["dp"] is None else _value(m["dp"])
        dmg = checks.damage(
            _value(m["ap"]), dp, floor=settings.floor, die=settings.die, count=settings.count
        )
        success = None if m["t"] is None else dmg.at_least(int(m["t"]))
        return Odds(command, _probs(dmg), success=success, label="ダメージ")
    if m := _FIRST.fullmatch(command):
        pc = checks.first_odds(
            int(m["p"]), int(m["n"]), settings.equal_power, die=settings.die, count=settings.count
        )
        first: dict[int | str, Fraction] = {"NPC先攻": 1 - pc, "PC先攻": pc}
        return Odds(command, {k: p for k, p in first.items() if p}, label="先攻")
    return None


def _odds_middle(command: str, m: re.Match[str], settings: Settings) -> Odds:
    res = checks.cooperative(_values(m["ab"]), int(m["t"]), die=settings.die, count=settings.count)
    events = {f"{k}人目で到達": p for k, p in res.reached_by.items()}
    if m["g"] is not None:
        for g, p in res.gain(int(m["g"])).probabilities().items():
            events[f"国力+{g}"] = p
    return Odds(command, _probs(res.total), success=res.success, events=events, label="達成値合計")


def _odds_attack(command: str, m: re.Match[str], settings: Settings) -> Odds:
    die, count = settings.die, settings.count
    atk = _values(m["a"])
    dfn = None if m["declined"] else _values(m["d"])
    if m["ap"] is None:
        if m["t"] is not None:
            raise ParseError(f"{command}: ダメージの目標値には攻撃力 (/攻撃力) が必要です")
        win = Fraction(1) if dfn is None else checks.contest(atk, dfn, die=die, count=count)
        words: dict[int | str, Fraction] = {WIN: win, LOSE: 1 - win}
        return Odds(
            command,
            {k: p for k, p in words.items() if p},
            success=win,
            events={WIN: win, LOSE: 1 - win},
            label="勝敗",
        )
    res = checks.attack(
        atk,
        dfn,
        _value(m["ap"]),
        _value(m["dp"] or "0"),
        floor=settings.floor,
        die=die,
        count=count,
    )
    success = res.attacker_wins if m["t"] is None else res.damage.at_least(int(m["t"]))
    return Odds(
        command,
        _probs(res.damage),
        success=success,
        events={WIN: res.attacker_wins, LOSE: 1 - res.attacker_wins},
        label="ダメージ",
    )
