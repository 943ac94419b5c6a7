"""No command dated after the ledger recorded it: each command's own time against a recording
time its writer could not choose.

A command's time (`at`) is the terminal's: the door admits it only within the ledger's clock
window (`ledger.identity.door.ClockWindow`). A command recorded around the door (an insider
with the writer login inserting its events and receipt directly, or a process that ran the
door without its clock) may carry any time, and its signatures still verify. So `ledger
verify` bounds when each command was recorded by times the writer does not set:

- the signed checkpoint that first sealed it: its `sealed_at` is the sealing host's clock,
  signed with the sealing key and cosigned by the witnesses (RFC 3161's model: a time-stamp's
  time is the authority's, not the requester's). An event in the log at a checkpoint was
  recorded before that checkpoint was made;
- the verification's own time, for what no checkpoint covers yet: nothing is recorded after
  it is read;
- the time the recording process wrote into the receipt (`timestamp`): written by the ledger,
  but a writer inserting rows directly chooses it, so it only ever tightens the bound (it
  catches a ledger process that recorded without its clock window, never hides an insider).

A command whose time is after the earliest of these by more than the clock window's `ahead`
is named.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from eventsourcing.utils import get_topic
from psycopg import Connection

from ledger.audit.log.formats import Checkpoint
from ledger.core.formatting import TIME_LABEL, macau
from ledger.domain.grammar import offset_in_use
from ledger.domain.receipt import CommandReceipt

RECEIPTS = """
SELECT notification_id, body ->> 'command_type', body -> 'by' ->> 'command_id',
       body -> 'command' ->> 'at', body ->> 'timestamp'
  FROM ledger_events, LATERAL (SELECT convert_from(state, 'UTF8')::jsonb AS body) AS receipt
 WHERE topic = %s AND notification_id > %s
 ORDER BY notification_id
"""


@dataclass(frozen=True)
class Sealed:
    """The signed checkpoints' positions and times, in position order."""

    positions: list[int]
    times: list[datetime]

    @classmethod
    def read(cls, conn: Connection[Any]) -> Sealed:
        rows = conn.execute("SELECT statement, signature FROM ledger_seal_checkpoints "
                            "ORDER BY position").fetchall()
        checkpoints = [Checkpoint.from_statement(bytes(row[0]), bytes(row[1])) for row in rows]
        return cls([c.position for c in checkpoints], [c.when for c in checkpoints])

    def first_sealing(self, position: int) -> tuple[datetime, int] | None:
        """When the first checkpoint reaching `position` was signed, and its position."""
        index = bisect_left(self.positions, position)
        if index == len(self.positions):
            return None
        return self.times[index], self.positions[index]


def recorded_after(conn: Connection[Any], *, now: datetime, ahead: timedelta,
                   after: int = 0) -> Iterator[tuple[str, str]]:
    """(subject, reason) for each command after position `after` dated after its recording
    time by more than `ahead`; `now` is the verification's own time."""
    sealed = Sealed.read(conn)
    with conn.transaction(), conn.cursor(name="recording_times") as cursor:
        cursor.itersize = 10_000
        cursor.execute(RECEIPTS, (get_topic(CommandReceipt.Accepted), after))
        for position, kind, command_id, at_text, written_text in cursor:
            subject = f"{kind} {command_id} (position {position:,})"
            at, written = _moment(at_text), _moment(written_text)
            if at_text is not None and at is None:
                yield subject, (f"its time {_quoted(at_text)} is not a time with a UTC offset "
                                "any place uses: when it happened cannot be told")
            if at is None:
                continue
            bound, source = now, "this verification's own time (no checkpoint seals it yet)"
            sealing = sealed.first_sealing(position)
            if sealing is not None and sealing[0] < bound:
                bound, source = sealing[0], f"the signed checkpoint at position {sealing[1]:,}"
            if written is not None and written < bound:
                bound, source = written, "the time the ledger wrote into its receipt"
            if at > bound + ahead:
                yield (subject,
                       (f"dated {_shown(at)}, after it was recorded: by {_shown(bound)}, "
                        f"{source}; a command's time may run at most {_minutes(ahead)} ahead "
                        "of the ledger's clock"))


def _moment(text: str | None) -> datetime | None:
    """A stored time as written (read here, not cast by the server: a time the server cannot
    cast would stop the whole verification), or None where it is none a clock gives."""
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return moment if offset_in_use(moment) else None


def _quoted(text: str) -> str:
    return repr(text[:40])


def _shown(moment: datetime) -> str:
    return f"{macau(moment):%Y-%m-%d %H:%M:%S} {TIME_LABEL}"


def _minutes(delta: timedelta) -> str:
    return f"{int(delta.total_seconds() // 60)} min"
