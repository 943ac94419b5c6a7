"""The shoe area's handlers refuse, in memory: shuffling, cutting, burning, closing."""

from __future__ import annotations

from ledger.commands.round import OpenRound
from ledger.commands.shoe import BurnCards, CloseShoe, CutShoe, ShuffleShoe
from ledger.commands.table import CloseTable
from ledger.core.errors import InvalidInput, NotFound, RuleViolation, WrongState
from ledger.domain.shoe import ShuffleMethod
from tests.unit.handlers.floor import DEALER, Floor


def test_a_shoe_is_not_shuffled_at_a_table_never_opened() -> None:
    Floor().refuses(ShuffleShoe(table="BAC-09"), NotFound, "table BAC-09 does not exist",
                    actor=DEALER)


def test_a_shoe_is_not_shuffled_at_a_closed_table() -> None:
    floor = Floor()
    floor.table(shift=False, dealer=False)
    floor.do(CloseTable(table="BAC-01"))
    floor.refuses(ShuffleShoe(table="BAC-01"), WrongState, "table BAC-01 is closed",
                  actor=DEALER)


def test_no_shuffle_while_a_round_is_in_play() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(ShuffleShoe(table="BAC-01"), WrongState, "table BAC-01 has a round in play",
                  actor=DEALER)


def test_stud_poker_is_not_dealt_by_an_automatic_shuffler_dealer() -> None:
    floor = Floor()
    floor.table("STUD-01", "stud-poker")
    floor.refuses(ShuffleShoe(table="STUD-01", method=ShuffleMethod.AUTOMATIC), RuleViolation,
                  "stud-poker", "automatic shuffler-dealer", actor=DEALER)


def test_a_shuffle_by_a_shuffler_names_its_serial_number() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.refuses(ShuffleShoe(table="BAC-01", method=ShuffleMethod.SHUFFLER), InvalidInput,
                  "serial number", actor=DEALER)


def test_a_shoe_of_another_number_of_decks_than_the_house_settings_is_refused() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.refuses(ShuffleShoe(table="BAC-01", decks=6), RuleViolation,
                  "table BAC-01 plays with 8 decks", "not 6", actor=DEALER)


def test_a_table_without_a_shoe_has_nothing_to_cut() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.refuses(CutShoe(table="BAC-01", cut_by="dealer", cut_card_position=404), WrongState,
                  "table BAC-01 has no shoe", actor=DEALER)


def test_a_shoe_is_cut_once() -> None:
    floor = Floor()
    floor.baccarat(round_=False)
    floor.refuses(CutShoe(table="BAC-01", cut_by="dealer", cut_card_position=404), WrongState,
                  "already cut, by player at box 3", actor=DEALER)


def test_a_baccarat_cut_says_where_the_cut_card_sits() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.do(ShuffleShoe(table="BAC-01"), DEALER)
    floor.refuses(CutShoe(table="BAC-01", cut_by="dealer"), InvalidInput, "cut card",
                  "baccarat", actor=DEALER)


def test_the_cut_card_sits_within_the_shoe() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.do(ShuffleShoe(table="BAC-01"), DEALER)
    floor.refuses(CutShoe(table="BAC-01", cut_by="dealer", cut_card_position=500), InvalidInput,
                  "the shoe holds 416 cards", "500", actor=DEALER)


def test_a_shoe_shuffled_by_the_automatic_shuffler_dealer_is_not_cut() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.do(ShuffleShoe(table="BAC-01", method=ShuffleMethod.AUTOMATIC), DEALER)
    floor.refuses(CutShoe(table="BAC-01", cut_by="dealer", cut_card_position=404),
                  RuleViolation, "is not cut", actor=DEALER)


def test_cards_are_burned_only_after_the_cut() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.do(ShuffleShoe(table="BAC-01"), DEALER)
    floor.refuses(BurnCards(table="BAC-01", count=8), WrongState,
                  "cut before its first cards are burned", actor=DEALER)


def test_a_baccarat_shoe_burns_as_many_cards_as_decks() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.do(ShuffleShoe(table="BAC-01"), DEALER)
    floor.do(CutShoe(table="BAC-01", cut_by="dealer", cut_card_position=404), DEALER)
    floor.refuses(BurnCards(table="BAC-01", count=3), RuleViolation,
                  "as many cards as decks", "not 3", actor=DEALER)


def test_a_shoes_first_cards_are_burned_once() -> None:
    floor = Floor()
    floor.baccarat(round_=False)
    floor.refuses(BurnCards(table="BAC-01", count=8), WrongState, "burned once",
                  actor=DEALER)


def test_stud_poker_burns_no_cards() -> None:
    floor = Floor()
    floor.stud()
    floor.refuses(BurnCards(table="STUD-01", count=1), RuleViolation,
                  "stud-poker burns no cards", actor=DEALER)


def test_a_shoe_is_not_closed_while_a_round_is_in_play() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(CloseShoe(table="BAC-01"), WrongState,
                  "table BAC-01 has a round in play: close the shoe after it", actor=DEALER)


def test_a_closed_shoe_is_not_closed_again() -> None:
    floor = Floor()
    floor.baccarat(round_=False)
    floor.do(CloseShoe(table="BAC-01"), DEALER)
    floor.refuses(CloseShoe(table="BAC-01"), WrongState, "the shoe of table BAC-01 is closed",
                  actor=DEALER)


def test_a_round_is_not_opened_on_a_closed_shoe() -> None:
    floor = Floor()
    floor.baccarat(round_=False)
    floor.do(CloseShoe(table="BAC-01"), DEALER)
    floor.refuses(OpenRound(table="BAC-01"), WrongState, "the shoe of table BAC-01 is closed",
                  actor=DEALER)
