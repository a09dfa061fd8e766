"""Tactics: named, documented policies for how PCs and enemies play a simulated battle.

The vocabulary lives here, below the simulator, because validation reads it
(``balance.tactics`` in a scenario); :mod:`saikoro.balance` plays it.

A :class:`Policy` is four independent choices, the same vocabulary for both sides:

* target — ``lowest_hp`` (finish the weakest), ``most_dangerous`` (the one that deals the
  most damage), ``random``;
* guard — ``guard`` (guard, cover and keep defenders back whenever the rules allow) or
  ``no_guard``;
* range — ``close_in`` (move towards the target) or ``keep_range`` (stay where one stands);
* cards — ``spend_cards`` (spend awakening cards after the roll when they turn a failure
  into a success) or ``keep_cards``.

Presets name common combinations (:data:`PRESETS`); a policy can also be written as
atoms separated by commas, starting from a preset: ``focus,keep_range``.

>>> parse_policy("focus").target, parse_policy("hunt,no_guard").guard
('lowest_hp', False)
>>> parse_policy("random").name
'random'
>>> parse_policy("nonsense")
Traceback (most recent call last):
...
saikoro.scenario._tactics.TacticsError: unknown tactic 'nonsense'; known: ...
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from saikoro.dice import SaikoroError

__all__ = [
    "ATOMS",
    "PRESETS",
    "Policy",
    "TacticsError",
    "describe_tactic",
    "known_names",
    "parse_policy",
]


class TacticsError(SaikoroError, ValueError):
    """An unknown tactic name or atom."""


@dataclass(frozen=True)
class Policy:
    """How one side plays.

    Attributes:
        name: how it was written (a preset, possibly with atoms).
        target: ``lowest_hp``, ``most_dangerous`` or ``random``.
        guard: guard / cover / keep defenders when able.
        close_in: move towards the target (else keep range).
        spend_cards: spend awakening cards after the roll when that saves a check.
    """

    name: str
    target: str = "lowest_hp"
    guard: bool = True
    close_in: bool = True
    spend_cards: bool = True


ATOMS: dict[str, str] = {
    "lowest_hp": "攻撃対象は残りHP（国力・体力）の最も低い相手。倒せる相手から倒して手数を減らす。",
    "most_dangerous": "攻撃対象は最も大きなダメージを出す相手。脅威を先に取り除く。",
    "random": "攻撃対象は候補から無作為に選ぶ。GMが公平に散らす遊び方に近い。",
    "guard": "ガード・カバーリング・防御役の温存など、守りの手段をとれるときは必ずとる。",
    "no_guard": "守りの手段はとらず、すべての手番とコストを攻撃に回す。",
    "close_in": "射程・間合いの外なら相手に近づく（近距離・同じエリアへ）。",
    "keep_range": "初期位置から動かない。近づけない攻撃は使わない。",
    "spend_cards": "判定に失敗したとき、成功に足りる枚数だけ覚醒札を事後ブーストに使う。",
    "keep_cards": "覚醒札は使わずに持っておく。",
}
"""Every atom with its description (shown on the rulings page)."""

_SETTERS: dict[str, dict[str, str | bool]] = {
    "lowest_hp": {"target": "lowest_hp"},
    "most_dangerous": {"target": "most_dangerous"},
    "random": {"target": "random"},
    "guard": {"guard": True},
    "no_guard": {"guard": False},
    "close_in": {"close_in": True},
    "keep_range": {"close_in": False},
    "spend_cards": {"spend_cards": True},
    "keep_cards": {"spend_cards": False},
}

PRESETS: dict[str, tuple[Policy, str]] = {
    "focus": (
        Policy("focus"),
        "集中攻撃：残りHPの最も低い相手を狙い、守れるときは守り、間合いを詰め、覚醒札は必要なときに使う。",
    ),
    "hunt": (
        Policy("hunt", target="most_dangerous"),
        "脅威優先：最も大きなダメージを出す相手を狙う。ほかは集中攻撃と同じ。",
    ),
    "random": (
        Policy("random", target="random"),
        "分散：攻撃対象を無作為に選ぶ。ほかは集中攻撃と同じ。",
    ),
    "cautious": (
        Policy("cautious", close_in=False),
        "慎重：集中攻撃と同じ対象を狙うが、初期位置から動かない。",
    ),
    "reckless": (
        Policy("reckless", guard=False),
        "捨て身：集中攻撃と同じ対象を狙い、守りの手段を一切とらない。",
    ),
    "frugal": (
        Policy("frugal", spend_cards=False),
        "温存：集中攻撃と同じだが覚醒札を使わない。",
    ),
}
"""Preset name -> (policy, description)."""


def known_names() -> str:
    """Every preset and atom, each once (``random`` is both)."""
    return ", ".join(dict.fromkeys([*PRESETS, *ATOMS]))


def parse_policy(text: str) -> Policy:
    """Read a preset optionally followed by atoms (``focus,keep_range``) or atoms alone.

    Refused, with the reason: an unknown name, a name written twice, a preset after the
    first name, and atoms that contradict each other (``guard,no_guard``: each choice
    once). An atom after a preset overrides the preset's choice (``reckless,guard``).

    >>> parse_policy("focus,focus")
    Traceback (most recent call last):
    ...
    saikoro.scenario._tactics.TacticsError: tactic 'focus' is written twice; write it once
    >>> parse_policy("guard,no_guard")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    saikoro.scenario._tactics.TacticsError: tactics 'guard' and 'no_guard' contradict each other...
    """
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise TacticsError(f"empty tactic; known: {known_names()}")
    for i, part in enumerate(parts):
        if part not in PRESETS and part not in _SETTERS:
            raise TacticsError(f"unknown tactic {part!r}; known: {known_names()}")
        if part in parts[:i]:
            raise TacticsError(f"tactic {part!r} is written twice; write it once")
    first = parts[0]
    if first in PRESETS:
        policy = PRESETS[first][0]
        rest = parts[1:]
    else:
        policy = PRESETS["focus"][0]
        rest = parts
    chosen: dict[str, str] = {}  # field -> the atom that chose it
    for atom in rest:
        if atom not in _SETTERS:  # a preset after the first name
            raise TacticsError(
                f"{atom!r} is a preset: only the first name may be one "
                f"(a preset, then atoms: {first},{next(iter(_SETTERS))})"
            )
        for name in _SETTERS[atom]:
            if name in chosen:
                raise TacticsError(
                    f"tactics {chosen[name]!r} and {atom!r} contradict each other "
                    f"(both choose {_CHOICES[name]}); keep one"
                )
            chosen[name] = atom
        policy = replace(policy, **_SETTERS[atom])  # type: ignore[arg-type]
    return replace(policy, name=",".join(parts))


_CHOICES = {"target": "the target", "guard": "guard", "close_in": "range", "spend_cards": "cards"}
"""What each field of a :class:`Policy` chooses, as the atoms' groups are named."""


def describe_tactic(name: str) -> str:
    """The description of a preset or atom."""
    if name in PRESETS:
        return PRESETS[name][1]
    return ATOMS[name]
