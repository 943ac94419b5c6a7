"""The round area's handlers refuse, in memory: opening a round, bets, cards, decisions,
settlement, voids and adjustments."""

from __future__ import annotations

from decimal import Decimal

from ledger.commands.round import (
    AdjustRound,
    AnnounceDealMode,
    CloseBetting,
    DealCard,
    Decide,
    ExposeCard,
    OpenRound,
    PlaceBet,
    RecordIrregularity,
    RevealDealer,
    SettleRound,
    VoidRound,
)
from ledger.commands.shoe import ShuffleShoe
from ledger.commands.table import SignOutDealer
from ledger.core.errors import (
    ConcurrencyConflict,
    InvalidInput,
    NotAllowed,
    NotFound,
    RuleViolation,
    WrongState,
)
from tests.unit.handlers.floor import DEALER, SUPERVISOR, Floor


def _bet(amount: str = "500", spot: str = "banker", **fields: object) -> PlaceBet:
    return PlaceBet(table="BAC-01", box=1, spot=spot, amount=Decimal(amount),
                    **fields)  # type: ignore[arg-type]


def _settled(floor: Floor) -> None:
    """Round 1 of BAC-01 played out: a banker bet, four cards, settled."""
    floor.do(_bet(), DEALER)
    for to, card in (("player", "2S"), ("banker", "9H"), ("player", "3D"), ("banker", "KC")):
        floor.do(DealCard(table="BAC-01", to=to, card=card), DEALER)
    floor.do(SettleRound(table="BAC-01"), DEALER)


# -- opening a round ------------------------------------------------------------------------
def test_no_round_opens_without_a_dealer_signed_in() -> None:
    floor = Floor()
    floor.baccarat(round_=False)
    floor.do(SignOutDealer(table="BAC-01", dealer_id="D-101"))
    floor.refuses(OpenRound(table="BAC-01"), WrongState, "table BAC-01 has no dealer signed in",
                  actor=DEALER)


def test_no_round_opens_outside_an_open_shift() -> None:
    floor = Floor()
    floor.table("STUD-01", "stud-poker", shift=False)
    floor.do(ShuffleShoe(table="STUD-01"), DEALER)
    floor.refuses(OpenRound(table="STUD-01"), WrongState, "STUD-01", actor=DEALER)


def test_a_second_round_does_not_open_while_one_is_in_play() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(OpenRound(table="BAC-01"), WrongState,
                  "table BAC-01 already has round 1 in play", actor=DEALER)


def test_a_round_needs_a_shoe() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.refuses(OpenRound(table="BAC-01"), WrongState, "table BAC-01 has no shoe",
                  actor=DEALER)


def test_a_baccarat_round_waits_for_the_cut() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.do(ShuffleShoe(table="BAC-01"), DEALER)
    floor.refuses(OpenRound(table="BAC-01"), WrongState, "is not cut yet", actor=DEALER)


def test_a_table_whose_house_allows_no_demonstration_coup_plays_none() -> None:
    floor = Floor()
    floor.baccarat(round_=False)
    floor.refuses(OpenRound(table="BAC-01", demonstration=True), RuleViolation,
                  "allow 0 demonstration coups a shoe", actor=DEALER)


def test_stud_poker_plays_no_demonstration_coup() -> None:
    floor = Floor()
    floor.stud()
    floor.refuses(OpenRound(table="STUD-01", demonstration=True), RuleViolation,
                  "Stud Poker plays no demonstration coups", actor=DEALER)


# -- bets -----------------------------------------------------------------------------------
def test_no_bet_without_a_round_in_play() -> None:
    floor = Floor()
    floor.baccarat(round_=False)
    floor.refuses(_bet(), WrongState, "table BAC-01 has no round in play", actor=DEALER)


def test_a_bet_for_another_round_than_the_one_in_play_is_refused() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(_bet(round=2), ConcurrencyConflict,
                  "round 2 is not in play at table BAC-01", actor=DEALER)


def test_a_bet_on_a_round_changed_since_the_terminal_read_it_is_refused() -> None:
    floor = Floor()
    floor.baccarat()
    floor.do(_bet(), DEALER)
    floor.refuses(_bet(expected_version=1), ConcurrencyConflict,
                  "changed since this terminal read it", actor=DEALER)


def test_a_bet_below_the_table_minimum_is_refused() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(_bet("50"), RuleViolation, "box 1 banker", "below the table minimum",
                  actor=DEALER)


def test_a_bet_above_the_table_maximum_is_refused() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(_bet("60000"), RuleViolation, "above the table maximum", actor=DEALER)


def test_a_bet_on_a_spot_the_game_does_not_have_is_refused() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(_bet(spot="ante"), InvalidInput, "'ante' is not a bet of Baccarat",
                  actor=DEALER)


def test_a_bet_after_betting_closed_is_refused() -> None:
    floor = Floor()
    floor.baccarat()
    floor.do(CloseBetting(table="BAC-01"), DEALER)
    floor.refuses(_bet(), RuleViolation, "bets are closed", actor=DEALER)


def test_a_demonstration_coup_takes_no_bets() -> None:
    floor = Floor()
    floor.baccarat(round_=False, demonstration_coups=1)
    floor.do(OpenRound(table="BAC-01", demonstration=True), DEALER)
    floor.refuses(_bet(), RuleViolation, "takes no bets", actor=DEALER)


def test_betting_is_closed_once() -> None:
    floor = Floor()
    floor.baccarat()
    floor.do(CloseBetting(table="BAC-01"), DEALER)
    floor.refuses(CloseBetting(table="BAC-01"), WrongState, "betting is already closed",
                  actor=DEALER)


def test_baccarat_has_no_deal_mode_to_announce() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(AnnounceDealMode(table="BAC-01", mode="cards_first"), RuleViolation,
                  "Baccarat has no deal mode", actor=DEALER)


# -- cards ----------------------------------------------------------------------------------
def test_a_baccarat_card_goes_to_the_player_or_the_banker() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(DealCard(table="BAC-01", to="box:1", card="2S"), InvalidInput,
                  "player or the banker", "box:1", actor=DEALER)


def test_a_card_is_dealt_in_its_turn() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(DealCard(table="BAC-01", to="banker", card="2S"), RuleViolation,
                  actor=DEALER)


def test_a_card_that_is_not_a_card_is_refused() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(DealCard(table="BAC-01", to="player", card="ZZ"), InvalidInput, "ZZ",
                  actor=DEALER)


def test_a_card_not_dealt_is_not_exposed() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(ExposeCard(table="BAC-01", to="player", card="2S"), InvalidInput,
                  "2S was not dealt to player", actor=DEALER)


def test_an_irregularity_that_voids_the_coup_needs_a_supervisor() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(RecordIrregularity(table="BAC-01", kind="initial_deal_error",
                                     correctable=False),
                  NotAllowed, "an irregularity that voids", "needs a supervisor", actor=DEALER)


def test_an_irregularity_the_game_does_not_know_is_refused() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(RecordIrregularity(table="BAC-01", kind="spilled_drink"), InvalidInput,
                  "spilled_drink", actor=DEALER)


def test_baccarat_has_no_player_decisions() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(Decide(table="BAC-01", box=1, decision="raise"), RuleViolation,
                  "Baccarat has no player decisions", actor=DEALER)


def test_baccarat_has_no_dealers_reveal() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(RevealDealer(table="BAC-01"), RuleViolation,
                  "Baccarat has no dealer's reveal", actor=DEALER)


# -- settlement, voids, adjustments ---------------------------------------------------------
def test_a_coup_is_not_settled_before_it_is_complete() -> None:
    floor = Floor()
    floor.baccarat()
    floor.do(_bet(), DEALER)
    floor.do(DealCard(table="BAC-01", to="player", card="2S"), DEALER)
    floor.refuses(SettleRound(table="BAC-01"), RuleViolation, "the coup is not complete",
                  actor=DEALER)


def test_a_dealer_cannot_void_a_round() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(VoidRound(table="BAC-01", reason="dispute"), NotAllowed,
                  "voiding a round needs a supervisor", actor=DEALER)


def test_no_round_in_play_is_not_voided() -> None:
    floor = Floor()
    floor.baccarat(round_=False)
    floor.refuses(VoidRound(table="BAC-01", reason="dispute"), WrongState,
                  "table BAC-01 has no round in play", actor=SUPERVISOR)


def _adjust(round_: int = 1, box: int = 1, spot: str = "banker") -> AdjustRound:
    return AdjustRound(table="BAC-01", round=round_, box=box, spot=spot,
                       amount=Decimal(100), reason="misread", dispute="DSP-1")


def test_a_dealer_cannot_adjust_a_settled_round() -> None:
    floor = Floor()
    floor.baccarat()
    _settled(floor)
    floor.refuses(_adjust(), NotAllowed, "adjusting a settled round needs a supervisor",
                  actor=DEALER)


def test_a_round_in_play_is_not_adjusted() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(_adjust(), WrongState, "is still in play", actor=SUPERVISOR)


def test_a_round_never_played_is_not_adjusted() -> None:
    floor = Floor()
    floor.baccarat(round_=False)
    floor.refuses(_adjust(round_=7), NotFound, "round 7 of table BAC-01 does not exist",
                  actor=SUPERVISOR)


def test_a_bet_that_was_not_placed_is_not_adjusted() -> None:
    floor = Floor()
    floor.baccarat()
    _settled(floor)
    floor.refuses(_adjust(box=2, spot="player"), NotFound, "no player bet on box 2",
                  actor=SUPERVISOR)
