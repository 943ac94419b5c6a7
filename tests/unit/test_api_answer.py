"""The terminal API's answer to a command is written without building its model: it must still
be exactly the documented model's JSON, as FastAPI would have written it."""

from __future__ import annotations

import json
from uuid import uuid4

from fastapi.responses import JSONResponse

from ledger.application.ledger import Recorded
from ledger.web.api import RecordedOut
from ledger.web.commands import answer_body


def _recorded(duplicate: bool = False) -> Recorded:
    return Recorded(command_id=uuid4(), duplicate=duplicate,
                    events=((uuid4(), 3, "Round.BetPlaced"), (uuid4(), 1, "Receipt.Kept")),
                    details=("box 1 bet 1,000.00 on banker — 莊",))


def _as_the_model_writes_it(recorded: Recorded) -> bytes:
    out = RecordedOut(
        status="already_recorded" if recorded.duplicate else "recorded",
        command_id=str(recorded.command_id), summary=recorded.summary(between="; "),
        details=list(recorded.details),
        events=[{"stream": str(s), "version": v, "type": t} for s, v, t in recorded.events])
    return bytes(JSONResponse(out.model_dump()).body)


def test_an_answer_is_the_recorded_models_json_byte_for_byte():
    for recorded in (_recorded(), _recorded(duplicate=True)):
        assert answer_body(recorded) == _as_the_model_writes_it(recorded)
        RecordedOut.model_validate_json(answer_body(recorded))


def test_a_batchs_answer_is_a_list_of_them_in_order():
    batch = [_recorded(), _recorded(duplicate=True)]
    assert json.loads(answer_body(batch)) == [json.loads(answer_body(r)) for r in batch]
