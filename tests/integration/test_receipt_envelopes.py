"""A receipt keeps its signed envelope without the body, which is the receipt's own command
(`ledger.identity.envelope.kept_in_receipt`): every signature is still checked again from the
ledger alone, receipts kept whole by earlier versions still verify, and an insider who changes
a receipt's command, with or without its events, is named."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import pytest

from ledger.application.ledger import Ledger
from ledger.audit.verification.authorship import check_authorship
from ledger.core import clock as ledger_clock
from ledger.identity.envelope import from_receipt, sign
from ledger.identity.keys import verify
from tests.integration import replay_rounds as rounds
from tests.signing import ADMIN, CONSOLE, KEYRING, open_ledger

RECEIPTS = ("SELECT originator_id, convert_from(state, 'UTF8')::jsonb FROM ledger_events "
            "WHERE topic LIKE '%%CommandReceipt.Accepted' ORDER BY notification_id")


@pytest.fixture
def ledger(settings) -> Iterator[Ledger]:
    with open_ledger(settings) as rt:
        yield rt.ledger


def receipts(conn) -> list[tuple[Any, dict[str, Any]]]:
    return [(stream, body) for stream, body in conn.execute(RECEIPTS).fetchall()]


def behind_the_triggers(conn, statement: str, params: tuple = ()) -> None:
    """As a superuser editing rows in place (the chain breaks; authorship is checked here)."""
    conn.execute("ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_no_update_delete")
    conn.execute(statement, params)
    conn.execute("ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER ledger_events_no_update_delete")


def rewrite(conn, stream, body: dict[str, Any]) -> None:
    behind_the_triggers(conn, "UPDATE ledger_events SET state = %s WHERE originator_id = %s",
                        (json.dumps(body).encode(), stream))


def bet_receipt(conn, amount: str) -> tuple[Any, dict[str, Any]]:
    return next((stream, body) for stream, body in receipts(conn)
                if body["command_type"] == "PlaceBet" and body["command"]["amount"] == amount)


def failures(conn) -> list[str]:
    found = check_authorship(conn)
    assert found.commands > 0
    return [f"{subject}: {reason}" for subject, reason in found.failures]


def test_receipts_keep_the_envelope_without_its_body_and_every_signature_verifies(
        ledger, superuser):
    rounds.baccarat_round(ledger)
    kept = receipts(superuser)
    compact = [body for _, body in kept if "command" not in body["signed"]]
    # all but the registry's bootstrap (written whole by `ledger db init`)
    assert len(compact) == len(kept) - 2 and len(compact) > 20
    for body in compact:
        signed = from_receipt(body["signed"], body["command"])
        for signature in signed.signatures:
            kind = "staff" if signature.signer == "cosigner" else signature.signer
            key = KEYRING.credential(kind, signature.id).public_key
            assert verify(key, signature.value, signed.message()), body["command_type"]
    assert failures(superuser) == []


def test_receipts_kept_whole_as_earlier_versions_wrote_them_still_verify(
        ledger, superuser, monkeypatch):
    import ledger.application.ledger as writer

    monkeypatch.setattr(writer, "kept_in_receipt",
                        lambda signed, command: signed.model_dump(mode="json"))
    rounds.fortune8_round(ledger)  # recorded as an earlier version recorded it
    monkeypatch.undo()
    rounds.baccarat_round(ledger)
    shapes = {"command" in body["signed"] for _, body in receipts(superuser)}
    assert shapes == {True, False}
    assert failures(superuser) == []


def test_an_envelope_signed_over_a_body_of_its_own_writing_is_kept_whole_and_verifies(
        ledger, superuser):
    """A third party's terminal writes the id in lower case and the time with `+00:00`: the
    door reads the same command, but the bytes signed are not the command's own body."""
    rounds.baccarat_round(ledger)
    body = {"command": "enrol_staff", "command_id": str(uuid4()),
            "at": ledger_clock.now().isoformat(), "staff_id": "d-777", "name": "Written By Hand",
            "roles": ["dealer"], "public_key": KEYRING.credential("staff", "D-777").public_key}
    ledger.execute(sign(body, KEYRING.credential("terminal", CONSOLE),
                        KEYRING.credential("staff", ADMIN), ledger=ledger.ledger_id))
    [(_, receipt)] = [(stream, kept) for stream, kept in receipts(superuser)
                      if kept["command"]["command_id"] == body["command_id"]]
    assert receipt["command"]["staff_id"] == "D-777"
    assert receipt["signed"]["command"] == body
    assert failures(superuser) == []


def test_a_bet_changed_in_its_receipt_is_named_by_the_signatures(ledger, superuser):
    rounds.baccarat_round(ledger)
    stream, body = bet_receipt(superuser, "2000.00")
    assert "command" not in body["signed"]
    body["command"]["amount"] = "9000.00"
    rewrite(superuser, stream, body)
    [failure] = failures(superuser)
    assert "(PlaceBet, receipt at position" in failure
    assert "would have been refused at the door" in failure and "does not verify" in failure


def test_a_bet_changed_in_its_receipt_and_its_event_alike_is_named(ledger, superuser):
    """The insider's better attempt: the event and the receipt agree, so only the signatures
    can tell."""
    rounds.baccarat_round(ledger)
    stream, body = bet_receipt(superuser, "2000.00")
    body["command"]["amount"] = "9000.00"
    rewrite(superuser, stream, body)
    behind_the_triggers(
        superuser,
        "UPDATE ledger_events SET state = convert_to(replace(convert_from(state, 'UTF8'), "
        "'\"amount\":\"2000.00\"', '\"amount\":\"9000.00\"'), 'UTF8') "
        "WHERE originator_id = %s AND topic LIKE '%%Round.BetPlaced'",
        (body["streams"][0],))
    found = failures(superuser)
    assert any("(PlaceBet, receipt at position" in f and "does not verify" in f for f in found)


def test_a_changed_bet_given_a_body_of_its_own_in_the_envelope_is_named(ledger, superuser):
    """Giving the compact envelope back a body (the whole shape) that says what the changed
    command says does not help: the signatures cover the body the dealer sent."""
    rounds.baccarat_round(ledger)
    stream, body = bet_receipt(superuser, "2000.00")
    body["command"]["amount"] = "9000.00"
    signed = from_receipt(body["signed"], body["command"])
    body["signed"] = signed.model_dump(mode="json")
    rewrite(superuser, stream, body)
    [failure] = failures(superuser)
    assert "(PlaceBet" in failure and "does not verify" in failure


def test_a_changed_actor_outside_the_signed_body_is_named(ledger, superuser):
    """Who sent it is not in the body a terminal signs: the door makes it from the signatures,
    and the receipt must say the same."""
    rounds.baccarat_round(ledger)
    stream, body = bet_receipt(superuser, "2000.00")
    body["command"]["actor"] = {**body["command"]["actor"], "staff_id": "D-999"}
    rewrite(superuser, stream, body)
    [failure] = failures(superuser)
    assert "the receipt is not what its signed envelope says: its command's actor" in failure
