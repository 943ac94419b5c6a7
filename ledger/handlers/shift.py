"""A table's shift: open with the counted inventory, slips, voids, the drop, close.

The handlers see the shift's name as the command gives it, checked for its form only: the
schedule (`LEDGER_SHIFT_SCHEDULE`) lives in the settings, which the CLI holds and checks.
"""

from __future__ import annotations

from datetime import date

from ledger.application import Ledger
from ledger.commands import (
    AdjustDrop,
    CloseShift,
    EnterDrop,
    OpenShift,
    RecordCredit,
    RecordFill,
    VoidSlip,
)
from ledger.domain.base import Aggregate
from ledger.domain.shift import Shift, SlipKind, describe_shift, shift_id
from ledger.domain.shift_schedule import check_shift_name
from ledger.domain.table import Table, check_table_code, table_id
from ledger.errors import NotFound
from ledger.handlers.days import day_closed, day_of_shift, load_day


def load_shift(ledger: Ledger, table: str, gaming_day: date, shift: str) -> Shift:
    code, name = check_table_code(table), check_shift_name(shift)
    try:
        loaded: Shift = ledger.load(shift_id(code, gaming_day, name), "shift")
    except NotFound:
        raise NotFound(f"{describe_shift(code, gaming_day, name)} was never opened.") from None
    return loaded


@Ledger.handles(OpenShift)
def open_shift(ledger: Ledger, command: OpenShift) -> tuple[Aggregate, ...]:
    """The shift opens on its table too: one shift at a time, its opener's count beside the
    last closer's."""
    code, name = check_table_code(command.table), check_shift_name(command.shift)
    try:
        table: Table = ledger.load(table_id(code), "table")
    except NotFound:
        raise NotFound(f"table {code} does not exist: open the table before its shift.") from None
    if ledger.exists(shift_id(code, command.gaming_day, name)):
        load_shift(ledger, code, command.gaming_day, name).check_can_open()
    Shift.check_opening(name, command.chips, command.dealer_id, command.supervisor,
                        command.gaming_day, command.at)
    table.check_can_open_shift()
    shift = Shift.open(
        code=code, gaming_day=command.gaming_day, shift=name, chips=command.chips,
        dealer_id=command.dealer_id, supervisor=command.supervisor, by=command.provenance,
        previous_closing=table.last_closing,
    )
    day = day_of_shift(ledger, command.gaming_day, command.provenance)
    table.shift_opened(shift_id=shift.id, gaming_day=command.gaming_day, shift=name,
                       label=shift.label, by=command.provenance)
    day.shift_opened(shift_id=shift.id, label=shift.label, by=command.provenance)
    return table, shift, day


def _record_slip(ledger: Ledger, command: RecordFill | RecordCredit, kind: SlipKind) -> Shift:
    shift = load_shift(ledger, command.table, command.gaming_day, command.shift)
    shift.check_can_record_slip(kind, command.slip, command.chips, command.supervisor)
    shift.record_slip(
        kind=kind, number=command.slip, chips=command.chips, runner_id=command.runner_id,
        supervisor=command.supervisor, by=command.provenance,
    )
    return shift


@Ledger.handles(RecordFill)
def record_fill(ledger: Ledger, command: RecordFill) -> tuple[Shift, ...]:
    return (_record_slip(ledger, command, SlipKind.FILL),)


@Ledger.handles(RecordCredit)
def record_credit(ledger: Ledger, command: RecordCredit) -> tuple[Shift, ...]:
    return (_record_slip(ledger, command, SlipKind.CREDIT),)


@Ledger.handles(VoidSlip)
def void_slip(ledger: Ledger, command: VoidSlip) -> tuple[Shift, ...]:
    shift = load_shift(ledger, command.table, command.gaming_day, command.shift)
    shift.check_can_void_slip(command.slip, command.actor)
    shift.void_slip(slip=command.slip, reason=command.reason, by=command.provenance)
    return (shift,)


@Ledger.handles(EnterDrop)
def enter_drop(ledger: Ledger, command: EnterDrop) -> tuple[Shift, ...]:
    shift = load_shift(ledger, command.table, command.gaming_day, command.shift)
    shift.check_can_enter_drop()
    shift.enter_drop(
        cash=command.cash, markers=command.markers, counted_by=command.counted_by,
        by=command.provenance, after_close=day_closed(ledger, shift.gaming_day),
    )
    return (shift,)


@Ledger.handles(AdjustDrop)
def adjust_drop(ledger: Ledger, command: AdjustDrop) -> tuple[Shift, ...]:
    shift = load_shift(ledger, command.table, command.gaming_day, command.shift)
    shift.check_can_adjust_drop(command.cash, command.markers, command.actor)
    shift.adjust_drop(
        cash=command.cash, markers=command.markers, reason=command.reason,
        by=command.provenance, after_close=day_closed(ledger, shift.gaming_day),
    )
    return (shift,)


@Ledger.handles(CloseShift)
def close_shift(ledger: Ledger, command: CloseShift) -> tuple[Aggregate, ...]:
    """The shift closes on its table too, which keeps the count for the next opener."""
    shift = load_shift(ledger, command.table, command.gaming_day, command.shift)
    shift.check_can_close(command.chips, command.dealer_id, command.supervisor)
    table: Table = ledger.load(table_id(shift.code), "table")
    table.check_can_close_shift()
    shift.close(
        chips=command.chips, dealer_id=command.dealer_id, supervisor=command.supervisor,
        by=command.provenance,
    )
    assert shift.closing_chips is not None
    table.shift_closed(shift_id=shift.id, chips=shift.closing_chips, by=command.provenance)
    day = load_day(ledger, shift.gaming_day)
    if day is None:  # a shift opened before the ledger kept gaming days
        return shift, table
    day.shift_closed(shift_id=shift.id, by=command.provenance)
    return shift, table, day
