"""A gaming day of the property: its shifts, and its close.

One stream per gaming day, begun by the day's first shift opening. It knows which of the day's
shifts are open, so the day closes only once every one of them has closed its count. A closed
day is locked: no shift opens on it again, and nothing more is recorded for it but the count
room's late drop (and its adjustment) and a supervisor's adjustment of a settled round with a
reason, each recorded as after the close so the reports can say so.
"""

from __future__ import annotations

from datetime import date
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from ledger.core.errors import WrongState
from ledger.core.formatting import when
from ledger.domain.base import Aggregate, Provenance, applies

GAMING_DAY_NAMESPACE = uuid5(NAMESPACE_URL, "https://round-ledger/gaming-day")


def gaming_day_id(gaming_day: date) -> UUID:
    return uuid5(GAMING_DAY_NAMESPACE, gaming_day.isoformat())


class GamingDay(Aggregate):
    """The property's gaming day: which shifts are open, and whether the day is closed."""

    class Begun(Aggregate.Created):
        gaming_day: date
        by: Provenance

    @staticmethod
    def create_id(gaming_day: date, **_: object) -> UUID:
        return gaming_day_id(gaming_day)

    @event(Begun)
    def __init__(self, gaming_day: date, by: Provenance) -> None:
        self.gaming_day = gaming_day
        self.open_shifts: dict[str, str] = {}  # shift stream id -> its label
        self.closed: Provenance | None = None

    @property
    def label(self) -> str:
        return f"gaming day {self.gaming_day.isoformat()}"

    def check_not_closed(self, what: str) -> None:
        """Nothing more is recorded for a closed day (`what`: what was refused)."""
        if self.closed is not None:
            raise WrongState(
                f"{self.label} was closed by {self.closed.actor.staff_id} at "
                f"{when(self.closed.at)}: {what} is not "
                "recorded on it; only a late drop and a supervisor's adjustment are.")

    class ShiftOpened(Aggregate.Event):
        shift_id: UUID
        label: str
        by: Provenance

    @applies(ShiftOpened)
    def shift_opened(self, shift_id: UUID, label: str, by: Provenance) -> None:
        self.open_shifts[str(shift_id)] = label

    class ShiftClosed(Aggregate.Event):
        shift_id: UUID
        by: Provenance

    @applies(ShiftClosed)
    def shift_closed(self, shift_id: UUID, by: Provenance) -> None:
        self.open_shifts.pop(str(shift_id), None)

    def check_can_close(self) -> None:
        self.check_not_closed("closing it again")
        if self.open_shifts:
            still = ", ".join(sorted(self.open_shifts.values()))
            raise WrongState(f"{self.label} cannot close while {still} is open: close "
                             "each shift with its count first.")

    class Closed(Aggregate.Event):
        by: Provenance

    @applies(Closed)
    def close(self, by: Provenance) -> None:
        self.closed = by
