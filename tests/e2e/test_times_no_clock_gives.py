"""A time no clock gives (an offset of +20:00, which PostgreSQL's own time type cannot hold, or
no time at all) is refused at the door; written into a receipt by an insider, it is named by
`ledger verify`, full and after a rebuild, never a traceback that would leave the ledger
unverifiable for good."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta, timezone

import pytest

from ledger.core import clock as ledger_clock
from ledger.domain.receipt import receipt_id
from tests.e2e.test_database_roles import login  # noqa: F401 - a fixture
from tests.e2e.test_insider_forgeries import (  # noqa: F401 - trust: a fixture
    _drain_receipt,
    _insert,
    _row,
    named,
    trust,
)
from tests.signing import E2E_PIT_BOSS, E2E_WORKSTATION, KEYRING, event_count

OFF_THE_MAP = timezone(timedelta(hours=20))


def test_a_signed_command_at_an_offset_no_place_uses_is_refused_at_the_door(
        cli, settings, superuser, tmp_path):
    from tests.signing import open_ledger

    with open_ledger(settings) as rt:
        ledger_id = rt.ledger.ledger_id
    at = ledger_clock.now().astimezone(OFF_THE_MAP).isoformat()
    command = {"command": "open_table", "command_id": str(uuid.uuid4()), "at": at,
               "table": "BAC-20", "game": "baccarat", "min_bet": "100.00",
               "max_bet": "1000.00"}
    signed = KEYRING.sign(command, staff=E2E_PIT_BOSS, terminal=E2E_WORKSTATION,
                          ledger=ledger_id)
    feed = tmp_path / "plus-twenty.jsonl"
    feed.write_text(json.dumps(signed.model_dump(mode="json")) + "\n")
    before = event_count(superuser)
    done = cli("ingest", str(feed))
    assert done.code == 1, done.out
    assert f"the UTC offset of {at} is not one any place uses" in done.out, done.out
    assert event_count(superuser) == before


@pytest.mark.parametrize("at", ["2026-11-29T23:51:04+20:00", "the eve of the cut"])
def test_a_receipts_time_no_clock_gives_is_named_by_verify_not_a_traceback(
        cli, trust, superuser, login, at):
    topic, _, _, receipt = _row(superuser, "CommandReceipt.Accepted")
    command_id = uuid.uuid4()
    forged = _drain_receipt(receipt, command_id)
    forged["command"] = {**forged["command"], "at": at}
    _insert(login("writer"), [(topic, receipt_id(command_id), 1, forged)])
    out = named(cli, trust, f"its time '{at}' is not a time with a UTC offset any place uses")
    assert "Traceback" not in out
