"""The database roles `ledger db init` makes, used by real logins on the real server.

Surveillance and auditors work through a login holding the reader role: reports, replay,
recall and verify work; recording anything does not, not even by SQL behind the application.
The application's login holds the writer role: it records, but neither it nor the reader can
alter or switch off the append-only triggers. A reader cannot take the append turn, so it
cannot hold the floor's commands back. The sealer's login holds the sealer role: only it writes
the seal's tables and moves the seal's position.
"""

from __future__ import annotations

import secrets
import time

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from tests.integration.test_shift_reconciliation import _shift_with
from tests.signing import GAMING_DAY, UNTRUSTED, event_count

APPEND = ("INSERT INTO ledger_events (originator_id, originator_version, topic, state) "
          "VALUES (gen_random_uuid(), 1, 'tests:Probe', '{}') RETURNING notification_id")
SEAL_TABLES = ("ledger_seal_leaves", "ledger_seal_tiles", "ledger_seal_checkpoints",
               "ledger_seal_keys", "ledger_seal_cosignatures", "ledger_seal_alarms",
               "ledger_seal_state")
LOCK_MODES = ("ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE UPDATE EXCLUSIVE", "SHARE",
              "SHARE ROW EXCLUSIVE", "EXCLUSIVE", "ACCESS EXCLUSIVE")


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
    assert verify.code == UNTRUSTED, verify.err + verify.out
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
                          "LOCK TABLE ledger_events IN EXCLUSIVE MODE",
                          "DELETE FROM ledger_event_log",  # not through the view either
                          "UPDATE ledger_event_log SET version = version + 1"):
            # refused before a trigger
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                conn.execute(statement)


def test_db_init_takes_back_the_update_grant_older_ledgers_gave_the_writer(
        cli, superuser, database_roles):
    superuser.execute(sql.SQL("GRANT UPDATE ON ledger_events TO {}").format(
        sql.Identifier(database_roles.writer)))
    assert cli("db", "init").code == 0
    assert not superuser.execute("SELECT has_table_privilege(%s, 'ledger_events', 'UPDATE')",
                                 (database_roles.writer,)).fetchone()[0]


def _appends_within_a_second(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET lock_timeout = '1s'")
        started = time.monotonic()
        conn.execute(APPEND)
        assert time.monotonic() - started < 1


def test_a_reader_cannot_take_the_append_turn_nor_hold_back_a_writers_append(login, superuser):
    reader, writer = login("reader"), login("writer")
    with psycopg.connect(reader) as held:  # one transaction, kept open through the append
        held.execute(  # the key the events table's trigger locked before: taken, and idle
            "SELECT pg_advisory_xact_lock(hashtextextended('public.ledger_events', 0))")
        for clause in ("UPDATE", "NO KEY UPDATE", "SHARE", "KEY SHARE"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), held.transaction():
                held.execute(f"SELECT 1 FROM ledger_append_turn FOR {clause}")
        taken = []
        for table in ("ledger_append_turn", "ledger_events"):
            for mode in LOCK_MODES:
                try:
                    with held.transaction():  # a savepoint: a lock it takes is kept to the end
                        held.execute(f"LOCK TABLE {table} IN {mode} MODE NOWAIT")
                    taken.append((table, mode))
                except psycopg.errors.InsufficientPrivilege:
                    pass
        assert taken == [("ledger_events", "ACCESS SHARE")]  # a plain read's lock
        _appends_within_a_second(writer)
        assert held.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS


def test_appends_take_turns_on_the_append_turn_row(login):
    first, second = login("writer"), login("writer")
    with psycopg.connect(first) as open_append:
        open_append.execute(APPEND)  # holds the turn until it commits
        with psycopg.connect(second, autocommit=True) as conn:
            conn.execute("SET lock_timeout = '300ms'")
            with pytest.raises(psycopg.errors.LockNotAvailable):
                conn.execute(APPEND)
        open_append.commit()
    _appends_within_a_second(second)


def test_only_the_writer_holds_the_append_turn(login, database_roles, superuser):
    held = {role: superuser.execute(
        "SELECT array_agg(p ORDER BY p) FILTER (WHERE has_table_privilege(%s, "
        "'ledger_append_turn', p)) FROM unnest(ARRAY['SELECT', 'UPDATE', 'INSERT', 'DELETE', "
        "'TRUNCATE']) AS p", (getattr(database_roles, role),)).fetchone()[0]
        for role in ("writer", "reader", "sealer")}
    assert held == {"writer": ["SELECT", "UPDATE"], "reader": None, "sealer": None}


@pytest.fixture
def seal_key(cli, tmp_path, monkeypatch):
    key = tmp_path / "seal.key"
    assert cli("key", "new", "seal", "SEAL-R", "--out", str(key)).code == 0
    monkeypatch.setenv("LEDGER_SEAL_KEY", str(key))
    return key


def test_the_writer_cannot_write_the_seals_tables(login, shift, seal_key, cli):
    assert cli("seal", "run", "--once").code == 0  # something in every table but cosignatures
    with psycopg.connect(login("writer"), autocommit=True) as conn:
        for table in SEAL_TABLES:
            assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() is not None
            for statement in (f"INSERT INTO {table} DEFAULT VALUES",
                              f"UPDATE {table} SET size = 0", f"DELETE FROM {table}",
                              f"TRUNCATE {table}"):
                statement = statement.replace("SET size = 0", {
                    "ledger_seal_leaves": "SET position = 0", "ledger_seal_tiles": "SET level = 1",
                    "ledger_seal_keys": "SET public_key = ''"}.get(table, "SET size = 0"))
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
        assert conn.execute(  # the seal's position is not in the projections' table
            "SELECT count(*) FROM ledger_tracking WHERE projection = 'seal'").fetchone()[0] == 0


def test_a_sealer_login_seals_and_a_writer_login_is_told_which_role_may(
        cli, login, shift, seal_key, database_roles, superuser):
    refused = cli("seal", "run", "--once", url=login("writer"))
    assert refused.code == 1, refused.out + refused.err
    [line] = refused.err.strip().splitlines()
    assert "permission denied" in line and f"login granted {database_roles.sealer}" in line
    sealer = login("sealer")
    done = cli("seal", "run", "--once", url=sealer)
    assert done.code == 0, done.err
    assert "checkpoint at" in done.out and done.err == ""
    recorded, sealed = superuser.execute(
        "SELECT (SELECT max(notification_id) FROM ledger_events), position "
        "FROM ledger_seal_state").fetchone()
    assert sealed == recorded
    with psycopg.connect(sealer, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(APPEND)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE ledger_tracking SET position = 0")


def test_db_init_takes_back_the_seal_grants_older_ledgers_gave_and_carries_the_position_over(
        cli, login, shift, seal_key, superuser, database_roles):
    assert cli("seal", "run", "--once").code == 0
    (position,) = superuser.execute("SELECT position FROM ledger_seal_state").fetchone()
    # a ledger as an older version left it: the position in ledger_tracking, the writer's grants
    superuser.execute("ALTER TABLE ledger_seal_state DROP COLUMN position")
    superuser.execute("INSERT INTO ledger_tracking (projection, position) VALUES ('seal', %s)",
                      (position,))
    writer = sql.Identifier(database_roles.writer)
    for table in SEAL_TABLES[:3]:
        superuser.execute(sql.SQL("GRANT INSERT ON {} TO {}").format(sql.Identifier(table),
                                                                     writer))
    superuser.execute(sql.SQL("GRANT UPDATE ON ledger_seal_state TO {}").format(writer))

    assert cli("db", "init").code == 0
    for table in SEAL_TABLES:
        for privilege in ("INSERT", "UPDATE", "DELETE", "TRUNCATE"):
            assert not superuser.execute("SELECT has_table_privilege(%s, %s, %s)", (
                database_roles.writer, table, privilege)).fetchone()[0], (table, privilege)
    assert superuser.execute("SELECT position FROM ledger_seal_state").fetchone()[0] == position
    assert superuser.execute(
        "SELECT count(*) FROM ledger_tracking WHERE projection = 'seal'").fetchone()[0] == 0
    assert cli("table", "open", "BAC-09", "--game", "baccarat", "--min", "100", "--max", "500",
               url=login("writer")).code == 0
    (new,) = superuser.execute("SELECT count(*) FROM ledger_events WHERE notification_id > %s",
                               (position,)).fetchone()
    done = cli("seal", "run", "--once", url=login("sealer"))
    assert done.code == 0 and done.err == "", done.err  # the state agreed: nothing rebuilt
    assert f"sealed {new} new events" in done.out  # from the position carried over


def test_only_the_sealer_adds_tiles_and_nobody_changes_one(database_roles, superuser):
    for role in database_roles.writer, database_roles.reader, database_roles.sealer:
        may = {privilege for privilege in ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE")
               if superuser.execute("SELECT has_table_privilege(%s, 'ledger_seal_tiles', %s)",
                                    (role, privilege)).fetchone()[0]}
        assert may == ({"SELECT", "INSERT"} if role == database_roles.sealer else {"SELECT"})
    superuser.execute("INSERT INTO ledger_seal_tiles VALUES (1, 0, %s)", (bytes(8192),))
    for statement in ("UPDATE ledger_seal_tiles SET hashes = ''", "DELETE FROM ledger_seal_tiles",
                      "TRUNCATE ledger_seal_tiles"):
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            superuser.execute(statement)
