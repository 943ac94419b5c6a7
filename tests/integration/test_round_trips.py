"""Round trips on the write path: one per append, and no connection check on a busy floor.

The library's insert took six round trips and its pool checked every connection before every
use; here the append is one autocommit statement, and only a connection quiet long enough to
have been cut off is checked.
"""

from __future__ import annotations

from typing import Any

import psycopg_pool
import pytest

from ledger.commands.table import CloseTable
from ledger.infrastructure import session
from ledger.infrastructure.session import GuardedConnection
from tests.integration.helpers import PIT_BOSS, open_table
from tests.signing import open_ledger


@pytest.fixture
def checks(monkeypatch) -> list[Any]:
    """Every connection check the pool makes."""
    made: list[Any] = []
    real = psycopg_pool.ConnectionPool.check_connection

    def counted(conn: Any) -> None:
        made.append(conn)
        real(conn)

    monkeypatch.setattr(psycopg_pool.ConnectionPool, "check_connection", staticmethod(counted))
    return made


def test_an_append_is_one_round_trip(settings):
    with open_ledger(settings) as rt:
        for n in range(1, 9):  # every pooled connection has prepared the insert once by now
            rt.ledger.execute(open_table(f"BAC-{n:02d}"))
        recorder = rt.ledger.app.recorder
        real, trips = recorder.insert_events, []

        def counted(stored: Any, **kwargs: Any) -> Any:
            before = GuardedConnection.round_trips
            ids = real(stored, **kwargs)
            trips.append((len(stored), GuardedConnection.round_trips - before))
            return ids

        recorder.insert_events = counted
        for n in range(1, 4):
            rt.ledger.execute(CloseTable(table=f"BAC-{n:02d}", actor=PIT_BOSS, terminal="pit-1"))
    # each close: the table's event and the receipt, in one statement, one round trip
    assert trips == [(2, 1)] * 3


def test_a_command_on_a_connection_in_use_sends_no_connection_check(settings, checks):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))
        checks.clear()
        for code in ("BAC-02", "BAC-03", "BAC-04"):
            rt.ledger.execute(open_table(code))
    assert checks == []


def test_a_connection_quiet_past_the_idle_check_is_checked_before_use(settings, checks,
                                                                       monkeypatch):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))
        checks.clear()
        monkeypatch.setattr(session, "IDLE_CHECK_SECONDS", 0)  # every connection is "quiet"
        rt.ledger.execute(open_table("BAC-02"))
    assert len(checks) >= 1
