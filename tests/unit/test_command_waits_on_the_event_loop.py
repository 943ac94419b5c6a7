"""A command sent to the HTTP server waits for the group writer on the event loop, not in a
thread (`ledger.web.recording`), and still behaves as `Ledger.execute` does: handed again when
a registry stream it was admitted on moved, ridden out in a thread (with what the first try
did) when the database is lost, recorded in a thread when there is no group writer; and the
writer never fails for a loop that has closed."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from uuid import uuid4

import psycopg
import pytest

from ledger.application.group_commit import _Pending
from ledger.application.ledger import Recorded, Sent
from ledger.core.errors import LedgerError
from ledger.identity.registry_cache import RegistryMoved
from ledger.web.recording import _waker, record

RECORDED = Recorded(uuid4(), duplicate=False, events=((uuid4(), 1, "Table.Opened"),))


class Writer(threading.Thread):
    """The writer's side: answers each handed command from a thread of its own, in turn, with
    the next of `answers` (an exception is the command's error)."""

    def __init__(self, answers: list[Any]) -> None:
        super().__init__(daemon=True)
        self.answers = answers
        self.handed: list[_Pending] = []

    def hand(self, signed: Any, sent: Sent, notify: Any) -> _Pending:
        pending = _Pending(None, signed, sent, {}, notify=notify)
        self.handed.append(pending)
        answer = self.answers.pop(0)
        threading.Thread(target=(pending.fail if isinstance(answer, BaseException)
                                 else pending.answer), args=(answer,)).start()
        return pending


class FakeLedger:
    def __init__(self, writer: Writer | None) -> None:
        self.writer = writer
        self.executed: list[tuple[Any, Sent | None, str]] = []

    def hand(self, signed: Any, sent: Sent, notify: Any) -> _Pending | None:
        return None if self.writer is None else self.writer.hand(signed, sent, notify)

    def execute(self, signed: Any, sent: Sent | None = None) -> Recorded:
        self.executed.append((signed, sent, threading.current_thread().name))
        return RECORDED


def _record(ledger: FakeLedger) -> Recorded:
    async def main() -> Recorded:
        with ThreadPoolExecutor(2, thread_name_prefix="command") as threads:
            return await record(ledger, "the signed command", threads)  # type: ignore[arg-type]
    return asyncio.run(main())


def test_a_command_under_group_commit_is_answered_without_a_thread_of_its_own():
    ledger = FakeLedger(Writer([RECORDED]))
    assert _record(ledger) is RECORDED
    assert ledger.executed == []  # no thread blocked in execute


def test_a_command_whose_registry_moved_is_handed_again_with_the_same_send():
    writer = Writer([RegistryMoved(), RegistryMoved(), RECORDED])
    ledger = FakeLedger(writer)
    assert _record(ledger) is RECORDED
    assert len(writer.handed) == 3 and len({id(p.sent) for p in writer.handed}) == 1


def test_a_command_that_met_a_lost_database_is_ridden_out_in_a_thread_knowing_it_was_sent():
    writer = Writer([psycopg.OperationalError("server closed the connection unexpectedly")])
    ledger = FakeLedger(writer)
    writer_sent = []
    original = writer.hand

    def hand(signed: Any, sent: Sent, notify: Any) -> _Pending:
        sent.unknown = True  # its insert's reply was lost: the receipt must be asked
        writer_sent.append(sent)
        return original(signed, sent, notify)
    writer.hand = hand  # type: ignore[method-assign]
    assert _record(ledger) is RECORDED
    [(signed, sent, thread)] = ledger.executed
    assert sent is writer_sent[0] and sent.unknown and thread.startswith("command")


def test_a_refusal_is_the_callers_and_nothing_is_tried_again():
    refusal = LedgerError("the table is closed")
    ledger = FakeLedger(Writer([refusal]))
    with pytest.raises(LedgerError, match="the table is closed"):
        _record(ledger)
    assert ledger.executed == []


def test_without_a_group_writer_the_command_records_itself_in_a_thread():
    ledger = FakeLedger(None)
    assert _record(ledger) is RECORDED
    [(_, sent, thread)] = ledger.executed
    assert isinstance(sent, Sent) and thread.startswith("command")


def test_the_writer_is_not_failed_by_a_loop_that_has_closed():
    loop = asyncio.new_event_loop()
    woken = loop.create_future()
    loop.close()
    _waker(loop, woken)()  # the server stopped while the command was in the batch
    assert not woken.done()
