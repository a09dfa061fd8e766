"""The 穢れ game: positions, 2D6 attack against 2D6 defence, statuses and the 穢れ track.

>>> from saikoro.dice import DiceSource
>>> s = Kegare()
>>> s.roll_command("KGA7VS5D8", DiceSource(dice=[(6, 6), (6, 6)])).text
'(KGA7VS5D8) ＞ 攻撃 12[6,6]+7=19 ＞ クリティカル ＞ ダメージ20'
>>> s.odds_command("KGA7VS5D8").events["クリティカル"]
Fraction(1, 36)
>>> s.board().distance("near", "far")
2
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from saikoro.dice import DiceSource, Odds, Roll
from saikoro.systems._base import FAN_WORK, OptionValue, RightsNotice, System
from saikoro.systems._flow import Flow

from .board import PositionBoard
from .checks import (
    AttackOdds,
    AttackSpec,
    Outcome,
    Position,
    Resolution,
    attack_odds,
    attack_table,
    check_penalty,
    effective_value,
    position_penalty,
    resolve,
)
from .commands import odds_command, roll_command
from .flows import FLOWS
from .reference import COMMANDS
from .rulings import RULINGS, Settings
from .status import (
    KEGARE_TRACK,
    Combatant,
    KegareChange,
    Status,
    initiative,
    kegare_after,
    kegare_effects,
    kegare_on_down,
    poison,
    recovery,
    recovery_success,
    status_recovery,
    turn_order,
)

__all__ = [
    "KEGARE_TRACK",
    "SYSTEM",
    "AttackOdds",
    "AttackSpec",
    "Combatant",
    "Kegare",
    "KegareChange",
    "Outcome",
    "Position",
    "PositionBoard",
    "Resolution",
    "Status",
    "attack_odds",
    "attack_table",
    "check_penalty",
    "effective_value",
    "initiative",
    "kegare_after",
    "kegare_effects",
    "kegare_on_down",
    "poison",
    "position_penalty",
    "recovery",
    "recovery_success",
    "resolve",
    "status_recovery",
    "turn_order",
]


class Kegare(System):
    """The 穢れ game: positions, attack against defence, statuses and 穢れ."""

    __slots__ = ()

    id = "kegare"
    sample_scenario = "saikoro.systems._kegare:sample.yaml"
    sample_flow = "kegare.attack"
    name = "穢れ（ケガレ）TRPG"
    rights = RightsNotice(
        game="穢れ（ケガレ）TRPG",
        holder="ルールの作者",
        guideline=FAN_WORK,
        source="作者の公開したルール文書",
    )
    aliases = ("穢れ", "ケガレ", "けがれ", "kegare-trpg")
    commands = COMMANDS
    rulings = RULINGS

    def __init__(self, **options: OptionValue) -> None:
        super().__init__(**options)
        self._int_option("min_damage", 0)

    @property
    def settings(self) -> Settings:
        """The options as the commands read them."""
        return Settings.from_options(self.options)

    def roll_command(self, command: str, source: DiceSource) -> Roll | None:
        """Roll a ``KG`` command (see :mod:`.commands`)."""
        if not command.startswith("KG"):
            return None
        return roll_command(command, source, self.settings)

    def odds_command(self, command: str) -> Odds | None:
        """Exact odds of a ``KG`` command."""
        if not command.startswith("KG"):
            return None
        return odds_command(command, self.settings)

    def turn_order(self, combatants: Sequence[Combatant]) -> list[Combatant]:
        """The acting order for a turn under the options in force (``paralysis_rounding``).

        >>> people = [Combatant("鬼", 5), Combatant("A", 9, pc=True, paralysed=True)]
        >>> [c.name for c in Kegare().turn_order(people)]
        ['鬼', 'A']
        >>> [c.name for c in Kegare(paralysis_rounding="up").turn_order(people)]
        ['A', '鬼']
        """
        return turn_order(combatants, rounding=str(self.option("paralysis_rounding")))

    def flows(self) -> Mapping[str, Flow]:
        """Battle, turn, a character's action, and the attack."""
        return dict(FLOWS)

    def board(self) -> PositionBoard:
        """The three positions (near, mid, far)."""
        return PositionBoard()


SYSTEM = Kegare
