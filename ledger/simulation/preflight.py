"""Before a simulated floor records anything: which shift it plays, and that it can play it.

A simulation that failed half way would leave tables open and shifts unclosed, which a person
must then close one by one at the floor desk. So everything a run needs is checked first (the
operator is an enrolled administrator at an admin console, no table of the plan is open, no
table already holds the shift, and none holds a later one: a table's shifts open in time order)
and a run that cannot play is refused before its first command.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, timedelta

from ledger.application.ledger import Ledger
from ledger.core.errors import InvalidInput, NotAllowed, WrongState
from ledger.core.formatting import macau
from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind
from ledger.domain.shift import shift_id
from ledger.domain.shift_schedule import ShiftSchedule, ShiftSlot
from ledger.domain.table import Table, table_id
from ledger.identity.keys import Credential

HOW_TO_ACT = ("run it with an administrator's keys: LEDGER_STAFF_CREDENTIAL=<the "
              "administrator's key file> LEDGER_TERMINAL_CREDENTIAL=<their admin console's key "
              "file> (after the demo: demo-operator/staff-DEMO-ADMIN.key and "
              "demo-operator/terminal-DEMO-CONSOLE.key beside the simulator's keys)")


def label(slot: ShiftSlot) -> str:
    """'the day shift of 2026-11-27 (06:00 to 14:00 Macau time)'."""
    starts, ends = macau(slot.starts_at), macau(slot.ends_at)
    return (f"the {slot.shift} shift of {slot.gaming_day} ({starts:%H:%M} to {ends:%H:%M} "
            "Macau time)")


def following(schedule: ShiftSchedule, slot: ShiftSlot) -> ShiftSlot:
    """The shift after this one: the next of its gaming day, or the next day's first."""
    names = schedule.names
    index = names.index(slot.shift)
    if index + 1 < len(names):
        return schedule.slot(slot.gaming_day, names[index + 1])
    return schedule.slot(slot.gaming_day + timedelta(days=1), names[0])


def holds(ledger: Ledger, tables: Iterable[str], slot: ShiftSlot) -> list[str]:
    """The tables of `tables` that already hold this shift."""
    return [code for code in tables
            if ledger.exists(shift_id(code, slot.gaming_day, slot.shift))]


def latest_held(ledger: Ledger, tables: Iterable[str],
                schedule: ShiftSchedule) -> tuple[ShiftSlot, str] | None:
    """The latest shift (by its start) any of `tables` holds, with the table that holds it."""
    held = []
    for code in tables:
        if not ledger.exists(table_id(code)):
            continue
        latest = ledger.load(Table, table_id(code), code).latest_shift
        if latest is not None:
            held.append((_slot_of(schedule, *latest), code))
    return max(held, key=lambda found: found[0].starts_at, default=None)


def _slot_of(schedule: ShiftSchedule, gaming_day: date, shift: str) -> ShiftSlot:
    """The held shift's slot; one of a schedule since changed counts as its day's first."""
    try:
        return schedule.slot(gaming_day, shift)
    except InvalidInput:
        return schedule.slot(gaming_day, schedule.names[0])


def first_free(ledger: Ledger, schedule: ShiftSchedule, tables: list[str],
               slot: ShiftSlot) -> ShiftSlot:
    """`slot`, or the first shift after it that none of `tables` holds and that comes after
    the latest shift they hold."""
    latest = latest_held(ledger, tables, schedule)
    while (holds(ledger, tables, slot)
           or (latest is not None and slot.starts_at < latest[0].starts_at)):
        slot = following(schedule, slot)
    return slot


def free_shift(ledger: Ledger, schedule: ShiftSchedule, tables: list[str],
               now: datetime) -> ShiftSlot:
    """The shift in force at `now`, or, where one of these tables already holds it or a later
    one, the first shift after it that none of them holds and that comes after the latest they
    hold."""
    return first_free(ledger, schedule, tables, schedule.locate(now))


def check_can_play(ledger: Ledger, tables: list[str], slot: ShiftSlot,
                   schedule: ShiftSchedule, operator: tuple[Credential, Credential]) -> None:
    """Refuse, naming what is wrong and what to do, a run that could not play `slot` at these
    tables from start to end under this operator."""
    administrator, console = operator
    member = ledger.staff(administrator.id)
    if member is None or not member.active or Role.ADMINISTRATOR not in member.roles:
        standing = ("is not enrolled in this ledger" if member is None else
                    "is suspended" if not member.active else "is not an administrator")
        raise NotAllowed(f"the simulator enrols the floor's staff and registers its terminals, "
                         f"and {administrator.id} {standing}: {HOW_TO_ACT}.")
    device = ledger.terminal(console.id)
    if device is None or not device.active or device.kind is not TerminalKind.ADMIN_CONSOLE:
        raise NotAllowed(f"the simulator acts at an admin console, and terminal {console.id} "
                         f"is not one registered in this ledger: {HOW_TO_ACT}.")
    open_tables = [code for code in tables if ledger.exists(table_id(code))
                   and ledger.load(Table, table_id(code), code).is_open]
    if open_tables:
        raise WrongState(
            f"table {', '.join(open_tables)} {'is' if len(open_tables) == 1 else 'are'} open: a "
            "simulated shift opens its tables itself. Close them first (`ledger table close "
            "TABLE` as a supervisor at a pit workstation) or simulate other tables.")
    taken = holds(ledger, tables, slot)
    if taken:
        later = first_free(ledger, schedule, tables, following(schedule, slot))
        raise WrongState(
            f"{label(slot)} is already in the ledger at {', '.join(taken[:3])}"
            f"{' and others' if len(taken) > 3 else ''}: a shift is played once. The first "
            f"shift free at every table is {label(later)}: --day {later.gaming_day} "
            f"--shift {later.shift}.")
    latest = latest_held(ledger, tables, schedule)
    if latest is not None and slot.starts_at < latest[0].starts_at:
        held, code = latest
        later = first_free(ledger, schedule, tables, following(schedule, held))
        raise WrongState(
            f"table {code} already holds {label(held)}, which comes after {label(slot)}: a "
            "table's shifts open in time order, so its rounds are numbered in the order of "
            f"time. The first shift free after the latest its tables hold is {label(later)}: "
            f"--day {later.gaming_day} --shift {later.shift} (or simulate other tables).")
