"""The Shift aggregate and the shift schedule, without a database."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal
from uuid import uuid4

import pytest
from pydantic import ValidationError

from ledger.application.config import LedgerSettings
from ledger.commands.shift import OpenShift
from ledger.core.errors import InvalidInput, NotAllowed, NotFound, RuleViolation, WrongState
from ledger.domain.base import Actor, Provenance, Role
from ledger.domain.chips import CHIP_SET, chips_total, parse_chips
from ledger.domain.shift import Shift, SlipKind, shift_id
from ledger.domain.shift_schedule import MACAU, ShiftSchedule, parse_gaming_day

PIT_BOSS = Actor(staff_id="PB-1", role=Role.PIT_BOSS)
SUPERVISOR = Actor(staff_id="S-1", role=Role.SUPERVISOR)
DEALER = Actor(staff_id="D-1", role=Role.DEALER)
BY = Provenance(command_id=uuid4(), actor=PIT_BOSS, terminal="t",
                at=datetime(2026, 11, 22, tzinfo=UTC))
DAY = date(2026, 11, 22)
SCHEDULE = ShiftSchedule.parse("day=06:00,swing=14:00,graveyard=22:00")


def chips(text: str) -> dict[Decimal, int]:
    return {d.quantize(Decimal("0.01")): n for d, n in parse_chips(text).items()}


def _shift(opening: str = "100=40,500=20") -> Shift:
    return Shift.open(code="BAC-01", gaming_day=DAY, shift="day", chips=chips(opening),
                      dealer_id="D-1", supervisor=SUPERVISOR, by=BY)


def _slip(shift: Shift, kind: SlipKind, number: int, text: str) -> None:
    shift.check_can_record_slip(kind, number, chips(text), SUPERVISOR)
    shift.record_slip(kind=kind, number=number, chips=chips(text), runner_id="R-1",
                      supervisor=SUPERVISOR, by=BY)


def _drop(shift: Shift, cash: str = "0", markers: str = "0") -> None:
    shift.check_can_enter_drop()
    shift.enter_drop(cash=Decimal(cash), markers=Decimal(markers), counted_by=("C-1",), by=BY)


def _close(shift: Shift, closing: str) -> None:
    shift.check_can_close(chips(closing), "D-2", SUPERVISOR)
    shift.close(chips=chips(closing), dealer_id="D-2", supervisor=SUPERVISOR, by=BY)


# -- identity and inventories ------------------------------------------------------------
def test_a_shifts_stream_id_follows_from_table_gaming_day_and_shift_name():
    assert _shift().id == shift_id("BAC-01", DAY, "day")
    assert shift_id("BAC-01", DAY, "day") not in {
        shift_id("BAC-02", DAY, "day"), shift_id("BAC-01", date(2026, 11, 23), "day"),
        shift_id("BAC-01", DAY, "swing"),
    }


def test_the_opening_total_is_computed_from_the_chips_counted():
    shift = _shift("1=10,25=4,100=40,100000=2")
    assert shift.opening_total == Decimal("204110.00")
    assert list(shift.opening_chips) == sorted(shift.opening_chips)


def test_an_inventory_with_an_unknown_denomination_is_refused_naming_it():
    with pytest.raises(InvalidInput) as refused:
        Shift.check_opening("day", chips("100=40,7=3"), "D-1", SUPERVISOR)
    assert str(refused.value) == (
        "denomination 7.00 is not a chip of this casino: chips are 1, 5, 10, 25, 100, 500, "
        "1000, 5000, 10000, 25000, 50000, 100000."
    )


def test_the_chip_set_is_the_casinos_patacas_chips_with_two_places():
    assert CHIP_SET[0] == Decimal("1.00") and CHIP_SET[-1] == Decimal("100000.00")
    assert all(chip == chip.quantize(Decimal("0.01")) for chip in CHIP_SET)


def test_an_inventory_signed_by_a_dealer_as_supervisor_is_refused():
    with pytest.raises(NotAllowed, match="needs a supervisor or pit boss: dealer D-2 cannot"):
        Shift.check_opening("day", chips("100=1"), "D-1", Actor(staff_id="D-2", role=Role.DEALER))


def test_an_inventory_needs_two_people_to_sign_it():
    with pytest.raises(NotAllowed, match="signed by two people: S-1 cannot sign as dealer"):
        Shift.check_opening("day", chips("100=1"), "S-1", SUPERVISOR)


def test_a_shift_opens_once():
    with pytest.raises(WrongState, match="day shift of BAC-01 on 2026-11-22 is already open"):
        _shift().check_can_open()


@pytest.mark.parametrize(
    ("text", "sentence"),
    [("100:40", "'100:40' is not denomination=count"), ("100=4x", "is not denomination=count"),
     ("100=1,100.00=2", "denomination 100 is given twice"), ("nan=1", "is not denomination")],
)
def test_chips_are_written_denomination_equals_count(text, sentence):
    with pytest.raises(InvalidInput, match=sentence):
        parse_chips(text)


def test_a_negative_count_is_refused():
    with pytest.raises(InvalidInput, match="cannot count -1 chips of 100"):
        Shift.check_opening("day", {Decimal("100.00"): -1}, "D-1", SUPERVISOR)


def test_a_command_refuses_a_denomination_with_more_than_two_places():
    with pytest.raises(ValidationError):
        OpenShift(table="BAC-01", gaming_day=DAY, shift="day", chips={"0.005": 1},
                  dealer_id="D-1", supervisor=SUPERVISOR, actor=PIT_BOSS)


# -- fill and credit slips -----------------------------------------------------------------
def test_a_slips_amount_is_the_sum_of_its_chips():
    shift = _shift()
    _slip(shift, SlipKind.FILL, 1043, "1000=10,5000=2")
    assert shift.slips[1043].amount == Decimal("20000.00") == shift.fills_total


def test_a_fill_slip_number_used_twice_is_refused():
    shift = _shift()
    _slip(shift, SlipKind.FILL, 1043, "1000=10")
    with pytest.raises(RuleViolation, match=r"slip 1043 was already recorded in this shift "
                                            r"\(a fill of MOP 10,000.00\).*the next is 1044"):
        shift.check_can_record_slip(SlipKind.FILL, 1043, chips("1000=1"), SUPERVISOR)


def test_a_credit_cannot_reuse_a_fill_slips_number():
    shift = _shift()
    _slip(shift, SlipKind.FILL, 1043, "1000=10")
    with pytest.raises(RuleViolation, match="slip 1043 was already recorded"):
        shift.check_can_record_slip(SlipKind.CREDIT, 1043, chips("1000=1"), SUPERVISOR)


def test_slips_are_numbered_continuously_and_a_gap_names_the_expected_number():
    shift = _shift()
    _slip(shift, SlipKind.FILL, 1043, "1000=10")
    _slip(shift, SlipKind.CREDIT, 1044, "500=4")
    with pytest.raises(RuleViolation, match="slip 1046 is out of sequence: .* is 1045"):
        shift.check_can_record_slip(SlipKind.FILL, 1046, chips("1000=1"), SUPERVISOR)
    with pytest.raises(RuleViolation, match="slip 1040 is out of sequence"):
        shift.check_can_record_slip(SlipKind.FILL, 1040, chips("1000=1"), SUPERVISOR)


def test_the_first_slip_of_a_shift_starts_the_series_at_its_number():
    shift = _shift()
    assert shift.next_slip is None
    _slip(shift, SlipKind.CREDIT, 88001, "100=1")
    assert shift.next_slip == 88002


def test_a_slip_with_no_chips_is_refused():
    with pytest.raises(InvalidInput, match="fill slip 1 carries no chips"):
        _shift().check_can_record_slip(SlipKind.FILL, 1, chips("100=0"), SUPERVISOR)


def test_a_slip_with_an_unknown_denomination_is_refused():
    with pytest.raises(InvalidInput, match="denomination 3.00 is not a chip of this casino"):
        _shift().check_can_record_slip(SlipKind.FILL, 1, {Decimal("3.00"): 1}, SUPERVISOR)


def test_a_slip_is_signed_by_a_supervisor():
    with pytest.raises(NotAllowed, match="signing fill slip 1 needs a supervisor"):
        _shift().check_can_record_slip(SlipKind.FILL, 1, chips("100=1"), DEALER)


def test_a_voided_slip_no_longer_counts_and_keeps_its_number():
    shift = _shift()
    _slip(shift, SlipKind.FILL, 1043, "1000=10")
    shift.check_can_void_slip(1043, SUPERVISOR)
    shift.void_slip(slip=1043, reason="wrong denomination", by=BY)
    assert shift.fills_total == Decimal("0.00")
    with pytest.raises(RuleViolation, match=r"a fill of MOP 10,000.00, since voided"):
        shift.check_can_record_slip(SlipKind.FILL, 1043, chips("1000=1"), SUPERVISOR)
    _slip(shift, SlipKind.FILL, 1044, "1000=1")
    assert shift.fills_total == Decimal("1000.00")


def test_only_a_supervisor_voids_a_slip():
    shift = _shift()
    _slip(shift, SlipKind.FILL, 1043, "1000=10")
    with pytest.raises(NotAllowed, match="voiding a slip needs a supervisor or pit boss"):
        shift.check_can_void_slip(1043, DEALER)


def test_voiding_an_unknown_or_voided_slip_is_refused():
    shift = _shift()
    with pytest.raises(NotFound, match="no slip 9 was recorded in the day shift of BAC-01"):
        shift.check_can_void_slip(9, SUPERVISOR)
    _slip(shift, SlipKind.FILL, 9, "1000=10")
    shift.void_slip(slip=9, reason="wrong table", by=BY)
    with pytest.raises(WrongState, match="slip 9 was already voided by pit_boss PB-1: wrong table"):
        shift.check_can_void_slip(9, SUPERVISOR)


# -- the drop and closing ------------------------------------------------------------------
def test_the_drop_is_entered_once():
    shift = _shift()
    _drop(shift, "1000", "500")
    with pytest.raises(WrongState, match=r"drop of .* was already entered \(MOP 1,000.00 cash, "
                                         r"MOP 500.00 markers\): a supervisor corrects it"):
        shift.check_can_enter_drop()


def test_a_supervisor_adjusts_the_drop_to_new_figures():
    shift = _shift()
    _drop(shift, "1000", "500")
    with pytest.raises(NotAllowed, match="adjusting the drop needs a supervisor"):
        shift.check_can_adjust_drop(Decimal(900), Decimal(500), DEALER)
    with pytest.raises(InvalidInput, match="nothing to adjust"):
        shift.check_can_adjust_drop(Decimal(1000), Decimal(500), SUPERVISOR)
    shift.adjust_drop(cash=Decimal("900.00"), markers=Decimal("500.00"), reason="recount", by=BY)
    assert shift.drop_total == Decimal("1400.00") and shift.drop.counted_by == ("C-1",)


def test_a_drop_that_was_never_entered_cannot_be_adjusted():
    with pytest.raises(WrongState, match="no drop was entered"):
        _shift().check_can_adjust_drop(Decimal(1), Decimal(0), SUPERVISOR)


def test_a_shift_closes_before_its_drop_is_counted_and_takes_the_drop_afterwards():
    shift = _shift()
    _close(shift, "100=1")
    assert shift.accounting_win is None  # the drop box is still in the count room
    shift.check_can_enter_drop()
    _drop(shift)
    assert shift.accounting_win is not None
    with pytest.raises(WrongState, match="was already entered"):
        shift.check_can_enter_drop()
    shift.check_can_adjust_drop(Decimal("1.00"), Decimal("0.00"), SUPERVISOR)


def test_the_closing_inventory_follows_the_same_denomination_and_signature_rules():
    shift = _shift()
    _drop(shift)
    with pytest.raises(InvalidInput, match="denomination 2.00 is not a chip"):
        shift.check_can_close({Decimal("2.00"): 1}, "D-2", SUPERVISOR)
    with pytest.raises(NotAllowed, match="signing the closing inventory needs a supervisor"):
        shift.check_can_close(chips("100=1"), "D-2", DEALER)


def test_nothing_but_the_drop_is_recorded_on_a_closed_shift():
    shift = _shift()
    _slip(shift, SlipKind.FILL, 1, "1000=1")
    _close(shift, "100=40")
    for check in (
        lambda: shift.check_can_record_slip(SlipKind.FILL, 2, chips("100=1"), SUPERVISOR),
        lambda: shift.check_can_void_slip(1, SUPERVISOR),
        lambda: shift.check_can_close(chips("100=1"), "D-2", SUPERVISOR),
    ):
        with pytest.raises(WrongState, match="was closed .*: nothing more is recorded on it but "
                           "the count of its drop"):
            check()
    _drop(shift)  # the count room's figures still arrive


# -- the accounting win ----------------------------------------------------------------------
def test_accounting_win_is_closing_minus_opening_plus_credits_minus_fills_plus_drop():
    shift = _shift("1000=50")  # opening 50,000
    _slip(shift, SlipKind.FILL, 1, "1000=20")  # fills 20,000: chips the table did not win
    _slip(shift, SlipKind.CREDIT, 2, "5000=2")  # credits 10,000: chips the table sent back
    _slip(shift, SlipKind.FILL, 3, "1000=99")  # voided: does not count
    shift.void_slip(slip=3, reason="keyed twice", by=BY)
    _drop(shift, "30000", "5000")  # drop 35,000
    _close(shift, "1000=45")  # closing 45,000
    figures = shift.figures()
    assert (figures.opening, figures.fills, figures.credits, figures.drop, figures.closing) == (
        Decimal("50000.00"), Decimal("20000.00"), Decimal("10000.00"), Decimal("35000.00"),
        Decimal("45000.00"),
    )
    # 45,000 - 50,000 + 10,000 - 20,000 + 35,000
    assert shift.accounting_win == figures.accounting_win == Decimal("20000.00")


def test_a_table_that_only_sold_chips_wins_its_drop():
    """Players bought 10,000 of chips and lost them all back to the tray."""
    shift = _shift("1000=50")
    _drop(shift, "10000")
    _close(shift, "1000=50")
    assert shift.accounting_win == Decimal("10000.00")


def test_an_open_shift_has_no_accounting_win_yet():
    shift = _shift()
    _drop(shift, "100")
    assert shift.accounting_win is None and shift.figures().closing is None
    assert shift.figures().drop == Decimal("100.00")


def test_money_stays_decimal():
    assert isinstance(chips_total(chips("25=3")), Decimal)
    assert chips_total(chips("25=3")) == Decimal("75.00")


# -- the schedule ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("moment", "gaming_day", "shift"),
    [
        (datetime(2026, 11, 22, 6, 0), date(2026, 11, 22), "day"),
        (datetime(2026, 11, 22, 13, 59), date(2026, 11, 22), "day"),
        (datetime(2026, 11, 22, 14, 0), date(2026, 11, 22), "swing"),
        (datetime(2026, 11, 22, 22, 0), date(2026, 11, 22), "graveyard"),
        (datetime(2026, 11, 23, 3, 0), date(2026, 11, 22), "graveyard"),
        (datetime(2026, 11, 23, 5, 59), date(2026, 11, 22), "graveyard"),
    ],
)
def test_the_gaming_day_of_an_early_hour_is_the_previous_calendar_day(moment, gaming_day, shift):
    slot = SCHEDULE.locate(moment)
    assert (slot.gaming_day, slot.shift) == (gaming_day, shift)


def test_a_moment_in_utc_is_placed_in_macau_time():
    slot = SCHEDULE.locate(datetime(2026, 11, 22, 19, 0, tzinfo=UTC))  # 03:00 on the 23rd
    assert (slot.gaming_day, slot.shift) == (date(2026, 11, 22), "graveyard")


def test_a_shift_runs_from_its_start_to_the_next_one_and_the_last_to_the_next_day():
    graveyard = SCHEDULE.slot(DAY, "graveyard")
    assert graveyard.starts_at == datetime(2026, 11, 22, 22, 0, tzinfo=MACAU)
    assert graveyard.ends_at == datetime(2026, 11, 23, 6, 0, tzinfo=MACAU)
    assert SCHEDULE.slot(DAY, "day").ends_at == SCHEDULE.slot(DAY, "swing").starts_at


def test_a_schedule_may_start_its_gaming_day_before_midnight():
    schedule = ShiftSchedule.parse("night=22:00,morning=06:00")
    slot = schedule.locate(datetime(2026, 11, 22, 7, 0))
    assert (slot.gaming_day, slot.shift) == (date(2026, 11, 21), "morning")


def test_a_schedule_prints_as_it_is_written():
    assert str(SCHEDULE) == "day=06:00,swing=14:00,graveyard=22:00"
    assert ShiftSchedule.parse(" a=6:00 , b=18:30 ").starts == (("a", time(6)), ("b", time(18, 30)))


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("", "names at least one shift"),
        ("day=6", "'day=6' is not name=HH:MM"),
        ("day=25:00", "is not name=HH:MM"),
        ("day=06:00,day=14:00", "shift 'day' appears twice"),
        ("day=06:00,swing=06:00", "'swing' \\(06:00\\) does not start after 'day'"),
        ("Day=06:00", "'Day' is not a shift name"),
    ],
)
def test_a_malformed_schedule_is_refused_with_a_sentence(text, sentence):
    with pytest.raises(InvalidInput, match=sentence):
        ShiftSchedule.parse(text)


def test_an_unknown_shift_name_is_refused_listing_the_shifts():
    with pytest.raises(InvalidInput) as refused:
        SCHEDULE.check_name("lunch")
    assert str(refused.value) == (
        "there is no 'lunch' shift: the shifts are day (from 06:00), swing (from 14:00), "
        "graveyard (from 22:00)."
    )


def test_the_schedule_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("LEDGER_SHIFT_SCHEDULE", "early=07:00,late=19:00")
    assert LedgerSettings().shift_schedule.names == ("early", "late")
    monkeypatch.delenv("LEDGER_SHIFT_SCHEDULE")
    assert LedgerSettings().shift_schedule == SCHEDULE


def test_a_bad_schedule_in_the_environment_is_one_sentence(monkeypatch):
    monkeypatch.setenv("LEDGER_SHIFT_SCHEDULE", "early=7")
    with pytest.raises(ValidationError, match="'early=7' is not name=HH:MM"):
        LedgerSettings()


def test_a_gaming_day_is_written_year_month_day():
    assert parse_gaming_day("2026-11-22") == DAY
    with pytest.raises(InvalidInput, match="'22/11/2026' is not a gaming day"):
        parse_gaming_day("22/11/2026")
