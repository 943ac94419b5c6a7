"""The library's PostgreSQL recorder, with the ledger's own policy for a lost connection.

`eventsourcing` retries a failed insert or select ten times, 0.2 s apart, each time waiting up
to the pool's timeout for a connection: with the server down a command stalls ~50 s in
silence, and an insert whose commit reply was lost is sent again blind. Here the recorder tries
once; `Ledger.record` owns the retry: it waits up to the command deadline, says it is waiting,
and re-checks the command's receipt before sending it again, so a commit whose reply was lost
is answered "recorded", exactly once. Loaded through the library's recorder-topic setting
(`APPLICATION_RECORDER_TOPIC`).

Its insert is one statement in autocommit, `INSERT ... SELECT FROM unnest(...) RETURNING
notification_id`: the command's events and receipt in one implicit transaction, one round trip.
The rows go as four arrays, one a column, in PostgreSQL's binary format (psycopg dumps them in
C); the library's one array of a composite type was dumped field by field in Python, seven
times the client's CPU for a group commit's batch.
The library's insert took six (a pipeline with a nested BEGIN sync, `SET LOCAL lock_timeout`,
`LOCK TABLE ... IN EXCLUSIVE MODE`, `NOTIFY`, the insert, COMMIT and the pipeline's exit
syncs). The order of appends, and the NOTIFY, now come from the events table's statement
trigger (`ledger.infrastructure.schema`), which locks the row of `ledger_append_turn`: the
writer needs UPDATE on that one-row table, none on the events table.

`LedgerFactory` is the library's PostgreSQL factory (named by `PERSISTENCE_MODULE`), whose pool
knows only host, port, user, password and database: it gives the pool's connections, before
the first one is opened, everything the ledger's URL says (several hosts, target_session_attrs,
TLS options), and the session limits and client-side guard every ledger connection has
(`ledger.infrastructure.session`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import psycopg
from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import (
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresFactory,
)
from eventsourcing.utils import Environment
from psycopg import errors, sql
from psycopg.conninfo import conninfo_to_dict

from ledger.core.errors import DamagedStream
from ledger.infrastructure import partitions
from ledger.infrastructure.session import SessionLimits, guarded, idle_check

TOPIC = "ledger.infrastructure.recorder:LedgerRecorder"
FACTORY_TOPIC = "ledger.infrastructure.recorder:LedgerFactory"
LIMIT_KEYS = ("LEDGER_STATEMENT_TIMEOUT", "LEDGER_LOCK_TIMEOUT", "LEDGER_IDLE_TIMEOUT")
SCHEMA_KEY = "LEDGER_SCHEMA"
CONNINFO_KEY = "LEDGER_CONNINFO"
"""The library's environment keys carrying the session limits, the property's schema and the
ledger's whole connection URL to `LedgerFactory`."""


def limits_env(limits: SessionLimits) -> dict[str, str]:
    """The session limits as the library's environment carries them to `LedgerFactory`."""
    values = (limits.statement_timeout, limits.lock_timeout, limits.idle_in_transaction_timeout)
    env = {key: str(value) for key, value in zip(LIMIT_KEYS, values, strict=True)}
    if limits.schema:
        env[SCHEMA_KEY] = limits.schema
    return env


class LedgerFactory(PostgresFactory):
    def __init__(self, env: Environment) -> None:
        super().__init__(env)
        statement, lock, idle = (int(env.get(key) or default) for key, default in
                                 zip(LIMIT_KEYS, (30, 5, 30), strict=True))
        limits = SessionLimits(statement, lock, idle, schema=env.get(SCHEMA_KEY) or None)
        pool = self.datastore.pool
        kwargs = pool.kwargs
        assert isinstance(kwargs, dict)  # the library's pool is given its kwargs as a dict
        conninfo = env.get(CONNINFO_KEY)
        if conninfo:
            kwargs.update(conninfo_to_dict(conninfo))
        kwargs.update(limits.kwargs())
        pool.connection_class = guarded(limits)
        # The library pings every connection on every use (POSTGRES_PRE_PING), a third of a
        # busy floor's round trips; here only one idle long enough to have been cut off is.
        pool._check = idle_check(pool)


INSERT_COLUMNS = (
    "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
    "SELECT * FROM unnest(%b::uuid[], %b::bigint[], %b::text[], %b::bytea[]) "
    "RETURNING notification_id"
)
INSERT_IF_UNMOVED = (
    "WITH moved AS (SELECT 1 FROM unnest(%b::uuid[], %b::bigint[]) AS read(id, version) "
    "  WHERE read.version <> {schema}.ledger_stream_version(read.id) LIMIT 1) "
    "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
    "SELECT * FROM unnest(%b::uuid[], %b::bigint[], %b::text[], %b::bytea[]) "
    "WHERE NOT EXISTS (SELECT FROM moved) "
    "RETURNING notification_id"
)


class ServerReadOnly(psycopg.OperationalError):
    """The insert reached a server that may not write: a standby, or a primary being demoted in
    a failover. Nothing was recorded; the connection is closed, so the command, sent again
    within its deadline, reaches whichever node is the primary by then."""


class StreamsMoved(Exception):
    """An insert made on condition that the streams it read were still at the versions read
    found one that had moved on: nothing was recorded."""


class LedgerRecorder(PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the events table partitioned by position (`partitions`): its unique positions are
        # each partition's, since an archived partition is a foreign table
        self.sql_create_statements = [
            statement for statement in self.sql_create_statements
            if "CREATE UNIQUE INDEX" not in statement.as_string()]
        self.sql_create_statements[self.create_table_statement_index] = partitions.parent_ddl(
            self.datastore.schema, self.events_table_name)
        names = {"schema": sql.Identifier(self.datastore.schema),
                 "table": sql.Identifier(self.events_table_name)}
        # rendered once: psycopg keeps a parsed text query, a composed one it renders and parses
        # on every execute
        self.insert_columns_statement = sql.SQL(INSERT_COLUMNS).format(**names).as_string(None)
        self.insert_if_unmoved_statement = sql.SQL(INSERT_IF_UNMOVED).format(
            **names).as_string(None)

    def insert_events(self, stored_events: Sequence[StoredEvent], *,
                      unmoved: dict[UUID, int] | None = None,
                      **kwargs: Any) -> Sequence[int] | None:
        """All the events in one autocommit statement: atomic, ordered by the table's
        serialising trigger, one round trip. With `unmoved` (stream: version, the streams a
        group commit read from memory) the statement records nothing, and `StreamsMoved` is
        raised, unless each of those streams is still at that version: the check and the
        insert in the same round trip."""
        if not stored_events:
            return []
        columns: tuple[list[Any], ...] = (
            [e.originator_id for e in stored_events],
            [e.originator_version for e in stored_events],
            [e.topic for e in stored_events], [e.state for e in stored_events])
        statement = self.insert_columns_statement
        if unmoved:
            statement = self.insert_if_unmoved_statement
            columns = (list(unmoved), list(unmoved.values()), *columns)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            try:
                curs.execute(statement, columns, prepare=True)
            except errors.ReadOnlySqlTransaction as error:
                conn.close()  # the pool drops it: the next connection may reach the primary
                raise ServerReadOnly(f"the server is read-only (a standby: a failover?): "
                                     f"{error}") from error
            except errors.DataCorrupted as error:  # the chain trigger: a history that breaks
                raise damaged(error, stored_events) from None
            ids = [row["notification_id"] for row in curs.fetchall()]
        if not ids:
            raise StreamsMoved()
        return ids

    # The library's reads, without their blind retry decorator.
    select_events = PostgresAggregateRecorder.select_events.__wrapped__
    select_notifications = PostgresApplicationRecorder.select_notifications.__wrapped__
    max_notification_id = PostgresApplicationRecorder.max_notification_id.__wrapped__


class UnchainedStream(DamagedStream):
    """A stream whose stored history the chain trigger could not extend: nothing was recorded
    (the other streams of the insert go again without it)."""

    def __init__(self, message: str, stream_id: str) -> None:
        super().__init__(message)
        self.stream_id = stream_id


def damaged(error: errors.DataCorrupted, stored: Sequence[StoredEvent]) -> UnchainedStream:
    """The chain trigger's refusal of a stream whose stored history does not chain, as the
    one sentence a person at the table reads: which stream, and what to run."""
    stream = error.diag.message_detail or "?"
    topic = next((e.topic for e in stored if str(e.originator_id) == stream), "")
    kind = topic.split(":")[-1].split(".")[0] or "stream"
    said = (error.diag.message_primary or "").replace(f"stream {stream} ", "the database ")
    return UnchainedStream(
        f"{kind} {stream} is refused: its stored history does not chain ({said}), so nothing "
        "was recorded on it; run `ledger verify` to name the damage", stream)


def last_versions(conn: Any, streams: Sequence[UUID]) -> dict[UUID, int]:
    """Each stream's newest version as stored (the group writer's check of what it holds)."""
    rows = conn.execute("SELECT id, ledger_stream_version(id) FROM unnest(%s::uuid[]) AS id",
                        (list(streams),)).fetchall()
    return {row["id"]: row["ledger_stream_version"] for row in rows if row[
        "ledger_stream_version"]}
