"""The gaming day: begun by its first shift, closed once every shift of it has closed; and
the investigation notes on a period's figures.

The shift handlers enter each shift's opening and closing in its day's stream; a closed day
refuses a new shift, and the late drop and a supervisor's adjustment recorded after the close
say so (`after_close`).
"""

from __future__ import annotations

from datetime import date

from ledger.application.handlers.unit_of_work import Handlers, UnitOfWork, handles
from ledger.commands.shift import CloseGamingDay, NoteInvestigation
from ledger.domain.base import Provenance
from ledger.domain.gaming_day import GamingDay, gaming_day_id
from ledger.domain.investigation import Investigation


def load_day(uow: UnitOfWork, gaming_day: date) -> GamingDay | None:
    """The day's stream, or None before its first shift (or a ledger older than days)."""
    if not uow.exists(gaming_day_id(gaming_day)):
        return None
    return uow.load(GamingDay, gaming_day_id(gaming_day), f"gaming day {gaming_day}")


def day_closed(uow: UnitOfWork, gaming_day: date) -> bool:
    day = load_day(uow, gaming_day)
    return day is not None and day.closed is not None


def day_of_shift(uow: UnitOfWork, gaming_day: date, by: Provenance) -> GamingDay:
    """The day a shift opens in, begun by its first shift; refused once closed."""
    day = load_day(uow, gaming_day)
    if day is None:
        return GamingDay(gaming_day=gaming_day, by=by)
    day.check_not_closed("opening a shift")
    return day


def close_gaming_day(command: CloseGamingDay, uow: UnitOfWork) -> tuple[GamingDay, ...]:
    day = load_day(uow, command.gaming_day) or GamingDay(
        gaming_day=command.gaming_day, by=command.provenance)
    day.check_can_close()
    day.close(by=command.provenance)
    return (day,)


def note_investigation(command: NoteInvestigation,
                       uow: UnitOfWork) -> tuple[Investigation, ...]:
    """A finding on a flagged figure: its own stream, one a command."""
    return (Investigation(note_id=command.command_id, first_day=command.first_day,
                          last_day=command.last_day, scope=command.scope,
                          subject=command.subject, finding=command.finding,
                          by=command.provenance),)


HANDLERS: Handlers = (
    handles(CloseGamingDay, close_gaming_day),
    handles(NoteInvestigation, note_investigation),
)
