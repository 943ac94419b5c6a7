"""The table area's handlers refuse, in memory: opening, settings, closing, dealers."""

from __future__ import annotations

from decimal import Decimal

from ledger.commands.table import (
    ChangeTableSettings,
    CloseTable,
    OpenTable,
    SignInDealer,
    SignOutDealer,
)
from ledger.core.errors import InvalidInput, NotAllowed, NotFound, WrongState
from tests.unit.handlers.floor import DAY, DEALER, Floor


def _open(code: str = "BAC-01", **fields: object) -> OpenTable:
    given: dict[str, object] = {"table": code, "game": "baccarat",
                                "min_bet": Decimal("100.00"), "max_bet": Decimal("50000.00")}
    given.update(fields)
    return OpenTable(**given)  # type: ignore[arg-type]


def test_a_table_already_open_is_not_opened_again() -> None:
    floor = Floor()
    floor.table(shift=False, dealer=False)
    floor.refuses(_open(), WrongState, "table BAC-01", "already open")


def test_a_table_minimum_above_its_maximum_is_refused() -> None:
    Floor().refuses(_open(min_bet=Decimal("1000.00"), max_bet=Decimal("100.00")), InvalidInput,
                    "1,000.00", "above the table maximum")


def test_a_game_the_ledger_does_not_know_is_refused() -> None:
    Floor().refuses(_open(game="roulette"), InvalidInput, "roulette")


def test_a_dealer_cannot_change_a_tables_house_settings() -> None:
    floor = Floor()
    floor.table(shift=False, dealer=False)
    floor.refuses(ChangeTableSettings(table="BAC-01", settings={"min_bet": "200"},
                                      effective_from=DAY, authorisation="DICJ 1/2026"), NotAllowed,
                  "changing a table's house settings needs a supervisor", actor=DEALER)


def test_the_settings_of_a_table_never_opened_are_not_changed() -> None:
    Floor().refuses(ChangeTableSettings(table="BAC-09", settings={"min_bet": "200"},
                                        effective_from=DAY, authorisation="DICJ 1/2026"), NotFound,
                    "table BAC-09 does not exist")


def test_a_table_never_opened_is_not_closed() -> None:
    Floor().refuses(CloseTable(table="BAC-09"), NotFound, "table BAC-09 does not exist")


def test_a_closed_table_is_not_closed_again() -> None:
    floor = Floor()
    floor.table(shift=False, dealer=False)
    floor.do(CloseTable(table="BAC-01"))
    floor.refuses(CloseTable(table="BAC-01"), WrongState, "table BAC-01 is not open")


def test_a_table_with_a_round_in_play_is_not_closed() -> None:
    floor = Floor()
    floor.baccarat()
    floor.refuses(CloseTable(table="BAC-01"), WrongState, "table BAC-01 has round 1 in play")


def test_no_dealer_signs_in_at_a_closed_table() -> None:
    floor = Floor()
    floor.table(shift=False, dealer=False)
    floor.do(CloseTable(table="BAC-01"))
    floor.refuses(SignInDealer(table="BAC-01", dealer_id="D-101"), WrongState,
                  "table BAC-01 is closed")


def test_a_dealer_signed_in_does_not_sign_in_again() -> None:
    floor = Floor()
    floor.table(shift=False)
    floor.refuses(SignInDealer(table="BAC-01", dealer_id="D-101"), WrongState,
                  "dealer D-101 is already signed in at table BAC-01")


def test_a_second_dealer_does_not_sign_in_over_the_first() -> None:
    floor = Floor()
    floor.table(shift=False)
    floor.refuses(SignInDealer(table="BAC-01", dealer_id="D-102"), WrongState, "D-101")


def test_a_dealer_not_signed_in_does_not_sign_out() -> None:
    floor = Floor()
    floor.table(shift=False)
    floor.refuses(SignOutDealer(table="BAC-01", dealer_id="D-102"), WrongState, "D-102")
