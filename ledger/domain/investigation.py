"""An investigation note: who looked into a flagged figure of a period, and what they found.

Regulators ask that a win outside its expected band, or a change of win-to-drop from its base
period outside its interval, be investigated and the result kept (Kansas: seven years). A note is its own stream, recorded by a
signed command like every other record; the statistics reports of any period it overlaps show
it, and it is never changed: a later finding is a later note.
"""

from __future__ import annotations

from datetime import date
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from ledger.domain.base import Aggregate, Provenance

INVESTIGATION_NAMESPACE = uuid5(NAMESPACE_URL, "https://round-ledger/investigation")


def investigation_id(command_id: UUID) -> UUID:
    return uuid5(INVESTIGATION_NAMESPACE, str(command_id))


class Investigation(Aggregate):
    """One note on a figure of a period: its scope (a table, game, pit, dealer or the floor)."""

    class Noted(Aggregate.Created):
        note_id: UUID  # the command's id: one note a command
        first_day: date
        last_day: date
        scope: str
        subject: str
        finding: str
        by: Provenance

    @staticmethod
    def create_id(note_id: UUID, **_: object) -> UUID:
        return investigation_id(note_id)

    @event(Noted)
    def __init__(self, note_id: UUID, first_day: date, last_day: date, scope: str,
                 subject: str, finding: str, by: Provenance) -> None:
        self.first_day, self.last_day = first_day, last_day
        self.scope, self.subject, self.finding = scope, subject, finding
