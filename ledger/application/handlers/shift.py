"""A table's shift: open with the counted inventory, slips, voids, the drop, close.

The handlers see the shift's name as the command gives it, checked for its form only: the
schedule (`LEDGER_SHIFT_SCHEDULE`) lives in the settings, which the CLI holds and checks.
"""

from __future__ import annotations

from datetime import date

from ledger.application.handlers.days import day_closed, day_of_shift, load_day
from ledger.application.handlers.unit_of_work import Handlers, UnitOfWork, handles
from ledger.commands.shift import (
    AdjustDrop,
    CloseShift,
    EnterDrop,
    OpenShift,
    RecordCredit,
    RecordFill,
    SignedBy,
    VoidSlip,
)
from ledger.core.errors import NotAllowed, NotFound
from ledger.domain.base import Actor, Aggregate
from ledger.domain.shift import Shift, SlipKind, describe_shift, shift_id
from ledger.domain.shift_schedule import check_shift_name
from ledger.domain.table import Table, check_table_code, no_such_table, table_id


def admitted(supervisor: SignedBy) -> Actor:
    """The co-signing supervisor as the door admitted them (a staff id is the wire's only)."""
    if isinstance(supervisor, Actor):
        return supervisor
    raise NotAllowed(f"supervisor {supervisor} was not admitted by the ledger's door: nothing "
                     "is recorded without verified credentials.")


def load_shift(uow: UnitOfWork, table: str, gaming_day: date, shift: str) -> Shift:
    code, name = check_table_code(table), check_shift_name(shift)
    try:
        loaded = uow.load(Shift, shift_id(code, gaming_day, name), "shift")
    except NotFound:
        raise NotFound(f"{describe_shift(code, gaming_day, name)} was never opened.") from None
    return loaded


def open_shift(command: OpenShift, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    """The shift opens on its table too: one shift at a time, its opener's count beside the
    last closer's."""
    code, name = check_table_code(command.table), check_shift_name(command.shift)
    try:
        table = uow.load(Table, table_id(code), "table")
    except NotFound:
        raise no_such_table(code) from None
    if uow.exists(shift_id(code, command.gaming_day, name)):
        load_shift(uow, code, command.gaming_day, name).check_can_open()
    Shift.check_opening(name, command.chips, command.dealer_id, admitted(command.supervisor),
                        command.gaming_day, command.at)
    table.check_can_open_shift(command.gaming_day, in_time_order=uow.rules >= 3)
    shift = Shift.open(
        code=code, gaming_day=command.gaming_day, shift=name, chips=command.chips,
        dealer_id=command.dealer_id, supervisor=admitted(command.supervisor), by=command.provenance,
        previous_closing=table.last_closing,
    )
    day = day_of_shift(uow, command.gaming_day, command.provenance)
    table.shift_opened(shift_id=shift.id, gaming_day=command.gaming_day, shift=name,
                       label=shift.label, by=command.provenance)
    day.shift_opened(shift_id=shift.id, label=shift.label, by=command.provenance)
    return table, shift, day


def _record_slip(uow: UnitOfWork, command: RecordFill | RecordCredit, kind: SlipKind) -> Shift:
    shift = load_shift(uow, command.table, command.gaming_day, command.shift)
    shift.check_can_record_slip(kind, command.slip, command.chips, admitted(command.supervisor))
    shift.record_slip(
        kind=kind, number=command.slip, chips=command.chips, runner_id=command.runner_id,
        supervisor=admitted(command.supervisor), by=command.provenance,
    )
    return shift


def record_fill(command: RecordFill, uow: UnitOfWork) -> tuple[Shift, ...]:
    return (_record_slip(uow, command, SlipKind.FILL),)


def record_credit(command: RecordCredit, uow: UnitOfWork) -> tuple[Shift, ...]:
    return (_record_slip(uow, command, SlipKind.CREDIT),)


def void_slip(command: VoidSlip, uow: UnitOfWork) -> tuple[Shift, ...]:
    shift = load_shift(uow, command.table, command.gaming_day, command.shift)
    shift.check_can_void_slip(command.slip, command.provenance.actor)
    shift.void_slip(slip=command.slip, reason=command.reason, by=command.provenance)
    return (shift,)


def enter_drop(command: EnterDrop, uow: UnitOfWork) -> tuple[Shift, ...]:
    shift = load_shift(uow, command.table, command.gaming_day, command.shift)
    shift.check_can_enter_drop()
    shift.enter_drop(
        cash=command.cash, markers=command.markers, counted_by=command.counted_by,
        by=command.provenance, after_close=day_closed(uow, shift.gaming_day),
    )
    return (shift,)


def adjust_drop(command: AdjustDrop, uow: UnitOfWork) -> tuple[Shift, ...]:
    shift = load_shift(uow, command.table, command.gaming_day, command.shift)
    shift.check_can_adjust_drop(command.cash, command.markers, command.provenance.actor)
    shift.adjust_drop(
        cash=command.cash, markers=command.markers, reason=command.reason,
        by=command.provenance, after_close=day_closed(uow, shift.gaming_day),
    )
    return (shift,)


def close_shift(command: CloseShift, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    """The shift closes on its table too, which keeps the count for the next opener."""
    shift = load_shift(uow, command.table, command.gaming_day, command.shift)
    shift.check_can_close(command.chips, command.dealer_id, admitted(command.supervisor))
    table = uow.load(Table, table_id(shift.code), "table")
    table.check_can_close_shift()
    shift.close(
        chips=command.chips, dealer_id=command.dealer_id, supervisor=admitted(command.supervisor),
        by=command.provenance,
    )
    assert shift.closing_chips is not None
    table.shift_closed(shift_id=shift.id, chips=shift.closing_chips, by=command.provenance)
    day = load_day(uow, shift.gaming_day)
    if day is None:  # a shift opened before the ledger kept gaming days
        return shift, table
    day.shift_closed(shift_id=shift.id, by=command.provenance)
    return shift, table, day


HANDLERS: Handlers = (
    handles(OpenShift, open_shift),
    handles(RecordFill, record_fill),
    handles(RecordCredit, record_credit),
    handles(VoidSlip, void_slip),
    handles(EnterDrop, enter_drop),
    handles(AdjustDrop, adjust_drop),
    handles(CloseShift, close_shift),
)
