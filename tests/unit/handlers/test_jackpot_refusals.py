"""The jackpot area's handlers refuse, in memory: creating, linking and adjusting pools."""

from __future__ import annotations

from decimal import Decimal

from ledger.commands.jackpot import AdjustPool, CreatePool, LinkTable
from ledger.core.errors import InvalidInput, NotAllowed, NotFound, RuleViolation, WrongState
from tests.unit.handlers.floor import DEALER, POOL_SETTINGS, Floor


def test_a_dealer_cannot_create_a_jackpot_pool() -> None:
    Floor().refuses(CreatePool(pool="MAIN", settings=POOL_SETTINGS), NotAllowed,
                    "creating a jackpot pool needs a supervisor", actor=DEALER)


def test_a_pool_is_created_once() -> None:
    floor = Floor()
    floor.do(CreatePool(pool="MAIN", settings=POOL_SETTINGS))
    floor.refuses(CreatePool(pool="MAIN", settings=POOL_SETTINGS), WrongState,
                  "jackpot pool MAIN already exists")


def test_a_pool_without_its_posted_sums_is_refused() -> None:
    Floor().refuses(CreatePool(pool="MAIN", settings={"seed": "100000"}), InvalidInput,
                    "pool settings", "royal_flush")


def test_a_dealer_cannot_link_a_table_to_a_pool() -> None:
    floor = Floor()
    floor.stud(pool="MAIN")
    floor.refuses(LinkTable(pool="MAIN", table="STUD-01"), NotAllowed,
                  "linking a table to a jackpot pool needs a supervisor", actor=DEALER)


def test_a_table_is_not_linked_to_a_pool_that_does_not_exist() -> None:
    floor = Floor()
    floor.stud()
    floor.refuses(LinkTable(pool="NONE", table="STUD-01"), NotFound,
                  "jackpot pool NONE does not exist")


def test_a_baccarat_table_has_no_jackpot() -> None:
    floor = Floor()
    floor.table(decks=8)
    floor.do(CreatePool(pool="MAIN", settings=POOL_SETTINGS))
    floor.refuses(LinkTable(pool="MAIN", table="BAC-01"), RuleViolation,
                  "table BAC-01 plays baccarat, which has no jackpot")


def test_a_table_is_linked_to_one_pool() -> None:
    floor = Floor()
    floor.stud(pool="MAIN")
    floor.do(CreatePool(pool="OTHER", settings=POOL_SETTINGS))
    floor.refuses(LinkTable(pool="OTHER", table="STUD-01"), WrongState,
                  "table STUD-01 is already linked to a jackpot pool")


def test_a_dealer_cannot_adjust_a_pool() -> None:
    floor = Floor()
    floor.do(CreatePool(pool="MAIN", settings=POOL_SETTINGS))
    floor.refuses(AdjustPool(pool="MAIN", amount=Decimal(100), reason="recount"), NotAllowed,
                  "adjusting a jackpot pool needs a supervisor", actor=DEALER)


def test_a_pool_that_does_not_exist_is_not_adjusted() -> None:
    Floor().refuses(AdjustPool(pool="NONE", amount=Decimal(100), reason="recount"), NotFound,
                    "jackpot pool NONE does not exist")


def test_an_adjustment_does_not_take_a_pool_below_zero() -> None:
    floor = Floor()
    floor.do(CreatePool(pool="MAIN", settings=POOL_SETTINGS))
    floor.refuses(AdjustPool(pool="MAIN", amount=Decimal(-200000), reason="recount"),
                  RuleViolation, "would leave pool MAIN below zero")
