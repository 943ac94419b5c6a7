"""A command's receipt is one event, made directly: it must be the very event the receipt
aggregate would start with (same stream, version, topic and body), so that stored receipts
read and verify as before."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from uuid import uuid4

from eventsourcing.persistence import JSONTranscoder

from ledger.domain.base import Actor, Provenance, Role
from ledger.domain.receipt import CommandReceipt, accepted, receipt_id
from ledger.infrastructure.mapper import PydanticJSONMapper


def test_the_receipt_event_made_directly_is_the_one_the_receipt_aggregate_makes():
    by = Provenance(command_id=uuid4(), actor=Actor(staff_id="D-1", role=Role.DEALER),
                    terminal="T-1", at=datetime(2026, 11, 25, 1, 0, tzinfo=UTC))
    body = {"command_type": "PlaceBet", "command": {"command": "place_bet", "amount": "100.00"},
                "streams": [str(uuid4())], "by": by, "signed": {"protocol": "round-ledger/command/1"}}
    direct = accepted(**body)
    [made] = CommandReceipt(**body).collect_events()
    assert type(direct) is type(made)
    assert direct.originator_id == made.originator_id == receipt_id(by.command_id)
    assert direct.originator_version == made.originator_version == 1
    assert direct.model_dump(exclude={"timestamp"}) == made.model_dump(exclude={"timestamp"})
    mapper = PydanticJSONMapper(transcoder=JSONTranscoder())
    stored, stored_made = mapper.to_stored_event(direct), mapper.to_stored_event(made)
    assert stored.topic == stored_made.topic
    # the stored body, byte for byte but for the time (the direct event is not validated again)
    untimed = re.compile(rb'"timestamp":"[^"]*"')
    assert untimed.sub(b"", stored.state) == untimed.sub(b"", stored_made.state)
    assert mapper.to_domain_event(stored) == direct
    loaded = CommandReceipt.Accepted.mutate(direct, None)  # it starts the aggregate, as ever
    assert loaded.streams == body["streams"] and loaded.command_type == "PlaceBet"


def test_a_receipt_stream_is_the_uuid5_of_its_command_id():
    """A receipt's stream is named by its command id alone (`uuid5` in the receipt namespace),
    so that any party can find the receipt of a command it sent."""
    from uuid import uuid5

    from ledger.domain.receipt import RECEIPT_NAMESPACE

    for _ in range(200):
        command_id = uuid4()
        assert receipt_id(command_id) == uuid5(RECEIPT_NAMESPACE, str(command_id))
