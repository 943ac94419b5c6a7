"""The database roles `ledger db init` makes, used by real logins on the real server.

Surveillance and auditors work through a login holding the reader role: reports, replay,
recall and verify work; recording anything does not, not even by SQL behind the application.
The application's login holds the writer role: it records, but neither it nor the reader can
alter or switch off the append-only triggers.
"""

from __future__ import annotations

import secrets

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from tests.integration.test_shift_reconciliation import _shift_with
from tests.signing import GAMING_DAY, event_count


@pytest.fixture
def login(database, superuser, database_roles):
    """`login("reader")`: the URL of a new login role granted that group role, dropped after."""
    made: list[str] = []

    def make(group: str) -> str:
        name = f"ledger_login_{group}_{secrets.token_hex(3)}"
        superuser.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(name)))
        superuser.execute(sql.SQL("GRANT {} TO {}").format(
            sql.Identifier(getattr(database_roles, group)), sql.Identifier(name)))
        made.append(name)
        return make_conninfo(database.url, user=name)

    yield make
    for name in made:
        superuser.execute(sql.SQL("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE usename = {}").format(sql.Literal(name)))
        superuser.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(name)))


@pytest.fixture
def shift(settings, cli):
    """A closed, counted shift of BAC-R1 with one round, the projections caught up."""
    _shift_with(settings, record_fill=True)
    assert cli("projections", "run", "--once").code == 0


def test_a_reader_runs_the_report_replay_recall_and_verify(cli, login, shift):
    reader = login("reader")
    report = cli("report", "shift", "--day", str(GAMING_DAY), "--shift", "day", url=reader)
    assert report.code == 0, report.err
    assert "BAC-R1" in report.out and "FLOOR" in report.out
    replay = cli("replay", "BAC-R1", "1", url=reader)
    assert replay.code == 0, replay.err
    assert "MATCH" in replay.out
    recall = cli("recall", "BAC-R1", url=reader)
    assert recall.code == 0, recall.err
    verify = cli("verify", url=reader)
    assert verify.code == 0, verify.err + verify.out
    assert "all hold" in verify.out and "not compared" not in verify.out


def test_a_reader_cannot_record_through_the_ledger_or_behind_it(cli, login, shift, superuser,
                                                                database_roles):
    reader = login("reader")
    before = event_count(superuser)
    refused = cli("table", "open", "BAC-09", "--game", "baccarat", "--min", "100", "--max",
                  "500", url=reader)
    assert refused.code == 1 and "permission denied" in refused.err, refused.err
    [line] = refused.err.strip().splitlines()
    assert "refused this login on table ledger_events" in line  # what was refused
    assert f"login granted {database_roles.writer}" in line  # and the role that may

    with psycopg.connect(reader, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO ledger_events (originator_id, originator_version, topic, "
                          "state) VALUES (gen_random_uuid(), 1, 't', '{}')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("INSERT INTO report_rounds DEFAULT VALUES")
    assert event_count(superuser) == before


def test_the_writer_records_but_cannot_touch_the_triggers(cli, login, shift, superuser):
    writer = login("writer")
    opened = cli("table", "open", "BAC-09", "--game", "baccarat", "--min", "100", "--max", "500",
                 url=writer)
    assert opened.code == 0, opened.err
    for group in ("writer", "reader"):
        with psycopg.connect(login(group), autocommit=True) as conn:
            for statement in (
                "ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_no_update_delete",
                "DROP TRIGGER ledger_events_chain ON ledger_events",
            ):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
            with pytest.raises(psycopg.Error, match="append-only|permission denied"):
                conn.execute("DELETE FROM ledger_events")
    assert superuser.execute(
        "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'ledger_events'::regclass "
        "AND NOT tgisinternal AND tgenabled = 'A'").fetchone()[0] >= 3


def test_db_init_names_the_group_roles_it_made(cli, database_roles):
    done = cli("db", "init")
    assert done.code == 0, done.err
    assert f"group roles: {', '.join(database_roles.all)}" in done.out


def test_the_writer_holds_insert_and_select_on_the_events_table_and_nothing_else(
        cli, login, shift, superuser, database_roles):
    writer = login("writer")
    assert cli("table", "open", "BAC-09", "--game", "baccarat", "--min", "100", "--max", "500",
               url=writer).code == 0  # it records, with no table lock to take
    with psycopg.connect(writer, autocommit=True) as conn:
        held = {privilege: conn.execute("SELECT has_table_privilege('ledger_events', %s)",
                                        (privilege,)).fetchone()[0]
                for privilege in ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE")}
        assert held == {"SELECT": True, "INSERT": True, "UPDATE": False, "DELETE": False,
                        "TRUNCATE": False}
        for statement in ("UPDATE ledger_events SET topic = 'forged'",
                          "DELETE FROM ledger_events", "TRUNCATE ledger_events",
                          "LOCK TABLE ledger_events IN EXCLUSIVE MODE"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):  # refused before a trigger
                with conn.transaction():
                    conn.execute(statement)


def test_db_init_takes_back_the_update_grant_older_ledgers_gave_the_writer(
        cli, superuser, database_roles):
    superuser.execute(sql.SQL("GRANT UPDATE ON ledger_events TO {}").format(
        sql.Identifier(database_roles.writer)))
    assert cli("db", "init").code == 0
    assert not superuser.execute("SELECT has_table_privilege(%s, 'ledger_events', 'UPDATE')",
                                 (database_roles.writer,)).fetchone()[0]
