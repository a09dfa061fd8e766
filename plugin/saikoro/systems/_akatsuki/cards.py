"""Awakening cards (覚醒札) as state: a hand of cards, each worth some awakening points.

Cards are earned by a specialty doublet within the target (each supporter of that
check earns as many) and spent on boosts: before the roll a boost adds the cards'
points to the target, after the roll only their number. One boost serves one check.

>>> hand = AwakeningHand((3, 1, 2))
>>> hand, bonus = hand.boost_before([0, 2])
>>> bonus, hand.cards
(5, (1,))
>>> hand, bonus = hand.gain(4).boost_after([0, 1])
>>> bonus, hand.count
(2, 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from saikoro.systems._base import RulesError

from .checks import CheckResult

__all__ = ["AwakeningHand", "CardError", "reward_after_check"]


class CardError(RulesError):
    """A card that is not in the hand, or a card with a negative value."""


@dataclass(frozen=True)
class AwakeningHand:
    """A character's awakening cards (immutable; every change returns a new hand).

    Attributes:
        cards: each card's awakening points (覚醒ポイント), in the order held.
    """

    cards: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if any(p < 0 for p in self.cards):
            raise CardError("覚醒ポイントは0以上です")

    @property
    def count(self) -> int:
        """How many cards are held."""
        return len(self.cards)

    @property
    def points(self) -> int:
        """The sum of the held cards' awakening points."""
        return sum(self.cards)

    def gain(self, *points: int) -> AwakeningHand:
        """The hand with cards worth ``points`` added.

        >>> AwakeningHand((1,)).gain(2, 3).cards
        (1, 2, 3)
        """
        return AwakeningHand(self.cards + tuple(points))

    def _spend(self, indices: Iterable[int]) -> tuple[AwakeningHand, tuple[int, ...]]:
        chosen = sorted(set(indices))
        if any(not 0 <= i < len(self.cards) for i in chosen):
            raise CardError("手札にない覚醒札は使えません")
        spent = tuple(self.cards[i] for i in chosen)
        kept = tuple(p for i, p in enumerate(self.cards) if i not in chosen)
        return AwakeningHand(kept), spent

    def boost_before(self, indices: Iterable[int]) -> tuple[AwakeningHand, int]:
        """Spend the cards at ``indices`` before the roll: the bonus is their points.

        >>> AwakeningHand((2, 5)).boost_before([1])
        (AwakeningHand(cards=(2,)), 5)
        """
        hand, spent = self._spend(indices)
        return hand, sum(spent)

    def boost_after(self, indices: Iterable[int]) -> tuple[AwakeningHand, int]:
        """Spend the cards at ``indices`` after the roll: the bonus is their number.

        >>> AwakeningHand((2, 5)).boost_after([0, 1])
        (AwakeningHand(cards=()), 2)
        """
        hand, spent = self._spend(indices)
        return hand, len(spent)


def reward_after_check(result: CheckResult, supporters: int = 0) -> tuple[int, int]:
    """Cards earned by the checker and by *each* supporter after a check.

    >>> from saikoro.systems._akatsuki.checks import CheckSpec, resolve_check
    >>> reward_after_check(resolve_check(CheckSpec(level=8, specialty=True), 2, 2), supporters=2)
    (1, 1)
    """
    gained = result.cards_gained
    return gained, gained if supporters else 0
