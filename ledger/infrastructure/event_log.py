"""Reads of the readable event log (`ledger_event_log`, the view over the event table that
names each event's type and time): what `ledger events`, the registry listings, the floor and
the demo ask of the stored events. Every statement of the ledger outside the audit and the
projections lives in this storage layer; the callers pass values and get rows."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any
from uuid import UUID

from psycopg import Connection, sql

from ledger.domain.base import event_types
from ledger.domain.receipt import CommandReceipt
from ledger.domain.round import Round
from ledger.infrastructure.database import EVENTS_TABLE

EventRow = tuple[int, UUID, int, str, Any, dict[str, Any]]
"""position, stream id, version, event type, recorded at, body"""

_COLUMNS = "position, stream_id, version, event_type, recorded_at, body"


def last_events(conn: Connection[Any], count: int) -> list[EventRow]:
    """The last `count` events recorded, newest first."""
    return conn.execute(
        f"SELECT {_COLUMNS} FROM ledger_event_log ORDER BY position DESC LIMIT %s",
        (count,)).fetchall()


def events_of(conn: Connection[Any], stream_id: UUID) -> list[EventRow]:
    """Every event of one stream, in order."""
    return conn.execute(
        f"SELECT {_COLUMNS} FROM ledger_event_log WHERE stream_id = %s ORDER BY version",
        (stream_id,)).fetchall()


def ids_created_by(conn: Connection[Any], event_type: str, field: str) -> list[str]:
    """The `field` of every event of `event_type`, in the order recorded (the registry's ids)."""
    rows = conn.execute(
        "SELECT body ->> %s FROM ledger_event_log WHERE event_type = %s ORDER BY position",
        (field, event_type)).fetchall()
    return [row[0] for row in rows]


def event_count(conn: Connection[Any]) -> tuple[int, int | None]:
    """How many events the ledger holds, and the newest one's position."""
    row = conn.execute(sql.SQL("SELECT count(*), max(notification_id) FROM {}").format(
        sql.Identifier(EVENTS_TABLE))).fetchone()
    return (row[0], row[1]) if row else (0, None)


def settled_bets(conn: Connection[Any], rounds: Iterable[UUID]) -> dict[UUID, list[Any]]:
    """The settled bets of each of `rounds`, as their `Round.BetSettled` events recorded them."""
    bets: dict[UUID, list[Any]] = {}
    for stream, body in conn.execute(
            "SELECT stream_id, body FROM ledger_event_log WHERE stream_id = ANY(%s) "
            "AND event_type = %s ORDER BY position", (list(rounds), Round.BetSettled.event_type)):
        bets.setdefault(stream, []).append(body["bet"])
    return bets


def receipts_signed(conn: Connection[Any]) -> tuple[int, int, int, int]:
    """How many commands the ledger holds, how many arrived signed, by how many staff, at how
    many terminals (read from the receipts)."""
    row = conn.execute(
        "SELECT count(*), count(*) FILTER (WHERE jsonb_typeof(body -> 'signed') = 'object'), "
        "count(DISTINCT body -> 'by' -> 'actor' ->> 'staff_id'), "
        "count(DISTINCT body -> 'by' ->> 'terminal') "
        "FROM ledger_event_log WHERE event_type = %s",
        (CommandReceipt.Accepted.event_type,)).fetchone()
    return (row[0], row[1], row[2], row[3]) if row else (0, 0, 0, 0)


def first_round_with(conn: Connection[Any], event_type: str, gaming_day: date,
                     shift: str) -> UUID | None:
    """The first round of a shift that recorded an event of `event_type` (through the shift
    report's rounds)."""
    row = conn.execute(
        "SELECT e.stream_id FROM ledger_event_log e JOIN report_rounds r ON r.round_id = "
        "e.stream_id JOIN report_shifts s ON s.shift_id = r.shift_id WHERE e.event_type = %s "
        "AND s.gaming_day = %s AND s.shift = %s ORDER BY e.position LIMIT 1",
        (event_type, gaming_day, shift)).fetchone()
    return row[0] if row else None


def irregularities_in(conn: Connection[Any], gaming_day: date, shift: str) -> dict[str, int]:
    """Irregularities (and exposed cards) of a shift's rounds by kind, most first."""
    rows = conn.execute(
        "SELECT e.body ->> 'kind', count(*) FROM ledger_event_log e JOIN report_rounds r ON "
        "r.round_id = e.stream_id JOIN report_shifts s ON s.shift_id = r.shift_id WHERE "
        "e.event_type = ANY(%s) AND s.gaming_day = %s AND s.shift = %s "
        "GROUP BY 1 ORDER BY 2 DESC, 1",
        (list(event_types(Round.IrregularityRecorded, Round.CardExposed)), gaming_day,
         shift)).fetchall()
    return {kind: count for kind, count in rows}


FLOOR_HAPPENINGS = event_types(Round.IrregularityRecorded, Round.CardExposed, Round.Voided)
"""What the floor's alerts tell of a shift's rounds, event by event."""


def happenings_in(conn: Connection[Any], shifts: Iterable[tuple[str, date, str]]
                  ) -> list[tuple[str, int | None, str | None, str, dict[str, Any]]]:
    """The irregularities, exposed cards and voids of the rounds of each (table, gaming day,
    shift), in the order recorded: (table, round number, the dealer who opened the round,
    event type, body). Read from the shift's rounds (the shift report's), so a floor read
    touches their events only."""
    wanted = list(shifts)
    if not wanted:
        return []
    tables, days, names = ([line[n] for line in wanted] for n in range(3))
    rows = conn.execute(
        "SELECT r.table_code, r.number, r.dealer, e.event_type, e.body FROM unnest("
        "%s::text[], %s::date[], %s::text[]) AS wanted(table_code, gaming_day, shift) "
        "JOIN report_shifts s USING (table_code, gaming_day, shift) JOIN report_rounds r ON "
        "r.shift_id = s.shift_id JOIN ledger_event_log e ON e.stream_id = r.round_id "
        "WHERE e.event_type = ANY(%s) ORDER BY e.position",
        (tables, days, names, list(FLOOR_HAPPENINGS))).fetchall()
    return [(row[0], row[1], row[2], row[3], row[4]) for row in rows]


def listen(conn: Connection[Any], channel: str) -> None:
    """Ask to be notified on `channel` (the floor feed's wake-up call)."""
    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
