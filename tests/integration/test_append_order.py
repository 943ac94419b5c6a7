"""A follower never skips an event: appends commit in the order their positions were drawn.

A follower (the projection runner, the sealer) reads "events after my position". If a
transaction that drew position 7 commits after one that drew 8, a follower that read 8 has
moved past 7 for good. The events table's statement trigger takes the append turn (a row lock
only a writer may take) before any position is drawn and holds it to commit, so the second transaction cannot draw 8 until 7 is
committed. Each test provokes the out-of-order commit; the control on a twin table without
the trigger shows the provocation really makes a follower skip.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Callable

import psycopg
import pytest
from psycopg import sql

from ledger.infrastructure.database import Database
from tests.conftest import TEST_PARTITION_EVENTS

INSERT = ("INSERT INTO {} (originator_id, originator_version, topic, state) "
          "VALUES (%s, 1, 'tests:Probe', '{{}}') RETURNING notification_id")


def _insert(conn: psycopg.Connection, table: str) -> int:
    query = sql.SQL(INSERT).format(sql.Identifier(table))
    return int(conn.execute(query, (uuid.uuid4(),)).fetchone()[0])


def _after(conn: psycopg.Connection, table: str, position: int) -> list[int]:
    query = sql.SQL("SELECT notification_id FROM {} WHERE notification_id > %s "
                    "ORDER BY notification_id").format(sql.Identifier(table))
    return [row[0] for row in conn.execute(query, (position,)).fetchall()]


def _blocked_or_done(superuser: psycopg.Connection, pid: int, done: threading.Event) -> str:
    """Wait (up to 30 s) until the connection `pid` is either finished or waiting on a lock."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if done.is_set():
            return "done"
        row = superuser.execute("SELECT wait_event_type, wait_event FROM pg_stat_activity "
                                "WHERE pid = %s", (pid,)).fetchone()
        if row and row[0] == "Lock":
            return f"waiting for a lock ({row[1]})"
        time.sleep(0.01)
    raise AssertionError("the second append neither finished nor waited for a lock")


def _provoke(database: Database, superuser: psycopg.Connection, table: str) -> dict[str, object]:
    """A slow append draws its position and holds its transaction open; a fast one appends
    meanwhile; a follower reads, the slow one commits, the follower reads again."""
    follower = superuser
    start = max(_after(follower, table, 0), default=0)
    slow = database.connect(autocommit=False)
    fast = database.connect(autocommit=True)
    try:
        slow_position = _insert(slow, table)
        fast_result: list[int] = []
        done = threading.Event()

        def append_fast() -> None:
            fast_result.append(_insert(fast, table))
            done.set()

        thread = threading.Thread(target=append_fast)
        thread.start()
        state = _blocked_or_done(superuser, fast.info.backend_pid, done)
        seen = _after(follower, table, start)  # the follower reads while the slow one is open
        position = max(seen, default=start)
        slow.commit()
        thread.join(timeout=30)
        seen += _after(follower, table, position)
        return {"state": state, "seen": seen, "slow": slow_position, "fast": fast_result[0],
                "all": _after(follower, table, start)}
    finally:
        slow.close()
        fast.close()


@pytest.fixture
def unordered_twin(superuser) -> str:
    """A table shaped like the events table, with no trigger: appends are not ordered."""
    superuser.execute("CREATE TABLE probe_unordered (notification_id bigserial PRIMARY KEY, "
                      "originator_id uuid, originator_version bigint, topic text, state bytea)")
    return "probe_unordered"


def test_without_the_trigger_a_follower_passes_over_an_append_committed_late(
        database, superuser, unordered_twin):
    found = _provoke(database, superuser, unordered_twin)
    assert found["state"] == "done"  # nothing held the fast append back
    assert found["fast"] > found["slow"]
    assert found["slow"] not in found["seen"]  # skipped for good
    assert sorted(found["all"]) == sorted([found["slow"], found["fast"]])


def test_an_append_waits_for_the_one_before_it_so_a_follower_skips_nothing(database, superuser):
    found = _provoke(database, superuser, "ledger_events")
    assert found["state"] == "waiting for a lock (transactionid)"
    assert found["seen"] == found["all"] == [found["slow"], found["fast"]]


def _writers(database: Database, table: str, writers: int, appends: int,
             stop_follower: threading.Event, follow: Callable[[], None]) -> None:
    rng = random.Random(20261123)
    plans = [[(rng.random() * 0.004, rng.random() < 0.1) for _ in range(appends)]
             for _ in range(writers)]

    def write(plan: list[tuple[float, bool]]) -> None:
        with database.connect(autocommit=False) as conn:
            for pause, roll_back in plan:
                _insert(conn, table)
                conn.execute("SELECT pg_sleep(%s)", (pause,))  # commit late, out of turn
                conn.rollback() if roll_back else conn.commit()

    threads = [threading.Thread(target=write, args=(plan,)) for plan in plans]
    follower = threading.Thread(target=follow)
    follower.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop_follower.set()
    follower.join()


def test_a_follower_tailing_eight_writers_that_commit_late_sees_every_event_once_in_order(
        database, superuser):
    seen: list[int] = []
    stop = threading.Event()

    def follow() -> None:
        with database.connect() as conn:
            while True:
                finished = stop.is_set()
                seen.extend(_after(conn, "ledger_events", max(seen, default=0)))
                if finished:
                    return

    _writers(database, "ledger_events", writers=8, appends=60, stop_follower=stop, follow=follow)
    recorded = _after(superuser, "ledger_events", 0)
    assert len(recorded) > 300  # rolled-back appends leave gaps, never filled
    assert recorded[0] < TEST_PARTITION_EVENTS < recorded[-1]  # across partitions
    assert seen == recorded  # every committed event, once, in position order
