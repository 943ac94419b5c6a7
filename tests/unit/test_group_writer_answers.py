"""The group writer answers each caller once: the first answer or refusal stands, whatever a
later step of the batch says of the same command."""

from __future__ import annotations

import threading
from uuid import uuid4

from ledger.application.group_commit import _Pending
from ledger.application.ledger import Recorded, Sent


def test_a_command_is_answered_once_and_its_caller_wakes_to_that_answer():
    pending = _Pending(None, None, Sent(), {})
    first = Recorded(uuid4(), duplicate=False, events=())
    heard: list[Recorded | None] = []
    caller = threading.Thread(target=lambda: (pending.wait(), heard.append(pending.result)))
    caller.start()
    pending.answer(first)
    pending.fail(RuntimeError("a later step of the batch"))
    pending.answer(Recorded(uuid4(), duplicate=True, events=()))
    caller.join(timeout=10)
    assert heard == [first] and pending.error is None and pending.is_done()


def test_a_refused_command_keeps_its_refusal():
    pending = _Pending(None, None, Sent(), {})
    refusal = RuntimeError("refused")
    pending.fail(refusal)
    pending.answer(Recorded(uuid4(), duplicate=False, events=()))
    pending.wait()
    assert pending.error is refusal and pending.result is None
