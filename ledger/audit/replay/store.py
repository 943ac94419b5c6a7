"""What a replay reads: rows of `ledger_events`, by stream and version, never the projections.

Every read is by primary key (stream, version) or by a short range of positions, so replaying
one round costs the same in a store of ten thousand events or of a million: the round's own
stream, its shoe's stream (at most one shoe of cards), the few pool events its settlement
wrote, and the pool event just before them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any
from uuid import UUID

from eventsourcing.persistence import JSONTranscoder, StoredEvent
from eventsourcing.utils import get_topic
from psycopg import Connection
from pydantic import ValidationError

from ledger.audit.replay.chain import GENESIS, chain_hash
from ledger.core.errors import DamagedStream, describe_validation_error
from ledger.domain.base import Provenance
from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.receipt import receipt_id
from ledger.domain.table import Table, check_table_code, no_such_table, table_id
from ledger.infrastructure.mapper import PydanticJSONMapper

COLUMNS = "notification_id, originator_id, originator_version, topic, state, chain_hash"
_MAPPER = PydanticJSONMapper(transcoder=JSONTranscoder())


@dataclass(frozen=True)
class RecordedEvent:
    """One stored row and the domain event it holds."""

    position: int
    stream_id: UUID
    version: int
    topic: str
    state: bytes
    stored_hash: bytes | None
    event: Any

    @property
    def event_type(self) -> str:
        """`Round.CardDealt`: the topic without its module."""
        return self.topic.split(":", 1)[-1]

    @property
    def by(self) -> Provenance | None:
        return getattr(self.event, "by", None)

    @cached_property
    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = json.loads(self.state)
        return body

    def chain_holds(self, previous: bytes | None) -> bool:
        """Whether the stored hash is what this row and its predecessor's hash give."""
        expected = chain_hash(previous or GENESIS, self.stream_id, self.version, self.topic,
                              self.state)
        return self.stored_hash == expected


def _decode(row: tuple[Any, ...]) -> RecordedEvent:
    position, stream_id, version, topic, state, stored = row
    state = bytes(state)
    try:
        event = _MAPPER.to_domain_event(StoredEvent(stream_id, version, topic, state))
    except ValidationError as error:
        raise DamagedStream(
            f"DISCREPANCY: stream {stream_id} version {version} (position {position}) is not a "
            f"readable {topic.split(':')[-1]}: {describe_validation_error(error)}. The stream "
            "was altered: run `ledger verify`."
        ) from None
    except (ValueError, AttributeError, ImportError) as error:
        raise DamagedStream(
            f"DISCREPANCY: stream {stream_id} version {version} (position {position}, {topic}) "
            f"cannot be read: {error}. The stream was altered: run `ledger verify`."
        ) from None
    return RecordedEvent(position, stream_id, version, topic, state,
                         bytes(stored) if stored is not None else None, event)


def read_stream(conn: Connection[Any], stream_id: UUID, *, before_version: int | None = None,
                newest_first: bool = False, limit: int | None = None) -> list[RecordedEvent]:
    """A stream's events by version (the primary key), oldest first unless told otherwise."""
    query = f"SELECT {COLUMNS} FROM ledger_events WHERE originator_id = %s"
    params: list[Any] = [stream_id]
    if before_version is not None:
        query += " AND originator_version < %s"
        params.append(before_version)
    query += " ORDER BY originator_version" + (" DESC" if newest_first else "")
    if limit is not None:
        query += " LIMIT %s"
        params.append(limit)
    return [_decode(row) for row in conn.execute(query, params).fetchall()]


def read_streams(conn: Connection[Any], stream_ids: list[UUID]) -> dict[UUID, list[RecordedEvent]]:
    """Several streams' events at once, each by version (one statement for a batch of rounds)."""
    query = (f"SELECT {COLUMNS} FROM ledger_events WHERE originator_id = ANY(%s) "
             "ORDER BY originator_id, originator_version")
    streams: dict[UUID, list[RecordedEvent]] = {stream: [] for stream in stream_ids}
    for row in conn.execute(query, [stream_ids]).fetchall():
        recorded = _decode(row)
        streams[recorded.stream_id].append(recorded)
    return streams


def previous_hash(conn: Connection[Any], event: RecordedEvent) -> bytes | None:
    """The stored hash of the version before `event` (None for version 1 or when missing)."""
    if event.version == 1:
        return GENESIS
    row = conn.execute(
        "SELECT chain_hash FROM ledger_events WHERE originator_id = %s AND originator_version = %s",
        (event.stream_id, event.version - 1),
    ).fetchone()
    return bytes(row[0]) if row and row[0] is not None else None


# -- the jackpot pool around one round's settlement -----------------------------------------


def settlement_pool_events(conn: Connection[Any], pool_id: UUID, round_id: UUID,
                           settle_command: UUID, first_position: int) -> list[RecordedEvent]:
    """The pool events the settling command wrote (its contribution, hits, reduction, reset).

    A command's events and its receipt share one transaction, and the store numbers positions
    in commit order, so they lie between the round's first settlement event and the receipt:
    a range of a few positions. A settlement written without a receipt (behind the
    application's back) is looked for in the pool's stream by round instead.
    """
    receipt = read_stream(conn, receipt_id(settle_command), limit=1)
    if receipt:
        rows = conn.execute(
            f"SELECT {COLUMNS} FROM ledger_events WHERE originator_id = %s "
            "AND notification_id BETWEEN %s AND %s ORDER BY originator_version",
            (pool_id, first_position, receipt[0].position),
        ).fetchall()
    else:
        rows = conn.execute(
            f"SELECT {COLUMNS} FROM ledger_events WHERE originator_id = %s "
            "AND (convert_from(state, 'UTF8')::jsonb ->> 'round_id' = %s "
            "     OR convert_from(state, 'UTF8')::jsonb -> 'by' ->> 'command_id' = %s) "
            "ORDER BY originator_version",
            (pool_id, str(round_id), str(settle_command)),
        ).fetchall()
    events = [_decode(row) for row in rows]
    return [e for e in events if e.by is not None and e.by.command_id == settle_command]


def pool_amount_before(conn: Connection[Any], pool_id: UUID,
                       version: int) -> tuple[Decimal, RecordedEvent] | None:
    """What the pool held just before `version`: the amount its latest earlier event left."""
    before = version
    while before > 1:
        page = read_stream(conn, pool_id, before_version=before, newest_first=True, limit=50)
        for recorded in page:
            amount = _pool_amount(recorded.event)
            if amount is not None:
                return amount, recorded
        if not page:
            return None
        before = page[-1].version
    return None


def _pool_amount(event: Any) -> Decimal | None:
    if isinstance(event, JackpotPool.Created):
        return event.amount
    amount = getattr(event, "pool_after", None)
    return amount if isinstance(amount, Decimal) else None


# -- tables ----------------------------------------------------------------------------------

ROUND_STARTED = get_topic(Table.RoundStarted)


def rounds_started(conn: Connection[Any], table_stream: UUID, newest_first: bool = True,
                   limit: int | None = None, demonstrations: bool = True) -> list[RecordedEvent]:
    """A table's RoundStarted events (each names the round's id, number and time); without
    baccarat's demonstration coups (art. 2(2)) if `demonstrations` is False."""
    played = "" if demonstrations else (
        " AND convert_from(state, 'UTF8')::jsonb->>'demonstration' IS DISTINCT FROM 'true'")
    query = (f"SELECT {COLUMNS} FROM ledger_events WHERE originator_id = %s AND topic = %s"
             f"{played} ORDER BY originator_version" + (" DESC" if newest_first else ""))
    params: list[Any] = [table_stream, ROUND_STARTED]
    if limit is not None:
        query += " LIMIT %s"
        params.append(limit)
    return [_decode(row) for row in conn.execute(query, params).fetchall()]


OPENED_OR_CLOSED = [get_topic(Table.Opened), get_topic(Table.Reopened), get_topic(Table.Closed)]


def closed_after(conn: Connection[Any], table_stream: UUID) -> int | None:
    """None while the table is open; once closed, the number of its last round (0: none)."""
    row = conn.execute("SELECT topic FROM ledger_events WHERE originator_id = %s AND topic = "
                       "ANY(%s) ORDER BY originator_version DESC LIMIT 1",
                       [table_stream, OPENED_OR_CLOSED]).fetchone()
    if row is None or row[0] != OPENED_OR_CLOSED[-1]:
        return None
    last = rounds_started(conn, table_stream, limit=1)
    return int(last[0].event.number) if last else 0


def held_table(conn: Connection[Any], table: str) -> str:
    """The table's code in normal form, once the ledger is found to hold it (`replay` and
    `recall` say so in the same words)."""
    code = check_table_code(table)
    if not read_stream(conn, table_id(code), limit=1):
        raise no_such_table(code)
    return code
