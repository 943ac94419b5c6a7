"""Baccarat (DICJ 55/2004): the tableau, the shoe start, house settings, settlement, errors.

Pure: cards in, decisions and amounts out. Articles are those of the regulation annexed to
Despacho Regulamentar Externo n.º 55/2004 ("art. 9(3)(2)" is article 9, item 3), sub-item (2)).

>>> coup = play_coup("2S 4H 3D KC 5H 8D 9S")
>>> print(coup)
player 2S 3D 5H (0), banker 4H KC 8D (2): banker
>>> coup.cards_used
6
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import TypeVar

from pydantic import model_validator

from ledger.cards import Card, Rank, format_cards, parse_cards
from ledger.errors import InvalidInput, RuleViolation, SettingOutsideRegulation
from ledger.games.common import ZERO, BetResult, Consequence, Outcome, commission_on, money, pay
from ledger.games.settings import HouseSettings

REGULATION = "DICJ 55/2004"
MIN_DECKS, MAX_DECKS = 6, 12  # art. 1(1)
MIN_SEATS, MAX_BOXES = 7, 14  # art. 1(5): seven or more seats; one or two layouts of seven
MAX_DEMONSTRATION_COUPS = 3  # art. 2(2)
BANKER_COMMISSION = Fraction(5, 100)  # art. 18: fixed by the regulation, not a house option

_E = TypeVar("_E", bound=StrEnum)


class Side(StrEnum):
    PLAYER = "player"
    BANKER = "banker"


class Winner(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


def _parse(kind: type[_E], value: str, what: str) -> _E:
    try:
        return kind(value)
    except ValueError:
        known = ", ".join(member.value for member in kind)
        raise InvalidInput(f"'{value}' is not a {what}: use one of {known}.") from None


# --- card values and the tableau (arts. 5, 7, 9, 11) -------------------------------------

_ALL = frozenset(range(10))
# Art. 9(3)-(4): when the player drew, the banker draws on these values of the player's third
# card. The text counts tens and faces as 10; their value is 0, so 10 appears here as 0.
BANKER_DRAWS_ON: dict[int, frozenset[int]] = {
    0: _ALL, 1: _ALL, 2: _ALL, 3: _ALL - {8}, 4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)), 6: frozenset({6, 7}), 7: frozenset(),
}
_INITIAL_DEAL = (Side.PLAYER, Side.BANKER, Side.PLAYER, Side.BANKER)  # art. 7(1)


def card_value(card: Card) -> int:
    """Art. 5: tens and faces count 0, an ace 1, every other card its face value."""
    if card.rank == Rank.ACE:
        return 1
    return 0 if card.rank >= Rank.TEN else int(card.rank)


def _two_card_totals(values: Sequence[int]) -> tuple[int, int]:
    return (values[0] + values[2]) % 10, (values[1] + values[3]) % 10


def _due(values: Sequence[int]) -> Side | None:
    """Who receives the next card, given the values dealt so far (assumed consistent)."""
    count = len(values)
    if count < 4:
        return _INITIAL_DEAL[count]
    player, banker = _two_card_totals(values)
    if count == 6 or player >= 8 or banker >= 8:  # art. 9(2), 9(4)(6): a natural stops all
        return None
    player_drew = player <= 5  # art. 9(1)
    if count == 4:
        if player_drew:
            return Side.PLAYER
        return Side.BANKER if banker <= 5 else None  # art. 9(3)(6), 9(4)(4)
    if player_drew and values[4] in BANKER_DRAWS_ON[banker]:
        return Side.BANKER
    return None


def _values(cards: Sequence[Card]) -> list[int]:
    """The values of a coup's cards, refusing a sequence the tableau could not have dealt."""
    values = [card_value(card) for card in cards]
    for index in range(4, len(values)):
        if _due(values[:index]) is None:
            raise RuleViolation(
                f"the tableau was complete after {index} cards, yet card {index + 1} "
                f"({cards[index]}) was dealt in this coup."
            )
    return values


def next_card_to(cards_so_far: Sequence[Card]) -> Side | None:
    """Who receives the next card of the coup, or None when the tableau is complete.

    Cards the tableau could not have dealt (a fifth card after both stood) raise RuleViolation.

    >>> next_card_to(parse_cards("4S 7H 3D 9C"))  # player 7, banker 6: both stand
    >>> next_card_to(parse_cards("4S 7H 2D"))
    <Side.BANKER: 'banker'>
    """
    return _due(_values(cards_so_far))


def _refusal(values: Sequence[int], to: Side) -> str:
    """The sentence explaining why `to` may not receive the next card."""
    count, due = len(values), _due(values)
    if count < 4:
        return f"the next card goes to the {due}: the deal alternates player, banker (art. 7)"
    player, banker = _two_card_totals(values)
    if player >= 8 or banker >= 8:
        sides = ((Side.PLAYER, player), (Side.BANKER, banker))
        naturals = [f"the {side} has a natural {total}" for side, total in sides if total >= 8]
        return " and ".join(naturals) + ": no third card is allowed"
    player_drew = player <= 5
    if to is Side.PLAYER:
        if count >= 5 and player_drew:
            return "the player already has a third card: only one is allowed"
        return f"the player stands on {player}: a third card is not allowed"
    if due is Side.PLAYER:
        return f"the player draws first on {player}: the next card goes to the player"
    if count == 6 or (count == 5 and not player_drew):
        return "the banker already has a third card: only one is allowed"
    if count == 5 and banker != 7:
        return (f"the banker stands on {banker} when the player's third card is worth "
                f"{values[4]}: a third card is not allowed")
    return f"the banker stands on {banker}: a third card is not allowed"


def can_deal(cards_so_far: Sequence[Card], to: Side | str) -> bool:
    """Whether the tableau gives the next card to `to`."""
    return next_card_to(cards_so_far) == _parse(Side, to, "side")


def verify_deal(cards_so_far: Sequence[Card], to: Side | str) -> None:
    """Refuse, with the rule in a sentence, a card the tableau does not give to `to`."""
    side = _parse(Side, to, "side")
    values = _values(cards_so_far)
    if _due(values) is not side:
        raise RuleViolation(_refusal(values, side) + ".")


@dataclass(frozen=True, slots=True)
class Coup:
    """One coup as dealt: the hands, their totals, the winner and the pairs."""

    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    player_total: int
    banker_total: int
    winner: Winner
    player_pair: bool
    banker_pair: bool
    cards_used: int

    def __str__(self) -> str:
        return (f"player {format_cards(self.player_cards)} ({self.player_total}), "
                f"banker {format_cards(self.banker_cards)} ({self.banker_total}): {self.winner}")


def _hand_result(player: tuple[Card, ...], banker: tuple[Card, ...]) -> Coup:
    player_total = sum(card_value(card) for card in player) % 10
    banker_total = sum(card_value(card) for card in banker) % 10
    if player_total == banker_total:  # art. 12
        winner = Winner.TIE
    else:  # art. 11: the higher total wins
        winner = Winner.PLAYER if player_total > banker_total else Winner.BANKER
    return Coup(
        player_cards=player, banker_cards=banker,
        player_total=player_total, banker_total=banker_total, winner=winner,
        player_pair=player[0].rank == player[1].rank,  # art. 13(4): same rank, not value
        banker_pair=banker[0].rank == banker[1].rank,
        cards_used=len(player) + len(banker),
    )


def play_coup(cards: str | Iterable[Card]) -> Coup:
    """Deal a coup from `cards` in shoe order, using the 4 to 6 the tableau needs."""
    shoe = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    values = [card_value(card) for card in shoe[:6]]
    hands: dict[Side, list[Card]] = {Side.PLAYER: [], Side.BANKER: []}
    used = 0
    while (side := _due(values[:used])) is not None:
        if used == len(shoe):
            raise InvalidInput(
                f"the coup needs card {used + 1} for the {side}, but only {len(shoe)} "
                f"cards were given: give the cards in shoe order, up to six."
            )
        hands[side].append(shoe[used])
        used += 1
    return _hand_result(tuple(hands[Side.PLAYER]), tuple(hands[Side.BANKER]))


# --- house settings and the shoe (arts. 1, 2, 3, 7, 8, 12, 16, 18, 19) --------------------


class Equipment(StrEnum):
    SHOE = "shoe"  # art. 1(2), with one or more cut cards
    AUTOMATIC_SHUFFLER_DEALER = "automatic_shuffler_dealer"  # art. 1(3), 2(3), 7(2)
    SHUFFLER = "shuffler"  # art. 1(4): shuffles only; the cards are then dealt from a shoe


class BurnMethod(StrEnum):
    BY_DECKS = "by_decks"  # art. 2(1): as many cards as decks
    BY_FIRST_CARD_VALUE = "by_first_card_value"  # art. 2(1): by the first card's face value


class LastCoup(StrEnum):
    """Art. 3(1): what the blank card announces."""

    THIS_COUP = "this_coup"  # the coup in which it appears is the last of the shoe
    ONE_MORE = "one_more"  # one more coup is played after it


class TieHandling(StrEnum):
    """Art. 12: what happens to the player and banker bets of a tied coup in the next coup."""

    WITHDRAWN = "withdrawn"  # art. 12(1)
    KEPT = "kept"  # art. 12(2): they stand unchanged
    CHANGED_AMOUNT = "changed_amount"  # art. 12(3)(1): same side, amount up or down
    CHANGED_SIDE = "changed_side"  # art. 12(3)(2): same amount, player <-> banker


class BaccaratSettings(HouseSettings):
    """A baccarat table's house options; those of arts. 2, 3, 7 and 12 need DICJ authorisation
    three working days ahead (art. 19), hence the dated, referenced record."""

    decks: int
    equipment: Equipment = Equipment.SHOE
    burn_method: BurnMethod = BurnMethod.BY_DECKS  # unused with the shuffler-dealer (art. 2(3))
    demonstration_coups: int = 0
    last_coup: LastCoup = LastCoup.THIS_COUP
    shoe_replaced_each_shoe: bool = False  # art. 3(2)
    burn_card_each_coup: bool = False  # art. 8
    tie_handling: TieHandling = TieHandling.WITHDRAWN
    players_handle_cards: bool = False  # art. 16
    commission_rate: Decimal = Decimal("0.05")
    seats: int = MIN_SEATS  # boxes 1 to seats are the seated players' spaces (art. 15)

    @model_validator(mode="after")
    def _within_regulation(self) -> BaccaratSettings:
        check_decks(self.decks)
        if not 0 <= self.demonstration_coups <= MAX_DEMONSTRATION_COUPS:
            raise SettingOutsideRegulation(
                f"{self.demonstration_coups} demonstration coups: art. 2(2) of {REGULATION} "
                f"allows 0 to {MAX_DEMONSTRATION_COUPS} at the start of each shoe."
            )
        if not MIN_SEATS <= self.seats <= MAX_BOXES:
            raise SettingOutsideRegulation(
                f"{self.seats} seats: art. 1(5) of {REGULATION} requires seven or more, and the "
                f"layouts hold {MAX_BOXES} boxes."
            )
        if Fraction(self.commission_rate) != BANKER_COMMISSION:
            raise SettingOutsideRegulation(
                f"a banker commission of {self.commission_rate}: art. 18 of {REGULATION} "
                f"fixes it at 5% (0.05) of the banker's win."
            )
        return self


def check_standing_bet(box: int, seats: int) -> None:
    """Art. 15: a standing player may not bet in the space reserved for the seated players
    (boxes 1 to `seats`); the boxes after them are the standing players'."""
    if box <= seats:
        spaces = (f"standing players bet on boxes {seats + 1} to {MAX_BOXES}"
                  if seats < MAX_BOXES else "this layout has no space for standing players")
        raise RuleViolation(
            f"box {box} is a seated player's space: a standing player may not bet there (art. "
            f"15 of {REGULATION}); {spaces}.")


def check_decks(decks: int) -> None:
    if not MIN_DECKS <= decks <= MAX_DECKS:
        raise SettingOutsideRegulation(
            f"{decks} decks: art. 1(1) of {REGULATION} requires {MIN_DECKS} to {MAX_DECKS} "
            f"decks of 52 cards."
        )


def first_card_burn_value(card: Card) -> int:
    """Art. 2(1) by face value: A counts 1, 2-9 their value, T/J/Q/K count 10."""
    if card.rank == Rank.ACE:
        return 1
    return min(int(card.rank), 10)


def burn_count(method: BurnMethod | str, decks: int, first_card: Card | None = None) -> int:
    """How many cards leave the shoe, burned, before its first coup (art. 2(1)).

    By decks: one card per deck. By first card value: the first card is turned up and burned,
    then as many more as its face value, so the total counts the first card too (a 7 burns 8).

    >>> burn_count("by_first_card_value", 8, Card.parse("KH"))
    11
    """
    check_decks(decks)
    if _parse(BurnMethod, method, "burn method") is BurnMethod.BY_DECKS:
        return decks
    if first_card is None:
        raise InvalidInput("burning by the first card's value needs the first card drawn.")
    return 1 + first_card_burn_value(first_card)


def burn_at_shoe_start(settings: BaccaratSettings, first_card: Card | None = None) -> int:
    """Cards burned before a shoe's first coup: none with the shuffler-dealer (art. 2(3))."""
    if settings.equipment is Equipment.AUTOMATIC_SHUFFLER_DEALER:
        return 0
    return burn_count(settings.burn_method, settings.decks, first_card)


def coups_after_blank_card(option: LastCoup | str) -> int:
    """Art. 3(1): coups still played after the one in which the blank card appears."""
    return 1 if _parse(LastCoup, option, "last-coup option") is LastCoup.ONE_MORE else 0


# --- bets and settlement (arts. 12, 13, 17, 18) --------------------------------------------


class Spot(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"


ODDS: dict[Spot, Fraction] = {  # art. 17
    Spot.PLAYER: Fraction(1), Spot.BANKER: Fraction(1), Spot.TIE: Fraction(8),
    Spot.PLAYER_PAIR: Fraction(11), Spot.BANKER_PAIR: Fraction(11),
}


@dataclass(frozen=True, slots=True)
class Bet:
    """One bet of a coup: a box, a spot, a stake and, where known, the player who placed it."""

    box: int
    spot: Spot
    stake: Decimal
    player: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.box, bool) or not isinstance(self.box, int) or self.box < 1:
            raise InvalidInput(f"'{self.box}' is not a box: boxes are numbered from 1.")
        object.__setattr__(self, "spot", _parse(Spot, self.spot, "baccarat bet spot"))
        try:
            stake = money(self.stake)
        except (TypeError, ValueError, ArithmeticError):
            raise InvalidInput(f"'{self.stake}' is not a stake in patacas and avos.") from None
        if stake <= 0:
            raise InvalidInput(f"a stake of {stake} on box {self.box}: a stake must be positive.")
        object.__setattr__(self, "stake", stake)


def _wins(spot: Spot, coup: Coup) -> bool:
    if spot is Spot.PLAYER_PAIR:
        return coup.player_pair
    if spot is Spot.BANKER_PAIR:
        return coup.banker_pair
    return spot.value == coup.winner.value  # player, banker and tie name the winner


def _lost(bet: Bet) -> BetResult:
    return BetResult(
        box=bet.box, spot=bet.spot, stake=bet.stake, outcome=Outcome.LOST, player=bet.player
    )


def _settle(bet: Bet, coup: Coup) -> BetResult:
    if coup.winner is Winner.TIE and bet.spot in (Spot.PLAYER, Spot.BANKER):
        # art. 12: neither wins nor loses; what follows (withdrawn, kept, changed) is the
        # house's tie handling, applied to the next coup's bets.
        return replace(_lost(bet), outcome=Outcome.PUSHED, returned=bet.stake)
    if not _wins(bet.spot, coup):
        return _lost(bet)
    payout = pay(bet.stake, ODDS[bet.spot])
    commission = commission_on(payout, BANKER_COMMISSION) if bet.spot is Spot.BANKER else ZERO
    return replace(
        _lost(bet), outcome=Outcome.WON, returned=bet.stake, payout=payout, commission=commission
    )


def settle_coup(bets: Iterable[Bet], coup: Coup) -> tuple[BetResult, ...]:
    """Each bet's result, in the order given (arts. 12, 13, 17, 18)."""
    return tuple(_settle(bet, coup) for bet in bets)


def settle_void_coup(bets: Iterable[Bet]) -> tuple[BetResult, ...]:
    """A void coup (art. 10) returns every stake in full."""
    return tuple(replace(_lost(bet), outcome=Outcome.RETURNED, returned=bet.stake) for bet in bets)


def verify_bet_after_tie(pushed: BetResult, new: Bet | None, handling: TieHandling | str) -> None:
    """Refuse a next-coup bet that the house's tie handling (art. 12) does not allow.

    `pushed` is a player or banker bet pushed by a tie; `new` is what stands on the same box
    for the next coup (None: nothing stands). Withdrawn bets leave the player free.
    """
    option = _parse(TieHandling, handling, "tie handling")
    if option is TieHandling.WITHDRAWN:
        return
    whose = f" (player {pushed.player})" if pushed.player else ""
    was = f"box {pushed.box}'s {pushed.stake} on the {pushed.spot}{whose}"
    rule = f"this house's tie handling is '{option}' (art. 12)"
    if new is None:
        raise RuleViolation(f"{rule}: {was} stays in play for the next coup.")
    same_side, same_stake = new.spot == pushed.spot, new.stake == pushed.stake
    if option is TieHandling.KEPT and not (same_side and same_stake):
        raise RuleViolation(f"{rule}: {was} cannot be changed.")
    if option is TieHandling.CHANGED_AMOUNT and not same_side:
        raise RuleViolation(f"{rule}: {was} may change amount but not side.")
    if option is TieHandling.CHANGED_SIDE and not (
        same_stake and new.spot in (Spot.PLAYER, Spot.BANKER)
    ):
        raise RuleViolation(f"{rule}: {was} may move between player and banker, same amount.")


# --- irregularities (arts. 4, 10) --------------------------------------------------------


class Irregularity(StrEnum):
    CARD_FACE_UP = "card_face_up"  # art. 4: a card leaves the shoe or machine face up
    INITIAL_DEAL_ERROR = "initial_deal_error"  # art. 10: error in the first four cards
    THIRD_CARD_ERROR = "third_card_error"  # art. 10: error in the additional cards


def classify_irregularity(kind: Irregularity | str, correctable: bool) -> Consequence:
    """What an irregularity does to the coup.

    A card out face up is valid and play goes on (art. 4). A dealing error is corrected at
    once; when it cannot be corrected at all the coup is void (art. 10).
    """
    if _parse(Irregularity, kind, "baccarat irregularity") is Irregularity.CARD_FACE_UP:
        return Consequence.ROUND_CONTINUES
    return Consequence.CORRECTED if correctable else Consequence.ROUND_VOID
