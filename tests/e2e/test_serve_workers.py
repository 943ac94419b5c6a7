"""`ledger serve --workers 4`: four server processes on one address, each with its own group
writer, under terminals sending to the same tables at once (each command sent twice, from two
threads, on connections of their own so the kernel hands them to any worker): every command
recorded once, no event lost or doubled, `ledger verify` holds; a reader signed in at one
worker reads at every other, a challenge is answered once whichever worker sees it again, and a
sign-out holds everywhere."""

from __future__ import annotations

import hashlib
import os
import random
import threading
from decimal import Decimal

import httpx
import pytest

from ledger.commands.round import OpenRound, PlaceBet
from ledger.commands.table import SignInDealer
from ledger.domain.registry import TerminalKind
from tests.e2e.served import Served, _served
from tests.e2e.test_http_api import (
    _shoe_ready,
    body,
    signed_in,
    signer,  # noqa: F401 - the fixture
)
from tests.integration.helpers import DEALER, PIT_BOSS, open_shift, open_table
from tests.signing import KEYS, UNTRUSTED

TABLES = ("BAC-41", "BAC-42", "BAC-43")
BOXES = range(1, 8)
WORKERS = 4


@pytest.fixture
def workers(database, signer) -> Served:
    signer.admin.ensure_terminal("FLOOR-1", TerminalKind.PIT_WORKSTATION, "pit podium")
    yield from _served({**os.environ, "LEDGER_DATABASE_URL": database.url,
                        "LEDGER_TERMINAL_CREDENTIAL": str(KEYS / "terminal-FLOOR-1.key")},
                       "--workers", str(WORKERS))


def _alone(url: str, path: str, content: str = "", token: str | None = None,
           method: str = "POST") -> httpx.Response:
    """One request on a connection of its own: any worker may take it."""
    headers = {"Content-Type": "application/json",
               **({"Authorization": f"Bearer {token}"} if token else {})}
    return httpx.request(method, f"{url}{path}", content=content, headers=headers, timeout=60)


def test_four_workers_record_every_command_of_concurrent_terminals_once(
        workers: Served, signer, superuser, cli):
    for code in TABLES:
        for command in (open_table(code), open_shift(code),
                        SignInDealer(table=code, dealer_id=DEALER.staff_id, actor=PIT_BOSS,
                                     terminal="pit-1"), *_shoe_ready(code),
                        OpenRound(table=code, actor=DEALER, terminal=f"{code}-DT")):
            signer.execute(command)
    bets = [body(signer.sign(PlaceBet(table=code, box=box, spot="banker",
                                      amount=Decimal("100.00"), actor=DEALER,
                                      terminal=f"{code}-DT")))
            for code in TABLES for box in BOXES]
    sends = bets + bets  # each bet sent twice, as a terminal resends after a lost answer
    random.Random(4).shuffle(sends)
    last = superuser.execute("SELECT max(notification_id) FROM ledger_events").fetchone()[0]
    answers: list[tuple[int, str]] = []
    lock = threading.Lock()

    def terminal(share: list[str]) -> None:
        for sent in share:
            answer = _alone(workers.url, "/v1/commands", sent)
            with lock:
                answers.append((answer.status_code, answer.text))

    threads = [threading.Thread(target=terminal, args=(sends[i::8],)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(status in (200, 201) for status, _ in answers), [
        text for status, text in answers if status not in (200, 201)][:3]
    assert sorted(status for status, _ in answers) == [200] * len(bets) + [201] * len(bets)
    receipts = superuser.execute(
        "SELECT count(*) FROM ledger_events WHERE notification_id > %s "
        "AND topic LIKE '%%CommandReceipt%%'", (last,)).fetchone()[0]
    assert receipts == len(bets), "a command recorded twice, or one lost"
    boxes = superuser.execute(
        "SELECT count(DISTINCT (originator_id, convert_from(state, 'UTF8')::jsonb->>'box')), "
        "count(*) FROM ledger_events WHERE topic LIKE '%%BetPlaced'").fetchone()
    assert boxes == (len(bets), len(bets)), "a box's bet lost or doubled"
    assert cli("projections", "run", "--once").code == 0
    verified = cli("verify")
    assert verified.code == UNTRUSTED, verified.out + verified.err


def test_a_sign_in_at_one_worker_holds_at_every_other_until_signed_out(
        workers: Served, signer, superuser):
    signer.execute(open_table("BAC-44"))
    once = body(signed_in(workers, "PB-7"))
    opened = _alone(workers.url, "/v1/sessions", once)
    assert opened.status_code == 201, opened.text
    token = opened.json()["token"]
    kept = [bytes(row[0]) for row in superuser.execute(
        "SELECT token_sha256 FROM ledger_web_sessions")]
    assert kept == [hashlib.sha256(token.encode()).digest()], "the token itself is readable"
    again = [_alone(workers.url, "/v1/sessions", once) for _ in range(3 * WORKERS)]
    assert {a.status_code for a in again} == {401}, "a challenge answered twice"
    assert all("challenge was used already" in a.json()["error"]["message"] for a in again)
    reads = [_alone(workers.url, "/v1/tables", token=token, method="GET")
             for _ in range(4 * WORKERS)]
    assert [r.status_code for r in reads] == [200] * len(reads), [
        r.text for r in reads if r.status_code != 200][:2]
    assert _alone(workers.url, "/v1/sessions", token=token, method="DELETE").status_code == 204
    after = [_alone(workers.url, "/v1/tables", token=token, method="GET")
             for _ in range(2 * WORKERS)]
    assert {r.json()["error"]["code"] for r in after} == {"credential_refused"}


def test_several_workers_without_the_servers_terminal_key_are_refused_in_one_line(cli):
    from tests.e2e.served import free_port

    refused = cli("serve", "--workers", "2", "--port", str(free_port()),
                  extra_env={"LEDGER_TERMINAL_CREDENTIAL": None, "LEDGER_TERMINAL_KEY": None})
    assert refused.code == 1
    assert refused.err.strip().splitlines() == [
        ("error: --workers above 1 needs the server's terminal key (LEDGER_TERMINAL_CREDENTIAL "
        "or LEDGER_TERMINAL_KEY): the workers make the sign-in challenges' secret from it; set "
        "it, or serve with one worker.")]
