"""Who the registry holds, read from the event log (each id's stream then loads as usual)."""

from __future__ import annotations

from ledger.identity.keys import Kind
from ledger.infrastructure.database import Database

CREATED = {"staff": ("StaffMember.Enrolled", "staff_id"),
           "terminal": ("TerminalDevice.Registered", "terminal_id")}


def registered_ids(database: Database, kind: Kind) -> list[str]:
    event_type, field = CREATED[kind]
    with database.connect() as conn:
        rows = conn.execute(
            "SELECT body ->> %s FROM ledger_event_log WHERE event_type = %s ORDER BY position",
            (field, event_type)).fetchall()
    return [row[0] for row in rows]
