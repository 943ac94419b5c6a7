"""Who the registry holds, read from the event log (each id's stream then loads as usual)."""

from __future__ import annotations

from ledger.domain.registry import StaffMember, TerminalDevice
from ledger.identity.keys import Kind
from ledger.infrastructure.database import Database
from ledger.infrastructure.event_log import ids_created_by

CREATED = {"staff": (StaffMember.Enrolled.event_type, "staff_id"),
           "terminal": (TerminalDevice.Registered.event_type, "terminal_id")}


def registered_ids(database: Database, kind: Kind) -> list[str]:
    event_type, field = CREATED[kind]
    with database.connect() as conn:
        return ids_created_by(conn, event_type, field)
