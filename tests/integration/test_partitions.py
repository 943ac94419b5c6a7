"""The events table in partitions of positions: appends run on past the partitions made ahead
(into the default one, which the next upkeep turns into a range of its own), a stream's
version stays unique across partitions, and nobody but the owner reaches a partition itself."""

from __future__ import annotations

import secrets
import uuid

import psycopg
import pytest
from psycopg import errors, sql
from psycopg.conninfo import make_conninfo

from ledger.core.errors import WrongState
from ledger.infrastructure import partitions
from ledger.infrastructure.database import EVENTS_TABLE
from tests.conftest import TEST_PARTITION_EVENTS

SIZE = TEST_PARTITION_EVENTS


def _append_new_streams(conn, count: int) -> None:
    conn.execute("INSERT INTO ledger_events (originator_id, originator_version, topic, state) "
                 "SELECT gen_random_uuid(), 1, 'tests:Probe.Made', convert_to('{}', 'UTF8') "
                 "FROM generate_series(1, %s)", (count,))


def _ranges(conn) -> list[tuple[str, int | None, int | None]]:
    return [(p.name, p.first, p.end) for p in partitions.partitions(conn, EVENTS_TABLE)]


def test_appends_past_the_partitions_made_ahead_land_in_the_default_and_get_a_range(database):
    with database.connect() as conn:
        (newest,) = conn.execute("SELECT max(notification_id) FROM ledger_events").fetchone()
        _append_new_streams(conn, 2 * SIZE)  # past the one partition made ahead
        (spilled,) = conn.execute("SELECT count(*) FROM ledger_events_default").fetchone()
        assert spilled > 0
        (top,) = conn.execute("SELECT max(notification_id) FROM ledger_events").fetchone()
        with conn.transaction():
            made = partitions.ensure(conn, EVENTS_TABLE, SIZE)
        ranges = _ranges(conn)
        assert ranges[-1] == ("ledger_events_default", None, None)
        assert (f"ledger_events_p{SIZE + 1}", SIZE + 1, top + 1) in ranges, ranges
        assert (f"ledger_events_p{top + 1}", top + 1, top + 1 + SIZE) in ranges, ranges
        assert made[0] == f"ledger_events_p{SIZE + 1}"
        (still,) = conn.execute("SELECT count(*) FROM ledger_events_default").fetchone()
        assert still == 0
        (count,) = conn.execute("SELECT count(*) FROM ledger_events WHERE notification_id > %s",
                                (newest,)).fetchone()
        assert count == 2 * SIZE  # nothing lost or doubled by the move
        _append_new_streams(conn, 3)  # and the next appends land in the range made ahead
        (ahead,) = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(
            sql.Identifier(f"ledger_events_p{top + 1}"))).fetchone()
        assert ahead == 3


def _at_position_zero(conn) -> None:
    """An event the sequence never gave, put in behind the position check (an owner's)."""
    conn.execute("ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_assigned_position")
    conn.execute("INSERT INTO ledger_events (notification_id, originator_id, originator_version, "
                 "topic, state) VALUES (0, gen_random_uuid(), 1, 'tests:Probe.Made', "
                 "convert_to('{}', 'UTF8'))")
    conn.execute("ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER ledger_events_assigned_position")


def test_an_event_below_the_ranges_stays_in_the_default_and_the_upkeep_goes_on(database):
    with database.connect() as conn:
        _at_position_zero(conn)
        with conn.transaction():
            partitions.ensure(conn, EVENTS_TABLE, SIZE)  # nothing past the ranges: kept
        (kept,) = conn.execute("SELECT count(*) FROM ledger_events_default "
                               "WHERE notification_id = 0").fetchone()
        assert kept == 1
        _append_new_streams(conn, 2 * SIZE)  # past the ranges too: no range holds both
        with pytest.raises(WrongState, match="below them .from 0."), conn.transaction():
            partitions.ensure(conn, EVENTS_TABLE, SIZE)
        _append_new_streams(conn, 3)  # appends go on, into the default


def test_a_version_a_stream_has_in_an_older_partition_is_refused_as_a_duplicate(database):
    with database.connect() as conn:
        stream, version = conn.execute(
            "SELECT originator_id, max(originator_version) FROM ledger_events "
            "WHERE notification_id < %s GROUP BY originator_id LIMIT 1", (SIZE,)).fetchone()
        # into a newer partition: a position chosen, so behind the position check (an owner's)
        conn.execute("ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_assigned_position")
        for again in (1, version):  # the first version, and the newest, sent again
            with pytest.raises(errors.UniqueViolation, match=f"already has version {again}"):
                conn.execute(
                    "INSERT INTO ledger_events (originator_id, originator_version, topic, "
                    "state, notification_id) VALUES (%s, %s, 'tests:Probe.Again', "
                    "convert_to('{}', 'UTF8'), %s)", (stream, again, 10 * SIZE))
        conn.execute("ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER "
                     "ledger_events_assigned_position")
        with pytest.raises(psycopg.Error, match="has no version"):  # a gap is no better
            conn.execute("INSERT INTO ledger_events (originator_id, originator_version, topic, "
                         "state) VALUES (%s, %s, 'tests:Probe.Gap', convert_to('{}', 'UTF8'))",
                         (stream, version + 2))
        fresh = uuid.uuid4()
        with pytest.raises(errors.UniqueViolation):  # twice in one statement
            conn.execute("INSERT INTO ledger_events (originator_id, originator_version, topic, "
                         "state) VALUES (%s, 1, 't:A', '\\x7b7d'), (%s, 1, 't:A', '\\x7b7d')",
                         (fresh, fresh))


def test_the_writer_and_the_reader_reach_the_events_only_through_the_table(
        database, superuser, database_roles):
    made = []
    try:
        refused = ("SELECT count(*) FROM ledger_events_p1", "TRUNCATE ledger_events_default",
                   ("INSERT INTO ledger_events_default (originator_id, originator_version, "
                    "topic, state) VALUES (gen_random_uuid(), 1, 't:A', '\\x7b7d')"),
                   "ALTER TABLE ledger_events DETACH PARTITION ledger_events_p1")
        for group in ("writer", "reader"):
            name = f"ledger_login_{group}_{secrets.token_hex(3)}"
            superuser.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(name)))
            superuser.execute(sql.SQL("GRANT {} TO {}").format(
                sql.Identifier(getattr(database_roles, group)), sql.Identifier(name)))
            made.append(name)
            with psycopg.connect(make_conninfo(database.url, user=name),
                                 autocommit=True) as conn:
                assert conn.execute("SELECT count(*) FROM ledger_events").fetchone()[0] > 0
                for statement in refused:
                    with pytest.raises(errors.InsufficientPrivilege):
                        conn.execute(statement)
    finally:
        for name in made:
            superuser.execute(sql.SQL("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                      "WHERE usename = {}").format(sql.Literal(name)))
            superuser.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(name)))
