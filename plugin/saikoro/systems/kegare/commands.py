"""The 穢れ game's dice commands: parsing, rolling and exact odds.

- ``KGA7VS5D8``: attack value 7 against defence value 5, skill damage 8. Each side may
  add ``±n`` modifiers and options: ``@F``/``@M``/``@N`` (or ``@遠``/``@中``/``@近``)
  position, ``K9`` 穢れ, ``W4`` 脱力 with level 4 (attacker), ``J4`` 自失 with level 4
  (defender), ``G3`` a defence skill cutting 3 damage (defender). After the sides:
  ``R`` for a ranged attack and ``>=N`` for "N damage or more". ``KGA7`` alone is the
  attack check only.
- ``KGR`` recovery check (再起判定): ``C`` curse, ``K4`` 穢れ, ``H-3`` current HP.
- ``KGS2`` status-recovery check with 2 statuses (``K5`` 穢れ, ``±n``).
- ``KGP3`` poison damage at level 3.

>>> from saikoro.dice import DiceSource
>>> s = DiceSource(dice=[(6, 4), (6, 5), (6, 3), (6, 4)])
>>> roll_command("KGA7VS5D8", s, Settings()).text
'(KGA7VS5D8) ＞ 攻撃 9[4,5]+7=16 ／ 防御 7[3,4]+5=12 ＞ 命中 ＞ ダメージ12'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from saikoro.dice import DiceSource, Dist, Odds, ParseError, Roll

from . import status
from .combat import TWO_D6, AttackSpec, Outcome, Position, attack_odds, check_penalty, resolve

__all__ = ["Settings", "odds_command", "roll_command"]

_EXPR = r"[+-]?\d+(?:[+-]\d+)*"
_OPTS = r"(?:@(?:[FMN]|遠|中|近)|[WJKG]\d+|脱力\d+|自失\d+)*"
_ATTACK = re.compile(
    rf"KGA(?P<a>{_EXPR})(?P<ao>{_OPTS})"
    rf"(?:VS(?P<d>{_EXPR})(?P<do>{_OPTS})(?:D(?P<dmg>{_EXPR}))?)?"
    r"(?P<r>R)?(?:>=(?P<t>\d+))?"
)
_RECOVERY = re.compile(r"KGR(?P<m>(?:[+-]\d+)*)(?P<o>(?:C|呪い|K\d+|H[+-]?\d+)*)")
_STATUS = re.compile(r"KGS(?P<n>\d+)(?P<m>(?:[+-]\d+)*)(?P<o>(?:K\d+)*)")
_POISON = re.compile(r"KGP(?P<lv>\d+)")
_TOKEN = re.compile(r"@(?:[FMN]|遠|中|近)|[WJKGH][+-]?\d+|脱力\d+|自失\d+|C|呪い")
_TERM = re.compile(r"[+-]?\d+")
_WINS = (Outcome.CRITICAL, Outcome.SHATTER, Outcome.HIT)


@dataclass(frozen=True)
class Settings:
    """The ruling options the commands read (see :mod:`.rulings`)."""

    position_stack: str = "sum"
    min_damage: int = 0
    critical_guard: str = "nullify"
    status_recovery: str = "at_least"


def _terms(expr: str) -> list[int]:
    return [int(t) for t in _TERM.findall(expr)]


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _options(command: str, text: str, allowed: str) -> dict[str, int | Position | bool]:
    """Side options as ``{"pos": Position, "K": 9, "W": 4, "C": True ...}``."""
    out: dict[str, int | Position | bool] = {}
    for token in _TOKEN.findall(text):
        if token.startswith("@"):
            key: str = "pos"
            value: int | Position | bool = Position.parse(token[1:])
        elif token in ("C", "呪い"):
            key, value = "C", True
        else:
            key = {"脱力": "W", "自失": "J"}.get(token[:2], token[0])
            value = int(token[2:] if token[0] in "脱自" else token[1:])
        if key not in allowed.split(","):
            raise ParseError(f"{command}: {token} はここでは使えません")
        if key in out:
            raise ParseError(f"{command}: {token} が重複しています")
        out[key] = value
    return out


def _num(opts: dict[str, int | Position | bool], key: str) -> int:
    v = opts.get(key, 0)
    return v if isinstance(v, int) else 0


def _pos(opts: dict[str, int | Position | bool]) -> Position | None:
    v = opts.get("pos")
    return v if isinstance(v, Position) else None


def attack_spec(m: re.Match[str], settings: Settings) -> AttackSpec:
    """Build the :class:`AttackSpec` of a parsed ``KGA`` command."""
    command = m.string
    a_terms = _terms(m["a"])
    ao = _options(command, m["ao"], "pos,K,W")
    d_terms = _terms(m["d"]) if m["d"] is not None else [0]
    do = _options(command, m["do"] or "", "pos,K,J,G")
    return AttackSpec(
        attack=a_terms[0],
        defence=d_terms[0],
        damage=sum(_terms(m["dmg"])) if m["dmg"] else 0,
        attack_modifier=sum(a_terms[1:]),
        defence_modifier=sum(d_terms[1:]),
        attacker_position=_pos(ao),
        target_position=_pos(do),
        ranged=bool(m["r"]),
        weakened_level=_num(ao, "W"),
        dazed_level=_num(do, "J"),
        attacker_kegare=_num(ao, "K"),
        defender_kegare=_num(do, "K"),
        guard=_num(do, "G"),
        min_damage=settings.min_damage,
        position_stack=settings.position_stack,
        critical_guard=settings.critical_guard,
    )


def _two_d6(source: DiceSource) -> tuple[int, str]:
    a, b = source.roll(6), source.roll(6)
    return a + b, f"{a + b}[{a},{b}]"


def roll_command(command: str, source: DiceSource, settings: Settings) -> Roll | None:
    """Roll one of the commands, or return ``None`` when ``command`` is not one."""
    if m := _ATTACK.fullmatch(command):
        return _roll_attack(command, m, source, settings)
    if m := _RECOVERY.fullmatch(command):
        opts = _options(command, m["o"], "C,K,H")
        mod = status.recovery_modifier(
            cursed=bool(opts.get("C")), kegare=_num(opts, "K"), modifier=sum(_terms(m["m"]))
        )
        die = source.roll(6)
        healed = max(0, die + mod)
        text = f"({command}) ＞ {die}[{die}]{_signed(mod) if mod else ''} ＞ {healed}"
        if "H" not in opts:
            return Roll(command, text, value=healed)
        hp = _num(opts, "H") + healed
        ok = hp >= 1 and _num(opts, "K") < status.MAX_KEGARE
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
        opts = _options(command, m["o"], "K")
        mod = sum(_terms(m["m"])) + check_penalty(_num(opts, "K"))
        target = status.status_recovery_target(n)
        total, dice = _two_d6(source)
        value = total + mod
        ok = value > target if settings.status_recovery == "above" else value >= target
        word = "成功" if ok else "失敗"
        text = (
            f"({command}) ＞ 目標値{target} ＞ {dice}{_signed(mod) if mod else ''}"
            f" ＞ {value} ＞ {word}"
        )
        return Roll(command, text, success=ok, failure=not ok, value=value, outcome=word)
    if m := _POISON.fullmatch(command):
        level = _poison_level(command, m["lv"])
        faces = source.roll_many(level, 6)
        dmg = max(settings.min_damage, sum(faces) - 2)
        text = f"({command}) ＞ {sum(faces)}[{','.join(map(str, faces))}]-2 ＞ {dmg}"
        return Roll(command, text, value=dmg)
    return None


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


def _roll_attack(command: str, m: re.Match[str], source: DiceSource, settings: Settings) -> Roll:
    spec = attack_spec(m, settings)
    a, a_text = _two_d6(source)
    head = f"({command}) ＞ 攻撃 {a_text}{_signed(spec.attack_bonus)}={a + spec.attack_bonus}"
    crit, fumble = a == 12, a == 2
    if m["d"] is None:
        total = a + spec.attack_bonus
        word = "クリティカル" if crit else "ファンブル" if fumble else ""
        text = f"({command}) ＞ {a_text}{_signed(spec.attack_bonus)} ＞ {total}"
        if word:
            text += f" ＞ {word}"
        if m["t"] is None:
            return Roll(
                command, text, critical=crit, fumble=fumble, value=total, outcome=word or None
            )
        ok = total >= int(m["t"])
        res = "成功" if ok else "失敗"
        return Roll(
            command,
            f"{text} ＞ {res}",
            success=ok,
            failure=not ok,
            critical=crit,
            fumble=fumble,
            value=total,
            outcome=word or res,
        )
    d_text = ""
    d: int | None = None
    if not (crit or fumble):
        d, dice = _two_d6(source)
        d_text = f" ／ 防御 {dice}{_signed(spec.defence_bonus)}={d + spec.defence_bonus}"
    r = resolve(spec, a, d)
    text = f"{head}{d_text} ＞ {r.outcome.value} ＞ ダメージ{r.damage}"
    won = r.outcome in _WINS
    if m["t"] is not None:
        won = r.damage >= int(m["t"])
        text += " ＞ 成功" if won else " ＞ 失敗"
    return Roll(
        command,
        text,
        success=won,
        failure=not won,
        critical=crit,
        fumble=fumble,
        value=r.damage,
        outcome=r.outcome.value,
    )


def _probs(dist: Dist[int]) -> dict[int | str, Fraction]:
    return dict(dist.probabilities().items())


def odds_command(command: str, settings: Settings) -> Odds | None:
    """Exact odds of one of the commands, or ``None`` when ``command`` is not one."""
    if m := _ATTACK.fullmatch(command):
        spec = attack_spec(m, settings)
        if m["d"] is None:
            check = TWO_D6 + spec.attack_bonus
            hit = None if m["t"] is None else check.at_least(int(m["t"]))
            return Odds(
                command,
                _probs(check),
                success=hit,
                critical=Fraction(1, 36),
                fumble=Fraction(1, 36),
                label="攻撃判定値",
            )
        res = attack_odds(spec)
        events = {o.value: res.outcomes.probability(o.value) for o in Outcome}
        won = res.success if m["t"] is None else res.damage.at_least(int(m["t"]))
        return Odds(
            command,
            _probs(res.damage),
            success=won,
            critical=Fraction(1, 36),
            fumble=Fraction(1, 36),
            events=events,
            label="ダメージ",
        )
    if m := _RECOVERY.fullmatch(command):
        opts = _options(command, m["o"], "C,K,H")
        cursed, kegare, mod = bool(opts.get("C")), _num(opts, "K"), sum(_terms(m["m"]))
        healed = status.recovery(cursed=cursed, kegare=kegare, modifier=mod)
        success: Fraction | None = None
        if "H" in opts:
            success = status.recovery_success(
                _num(opts, "H"), cursed=cursed, kegare=kegare, modifier=mod
            )
        return Odds(command, _probs(healed), success=success, label="回復量")
    if m := _STATUS.fullmatch(command):
        n = _statuses(command, m["n"])
        opts = _options(command, m["o"], "K")
        mod = sum(_terms(m["m"])) + check_penalty(_num(opts, "K"))
        cured = status.status_recovery(
            n, kegare=_num(opts, "K"), modifier=sum(_terms(m["m"])), rule=settings.status_recovery
        )
        return Odds(command, _probs(TWO_D6 + mod), success=cured, label="達成値")
    if m := _POISON.fullmatch(command):
        level = _poison_level(command, m["lv"])
        dist = status.poison(level, min_damage=settings.min_damage)
        return Odds(command, _probs(dist), label="ダメージ")
    return None
