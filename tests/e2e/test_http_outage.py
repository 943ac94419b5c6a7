"""`ledger serve` through a database restart: requests fail cleanly (503, a stable code, the
sentence) while the server is down, nothing half-recorded, and the same command recorded once
when it returns, with no restart of the web server."""

from __future__ import annotations

import json
import os
import time
from decimal import Decimal

import httpx

from ledger.commands.table import OpenTable
from tests.e2e.served import free_port, start_with, stop, wait_until_up
from tests.e2e.test_outages import _tables, own  # noqa: F401 - the fixture: a server of our own
from tests.signing import E2E_PIT_BOSS, E2E_WORKSTATION, KEYRING

DEADLINE = 3  # seconds a request waits for the database here
JSON = {"Content-Type": "application/json"}  # the API refuses a body of any other type


def test_the_api_answers_503_while_the_database_is_down_and_records_once_it_is_back(
        own):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_with({**os.environ, "LEDGER_DATABASE_URL": own.url,
                         "LEDGER_COMMAND_DEADLINE_SECONDS": str(DEADLINE)}, port)
    try:
        wait_until_up(server, url)
        signed = KEYRING.sign(OpenTable(table="BAC-01", game="baccarat",
                                        min_bet=Decimal("100.00"), max_bet=Decimal("1000.00")),
                              staff=E2E_PIT_BOSS, terminal=E2E_WORKSTATION,
                              ledger=httpx.get(f"{url}/v1/ledger").json()["ledger"])
        sent = json.dumps(signed.model_dump(mode="json"))
        own.stop()
        started = time.monotonic()
        down = httpx.post(f"{url}/v1/commands", content=sent, timeout=60, headers=JSON)
        took = time.monotonic() - started
        error = down.json()["error"]
        assert (down.status_code, error["code"]) == (503, "database_unavailable")
        assert f"(the deadline is {DEADLINE} s)" in error["message"]
        assert error["message"].endswith("nothing was recorded.")
        assert DEADLINE <= took < DEADLINE + 20
        own.start()
        back = httpx.post(f"{url}/v1/commands", content=sent, timeout=60, headers=JSON)
        assert back.status_code == 201, back.text
        assert _tables(own) == 1
    finally:
        stop(server)
