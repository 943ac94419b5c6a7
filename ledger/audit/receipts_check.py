"""Cross-stream check: every event was recorded by a command, with that command.

A command's receipt and its events are saved in one transaction. PostgreSQL stamps every row
with the transaction that inserted it (`xmin`, kept when a row is frozen), which no SQL can
set. An event that claims a command (its `by.command_id`) but was inserted by another
transaction than that command's receipt, or claims a command no receipt records, was put there
by someone other than the ledger: this names it even where the seal has not reached yet (an
event appended after the last checkpoint). A restore from a dump re-stamps every row alike,
which hides nothing from the seal but makes this check weaker: it then names only what was
added after the restore.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from psycopg import Connection

RECEIPT = "CommandReceipt.Accepted"

EVENTS = """
SELECT notification_id, originator_id, originator_version, split_part(topic, ':', 2),
       convert_from(state, 'UTF8')::jsonb -> 'by' ->> 'command_id', xmin::text
  FROM ledger_events ORDER BY notification_id
"""


@dataclass(frozen=True)
class Misplaced:
    position: int
    stream_id: str
    version: int
    command_id: str
    reason: str

    @property
    def subject(self) -> str:
        return f"stream {self.stream_id} version {self.version} (position {self.position})"


def _rows(conn: Connection[Any]) -> Iterator[tuple[Any, ...]]:
    with conn.transaction(), conn.cursor(name="ledger_receipts_check") as cursor:
        cursor.itersize = 5000
        cursor.execute(EVENTS)
        yield from cursor


def misplaced_events(conn: Connection[Any]) -> tuple[int, list[Misplaced]]:
    """(commands checked, events recorded other than with their command)."""
    receipts: dict[str, tuple[str, int]] = {}  # command -> its transaction, its position
    claims: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for row in _rows(conn):
        position, _stream, _version, event_type, command_id, xmin = row
        if command_id is None:
            continue
        if event_type == RECEIPT:
            receipts[command_id] = (xmin, position)
        else:
            claims[command_id].append(row)
    found = []
    for command_id, rows in claims.items():
        receipt = receipts.get(command_id)
        for position, stream_id, version, _type, _, xmin in rows:
            if receipt is None:
                reason = f"claims command {command_id}, which no receipt records"
            elif xmin != receipt[0]:
                reason = (f"claims command {command_id} but was not recorded with that command "
                          f"(its receipt is at position {receipt[1]}, saved by another "
                          "transaction)")
            else:
                continue
            found.append(Misplaced(position, str(stream_id), version, command_id, reason))
    return len(receipts), found
