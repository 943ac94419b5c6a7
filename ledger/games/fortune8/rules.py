"""Fortune 8 (DICJ 71/2009): one card per space decides its three boxes, L, 8 and H.

Article numbers are those of the annexed regulation (`fortune-8-2009_*`). The round is a frozen
value: each table action has a `verify_*` check that raises a typed error with a sentence, and
a method that returns the round with the action applied.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from pydantic import model_validator

from ledger.core.cards import Card, Rank
from ledger.core.errors import InvalidInput, RuleViolation, SettingOutsideRegulation
from ledger.games.common import BetResult, Consequence, Outcome, money, pay
from ledger.games.settings import HouseSettings

SPACES = tuple(range(1, 8))  # art. 4(1): seven spaces on the layout


class Box(StrEnum):
    """Art. 4(2): the three boxes of a space, from the player outwards."""

    LOW = "L"
    EIGHT = "8"
    HIGH = "H"


ODDS = {Box.LOW: Fraction(1), Box.EIGHT: Fraction(11), Box.HIGH: Fraction(1)}  # art. 8


def winning_box(card: Card | str) -> str:
    """Art. 6(2) and 7: L wins on 2 to 7, 8 on an eight, H on 9 to K and the ace.

    >>> [winning_box(code) for code in ("7S", "8D", "AH")]
    ['L', '8', 'H']
    """
    rank = (Card.parse(card) if isinstance(card, str) else card).rank
    if rank == Rank.EIGHT:
        return Box.EIGHT.value
    return (Box.LOW if rank < Rank.EIGHT else Box.HIGH).value  # the ace counts high, art. 6(2)


# --- House settings (art. 1, 2, 4(6)) ------------------------------------------------------


class DealMode(StrEnum):
    """Art. 4(6): after the burn, a card on every space, or only on spaces holding bets."""

    ALL_SPACES = "all_spaces"
    SPACES_WITH_BETS = "spaces_with_bets"


class Equipment(StrEnum):
    """Art. 1(2)-(4)."""

    SHOE = "shoe"  # with a cut card
    AUTOMATIC_SHUFFLER_DEALER = "automatic_shuffler_dealer"
    SHUFFLER = "shuffler"


MAX_DECKS = 8  # art. 1(1): one to eight decks
CUT_CARD_BEFORE_LAST = 12  # art. 2(1)


class Fortune8Settings(HouseSettings):
    """Decks, equipment and the deal mode the dealer usually announces (each round records the
    mode actually announced), besides the table limits."""

    decks: int
    equipment: Equipment = Equipment.SHOE
    deal_mode: DealMode = DealMode.ALL_SPACES

    @model_validator(mode="after")
    def _decks_allowed(self) -> Fortune8Settings:
        if not 1 <= self.decks <= MAX_DECKS:
            raise SettingOutsideRegulation(
                f"Fortune 8 is played with one to eight decks (art. 1(1)); {self.decks} were set."
            )
        return self

    @property
    def cut_card_before_last(self) -> int | None:
        """Art. 2: cards left behind the cut card; none with the automatic shuffler-dealer."""
        if self.equipment == Equipment.AUTOMATIC_SHUFFLER_DEALER:
            return None
        return CUT_CARD_BEFORE_LAST

    def verify_stake(self, stake: Decimal) -> None:
        """Art. 4(3): each bet up to the limit the house sets for the table."""
        if not self.min_bet <= stake <= self.max_bet:
            raise RuleViolation(
                f"a bet of {stake} is outside the table limits {self.min_bet} to {self.max_bet} "
                "(art. 4(3))."
            )


# --- Bets and irregularities ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bet:
    """One player's bet on one of the 21 boxes (art. 4(3)); any number of players (art. 4(1))."""

    space: int
    box: Box
    stake: Decimal
    player: str | None = None

    def __post_init__(self) -> None:
        if self.space not in SPACES:
            raise InvalidInput(f"'{self.space}' is not a space: the layout has spaces 1 to 7.")
        try:
            object.__setattr__(self, "box", Box(self.box))
            object.__setattr__(self, "stake", money(self.stake))
        except (ValueError, TypeError):
            raise InvalidInput(
                f"a Fortune 8 bet is an amount in patacas on box L, 8 or H; "
                f"got {self.stake!r} on {self.box!r}."
            ) from None
        if self.stake <= 0:
            raise InvalidInput(f"a bet must be a positive amount; got {self.stake}.")


class Irregularity(StrEnum):
    CARD_LEFT_SHOE_FACE_UP = "card_left_shoe_face_up"  # art. 3: the card stands
    # art. 5, dealing errors: corrected at once, or the round is void
    FIRST_CARD_NOT_BURNED = "first_card_not_burned"
    SPACE_MISSED = "space_missed"
    CARD_TO_SPACE_WITHOUT_BETS = "card_to_space_without_bets"
    TWO_CARDS_TO_ONE_SPACE = "two_cards_to_one_space"
    OTHER_DEALING_ERROR = "other_dealing_error"


def classify_irregularity(kind: Irregularity | str, corrected: bool = True) -> Consequence:
    """Art. 3 and 5. Whether a dealing error could be corrected is the supervisor's finding."""
    try:
        irregularity = Irregularity(kind)
    except ValueError:
        known = ", ".join(Irregularity)
        raise InvalidInput(
            f"'{kind}' is not a Fortune 8 irregularity: use one of {known}."
        ) from None
    if irregularity == Irregularity.CARD_LEFT_SHOE_FACE_UP:
        return Consequence.ROUND_CONTINUES
    return Consequence.CORRECTED if corrected else Consequence.ROUND_VOID


# --- The round (art. 4, 5, 6) --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fortune8Round:
    """One round as the table saw it: bets, the announced mode, the burn, one card per space.
    Build it with `Fortune8Round.open(settings)` and the checked actions below."""

    decks: int = MAX_DECKS
    mode: DealMode | None = None  # as the dealer announced it this round, art. 4(6)
    bets: tuple[Bet, ...] = ()
    burned: bool = False
    burn_card: Card | None = None  # the regulation does not say the burn card is shown
    cards: tuple[tuple[int, Card], ...] = ()  # (space, card) in the order dealt
    void: bool = False

    @classmethod
    def open(cls, settings: Fortune8Settings) -> Fortune8Round:
        return cls(decks=settings.decks)

    @property
    def bets_open(self) -> bool:
        """Art. 4(5)-(6): betting ends with the announcement, before any card is drawn."""
        return self.mode is None and not self.burned and not self.cards and not self.void

    @property
    def spaces_with_bets(self) -> tuple[int, ...]:
        return tuple(sorted({bet.space for bet in self.bets}))

    @property
    def spaces_to_deal(self) -> tuple[int, ...]:
        """The spaces the announced mode gives a card, listed left to right (space 1 first)."""
        if self.mode is None:
            return ()
        return SPACES if self.mode == DealMode.ALL_SPACES else self.spaces_with_bets

    def card_on(self, space: int) -> Card | None:
        return next((card for s, card in self.cards if s == space), None)

    @property
    def spaces_waiting(self) -> tuple[int, ...]:
        return tuple(space for space in self.spaces_to_deal if self.card_on(space) is None)

    @property
    def deal_complete(self) -> bool:
        return self.burned and not self.spaces_waiting

    def _verify_not_void(self) -> None:
        if self.void:
            raise RuleViolation("this round is void: every bet is returned, nothing else happens.")

    def verify_bet(self, bet: Bet) -> None:
        self._verify_not_void()
        if not self.bets_open:
            raise RuleViolation(
                f"bets are closed for space {bet.space}: every bet is placed before the dealer "
                "announces the deal and before any card is drawn or shown (art. 4(5)-(6))."
            )

    def place_bet(self, bet: Bet) -> Fortune8Round:
        self.verify_bet(bet)
        return replace(self, bets=(*self.bets, bet))

    def verify_announce(self, mode: DealMode | str) -> None:
        self._verify_not_void()
        if mode not in set(DealMode):
            raise InvalidInput(
                f"'{mode}' is not a deal mode: use 'all_spaces' or 'spaces_with_bets'."
            )
        if self.mode is not None:
            raise RuleViolation(f"the dealer already announced '{self.mode}' for this round.")

    def announce(self, mode: DealMode | str) -> Fortune8Round:
        self.verify_announce(mode)
        return replace(self, mode=DealMode(mode))

    def _verify_in_shoe(self, card: Card) -> None:
        drawn = Counter(card for _, card in self.cards)
        drawn.update([self.burn_card] if self.burn_card else [])
        if drawn[card] >= self.decks:
            raise InvalidInput(
                f"{card} is already out as many times as there are decks ({self.decks})."
            )

    def verify_burn(self, card: Card | None = None) -> None:
        self._verify_not_void()
        if self.mode is None:
            raise RuleViolation(
                "the dealer announces the deal mode before drawing the first card (art. 4(6))."
            )
        if self.burned:
            raise RuleViolation("the first card of this round is already burned.")
        if card is not None:
            self._verify_in_shoe(card)

    def burn(self, card: Card | None = None) -> Fortune8Round:
        self.verify_burn(card)
        return replace(self, burned=True, burn_card=card)

    def verify_card(self, space: int, card: Card) -> None:
        self._verify_not_void()
        if not self.burned:
            raise RuleViolation(
                "the first card is burned before any space gets a card (art. 4(6)); "
                "a card dealt without the burn is a dealing error (art. 5)."
            )
        if space not in SPACES:
            raise InvalidInput(f"'{space}' is not a space: the layout has spaces 1 to 7.")
        if (already := self.card_on(space)) is not None:
            raise RuleViolation(
                f"space {space} already has its card {already}: a second card is a dealing "
                "error to correct at once (art. 5)."
            )
        if space not in self.spaces_to_deal:
            raise RuleViolation(
                f"space {space} holds no bet and the dealer announced cards only on spaces "
                "with bets: a dealing error to correct at once (art. 5)."
            )
        self._verify_in_shoe(card)

    def deal(self, space: int, card: Card) -> Fortune8Round:
        """One card face up on `space`. Spaces may be dealt in any order: art. 4 sets none."""
        self.verify_card(space, card)
        return replace(self, cards=(*self.cards, (space, card)))

    def record_irregularity(
        self, kind: Irregularity | str, corrected: bool = True
    ) -> Fortune8Round:
        """Art. 3 and 5: the round goes on, corrected, unless the error could not be corrected."""
        if classify_irregularity(kind, corrected) == Consequence.ROUND_VOID:
            return replace(self, void=True)
        return self


def _result(bet: Bet, outcome: Outcome, returned: Decimal, payout: Decimal) -> BetResult:
    return BetResult(
        box=bet.space,
        spot=bet.box.value,
        stake=bet.stake,
        outcome=outcome,
        returned=returned,
        payout=payout,
        player=bet.player,
    )


def settle(round_: Fortune8Round) -> tuple[BetResult, ...]:
    """Art. 6-8, space by space (L, 8, H): the box matching the space's card wins, the others
    lose. `BetResult.box` is the space and `BetResult.spot` the box ('L', '8' or 'H')."""
    order = list(Box)
    bets = sorted(round_.bets, key=lambda bet: (bet.space, order.index(bet.box)))
    nothing = Decimal("0.00")
    if round_.void:
        return tuple(_result(bet, Outcome.RETURNED, bet.stake, nothing) for bet in bets)
    if round_.bets and not round_.deal_complete:
        waiting = ", ".join(str(space) for space in round_.spaces_waiting) or "the burn"
        raise RuleViolation(
            f"the deal is not complete (waiting: {waiting}): a dealing error is corrected at "
            "once, or the round is void (art. 5)."
        )
    results = []
    for bet in bets:
        card = round_.card_on(bet.space)
        if card is not None and winning_box(card) == bet.box:
            results.append(_result(bet, Outcome.WON, bet.stake, pay(bet.stake, ODDS[bet.box])))
        else:
            results.append(_result(bet, Outcome.LOST, nothing, nothing))
    return tuple(results)
