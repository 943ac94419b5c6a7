"""The event table on a real PostgreSQL: append-only, hash-chained, readable."""

from __future__ import annotations

import json
from decimal import Decimal

import psycopg
import pytest

from ledger.audit.replay.chain import verify_chains
from ledger.commands.table import CloseTable
from ledger.domain.table import Table, table_id
from ledger.runtime.bootstrap import init_database
from tests.integration.helpers import PIT_BOSS, open_table
from tests.signing import event_count, open_ledger


@pytest.fixture
def recorded(settings):
    """A ledger holding one table opened and closed: a stream of two events."""
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))
        rt.ledger.execute(CloseTable(table="BAC-01", actor=PIT_BOSS))
        yield rt


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE ledger_events SET topic = 'forged'",
        "DELETE FROM ledger_events",
        "TRUNCATE ledger_events",
    ],
)
def test_events_table_refuses_change_even_for_the_superuser(recorded, superuser, statement):
    with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        superuser.execute(statement)
    count = event_count(superuser)
    assert count == 4  # 2 table events + 2 command receipts


def test_a_snapshot_row_an_insider_inserts_changes_nothing_the_ledger_reads(
        recorded, superuser, settings):
    """The ledger folds every stream from its events: a row in the library's snapshot table
    (here a garbage one, which a snapshot-reading ledger would fail to load) is never read."""
    assert recorded.ledger.app.snapshots is None
    superuser.execute(
        "CREATE TABLE IF NOT EXISTS ledger_snapshots (originator_id uuid NOT NULL, "
        "originator_version bigint NOT NULL, topic text, state bytea, "
        "PRIMARY KEY (originator_id, originator_version))")
    superuser.execute("INSERT INTO ledger_snapshots VALUES (%s, 99, %s, %s)",
                      (table_id("BAC-01"), "ledger.domain.table:Table", b'{"is_open": true}'))
    with open_ledger(settings) as cold:  # a new process: nothing cached
        table = cold.ledger.load(Table, table_id("BAC-01"), "table BAC-01")
    assert (table.version, table.is_open) == (2, False)


def test_replica_mode_does_not_switch_the_triggers_off(recorded, superuser):
    superuser.execute("SET session_replication_role = replica")
    with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        superuser.execute("DELETE FROM ledger_events")


def test_the_database_chains_rows_inserted_behind_the_application(recorded, superuser):
    stream = table_id("BAC-01")
    superuser.execute(
        "INSERT INTO ledger_events (originator_id, originator_version, topic, state) "
        "VALUES (%s, 3, 'ledger.domain.table:Table.Closed', %s)",
        (stream, b'{"note": "typed in psql"}'),
    )
    report = verify_chains(superuser)
    assert report.ok, report.breaks


def test_the_database_refuses_a_version_with_nothing_to_chain_to(recorded, superuser):
    with pytest.raises(psycopg.errors.DataCorrupted, match="has no version 6"):
        superuser.execute(
            "INSERT INTO ledger_events (originator_id, originator_version, topic, state) "
            "VALUES (%s, 7, 't', %s)",
            (table_id("BAC-01"), b"{}"),
        )


def test_verify_passes_on_an_untouched_ledger(recorded, superuser):
    report = verify_chains(superuser)
    rows, streams = superuser.execute(
        "SELECT count(*), count(DISTINCT originator_id) FROM ledger_events").fetchone()
    assert (report.ok, report.streams, report.events) == (True, streams, rows)
    assert rows > 4  # the table's 2 events and 2 receipts, behind the registry's


def _behind_the_triggers(conn, statement, params=()):
    conn.execute("ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_no_update_delete")
    conn.execute(statement, params)
    conn.execute("ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER ledger_events_no_update_delete")


def test_verify_names_the_stream_and_version_of_a_row_altered_behind_the_triggers(
    recorded, superuser
):
    stream = table_id("BAC-01")
    _behind_the_triggers(
        superuser,
        "UPDATE ledger_events SET state = convert_to(replace(convert_from(state, 'UTF8'), "
        "'50000.00', '99999.00'), 'UTF8') WHERE originator_id = %s AND originator_version = 1",
        (stream,),
    )
    report = verify_chains(superuser)
    assert [(b.stream_id, b.version, b.label) for b in report.breaks] == [
        (stream, 1, "Table BAC-01")
    ]
    assert "row altered" in report.breaks[0].reason


def test_verify_catches_a_forged_hash_at_the_next_version(recorded, superuser):
    stream = table_id("BAC-01")
    _behind_the_triggers(
        superuser,
        "UPDATE ledger_events SET state = convert_to('{}', 'UTF8'), "
        "chain_hash = sha256(convert_to('{}', 'UTF8')) "
        "WHERE originator_id = %s AND originator_version = 1",
        (stream,),
    )
    breaks = verify_chains(superuser).breaks
    assert [(b.stream_id, b.version) for b in breaks] == [(stream, 1), (stream, 2)]


def test_verify_finds_a_missing_version(recorded, superuser):
    stream = table_id("BAC-01")
    with open_ledger(recorded.settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))  # versions 3 reopened
    _behind_the_triggers(
        superuser,
        "DELETE FROM ledger_events WHERE originator_id = %s AND originator_version = 2",
        (stream,),
    )
    breaks = verify_chains(superuser).breaks
    assert any(b.version == 3 and "version 2 is missing" in b.reason for b in breaks)


def test_event_bodies_are_json_an_auditor_reads_in_psql(recorded, superuser):
    body = superuser.execute(
        "SELECT body FROM ledger_event_log WHERE event_type = 'Table.Opened'"
    ).fetchone()[0]
    assert body["code"] == "BAC-01"
    assert body["max_bet"] == "50000.00"  # Decimal kept exact, as a string
    assert body["by"]["actor"] == {"staff_id": "PB-7", "role": "pit_boss"}
    raw = superuser.execute(
        "SELECT convert_from(state, 'UTF8') FROM ledger_events WHERE topic LIKE '%%Table.Opened'"
    ).fetchone()[0]
    assert json.loads(raw)["min_bet"] == "100.00"


def test_db_init_twice_changes_nothing(recorded, settings, database, superuser):
    init_database(settings, database)
    init_database(settings, database)
    assert event_count(superuser) == 4
    assert verify_chains(superuser).ok


def test_amounts_come_back_as_exact_decimals(recorded):
    table = recorded.ledger.load(Table, table_id("BAC-01"), "table")
    assert table.max_bet == Decimal("50000.00") and isinstance(table.max_bet, Decimal)
