"""Closed ranges of the events table moved to an archive database, and read there in place.

An archived range is a table of the archive database (schema `ledger_<ledger id>`, the
partition's own name), loaded once by COPY, compared with the primary's rows (count and a
SHA-256 over their chain hashes in position order), then closed: its triggers refuse any
INSERT, UPDATE, DELETE or TRUNCATE from then on. On the primary the range's partition is
replaced, in one transaction under the append turn, by a foreign table (`postgres_fdw`) over
the archived one, attached as the same range: every read of `ledger_events` (verify, replay,
recall, export, the readable log) still sees every event, by position or by stream, and the
seal's leaves and tiles, which stay on the primary, still prove each one.

The primary reaches the archive through the foreign server `ledger_archive` and one user
mapping for every login (PUBLIC): give it a login of the archive that may only read.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg import Connection, errors, sql
from psycopg.conninfo import conninfo_to_dict

from ledger.core.errors import WrongState
from ledger.domain.shift import Shift
from ledger.infrastructure import partitions, schema

SERVER = "ledger_archive"
COLUMNS = "notification_id, originator_id, originator_version, topic, state, chain_hash"
ARCHIVED_DDL = """
CREATE TABLE {table} (
    notification_id bigint PRIMARY KEY,
    originator_id uuid NOT NULL,
    originator_version bigint NOT NULL,
    topic text,
    state bytea,
    chain_hash bytea,
    UNIQUE (originator_id, originator_version))
"""
REFUSE = """
CREATE OR REPLACE FUNCTION {schema}.ledger_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is archived: % is not allowed on archived events', TG_TABLE_NAME, TG_OP
        USING HINT = 'The archive keeps every event for good.';
END
$$
"""


@dataclass(frozen=True)
class Range:
    """A range partition on the primary whose every position has been drawn."""

    name: str
    first: int
    end: int
    rows: int
    last_position: int | None
    newest_at: datetime | None


def can_read_archives(conn: Connection[Any]) -> bool:
    """Whether this server has `postgres_fdw`, through which an archive is read."""
    return conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'postgres_fdw'"
                        ).fetchone() is not None


def ranges_on_primary(conn: Connection[Any], table: str) -> list[Range]:
    """The primary's own range partitions that nothing can be appended to any more (the next
    position is past them), oldest first."""
    row = conn.execute(sql.SQL("SELECT coalesce(max(notification_id), 0) FROM {}").format(
        sql.Identifier(table))).fetchone()
    newest = int(row[0]) if row else 0
    found = []
    for part in partitions.partitions(conn, table):
        if part.foreign or part.first is None or part.end is None or part.end > newest + 1:
            continue
        ident = sql.Identifier(part.name)
        count, last = conn.execute(sql.SQL(
            "SELECT count(*), max(notification_id) FROM {}").format(ident)).fetchone() or (0, None)
        at = None
        if last is not None:
            stamp = conn.execute(sql.SQL(
                "SELECT (convert_from(state, 'UTF8')::jsonb ->> 'timestamp')::timestamptz "
                "FROM {} WHERE notification_id = %s").format(ident), (last,)).fetchone()
            at = stamp[0] if stamp else None
        found.append(Range(part.name, part.first, part.end, int(count), last, at))
    return found


def open_shift_in(conn: Connection[Any], table: str, first: int, end: int) -> UUID | None:
    """A shift opened within the positions [first, end) that has not been closed."""
    row = conn.execute(sql.SQL(
        "SELECT o.originator_id FROM {table} o WHERE o.notification_id >= %s "
        "AND o.notification_id < %s AND o.topic LIKE %s AND NOT EXISTS ("
        "SELECT 1 FROM {table} c WHERE c.originator_id = o.originator_id "
        "AND c.topic LIKE %s) LIMIT 1").format(table=sql.Identifier(table)),
        (first, end, f"%:{Shift.Opened.event_type}", f"%:{Shift.Closed.event_type}")).fetchone()
    return row[0] if row else None


def _digest(conn: Connection[Any], relation: sql.Composable) -> tuple[int, str]:
    digest, count = hashlib.sha256(), 0
    with conn.cursor() as cursor:
        cursor.execute(sql.SQL("SELECT chain_hash FROM {} ORDER BY notification_id").format(
            relation))
        for (chain_hash,) in cursor:
            digest.update(bytes(chain_hash or b""))
            count += 1
    return count, digest.hexdigest()


def _copy(conn: Connection[Any], archive: Connection[Any], source: sql.Identifier,
          target: sql.Identifier) -> None:
    """The rows, in PostgreSQL's binary COPY format, from the primary into the archive."""
    reading = sql.SQL("COPY (SELECT " + COLUMNS + " FROM {} ORDER BY notification_id) TO "
                      "STDOUT (FORMAT BINARY)").format(source)
    writing = sql.SQL("COPY {} (" + COLUMNS + ") FROM STDIN (FORMAT BINARY)").format(target)
    with conn.cursor() as out, archive.cursor() as into, out.copy(reading) as rows, \
            into.copy(writing) as copy:
        for data in rows:
            copy.write(data)


def archive_schema(ledger_id: str) -> str:
    return "ledger_" + ledger_id.replace("-", "_")


def copy_out(conn: Connection[Any], archive: Connection[Any], ledger_id: str,
             piece: Range) -> str:
    """The range's rows copied into the archive and closed there; the digest both sides agree
    on. A range copied before (an archiving stopped half-way) is checked, not copied again."""
    where = archive_schema(ledger_id)
    target = sql.Identifier(where, piece.name)
    source = sql.Identifier(piece.name)
    local = _digest(conn, source)
    with archive.transaction():
        archive.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(where)))
        exists = archive.execute("SELECT to_regclass(%s)", (f"{where}.{piece.name}",)).fetchone()
        if not (exists and exists[0]):
            archive.execute(sql.SQL(ARCHIVED_DDL).format(table=target))
            _copy(conn, archive, source, target)
            archive.execute(sql.SQL(REFUSE).format(schema=sql.Identifier(where)))
            archive.execute(sql.SQL(
                "CREATE TRIGGER ledger_archived_no_change BEFORE INSERT OR UPDATE OR DELETE "
                "ON {} FOR EACH ROW EXECUTE FUNCTION {}.ledger_refuse_change()").format(
                target, sql.Identifier(where)))
            archive.execute(sql.SQL(
                "CREATE TRIGGER ledger_archived_no_truncate BEFORE TRUNCATE ON {} FOR EACH "
                "STATEMENT EXECUTE FUNCTION {}.ledger_refuse_change()").format(
                target, sql.Identifier(where)))
        remote = _digest(archive, target)
    if remote != local:
        raise WrongState(f"the archive's copy of {piece.name} differs from the primary's "
                         f"({remote[0]} rows against {local[0]}): nothing was moved")
    return local[1]


def swap_in(conn: Connection[Any], table: str, archive_url: str, ledger_id: str,
            piece: Range) -> None:
    """The range's partition replaced by the archived table, read through `postgres_fdw`, in
    the caller's transaction, under the append turn."""
    run = conn.execute
    try:
        run("CREATE EXTENSION IF NOT EXISTS postgres_fdw")
    except errors.Error as error:
        raise WrongState(f"this server cannot read an archive: postgres_fdw is not available "
                         f"({str(error).splitlines()[0]})") from None
    _server(conn, archive_url)
    run(sql.SQL("SET LOCAL lock_timeout = {}").format(sql.Literal(partitions.DDL_LOCK_TIMEOUT)))
    run("SELECT 1 FROM ledger_append_turn FOR UPDATE")
    part = sql.Identifier(piece.name)
    run(sql.SQL("ALTER TABLE {} DETACH PARTITION {}").format(sql.Identifier(table), part))
    run(sql.SQL("DROP TABLE {}").format(part))
    run(sql.SQL(
        "CREATE FOREIGN TABLE {} (notification_id bigint NOT NULL, originator_id uuid NOT NULL, "
        "originator_version bigint NOT NULL, topic text, state bytea, chain_hash bytea) "
        "SERVER {} OPTIONS (schema_name {}, table_name {})").format(
        part, sql.Identifier(SERVER), sql.Literal(archive_schema(ledger_id)),
        sql.Literal(piece.name)))
    run(sql.SQL("ALTER TABLE {} ATTACH PARTITION {} FOR VALUES FROM ({}) TO ({})").format(
        sql.Identifier(table), part, sql.Literal(piece.first), sql.Literal(piece.end)))
    schema.install_chain(conn, table)  # the primary's own partitions now start later


def _server(conn: Connection[Any], archive_url: str) -> None:
    params = conninfo_to_dict(archive_url)
    options = {key: str(params[key]) for key in ("host", "port", "dbname") if params.get(key)}
    found = conn.execute("SELECT srvoptions FROM pg_foreign_server WHERE srvname = %s",
                         (SERVER,)).fetchone()
    if found is None:
        conn.execute(sql.SQL("CREATE SERVER {} FOREIGN DATA WRAPPER postgres_fdw OPTIONS ({})"
                             ).format(sql.Identifier(SERVER), _options(options)))
    else:
        held = dict(str(item).split("=", 1) for item in found[0] or [])
        if held != options:
            raise WrongState(f"this ledger's archive is {held.get('host')}:{held.get('port')}/"
                             f"{held.get('dbname')}, not the one named: an archive is never "
                             "moved by archiving more")
    mapping = {"user": str(params.get("user") or "")}
    if params.get("password"):
        mapping["password"] = str(params["password"])
    else:  # a trusted login (no password): only a superuser may say so
        mapping["password_required"] = "false"
    if not conn.execute("SELECT 1 FROM pg_user_mappings WHERE srvname = %s AND usename = "
                        "'public'", (SERVER,)).fetchone():
        conn.execute(sql.SQL("CREATE USER MAPPING FOR PUBLIC SERVER {} OPTIONS ({})").format(
            sql.Identifier(SERVER), _options(mapping)))


def _options(values: dict[str, str]) -> sql.Composed:
    return sql.SQL(", ").join(sql.SQL("{} {}").format(sql.Identifier(key), sql.Literal(value))
                              for key, value in values.items())
