"""The terminal API as a terminal calls it: `ledger serve` in its own process, signed commands
sent over HTTP, every refusal a status, a stable code and the ledger's sentence, and nothing
recorded by a refused command or by any part of a refused batch."""

from __future__ import annotations

import json
import socket
from datetime import datetime, timedelta
from decimal import Decimal
from uuid import uuid4

import httpx
import pytest

from ledger.commands.round import OpenRound, PlaceBet
from ledger.commands.table import SignInDealer
from ledger.core import clock as ledger_clock
from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind
from ledger.identity.envelope import sign
from tests.e2e.served import Served
from tests.integration.helpers import DEALER, PIT_BOSS, open_shift, open_table
from tests.signing import KEYRING, event_count, open_ledger

SURVEILLANCE = "SV-1"
COUNT = "C-1"
READING_AT = "FLOOR-1"


@pytest.fixture
def signer(settings):
    """Signs commands as their actor (enrolling whoever they name, as an administrator
    would), and enrols the readers the tests sign in as."""
    with open_ledger(settings) as rt:
        admin = rt.ledger.admin
        admin.ensure_staff(PIT_BOSS.staff_id, PIT_BOSS.staff_id, [Role.PIT_BOSS])
        admin.ensure_staff(DEALER.staff_id, DEALER.staff_id, [Role.DEALER])
        admin.ensure_staff(SURVEILLANCE, SURVEILLANCE, [Role.SURVEILLANCE])
        admin.ensure_staff(COUNT, COUNT, [Role.COUNT_TEAM])
        admin.ensure_terminal(READING_AT, TerminalKind.PIT_WORKSTATION, "the pit podium")
        yield rt.ledger


def body(*signed) -> str:
    items = [s.model_dump(mode="json") for s in signed]
    return json.dumps(items[0] if len(items) == 1 else items)


def test_a_command_sent_over_http_is_recorded_once_however_often_it_is_sent(
        served: Served, signer, superuser):
    opening = signer.sign(open_table("BAC-07"))
    first = served.post("/v1/commands", body(opening))
    assert first.status_code == 201, first.text
    answer = first.json()
    assert answer["status"] == "recorded"
    assert answer["summary"].startswith("recorded: table opened")
    assert [e["type"] for e in answer["events"]][-1] == "CommandReceipt.Accepted"
    recorded = event_count(superuser)
    again = served.post("/v1/commands", body(opening))
    assert again.status_code == 200
    assert again.json()["status"] == "already_recorded"
    assert event_count(superuser) == recorded


def _refused(served: Served, superuser, sent: str) -> tuple[int, dict]:
    before = event_count(superuser)
    answer = served.post("/v1/commands", sent)
    assert event_count(superuser) == before, "a refused command recorded something"
    return answer.status_code, answer.json()["error"]


def test_every_kind_of_refusal_has_its_status_its_code_and_the_ledgers_sentence(
        served: Served, signer, superuser):
    signer.execute(open_table("BAC-07"))
    bet = PlaceBet(table="BAC-07", box=1, spot="banker", amount=Decimal("50.00"),
                   actor=DEALER, terminal="BAC-07-DT")
    tampered = signer.sign(open_table("BAC-08")).model_dump(mode="json")
    tampered["command"]["max_bet"] = "900000.00"
    reused = open_table("BAC-09")
    served.post("/v1/commands", body(signer.sign(reused)))
    changed = signer.sign(reused.model_copy(update={"min_bet": Decimal("200.00")}))
    cases = {
        "not JSON": ("{not json", 400, "invalid_json", "not JSON: "),
        "no signatures": (json.dumps({"command": {"command": "open_table"}, "terminal": "PIT-1",
                                      "staff": "PB-7"}), 422, "invalid_input", "signatures"),
        "changed after signing": (json.dumps(tampered), 401, "credential_refused",
                                  ("does not verify: the command was changed after it "
                                   "was signed")),
        "a dealer opening a table": (
            body(signer.sign(open_table("BAC-10", actor=DEALER))), 403, "not_allowed",
            "opening a table needs a supervisor or pit boss: dealer D-101 cannot."),
        "no such table": (body(signer.sign(bet.model_copy(update={"table": "BAC-99"}))),
                          404, "not_found", "table BAC-99"),
        "no shift open": (body(signer.sign(OpenRound(table="BAC-07", actor=DEALER,
                                                     terminal="BAC-07-DT"))),
                          409, "wrong_state", "table BAC-07 has no shift open"),
        "one id, two commands": (body(changed), 409, "idempotency_conflict",
                                 "was recorded as open_table"),
    }
    seen = {}
    for case, (sent, status, code, words) in cases.items():
        got_status, error = _refused(served, superuser, sent)
        seen[case] = (got_status, error["code"], words in error["message"])
    assert seen == {case: (status, code, True)
                    for case, (_, status, code, _) in cases.items()}


def test_the_door_refuses_over_http_what_it_refuses_from_the_cli(
        served: Served, signer, superuser):
    """Who sent it and when, checked at the ledger's door for HTTP exactly as for the CLI:
    a stranger's device, a revoked one, a suspended dealer, a key the registry does not hold,
    a time outside the clock window; and what is not a command at all."""
    from ledger.commands.registry import RevokeTerminal, SuspendStaff
    from ledger.identity.keys import Credential

    signer.execute(open_table("BAC-07"))
    signer.admin.ensure_staff("D-102", "D-102", [Role.DEALER])
    signer.admin.ensure_terminal("BAC-07-DT", TerminalKind.DEALER_TERMINAL, "BAC-07")
    signer.admin.ensure_terminal("BAC-08-DT", TerminalKind.DEALER_TERMINAL, "BAC-08")
    signer.admin.send(RevokeTerminal(terminal_id="BAC-08-DT", reason="stolen from the pit"))
    signer.admin.send(SuspendStaff(staff_id="D-102", reason="under investigation"))
    bet = PlaceBet(table="BAC-07", box=1, spot="banker", amount=Decimal("100.00"))

    def by(staff: str, terminal: str, command=bet) -> str:
        return body(KEYRING.sign(command.model_copy(update={"command_id": uuid4()}),
                                 staff=staff, terminal=terminal, ledger=ledger))

    ledger = served.get("/v1/ledger").json()["ledger"]
    assert ledger == signer.ledger_id
    impostor = sign(bet, KEYRING.credential("terminal", "BAC-07-DT"),
                    Credential.generate("staff", DEALER.staff_id), ledger=ledger)
    elsewhere = KEYRING.sign(bet, staff=DEALER.staff_id, terminal="BAC-07-DT",
                             ledger=str(uuid4()))
    nowhere = json.loads(by(DEALER.staff_id, "BAC-07-DT"))
    del nowhere["ledger"]
    stale = bet.model_copy(update={"at": ledger_clock.now() - timedelta(hours=37)})
    unknown = json.loads(by(DEALER.staff_id, "BAC-07-DT"))
    unknown["command"]["command"] = "pay_everyone"
    cases = {
        "a stranger's laptop": (by(DEALER.staff_id, "LAPTOP-9"), 401, "credential_refused",
                                "terminal LAPTOP-9 is not registered"),
        "a revoked terminal": (by(DEALER.staff_id, "BAC-08-DT"), 401, "credential_refused",
                               "terminal BAC-08-DT was revoked (stolen from the pit)"),
        "a suspended dealer": (by("D-102", "BAC-07-DT"), 401, "credential_refused",
                               "who is suspended (under investigation)"),
        "a key not in the registry": (body(impostor), 401, "credential_refused",
                                      "the staff signature of D-101 is by key"),
        "another ledger's": (body(elsewhere), 401, "credential_refused",
                             (f"signed for ledger {elsewhere.ledger}, and this is "
                              f"ledger {ledger}: nothing recorded.")),
        "no ledger named": (json.dumps(nowhere), 401, "credential_refused",
                            "place_bet names no ledger"),
        "a time 37 h ago": (by(DEALER.staff_id, "BAC-07-DT", stale), 422, "invalid_input",
                            "check the terminal's clock"),
        "no such command": (json.dumps(unknown), 422, "invalid_input", "pay_everyone"),
        "an empty batch": ("[]", 422, "invalid_input", "the batch is empty"),
        "a batch of 101": ("[" + ",".join([by(DEALER.staff_id, "BAC-07-DT")] * 101) + "]",
                           422, "invalid_input", "at most 100 commands"),
        "3 MB": (json.dumps({"padding": "x" * 3_000_000}), 413, "too_large",
                 "at most 2,000,000"),
    }
    seen = {}
    for case, (sent, status, code, words) in cases.items():
        got_status, error = _refused(served, superuser, sent)
        seen[case] = (got_status, error["code"], words in error["message"])
        assert words in error["message"], (case, error["message"])
    assert seen == {case: (status, code, True)
                    for case, (_, status, code, _) in cases.items()}


def test_a_body_larger_than_the_limit_is_refused_before_it_is_read_whole(served: Served):
    """A body sent in chunks of unknown total (no Content-Length) is refused once it passes the
    limit, and one that declares too large a length is refused without being read at all."""
    def chunks():
        yield b"["
        for _ in range(80):  # 5 MB
            yield b" " * 65536
        yield b"]"

    streamed = served.client.post("/v1/commands", content=chunks(),
                                  headers={"Content-Type": "application/json"})
    assert (streamed.status_code, streamed.json()["error"]["code"]) == (413, "too_large")
    host, port = served.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as raw:
        raw.sendall(b"POST /v1/commands HTTP/1.1\r\nHost: ledger\r\nContent-Type: "
                    b"application/json\r\nContent-Length: 9000000\r\n\r\n{")
        answer = b""
        while b"too_large" not in answer and (part := raw.recv(4096)):
            answer += part
    answer = answer.decode()
    assert answer.startswith("HTTP/1.1 413 "), answer
    assert '"code":"too_large"' in answer


def test_a_bet_the_rules_refuse_is_a_rule_violation_and_records_nothing(
        served: Served, signer, superuser):
    signer.execute(open_table("BAC-01"))
    signer.execute(open_shift("BAC-01"))
    signer.execute(SignInDealer(table="BAC-01", dealer_id=DEALER.staff_id, actor=PIT_BOSS,
                                terminal="pit-1"))
    for command in _shoe_ready("BAC-01"):
        signer.execute(command)
    signer.execute(OpenRound(table="BAC-01", actor=DEALER, terminal="BAC-01-DT"))
    low = signer.sign(PlaceBet(table="BAC-01", box=1, spot="banker", amount=Decimal("50.00"),
                               actor=DEALER, terminal="BAC-01-DT"))
    status, error = _refused(served, superuser, body(low))
    assert (status, error["code"], error["command"]) == (422, "rule_violation", "place_bet")
    assert "100.00" in error["message"], error["message"]


def _shoe_ready(code: str) -> list:
    from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe

    where = {"table": code, "actor": DEALER, "terminal": f"{code}-DT"}
    return [ShuffleShoe(**where), CutShoe(**where, cut_by="dealer", cut_card_position=404),
            BurnCards(**where, count=8)]


def test_a_batch_that_fails_half_way_records_nothing_of_it(served: Served, signer, superuser):
    opening = signer.sign(open_table("BAC-05"))
    dealer_in = signer.sign(SignInDealer(table="BAC-05", dealer_id=DEALER.staff_id,
                                         actor=PIT_BOSS, terminal="pit-1"))
    twice = signer.sign(open_table("BAC-05"))  # the table is open by then: refused
    status, error = _refused(served, superuser, body(opening, dealer_in, twice))
    assert (status, error["code"], error["index"], error["command"]) == (
        409, "wrong_state", 2, "open_table")
    assert error["message"].startswith("command 3 of 3 (open_table): ")
    assert error["message"].endswith("; nothing of the batch was recorded.")
    batch = served.post("/v1/commands", body(opening, dealer_in))
    assert batch.status_code == 201, batch.text
    assert [r["status"] for r in batch.json()] == ["recorded", "recorded"]
    recorded = event_count(superuser)
    again = served.post("/v1/commands", body(opening, dealer_in))
    assert [r["status"] for r in again.json()] == ["already_recorded", "already_recorded"]
    assert event_count(superuser) == recorded


def challenge(served: Served) -> str:
    answer = served.post("/v1/sessions/challenge", "")
    assert answer.status_code == 201, answer.text
    return str(answer.json()["challenge"])


def signed_in(served: Served, staff_id: str, at: datetime | None = None,
              **body_fields: str | None):
    """A sign-in as a third party makes it: the envelope of any command, its body sign_in,
    for this ledger, answering a challenge of the server's."""
    fields = {"command": "sign_in", "command_id": str(uuid4()),
              "at": (at or ledger_clock.now()).isoformat(), "challenge": challenge(served),
              **body_fields}
    return sign({k: v for k, v in fields.items() if v is not None},
                KEYRING.credential("terminal", READING_AT), KEYRING.credential("staff", staff_id),
                ledger=served.get("/v1/ledger").json()["ledger"])


def sign_in(served: Served, staff_id: str) -> str:
    answer = served.post("/v1/sessions", body(signed_in(served, staff_id)))
    assert answer.status_code == 201, answer.text
    return answer.json()["token"]


def test_reads_need_a_signed_in_member_of_staff_and_follow_their_role(
        served: Served, signer):
    signer.execute(open_table("BAC-03"))
    assert served.get("/v1/tables").json()["error"]["code"] == "unauthenticated"
    refused = served.post("/v1/sessions", body(signed_in(served, DEALER.staff_id)))
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not_allowed")
    assert refused.json()["error"]["message"] == (
        "dealer D-101 reads nothing of the ledger here: the floor, replays and reports are for "
        "the pit, surveillance and accounting.")
    pit, watching, counting = (sign_in(served, s) for s in ("PB-7", SURVEILLANCE, COUNT))
    tables = served.get("/v1/tables", token=pit)
    assert tables.status_code == 200 and "BAC-03" in {t["code"] for t in tables.json()}
    assert served.get("/v1/tables/BAC-03", token=watching).json()["game"] == "baccarat"
    assert served.get("/v1/tables/BAC-03", token=counting).json()["error"]["code"] == (
        "not_allowed")
    assert served.get("/v1/tables/BAC-03/recall", token=watching).json()["table"] == "BAC-03"
    assert served.get("/v1/reports/shift/2026-11-22/day",
                      token=watching).json()["error"]["code"] == "not_allowed"
    missing = served.get("/v1/reports/shift/2026-11-22/day", token=counting)
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")
    served.delete("/v1/sessions", token=pit)
    assert served.get("/v1/tables", token=pit).json()["error"]["code"] == "credential_refused"



def test_a_signed_sign_in_opens_one_session_however_often_it_is_posted(
        served: Served, signer):
    once = body(signed_in(served, "PB-7"))
    first = served.post("/v1/sessions", once)
    assert first.status_code == 201, first.text
    again = served.post("/v1/sessions", once)
    assert (again.status_code, again.json()["error"]["code"]) == (401, "credential_refused")
    assert "challenge was used already" in again.json()["error"]["message"]
    assert served.get("/v1/tables", token=first.json()["token"]).status_code == 200


def test_a_sign_in_dated_outside_the_window_is_refused(served: Served, signer):
    for at in (ledger_clock.now() - timedelta(hours=30), ledger_clock.now() - timedelta(minutes=3),
               ledger_clock.now() + timedelta(minutes=3)):
        answer = served.post("/v1/sessions", body(signed_in(served, "PB-7", at=at)))
        assert (answer.status_code, answer.json()["error"]["code"]) == (
            401, "credential_refused"), answer.text
        assert "more than 120 s from the server's clock" in answer.json()["error"]["message"]
    naive = served.post("/v1/sessions", body(signed_in(served, "PB-7",
                                                       at=ledger_clock.now().replace(tzinfo=None))))
    assert (naive.status_code, naive.json()["error"]["code"]) == (422, "invalid_input")


def test_a_sign_in_without_a_challenge_or_with_one_not_issued_is_refused(
        served: Served, signer):
    cases = {
        "none": (signed_in(served, "PB-7", challenge=None), "answers no challenge"),
        "made up": (signed_in(served, "PB-7", challenge="1999999999.AAAA.BBBB"),
                    "not one this server issued"),
    }
    issued = challenge(served)
    expiry, _, rest = issued.partition(".")
    moved = f"{int(expiry) + 600}.{rest}"  # a longer life, under the same proof
    cases["its expiry moved"] = (signed_in(served, "PB-7", challenge=moved),
                                 "not one this server issued")
    for case, (signed, words) in cases.items():
        answer = served.post("/v1/sessions", body(signed))
        assert (answer.status_code, answer.json()["error"]["code"]) == (
            401, "credential_refused"), (case, answer.text)
        assert words in answer.json()["error"]["message"], (case, answer.text)
    issued = served.post("/v1/sessions/challenge", "").json()
    assert issued["window_seconds"] == 120
    assert datetime.fromisoformat(issued["expires"]) <= ledger_clock.now() + timedelta(seconds=121)


def test_a_sign_in_signed_for_another_ledger_is_refused(served: Served, signer):
    elsewhere = sign({"command": "sign_in", "command_id": str(uuid4()),
                      "at": ledger_clock.now().isoformat(), "challenge": challenge(served)},
                     KEYRING.credential("terminal", READING_AT),
                     KEYRING.credential("staff", "PB-7"), ledger=str(uuid4()))
    answer = served.post("/v1/sessions", body(elsewhere))
    assert (answer.status_code, answer.json()["error"]["code"]) == (401, "credential_refused")
    assert f"and this is ledger {signer.ledger_id}" in answer.json()["error"]["message"]


def test_surveillance_replays_a_round_over_http_and_accounting_may_not(served: Served, signer):
    from tests.integration.replay_rounds import baccarat_round

    baccarat_round(signer, "BAC-01")
    watching, counting, pit = (sign_in(served, s) for s in (SURVEILLANCE, COUNT, "PB-7"))
    replayed = served.get("/v1/tables/BAC-01/rounds/1/replay", token=watching)
    assert replayed.status_code == 200, replayed.text
    assert (replayed.json()["table"], replayed.json()["check"]["verdict"]) == ("BAC-01", "MATCH")
    page = served.get("/v1/tables/BAC-01/rounds/1/replay", token=watching, format="html",
                      dispute="D-2026-117")
    assert page.headers["content-type"].startswith("text/html")
    assert "Replay of BAC-01 round 1" in page.text and "D-2026-117" in page.text
    refused = served.get("/v1/tables/BAC-01/rounds/1/replay", token=counting)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not_allowed")
    shown = served.get("/v1/tables/BAC-01/round", token=pit).json()
    assert (shown["number"], shown["phase"], len(shown["bets"])) == (1, "settled", 5)
    assert shown["result"], shown
    missing = served.get("/v1/tables/BAC-01/rounds/9/replay", token=watching)
    assert (missing.status_code, missing.json()["error"]["message"]) == (
        404, "table BAC-01 has no round 9.")


LAST = 239


def _stalled_viewer(served: Served, token: str) -> socket.socket:
    """A page that opens the floor's event stream and then never reads from it."""
    host, port = served.url.removeprefix("http://").split(":")
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.connect((host, int(port)))
    stalled.sendall(f"GET /floor/events HTTP/1.1\r\nHost: ledger\r\nCookie: ledger_session="
                    f"{token}\r\nAccept: text/event-stream\r\n\r\n".encode())
    return stalled


def test_viewers_that_stop_reading_or_vanish_hold_up_neither_recording_nor_other_viewers(
        served: Served, signer, superuser):
    """140 tables opened one by one send the whole floor 140 times, over 4 MB to a viewer that
    reads: more than the kernel holds for one that does not (seen: 2.8 MB queued to each, then
    the server's writes to them stall), and the feed, the reading viewer and recording go on
    regardless; four viewers that vanished are forgotten."""
    import threading

    token = sign_in(served, "PB-7")
    stalled = [_stalled_viewer(served, token) for _ in range(4)]
    for _ in range(4):
        _stalled_viewer(served, token).close()  # vanished before reading anything
    seen: list[str] = []
    watching = threading.Event()

    def watch() -> None:
        with httpx.stream("GET", f"{served.url}/floor/events", cookies={"ledger_session": token},
                          timeout=60) as stream:
            for line in stream.iter_lines():
                watching.set()
                seen.append(line)
                if f"table-BAC-{LAST}" in line:
                    return

    viewer = threading.Thread(target=watch, daemon=True)
    viewer.start()
    assert watching.wait(30), "the floor's event stream did not open"
    try:
        answers = [served.post("/v1/commands", body(signer.sign(open_table(f"BAC-{n}"))))
                   for n in range(100, LAST + 1)]  # each a new table: the whole floor again
        assert [a.status_code for a in answers] == [201] * (LAST - 99)
        viewer.join(timeout=60)
        assert not viewer.is_alive(), "a viewer that reads never saw the last table"
    finally:
        for connection in stalled:
            connection.close()
    assert superuser.execute("SELECT count(*) FROM ledger_event_log WHERE event_type = "
                             "'Table.Opened'").fetchone()[0] == LAST - 99


def test_a_body_larger_than_the_limit_is_refused_on_every_route_as_the_api_refuses_it(
        served: Served):
    """The sign-in page's POST has the API's limit and its refusal: 413, `too_large`, as the
    body arrives, whether declared or streamed; and a route that reads no body refuses one
    declared too large as well (one streamed to it is never read)."""
    def chunks():
        for _ in range(40):  # 2.6 MB, of unknown length
            yield b" " * 65536

    too_large = json.dumps({"staff": "PB-7", "padding": "x" * 3_000_000})
    answers = {"declared to the sign-in page": served.post("/floor/sign-in", too_large),
               "streamed to the sign-in page": served.client.post(
                   "/floor/sign-in", content=chunks(),
                   headers={"Content-Type": "application/json"}),
               "streamed to sign in": served.client.post(
                   "/v1/sessions", content=chunks(),
                   headers={"Content-Type": "application/json"}),
               "declared to the challenge": served.post("/v1/sessions/challenge", too_large),
               "declared to the floor page": served.client.request(
                   "GET", "/floor", content=too_large)}
    for path, answer in answers.items():
        assert answer.status_code == 413, (path, answer.text)
        assert answer.json()["error"]["code"] == "too_large", (path, answer.text)
        assert "at most 2,000,000 bytes a request" in answer.json()["error"]["message"]


def test_the_sign_in_page_carries_a_challenge_its_sign_in_spends_once(
        served_floor: Served, signer):
    """What the page's script does, done here: read the ledger and the challenge from the page,
    sign the sign-in as the person, send only the signature; the server adds its terminal's.
    The same signed sign-in sent again is refused."""
    import re

    from ledger.identity.envelope import signed_bytes

    page = served_floor.get("/floor/sign-in").text
    data = dict(re.findall(r'data-(\w+)="([^"]*)"', page))
    assert data["ledger"] == signer.ledger_id and data["terminal"] == "FLOOR-1"
    command = {"command": "sign_in", "command_id": str(uuid4()),
               "at": ledger_clock.now().isoformat(), "challenge": data["challenge"]}
    message = signed_bytes(command, data["terminal"], "PB-7", ledger=data["ledger"])
    sent = json.dumps({"staff": "PB-7", "command": command,
                       "signature": KEYRING.credential("staff", "PB-7").sign(message)})
    first = served_floor.post("/floor/sign-in", sent)
    assert first.status_code == 200, first.text
    assert first.json() == {"next": "/floor"} and "ledger_session" in first.cookies
    again = served_floor.post("/floor/sign-in", sent)
    assert (again.status_code, again.json()["error"]["code"]) == (401, "credential_refused")
    assert "challenge was used already" in again.json()["error"]["message"]
    other = served_floor.get("/floor/sign-in").text
    assert dict(re.findall(r'data-(\w+)="([^"]*)"', other))["challenge"] != data["challenge"]
