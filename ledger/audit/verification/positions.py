"""Every event at a position the database's sequence gave, and exactly the seal's leaves below
the checkpoint a verification starts from.

The database gives positions (`ledger.infrastructure.schema`: a row trigger refuses any other),
but a ledger made before that trigger, or an owner who switches it off, could have put an event
at position 0, at a negative one, in a gap below the newest, or far above it. None of those is
a position the sequence gave, and each is named here:

- **outside the sequence**: below 1, or above the newest value the sequence has given (read in
  the same statement as the events, after its snapshot, so an append meanwhile is not one);
- **more than the seal holds**: resuming from a checkpoint a verification reached, the events
  at or below its position must be exactly its size (the recomputed tree proves what they are
  from there on; a full verification recomputes the tree from the first event, whatever its
  position, so an extra one parts from the checkpoint there). The count reads each partition's
  index of positions, not the events.
"""

from __future__ import annotations

from typing import Any

from psycopg import Connection, sql

from ledger.audit.verification.findings import Failure
from ledger.audit.verification.record import Reached
from ledger.infrastructure.database import EVENTS_TABLE

SHOWN = 10  # the events named at most, per kind of problem

COLUMNS = ("SELECT e.notification_id, e.originator_id, e.originator_version, "
           "split_part(e.topic, ':', 2), (SELECT given FROM newest) FROM {table} e ")
OUTSIDE = (
    "WITH newest AS MATERIALIZED ("
    "SELECT coalesce(pg_sequence_last_value({sequence}), 0) AS given) "
    + COLUMNS + "WHERE e.notification_id < 1 UNION ALL "
    + COLUMNS + "WHERE e.notification_id > (SELECT given FROM newest) ORDER BY 1 LIMIT %s"
)
"""Two ranges, each read by the partitions' index of positions (the newest given is a
parameter the executor prunes the partitions by), not every event."""
UNSEALED = (
    "SELECT e.notification_id, e.originator_id, e.originator_version, "
    "split_part(e.topic, ':', 2) FROM {table} e WHERE e.notification_id <= %(position)s "
    "AND NOT EXISTS (SELECT 1 FROM ledger_seal_leaves l WHERE l.position = e.notification_id "
    "AND l.leaf_index < %(size)s) ORDER BY e.notification_id LIMIT %(shown)s"
)


def position_failures(conn: Connection[Any], since: Reached | None = None) -> list[Failure]:
    """Events at positions the sequence never gave; with `since`, events at or below the
    checkpoint it reached beyond the ones that checkpoint signed."""
    failures = _outside_the_sequence(conn)
    if since is not None:
        failures += _beyond_the_seal(conn, since)
    return failures


def _outside_the_sequence(conn: Connection[Any]) -> list[Failure]:
    replica = conn.execute("SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass(%s) "
                           "AND tgname = %s", (EVENTS_TABLE, f"{EVENTS_TABLE}_arrived")).fetchone()
    if replica:  # a group database's copy: the positions are the property's sequence's
        return []
    sequence = sql.Literal(f"{EVENTS_TABLE}_notification_id_seq")
    readable = conn.execute("SELECT has_sequence_privilege(%s, 'SELECT')",
                            (f"{EVENTS_TABLE}_notification_id_seq",)).fetchone()
    if not readable or not readable[0]:
        return [Failure("positions", "the position sequence", (
            "this login may not read it, so no position was checked against it: run "
            "`ledger db init` (it grants the reader and the sealer SELECT on it)"))]
    rows = conn.execute(sql.SQL(OUTSIDE).format(
        sequence=sequence, table=sql.Identifier(EVENTS_TABLE)), (SHOWN,)).fetchall()
    return [Failure("positions", f"position {position:,}", (
        f"stream {stream} version {version} ({event}) is at a position the database's "
        f"sequence never gave (it has given 1 to {given:,}): set by hand, not drawn"))
        for position, stream, version, event, given in rows]


def _beyond_the_seal(conn: Connection[Any], since: Reached) -> list[Failure]:
    table = sql.Identifier(EVENTS_TABLE)
    row = conn.execute(sql.SQL("SELECT count(*) FROM {} WHERE notification_id <= %s").format(
        table), (since.position,)).fetchone()
    held = int(row[0]) if row else 0
    if held == since.size:
        return []
    subject = f"the events up to position {since.position:,}"
    if held < since.size:
        return [Failure("positions", subject, (
            f"{held:,} are stored, but the checkpoint a verification reached signed "
            f"{since.size:,} there: {since.size - held:,} deleted or moved "
            "(`ledger verify --full` names which)"))]
    rows = conn.execute(sql.SQL(UNSEALED).format(table=table), {
        "position": since.position, "size": since.size, "shown": SHOWN}).fetchall()
    named = "; ".join(f"position {p:,}: stream {s} version {v} ({e})" for p, s, v, e in rows)
    return [Failure("positions", subject, (
        f"{held:,} are stored, {held - since.size:,} more than the {since.size:,} the "
        "checkpoint a verification reached signed there: inserted after sealing"
        + (f" ({named})" if named else "")))]
