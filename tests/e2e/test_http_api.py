"""The terminal API as a terminal calls it: `ledger serve` in its own process, signed commands
sent over HTTP, every refusal a status, a stable code and the ledger's sentence, and nothing
recorded by a refused command or by any part of a refused batch (issue 16)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from uuid import uuid4

import pytest

from ledger.commands import OpenRound, PlaceBet, SignInDealer
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
                                  "does not verify: the command was changed after it was "
                                  "signed"),
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
    from ledger.commands import BurnCards, CutShoe, ShuffleShoe

    where = dict(table=code, actor=DEALER, terminal=f"{code}-DT")
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


def signed_in(staff_id: str):
    """A sign-in as a third party makes it: the envelope of any command, its body sign_in."""
    return sign({"command": "sign_in", "command_id": str(uuid4()),
                 "at": datetime.now(UTC).isoformat()},
                KEYRING.credential("terminal", READING_AT), KEYRING.credential("staff", staff_id))


def sign_in(served: Served, staff_id: str) -> str:
    answer = served.post("/v1/sessions", body(signed_in(staff_id)))
    assert answer.status_code == 201, answer.text
    return answer.json()["token"]


def test_reads_need_a_signed_in_member_of_staff_and_follow_their_role(
        served: Served, signer):
    signer.execute(open_table("BAC-03"))
    assert served.get("/v1/tables").json()["error"]["code"] == "unauthenticated"
    refused = served.post("/v1/sessions", body(signed_in(DEALER.staff_id)))
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
