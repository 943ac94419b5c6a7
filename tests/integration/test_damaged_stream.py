"""A stream whose stored history does not chain: the command writing it is refused in one
sentence naming the stream and `ledger verify`, and the other commands of its batch are
recorded (the group writer), as is every later command on another stream."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from ledger.application.ledger import Recorded
from ledger.commands.table import CloseTable, SignInDealer, SignOutDealer
from ledger.core.errors import DamagedStream, LedgerError
from ledger.domain.table import table_id
from tests.integration.helpers import DEALER, PIT_BOSS, open_table
from tests.integration.test_group_commit import _until
from tests.signing import open_ledger


def _damage(superuser: Any, stream: Any) -> None:
    """The stream's newest event copied to its next version at position 0, behind the
    position check: the chain trigger reads the stream's positions from 1, so the next
    genuine version has nothing to chain to."""
    topic, version, state = superuser.execute(
        "SELECT topic, originator_version, state FROM ledger_events WHERE originator_id = %s "
        "ORDER BY originator_version DESC LIMIT 1", (stream,)).fetchone()
    superuser.execute("ALTER TABLE ledger_events DISABLE TRIGGER "
                      "ledger_events_assigned_position")
    superuser.execute("INSERT INTO ledger_events (notification_id, originator_id, "
                      "originator_version, topic, state) VALUES (0, %s, %s, %s, %s)",
                      (stream, version + 1, topic, json.dumps(
                          {**json.loads(state), "originator_version": version + 1}).encode()))
    superuser.execute("ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER "
                      "ledger_events_assigned_position")


def _one_batch(commands: list[Any], ledger: Any) -> list[Any]:
    """`commands` recorded by the group writer as one batch: queued while it holds a first
    command of its own, then taken together."""
    signed = [ledger.sign(command) for command in [open_table("BAC-99"), *commands]]
    writer = ledger.inner.writer
    gate, taken, real = threading.Lock(), [], writer._record
    gate.acquire()

    def held(batch: list[Any]) -> None:
        taken.append(len(batch))
        with gate:
            real(batch)

    writer._record = held
    outcomes: list[Any] = [None] * len(signed)

    def send(n: int) -> None:
        try:
            outcomes[n] = ledger.inner.execute(signed[n])
        except LedgerError as error:
            outcomes[n] = error

    threads = [threading.Thread(target=send, args=(n,)) for n in range(len(signed))]
    threads[0].start()
    _until(lambda: taken == [1])
    for thread in threads[1:]:
        thread.start()
    _until(lambda: writer._queue.qsize() == len(commands))
    gate.release()
    for thread in threads:
        thread.join()
    writer._record = real
    assert taken == [1, len(commands)], taken
    return outcomes[1:]


@pytest.mark.parametrize("damage", ["a later event", "a second opening"])
def test_a_damaged_stream_in_a_batch_is_refused_alone_and_the_others_are_recorded(
        settings, superuser, damage):
    """A later event at position 0 is read when the stream is loaded, so the next version
    finds nothing to chain to in the database (the chain trigger refuses it); a second
    opening does not even load."""
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-00"))
        rt.ledger.execute(open_table("BAC-01"))
        if damage == "a later event":
            rt.ledger.execute(SignInDealer(table="BAC-01", dealer_id=DEALER.staff_id,
                                           actor=DEALER))
    _damage(superuser, table_id("BAC-01"))
    on_bac01 = SignOutDealer(table="BAC-01", dealer_id=DEALER.staff_id, actor=PIT_BOSS,
                             terminal="pit-1") if damage == "a later event" else CloseTable(
        table="BAC-01", actor=PIT_BOSS)
    with open_ledger(settings) as rt:  # the writer reads BAC-01 as stored
        commands = [on_bac01, open_table("BAC-02"), open_table("BAC-03")]
        outcomes = _one_batch(commands, rt.ledger)
        refused = outcomes[0]
        assert isinstance(refused, DamagedStream), outcomes
        said = str(refused)
        assert "\n" not in said and said.startswith(f"Table {table_id('BAC-01')} is refused")
        assert "run `ledger verify`" in said, said
        assert all(isinstance(o, Recorded) for o in outcomes[1:]), outcomes
        with pytest.raises(DamagedStream, match="run `ledger verify`"):
            rt.ledger.execute(on_bac01)
        rt.ledger.execute(CloseTable(table="BAC-02", actor=PIT_BOSS))
    written = superuser.execute(
        "SELECT count(*) FROM ledger_events WHERE originator_id = %s AND notification_id > 0 "
        "AND topic NOT LIKE '%%Opened' AND topic NOT LIKE '%%DealerSignedIn'",
        (table_id("BAC-01"),)).fetchone()[0]
    assert written == 0  # nothing more on BAC-01
    closed = superuser.execute(
        "SELECT count(*) FROM ledger_event_log WHERE event_type = 'Table.Closed'").fetchone()[0]
    assert closed == 1  # BAC-02's


def test_a_damaged_stream_is_a_ledger_error_not_a_database_one(settings, superuser):
    """The per-command path (no group writer) says the same sentence."""
    from ledger.application.config import LedgerSettings

    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))
    _damage(superuser, table_id("BAC-01"))
    alone = LedgerSettings(database_url=settings.database_url, group_commit=False)
    with open_ledger(alone) as rt:
        with pytest.raises(LedgerError, match=f"Table {table_id('BAC-01')} is refused"):
            rt.ledger.execute(CloseTable(table="BAC-01", actor=PIT_BOSS))
        rt.ledger.execute(open_table("BAC-02"))
