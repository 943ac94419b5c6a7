"""The shift area's handlers refuse, in memory: openings, slips, the drop, closings and the
gaming day."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from ledger.commands.shift import (
    AdjustDrop,
    CloseGamingDay,
    CloseShift,
    EnterDrop,
    OpenShift,
    RecordCredit,
    RecordFill,
    VoidSlip,
)
from ledger.commands.table import OpenTable
from ledger.core.errors import InvalidInput, NotAllowed, NotFound, RuleViolation, WrongState
from tests.unit.handlers.floor import CHIPS, DAY, DEALER, PIT_BOSS, SUPERVISOR, Floor

SHIFT = {"table": "BAC-01", "gaming_day": DAY, "shift": "day"}


def _open(**fields: object) -> OpenShift:
    given: dict[str, object] = {**SHIFT, "chips": CHIPS, "dealer_id": DEALER.staff_id,
                                "supervisor": PIT_BOSS}
    given.update(fields)
    return OpenShift(**given)  # type: ignore[arg-type]


def _fill(slip: int = 1, **fields: object) -> RecordFill:
    given: dict[str, object] = {**SHIFT, "slip": slip, "chips": {Decimal(1000): 5},
                                "runner_id": "R-1", "supervisor": SUPERVISOR}
    given.update(fields)
    return RecordFill(**given)  # type: ignore[arg-type]


def _close(**fields: object) -> CloseShift:
    given: dict[str, object] = {**SHIFT, "chips": CHIPS, "dealer_id": DEALER.staff_id,
                                "supervisor": PIT_BOSS}
    given.update(fields)
    return CloseShift(**given)  # type: ignore[arg-type]


def _drop() -> EnterDrop:
    return EnterDrop(table="BAC-01", gaming_day=DAY, shift="day", cash=Decimal(10000),
                     markers=Decimal(0), counted_by=("C-1", "C-2"))


def _void(slip: int = 1, reason: str = "wrong table") -> VoidSlip:
    return VoidSlip(table="BAC-01", gaming_day=DAY, shift="day", slip=slip, reason=reason)


def _adjust(cash: int = 9000) -> AdjustDrop:
    return AdjustDrop(table="BAC-01", gaming_day=DAY, shift="day", cash=Decimal(cash),
                      markers=Decimal(0), reason="recount")


def _table_open() -> Floor:
    floor = Floor()
    floor.do(OpenTable(table="BAC-01", game="baccarat", min_bet=Decimal(100),
                       max_bet=Decimal(50000), settings={"decks": 8}))
    return floor


def _in_shift() -> Floor:
    floor = _table_open()
    floor.do(_open())
    return floor


# -- opening --------------------------------------------------------------------------------
def test_a_shift_opens_only_on_an_open_table() -> None:
    Floor().refuses(_open(), NotFound, "table BAC-01 does not exist",
                    "`ledger table list` shows the tables")


def test_a_shift_is_opened_once() -> None:
    _in_shift().refuses(_open(), WrongState, "the day shift of BAC-01 on 2026-11-22",
                        "is already open")


def test_a_shift_opens_on_its_gaming_day() -> None:
    _table_open().refuses(_open(gaming_day=date(2026, 12, 1)), RuleViolation,
                          "2026-12-01", "opens on its gaming day")


def test_the_opening_inventory_is_signed_by_a_supervisor() -> None:
    _table_open().refuses(_open(supervisor=DEALER.model_copy(update={"staff_id": "D-102"})),
                          NotAllowed, "signing the opening inventory needs a supervisor")


def test_the_opening_inventory_is_signed_by_two_people() -> None:
    _table_open().refuses(_open(dealer_id=PIT_BOSS.staff_id), NotAllowed,
                          "signed by two people", "PB-7")


def test_a_supervisor_the_door_did_not_admit_signs_nothing() -> None:
    _table_open().refuses(_open(supervisor="PB-7"), NotAllowed, "supervisor PB-7",
                          "not admitted by the ledger's door")


def test_no_shift_opens_on_a_closed_gaming_day() -> None:
    floor = _table_open()
    floor.do(CloseGamingDay(gaming_day=DAY))
    floor.refuses(_open(), WrongState, "gaming day 2026-11-22 was closed", "opening a shift")


def _after_the_next_days_shift() -> Floor:
    """The table opened and closed the day shift of the day after DAY (the evening before)."""
    floor = _table_open()
    floor.do(_open(gaming_day=date(2026, 11, 23)))
    floor.do(_close(gaming_day=date(2026, 11, 23)))
    return floor


def test_round_numbers_ran_backwards_in_time_so_an_earlier_days_shift_is_refused() -> None:
    """A table's rounds are numbered in the order recorded, so its shifts open in time
    order: after a shift of 23 November, one of 22 November would number its rounds after
    the 23rd's."""
    said = _after_the_next_days_shift().refuses(
        _open(), WrongState, "table BAC-01 already holds a shift of gaming day 2026-11-23",
        "a shift of 2026-11-22 cannot open there", "Open a shift of 2026-11-23 or later")
    assert said.count(". ") <= 2, said


def test_a_later_shift_of_the_same_day_and_a_later_day_still_open_in_order() -> None:
    floor = _after_the_next_days_shift()
    floor.do(_open(gaming_day=date(2026, 11, 23), shift="swing"))
    floor.do(_close(gaming_day=date(2026, 11, 23), shift="swing"))


def test_shifts_recorded_out_of_order_under_the_rules_second_edition_are_executed_again_as_recorded(
) -> None:
    """`ledger verify` executes a command again under the edition it was recorded under: an
    earlier day's shift opened before the rule was made is not refused then."""
    floor = _after_the_next_days_shift()
    floor.uow.rules = 2
    floor.do(_open())


# -- slips ----------------------------------------------------------------------------------
def test_a_slip_for_a_shift_never_opened_is_refused() -> None:
    _table_open().refuses(_fill(), NotFound, "the day shift of BAC-01 on 2026-11-22")


def test_a_slip_number_is_used_once() -> None:
    floor = _in_shift()
    floor.do(_fill())
    floor.refuses(_fill(), RuleViolation, "slip 1 was already recorded", "the next is 2")


def test_slips_are_numbered_continuously() -> None:
    floor = _in_shift()
    floor.do(_fill())
    floor.refuses(RecordCredit(table="BAC-01", gaming_day=DAY, shift="day", slip=5,
                               chips={Decimal(1000): 1}, runner_id="R-1", supervisor=SUPERVISOR),
                  RuleViolation, "slip 5 is out of sequence", "is 2")


def test_a_slip_is_signed_by_a_supervisor() -> None:
    _in_shift().refuses(_fill(supervisor=DEALER), NotAllowed,
                        "signing fill slip 1 needs a supervisor")


def test_a_dealer_cannot_void_a_slip() -> None:
    floor = _in_shift()
    floor.do(_fill())
    floor.refuses(_void(), NotAllowed,
                  "voiding a slip needs a supervisor", actor=DEALER)


def test_a_slip_never_recorded_is_not_voided() -> None:
    _in_shift().refuses(_void(3), NotFound,
                        "no slip 3 was recorded")


def test_a_slip_is_voided_once() -> None:
    floor = _in_shift()
    floor.do(_fill())
    floor.do(_void())
    floor.refuses(_void(reason="again"), WrongState,
                  "slip 1 was already voided")


# -- the drop -------------------------------------------------------------------------------
def test_the_drop_is_entered_once() -> None:
    floor = _in_shift()
    floor.do(_drop())
    floor.refuses(_drop(), WrongState, "was already entered", "10,000.00")


def test_a_dealer_cannot_adjust_the_drop() -> None:
    floor = _in_shift()
    floor.do(_drop())
    floor.refuses(_adjust(),
                  NotAllowed, "adjusting the drop needs a supervisor", actor=DEALER)


def test_a_drop_never_entered_is_not_adjusted() -> None:
    _in_shift().refuses(_adjust(),
                        WrongState, "no drop was entered", actor=SUPERVISOR)


def test_an_adjustment_to_the_same_figures_is_refused() -> None:
    floor = _in_shift()
    floor.do(_drop())
    floor.refuses(_adjust(10000),
                  InvalidInput, "there is nothing to adjust", actor=SUPERVISOR)


# -- closing --------------------------------------------------------------------------------
def test_a_shift_is_closed_once() -> None:
    floor = _in_shift()
    floor.do(_close())
    floor.refuses(_close(), WrongState, "was closed (signed by PB-7)")


def test_the_closing_inventory_is_signed_by_two_people() -> None:
    _in_shift().refuses(_close(dealer_id=PIT_BOSS.staff_id), NotAllowed,
                        "the closing inventory is signed by two people")


def test_a_gaming_day_does_not_close_while_a_shift_of_it_is_open() -> None:
    _in_shift().refuses(CloseGamingDay(gaming_day=DAY), WrongState,
                        "gaming day 2026-11-22 cannot close while",
                        "the day shift of BAC-01 on 2026-11-22")


def test_a_gaming_day_is_closed_once() -> None:
    floor = Floor()
    floor.do(CloseGamingDay(gaming_day=DAY))
    floor.refuses(CloseGamingDay(gaming_day=DAY), WrongState,
                  "gaming day 2026-11-22 was closed", "closing it again")
