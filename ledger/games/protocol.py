"""What the rest of the ledger asks of a game: the `Game` protocol.

Every game is one package under `ledger.games` whose `game.GAME` is a `Game`, registered in
`ledger.games.registry`. Nothing outside `ledger.games` compares game codes: it asks the
game. The members that need the game's rules engine load it when first used, so knowing a
game's name or its shoe costs no engine import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from ledger.core.cards import Card
    from ledger.games.boards import Roads
    from ledger.games.facts import Procedure
    from ledger.games.jackpot import JackpotPoolSettings
    from ledger.games.odds import BetOdds, Moments, RoundOdds, Stake
    from ledger.games.settings import HouseSettings
    from ledger.games.shoe import ShoePolicy


class HandValue(NamedTuple):
    """A hand as the rules engine values it, and as a dealer says it."""

    value: str | None  # what the hand is worth, as the rules engine writes it
    name: str | None  # the same in words, as a dealer says it
    qualifies: bool | None  # the dealer's hand: whether the dealer plays


class NamedCards(NamedTuple):
    """What `ledger hand` says of some cards under a game's rules."""

    said: dict[str, Any]  # the fields of the JSON answer beyond the game and the cards
    line: str  # the same as one sentence


@dataclass(frozen=True)
class TablePlan:
    """How the floor simulator sets up and paces a table of the game."""

    floor_order: int  # where the game comes when the simulator spreads tables over games
    prefix: str  # the table codes' prefix: `BAC` for BAC-01
    min_bet: Decimal
    max_bet: Decimal
    decks: int
    round_seconds: int  # how long a round takes at the table
    shuffler_on_odd_tables: bool = False  # every other table deals by a shuffler
    cut_card_behind: int | None = None  # the simulator's cut card: before this many last cards
    fresh_shoe_each_round: bool = False
    buy_in: int = 10  # a typical player's buy-in, in their usual stakes
    biases: tuple[str, ...] = ()  # the biased play the simulator can put at a table (`marked-cards`)


class Game(Protocol):
    """One table game, as the ledger's commands, screens, audit and simulator need it."""

    @property
    def code(self) -> str:
        """The game's code as events store it (`stud-poker`): a wire value, never renamed."""

    @property
    def name(self) -> str:
        """The game by its regulation's name: `Stud Poker`."""

    @property
    def rule_sets(self) -> tuple[str, ...]:
        """The ids of the game's rule sets, oldest first (`ledger.games.rulesets`)."""

    @property
    def settings_class(self) -> type[HouseSettings]:
        """The house settings of the game's latest rule set."""

    @property
    def default_settings(self) -> Mapping[str, Any]:
        """What a new table plays with when the house names nothing else."""

    @property
    def procedure(self) -> Procedure:
        """The round procedure over recorded facts: checks each action, settles."""

    @property
    def shoe(self) -> ShoePolicy:
        """Decks, the cut card, burns, the shuffler."""

    @property
    def takes_jackpot_bets(self) -> bool:
        """Whether a table of the game links to a jackpot pool and takes jackpot bets."""

    @property
    def void_carries_jackpot(self) -> bool:
        """Whether a supervisor's void carries the round's jackpot bets to the next round."""

    @property
    def pushed_bets_stand(self) -> bool:
        """Whether bets a tie pushed stand on the next coup as the house's tie handling says."""

    @property
    def bet_place(self) -> str:
        """Where a bet sits, as a format of its box and spot: `box {} {}`."""

    def name_cards(self, cards: Sequence[Card]) -> NamedCards:
        """What the game's rules make of some cards (`ledger hand`)."""

    def hand_value(self, target: str, cards: tuple[Card, ...]) -> HandValue:
        """A recorded hand's value, in words, and the dealer's qualification."""

    def dealer_summary(self, cards: Sequence[str]) -> str:
        """The dealer's shown hand as the floor says it; "" where the outcome says it all."""

    @property
    def describes_boxes(self) -> bool:
        """Whether the floor says what each box did in a settled round (`describe_boxes`),
        which its outcome does not say; the floor reads those rounds' settled bets."""

    def describe_boxes(self, bets: Sequence[Mapping[str, Any]]) -> str:
        """What each box did in a settled round, from its settled bets as the event log reads
        them (`box`, `spot`, `outcome`): Stud Poker's `boxes 3 and 5 win; box 6 folds`."""

    def roads(self, outcomes: Sequence[Mapping[str, object]]) -> Roads | None:
        """The scoreboards the floor draws for a table (baccarat's bead plate and big road)
        from its settled rounds' outcomes (`Procedure.outcome`), oldest first; None for a game
        that keeps none."""

    def prepare(self) -> None:
        """Make now what the game's rules would make on first use (Stud Poker's hand values),
        for a process that records from many threads or forks workers; most games make
        nothing."""

    @property
    def table_plan(self) -> TablePlan:
        """How the floor simulator sets up a table of the game."""

    @property
    def simulated_round(self) -> Callable[[Any, Any], bool]:
        """The simulator's play of one round at a table; True when the round was voided."""

    def simulated_shoe_start(self, sim: Any) -> int:
        """What the simulator plays at a fresh shoe before its first round (baccarat's
        demonstration coups, as many as the table's settings give): how many rounds, with no
        bets, it played; 0 for most games."""

    def simulated_settings(self, odd: bool) -> dict[str, object]:
        """House settings the simulator gives a table beyond the defaults."""

    def bet_odds(self, settings: HouseSettings) -> tuple[BetOdds, ...]:
        """Every bet's house edge and variance under these settings (`ledger.games.odds`)."""

    def round_odds(self, settings: HouseSettings) -> RoundOdds:
        """How a round's bets move together under these settings: each spot's edge and the
        covariance of two spots' unit results on one box and on two boxes of the round."""

    def round_moments(self, settings: HouseSettings, bets: Iterable[Stake]) -> Moments:
        """The mean and variance of the house's win on one round holding `bets`, its bets
        taken together (`ledger.games.odds.RoundOdds.moments`)."""

    def jackpot_odds(self, pool: JackpotPoolSettings, stake: Decimal,
                     pool_amount: Decimal) -> BetOdds | None:
        """A jackpot bet's figures for this stake and the pool as it stands; None for a game
        that takes no jackpot bets."""

    def jackpot_hit_chance(self) -> Fraction | None:
        """The chance that one jackpot bet wins a prize of any kind; None for a game that takes
        no jackpot bets."""
