"""What a receipt keeps of a signed envelope (`kept_in_receipt`) and the envelope made again
from it (`from_receipt`): the same bytes under the same signatures, or the envelope kept whole
when its body is not exactly the command's own."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from ledger.commands.round import PlaceBet
from ledger.commands.shift import RecordFill
from ledger.domain.base import Actor, Role
from ledger.identity.envelope import SignedCommand, from_receipt, kept_in_receipt, sign
from ledger.identity.keys import Credential, verify

STAFF = Credential.generate("staff", "D-1")
TERMINAL = Credential.generate("terminal", "BAC-01-T1")
SUPERVISOR = Credential.generate("staff", "SV-1")
LEDGER = "943147cd-49f2-4306-9552-a3d29d42d10b"


def admitted(signed: SignedCommand, kind: type, **door: Any) -> dict[str, Any]:
    """The receipt's `command`: what the door makes of the envelope, as JSON."""
    command = kind.model_validate(signed.command).model_copy(update={
        "actor": Actor(staff_id=signed.staff, role=Role.DEALER), "terminal": signed.terminal,
        **door})
    return command.model_dump(mode="json")


def verifies(signed: SignedCommand) -> bool:
    keys = {"terminal": TERMINAL, "staff": STAFF, "cosigner": SUPERVISOR}
    return all(verify(keys[s.signer].public_key, s.value, signed.message())
               for s in signed.signatures)


def bet() -> PlaceBet:
    return PlaceBet(table="BAC-01", box=1, spot="player", amount="100.00")


def test_a_receipt_keeps_the_envelope_without_the_body_and_makes_the_same_bytes_again():
    signed = sign(bet(), TERMINAL, STAFF, ledger=LEDGER)
    command = admitted(signed, PlaceBet)
    kept = kept_in_receipt(signed, command)
    assert "command" not in kept and kept["signatures"] == [
        s.model_dump(mode="json") for s in signed.signatures]
    again = from_receipt(kept, command)
    assert again.message() == signed.message() and verifies(again)


def test_a_cosigned_fill_whose_supervisor_the_door_names_by_role_is_kept_without_its_body():
    fill = RecordFill(table="BAC-01", gaming_day="2026-11-25", shift="day", slip=1,
                      chips={"1000": 3}, runner_id="CR-1", supervisor="SV-1")
    signed = sign(fill, TERMINAL, STAFF, [SUPERVISOR], ledger=LEDGER)
    command = admitted(signed, RecordFill,
                       supervisor=Actor(staff_id="SV-1", role=Role.SUPERVISOR))
    assert command["supervisor"] == {"staff_id": "SV-1", "role": "supervisor"}
    kept = kept_in_receipt(signed, command)
    assert "command" not in kept
    assert verifies(from_receipt(kept, command))


def test_an_envelope_whose_body_is_not_the_commands_own_is_kept_whole():
    """A terminal that writes an amount as "100" and leaves out the defaults signs other
    bytes than the command's JSON gives: the receipt keeps the body it signed."""
    body = {"command": "place_bet", "command_id": str(uuid4()),
            "at": "2026-11-25T09:00:00+08:00", "table": "bac-01", "box": 1, "spot": "player",
            "amount": "100"}
    signed = sign(body, TERMINAL, STAFF, ledger=LEDGER)
    command = admitted(signed, PlaceBet)
    assert command["amount"] == "100.00" and command["table"] == "BAC-01"
    kept = kept_in_receipt(signed, command)
    assert kept["command"] == body
    assert from_receipt(kept, command).message() == signed.message()


def test_a_body_equal_in_python_but_not_in_its_bytes_is_kept_whole():
    """`1 == True` in Python; the signed bytes say `1` or `true`: the check is on the bytes."""
    signed = sign(bet(), TERMINAL, STAFF, ledger=LEDGER)
    command = {**admitted(signed, PlaceBet), "box": True}
    assert "command" in kept_in_receipt(signed, command)


def test_a_receipt_whose_command_was_changed_makes_an_envelope_its_signatures_do_not_cover():
    signed = sign(bet(), TERMINAL, STAFF, ledger=LEDGER)
    command = admitted(signed, PlaceBet)
    kept = kept_in_receipt(signed, command)
    changed = from_receipt(kept, {**command, "amount": "9000.00"})
    assert changed.command["amount"] == "9000.00" and not verifies(changed)
