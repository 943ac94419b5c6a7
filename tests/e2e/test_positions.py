"""Positions only the database gives, and a stream whose history does not chain refused in one
line.

The writer login tries to choose an event's position (0, negative, the newest, one drawn and
held while others were given, far above the newest): the database refuses each, and nothing
it holds lets the writer set the sequence or switch the check off. A ledger where such an
event stands anyway (made before the check, or by an owner who switched it off) is named by
`ledger verify`, in full and from a verification record, exit 1. A command on the pool the
event damaged is refused in one sentence naming the stream and `ledger verify`; every other
stream plays on.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest

from ledger.core import clock as ledger_clock
from tests.e2e.test_database_roles import login  # noqa: F401 - a fixture
from tests.e2e.test_incremental_verify import verified, verifier  # noqa: F401 - a fixture
from tests.e2e.test_insider_forgeries import POOL, _row, trust  # noqa: F401 - a fixture

SEQUENCE = "ledger_events_notification_id_seq"
REFUSED = "was not drawn from"


def _drain(superuser, version_offset: int = 1) -> tuple[str, Any, int, dict[str, Any]]:
    """The grand pool drained to nothing: an adjustment at the stream's next version, shaped
    like the genuine one (the issue's attack)."""
    topic, stream, _, created = _row(superuser, "JackpotPool.Created")
    version = superuser.execute("SELECT max(originator_version) FROM ledger_events "
                                "WHERE originator_id = %s", (stream,)).fetchone()[0]
    body = {"originator_id": str(stream), "originator_version": version + version_offset,
            "timestamp": ledger_clock.now().isoformat(), "amount": "-1000.00",
            "reason": "audit", "pool_after": "0.00", "by": created["by"]}
    return (topic.replace("Created", "Adjusted"), stream, version + version_offset, body)


def _insert_at(conn, position: int | None, row: tuple[str, Any, int, dict[str, Any]]) -> None:
    topic, stream, version, body = row
    if position is None:
        conn.execute("INSERT INTO ledger_events (originator_id, originator_version, topic, "
                     "state) VALUES (%s, %s, %s, %s)",
                     (stream, version, topic, json.dumps(body).encode()))
    else:
        conn.execute("INSERT INTO ledger_events (notification_id, originator_id, "
                     "originator_version, topic, state) VALUES (%s, %s, %s, %s, %s)",
                     (position, stream, version, topic, json.dumps(body).encode()))


def _newest(superuser) -> int:
    return int(superuser.execute("SELECT max(notification_id) FROM ledger_events").fetchone()[0])


@contextmanager
def _without_the_position_check(superuser):
    """What an owner can do, and what a ledger made before the check never had."""
    superuser.execute("ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_assigned_position")
    try:
        yield
    finally:
        superuser.execute("ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER ledger_events_assigned_position")


@pytest.fixture
def pool(cli, trust) -> None:
    done = cli(*POOL)
    assert done.code == 0, done.err


@pytest.mark.parametrize("where", ["zero", "negative", "the newest", "below the newest",
                                   "far above"])
def test_a_position_the_writer_chooses_is_refused(cli, trust, pool, superuser, login, where):
    writer = login("writer")
    gap = superuser.execute(f"SELECT nextval('{SEQUENCE}')").fetchone()[0]  # a rolled-back draw
    assert cli("jackpot", "adjust", "GRAND", "--reason", "meter", "--", "5").code == 0
    newest = _newest(superuser)
    position = {"zero": 0, "negative": -7, "the newest": newest, "below the newest": gap,
                "far above": newest + 1_000_000}[where]
    # the newest is the sequence's newest too: its unique position refuses it
    refusal = (psycopg.errors.UniqueViolation, "ledger_events_p1_position") if (
        where == "the newest") else (psycopg.errors.InsufficientPrivilege, REFUSED)
    with psycopg.connect(writer, autocommit=True) as conn, pytest.raises(
            refusal[0], match=refusal[1]):
        _insert_at(conn, position, _drain(superuser))
    assert _newest(superuser) == newest
    clean = cli("verify", "--trust", str(trust))
    assert clean.code == 0, clean.out
    assert cli("jackpot", "adjust", "GRAND", "--reason", "meter", "--", "5").code == 0


def test_a_position_copied_in_is_refused(cli, trust, pool, superuser, login):
    """COPY fires the same row trigger: a bulk load cannot choose positions either."""
    topic, stream, version, body = _drain(superuser)
    with psycopg.connect(login("writer"), autocommit=True) as conn, pytest.raises(
            psycopg.errors.InsufficientPrivilege, match=REFUSED), conn.cursor().copy(
            "COPY ledger_events (notification_id, originator_id, originator_version, topic, "
            "state) FROM STDIN") as copy:
        copy.write_row((0, stream, version, topic, json.dumps(body).encode()))
    assert cli("verify", "--trust", str(trust)).code == 0


@pytest.mark.parametrize("isolation", ["READ COMMITTED", "REPEATABLE READ"])
def test_a_position_drawn_and_held_while_others_were_given_is_refused(
        cli, trust, pool, superuser, login, isolation):
    """The writer draws a position itself, lets genuine commands take the next ones, then
    inserts at the one it held: below the newest, refused whatever snapshot it reads."""
    with psycopg.connect(login("writer")) as conn:
        conn.execute(f"SET TRANSACTION ISOLATION LEVEL {isolation}")
        held = conn.execute(f"SELECT nextval('{SEQUENCE}')").fetchone()[0]
        assert cli("jackpot", "adjust", "GRAND", "--reason", "meter", "--", "5").code == 0
        assert _newest(superuser) > held
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match=REFUSED):
            _insert_at(conn, held, _drain(superuser, version_offset=1))
    assert cli("verify", "--trust", str(trust)).code == 0


def test_an_event_inserted_without_a_position_takes_the_next_one(trust, pool, superuser, login):
    """The check refuses a position chosen, not the writer's insert: drawn, it lands (and
    `test_insider_forgeries` names what it claims)."""
    newest = _newest(superuser)
    with psycopg.connect(login("writer"), autocommit=True) as conn:
        _insert_at(conn, None, _drain(superuser))
    assert _newest(superuser) > newest


def test_a_temporary_table_of_the_events_name_cannot_stand_in_for_the_chain(
        trust, pool, superuser, login):
    """The writer makes a temporary `ledger_events` holding a version of its choosing with a
    hash of its choosing, then appends the next: the chain trigger still reads the real table
    (by its schema's name, its search path `pg_catalog` alone), so the gap is refused."""
    topic, stream, version, body = _drain(superuser, version_offset=5)
    with psycopg.connect(login("writer"), autocommit=True) as conn:
        conn.execute("CREATE TEMP TABLE ledger_events (originator_id uuid, originator_version "
                     "bigint, chain_hash bytea, notification_id bigint)")
        conn.execute("INSERT INTO pg_temp.ledger_events VALUES (%s, %s, %s, 1000000000)",
                     (stream, version - 1, b"\x11" * 32))
        with pytest.raises(psycopg.errors.DataCorrupted, match="to chain version"):
            conn.execute("INSERT INTO public.ledger_events (originator_id, originator_version, "
                         "topic, state) VALUES (%s, %s, %s, %s)",
                         (stream, version, topic, json.dumps(body).encode()))
        (made,) = conn.execute("SELECT ledger_stream_version(%s)", (stream,)).fetchone()
        conn.execute("DROP TABLE pg_temp.ledger_events")  # before the login is dropped
    assert made == version - 5  # the real stream's newest, not the temporary table's


@pytest.mark.parametrize("statement", [
    f"SELECT setval('{SEQUENCE}', 1)",
    f"SELECT setval('{SEQUENCE}', 100000000)",
    f"ALTER SEQUENCE {SEQUENCE} RESTART WITH 1",
    "ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_assigned_position",
    "ALTER TABLE ledger_events DISABLE TRIGGER USER",
    "DROP TRIGGER ledger_events_assigned_position ON ledger_events",
    ("CREATE OR REPLACE FUNCTION ledger_events_assigned_position() RETURNS trigger "
     "LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$"),
    "ALTER TABLE ledger_events ALTER COLUMN notification_id SET DEFAULT 0",
])
def test_the_writer_can_neither_set_the_sequence_nor_switch_the_check_off(
        trust, superuser, login, statement):
    with psycopg.connect(login("writer"), autocommit=True) as conn, pytest.raises(
            psycopg.errors.InsufficientPrivilege):
        conn.execute(statement)
    enabled = superuser.execute("SELECT tgenabled FROM pg_trigger WHERE tgname = "
                                "'ledger_events_assigned_position' AND tgrelid = 'ledger_events'::regclass"
                                ).fetchone()
    assert enabled == ("A",)


def _attacked(cli, trust, verifier, superuser, where: str) -> int:
    """A verification recorded after a gap, a genuine adjustment and a checkpoint past it;
    then the drain inserted at the position `where` names, behind the check. Returns it."""
    gap = superuser.execute(f"SELECT nextval('{SEQUENCE}')").fetchone()[0]
    assert cli("jackpot", "adjust", "GRAND", "--reason", "meter", "--", "5").code == 0
    assert cli("seal", "run", "--once").code == 0
    first = verified(cli, trust, verifier)
    assert first.code == 0 and "recorded:" in first.out, first.out
    position = {"zero": 0, "negative": -7, "below the newest": gap,
                "far above": _newest(superuser) + 1_000}[where]
    with _without_the_position_check(superuser):
        _insert_at(superuser, position, _drain(superuser))
    return int(position)


@pytest.mark.parametrize("where", ["zero", "negative", "below the newest", "far above"])
def test_an_event_at_a_position_the_sequence_did_not_give_is_named_full_and_incremental(
        cli, trust, verifier, pool, superuser, where):
    position = _attacked(cli, trust, verifier, superuser, where)
    said = f"position {position:,}"
    resumed = verified(cli, trust, verifier)
    assert resumed.code == 1, resumed.out
    assert "since the last verification" in resumed.out, resumed.out
    assert said in resumed.out, resumed.out
    full = verified(cli, trust, verifier, "--full")
    assert full.code == 1, full.out
    assert said in full.out, full.out
    if where != "far above":  # under the checkpoint: the tree recomputed parts from it there
        assert "the events part from the checkpoint" in full.out, full.out
        assert f"extra: position {position}" in full.out, full.out
    else:  # sealed once the sequence reaches it, yet still a position it never gave
        assert cli("seal", "run", "--once").code == 0
        again = verified(cli, trust, verifier, "--full")
        assert again.code == 1 and said in again.out, again.out


def test_a_stream_whose_history_does_not_chain_is_refused_in_one_line(cli, trust, pool,
                                                                         superuser):
    """The issue's pool: a drain at position 0, hidden from the chain trigger's reading of the
    stream. The next genuine adjustment of that pool is one line, exit 1, nothing recorded;
    another pool and the tables play on."""
    with _without_the_position_check(superuser):
        _insert_at(superuser, 0, _drain(superuser))
    newest = _newest(superuser)
    stream = _row(superuser, "JackpotPool.Created")[1]
    refused = cli("jackpot", "adjust", "GRAND", "--reason", "meter", "--", "5")
    assert refused.code == 1, refused.out + refused.err
    assert "Traceback" not in refused.err + refused.out
    lines = [line for line in refused.err.splitlines() if line.strip()]
    assert len(lines) == 1, refused.err
    assert f"JackpotPool {stream}" in lines[0] and "`ledger verify`" in lines[0], lines[0]
    assert _newest(superuser) == newest  # nothing recorded
    other = cli("jackpot", "create", "MINI", "--seed", "100", "--royal", "5000",
                "--straight-flush", "1000", "--four", "200", "--full-house", "150",
                "--flush", "100", "--rate", "0.1")
    assert other.code == 0, other.err
    assert cli("jackpot", "adjust", "MINI", "--reason", "meter", "--", "5").code == 0
    assert cli("table", "open", "BAC-09", "--game", "baccarat", "--min", "100",
               "--max", "1000").code == 0
    named = cli("verify", "--trust", str(trust))
    assert named.code == 1 and "position 0" in named.out, named.out
    upgraded = cli("db", "init")  # the damaged ledger brought up to date, as found
    assert upgraded.code == 0, upgraded.out + upgraded.err
    assert cli("jackpot", "adjust", "MINI", "--reason", "meter", "--", "5").code == 0
    again = cli("verify", "--trust", str(trust))
    assert again.code == 1 and "position 0" in again.out, again.out


@pytest.mark.parametrize("state", [b'{"junk": 1}', b"not JSON at all"])
def test_a_stream_with_an_event_no_one_can_read_is_refused_in_one_line(
        cli, trust, pool, superuser, login, state):
    """The writer appends, at the pool's next version, an event whose state is not the event's
    (junk fields, or not JSON): the pool's next genuine adjustment is one line naming the
    stream and `ledger verify`, exit 1, nothing recorded; the tables play on."""
    topic, stream, version, _ = _drain(superuser)
    with psycopg.connect(login("writer"), autocommit=True) as conn:
        conn.execute("INSERT INTO ledger_events (originator_id, originator_version, topic, "
                     "state) VALUES (%s, %s, %s, %s)", (stream, version, topic, state))
    newest = _newest(superuser)
    refused = cli("jackpot", "adjust", "GRAND", "--reason", "meter", "--", "5")
    assert refused.code == 1 and "Traceback" not in refused.err + refused.out, refused.err
    lines = [line for line in refused.err.splitlines() if line.strip()]
    assert len(lines) == 1, refused.err
    assert f"stream {stream} is refused: one of its stored events cannot be read" in lines[0]
    assert "`ledger verify`" in lines[0], lines[0]
    assert _newest(superuser) == newest
    assert cli("table", "open", "BAC-09", "--game", "baccarat", "--min", "100",
               "--max", "1000").code == 0
    assert cli("verify", "--trust", str(trust)).code == 1
