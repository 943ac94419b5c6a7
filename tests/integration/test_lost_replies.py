"""A commit whose reply was lost: the terminal is told "recorded" (its receipt says so), once."""

from __future__ import annotations

import psycopg
import pytest
from eventsourcing.persistence import OperationalError

from ledger.core.errors import WrongState
from ledger.domain.receipt import receipt_id
from tests.integration.helpers import open_table
from tests.signing import open_ledger


def _opened(superuser, code: str) -> int:
    return superuser.execute("SELECT count(*) FROM ledger_event_log WHERE event_type = "
                             "'Table.Opened' AND body ->> 'code' = %s", (code,)).fetchone()[0]


def test_a_commit_whose_reply_was_lost_is_answered_recorded_not_already_recorded(
        settings, superuser):
    with open_ledger(settings) as rt:
        store = rt.ledger.inner.app.events  # where the group writer and a command alone put
        real_put, lost = store.put, []
        command = open_table("BAC-09")
        receipt = receipt_id(command.command_id)

        def commit_then_lose_the_reply(events, **kwargs):
            recordings = real_put(events, **kwargs)
            if not lost and receipt in {event.originator_id for event in events}:
                # the commit reached the server; its reply did not reach us
                lost.append(True)
                lost_reply = psycopg.OperationalError("server closed the connection unexpectedly")
                raise OperationalError(str(lost_reply)) from lost_reply  # as the library wraps it
            return recordings

        store.put = commit_then_lose_the_reply
        first = rt.ledger.execute(command)
        again = rt.ledger.execute(command)
    assert lost and first.confirmed and not first.duplicate
    assert first.summary().startswith(f"recorded (command {command.command_id}: the "
                                      "database's reply was lost")
    assert again.duplicate and "already recorded" in again.summary()
    assert _opened(superuser, "BAC-09") == 1


def test_a_command_refused_by_the_rules_is_not_retried_as_an_outage(settings, superuser):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-08"))
        tries = []
        store = rt.ledger.inner.app.events  # where the group writer and a command alone put
        real_put = store.put
        store.put = lambda *a, **k: tries.append(1) or real_put(*a, **k)
        with pytest.raises(WrongState, match="already open"):
            rt.ledger.execute(open_table("BAC-08"))
        assert tries == []  # refused before any save: no wait, no resend


def test_a_command_that_meets_a_read_only_server_waits_for_a_primary_and_is_recorded_once(
        settings, superuser, database):
    """In a failover the old primary is demoted (read-only) before a new one is promoted: an
    insert that reaches it is refused by the server, the command says it is waiting, and it is
    sent again, on a new connection, until a server takes it; recorded exactly once."""
    import threading

    from psycopg import sql

    dbname = sql.Identifier(database.params["dbname"])
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))
        sent = rt.ledger.sign(open_table("BAC-02"))  # as the terminal signed it
    superuser.execute(sql.SQL("ALTER DATABASE {} SET default_transaction_read_only = on"
                              ).format(dbname))  # the node the terminal reaches is demoted

    def promote() -> None:  # a session of its own that may write, as a new primary's
        with psycopg.connect(database.url, autocommit=True,
                             options="-c default_transaction_read_only=off") as conn:
            conn.execute(sql.SQL("ALTER DATABASE {} RESET default_transaction_read_only"
                                 ).format(dbname))

    with open_ledger(settings) as rt:
        said: list[str] = []
        rt.ledger.inner.on_wait = said.append
        promoted = threading.Timer(2.0, promote)
        promoted.start()
        try:
            recorded = rt.ledger.execute(sent)
        finally:
            promoted.join()
    assert not recorded.duplicate
    assert said and "read-only" in said[0] and "waiting up to" in said[0], said
    assert _opened(superuser, "BAC-02") == 1
