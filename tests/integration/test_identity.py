"""Who acted, proven: every refusal of the door on a real PostgreSQL, one sentence, nothing
recorded. The floor: pit boss PB-7 at pit-1, dealer D-101 at the table's terminal BAC-01-DT."""

from __future__ import annotations

from decimal import Decimal
from uuid import uuid4

import pytest

from ledger.application.config import LedgerSettings
from ledger.application.group_commit import _Pending
from ledger.application.ledger import Sent
from ledger.commands.registry import ChangeStaffRoles, ReinstateStaff, RevokeTerminal, SuspendStaff
from ledger.commands.round import OpenRound, PlaceBet, VoidRound
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import CloseTable
from ledger.core.errors import CredentialRefused, IdempotencyConflict, InvalidInput, NotAllowed
from ledger.domain.base import Actor, Role
from ledger.domain.registry import TerminalKind, staff_stream_id
from ledger.identity.envelope import Signature, SignedCommand, from_receipt, sign, signed_bytes
from ledger.identity.keys import Credential
from ledger.identity.registry_cache import RegistryMoved
from tests.integration.helpers import PIT_BOSS, open_shift, open_table
from tests.signing import ADMIN, CONSOLE, KEYRING, event_count, open_ledger

DEALER = Actor(staff_id="D-101", role=Role.DEALER)
TERMINAL = "BAC-01-DT"


@pytest.fixture
def floor(settings):
    """BAC-01 open with D-101 signed in and a round in play; the dealer's terminal registered."""
    with open_ledger(settings) as rt:
        ledger = rt.ledger
        ledger.execute(open_table("BAC-01"))
        ledger.execute(open_shift("BAC-01"))
        ledger.admin.ensure_staff("D-101", "Dee Dealer", [Role.DEALER])
        ledger.admin.ensure_terminal(TERMINAL, TerminalKind.DEALER_TERMINAL, "table BAC-01")
        from ledger.commands.table import SignInDealer
        ledger.execute(SignInDealer(table="BAC-01", dealer_id="D-101", actor=PIT_BOSS,
                                    terminal="pit-1"))
        for command in (ShuffleShoe(table="BAC-01"),
                        CutShoe(table="BAC-01", cut_by="player", cut_card_position=404),
                        BurnCards(table="BAC-01", count=8), OpenRound(table="BAC-01")):
            ledger.execute(command.model_copy(update={"actor": DEALER, "terminal": TERMINAL}))
        yield ledger


def as_dealer(ledger, command) -> SignedCommand:
    return KEYRING.sign(command, staff="D-101", terminal=TERMINAL, ledger=ledger.ledger_id)


def admin(ledger, command) -> None:
    ledger.execute(KEYRING.sign(command, staff=ADMIN, terminal=CONSOLE, ledger=ledger.ledger_id))


def refused(ledger, superuser, signed, error, sentence: str) -> str:
    before = event_count(superuser)
    with pytest.raises(error) as caught:
        ledger.execute(signed)
    message = str(caught.value)
    assert sentence in message, message
    assert "\n" not in message
    assert event_count(superuser) == before
    return message


def bet(amount: str = "100.00", **fields) -> PlaceBet:
    return PlaceBet(table="BAC-01", box=1, spot="banker", amount=Decimal(amount), **fields)


def test_a_dealer_cannot_void_a_round_with_their_own_key(floor, superuser):
    refused(floor, superuser, as_dealer(floor, VoidRound(table="BAC-01", reason="player asked")),
            NotAllowed, "voiding a round needs a supervisor or pit boss: dealer D-101 cannot.")


def test_a_dealer_cannot_adjust_a_settled_round(floor, superuser):
    from ledger.commands.round import AdjustRound

    adjust = AdjustRound(table="BAC-01", round=1, box=1, spot="banker", amount=Decimal(100),
                         reason="misread", dispute="DSP-1")
    refused(floor, superuser, as_dealer(floor, adjust), NotAllowed,
            "adjusting a settled round needs a supervisor or pit boss: dealer D-101 cannot.")


def test_a_command_from_an_unregistered_terminal_is_refused(floor, superuser):
    stranger = KEYRING.sign(bet(), staff="D-101", terminal="LAPTOP-9",
                            ledger=floor.ledger_id)
    refused(floor, superuser, stranger, CredentialRefused,
            "terminal LAPTOP-9 is not registered: nothing is accepted from it.")


def test_a_command_from_a_revoked_terminal_is_refused(floor, superuser):
    admin(floor, RevokeTerminal(terminal_id=TERMINAL, reason="stolen from the pit"))
    refused(floor, superuser, as_dealer(floor, bet()), CredentialRefused,
            f"terminal {TERMINAL} was revoked (stolen from the pit): nothing is accepted")


def test_a_command_signed_with_a_key_the_registry_does_not_hold_is_refused(floor, superuser):
    impostor = Credential.generate("staff", "D-101")  # someone who made a key in D-101's name
    signed = sign(bet(), KEYRING.credential("terminal", TERMINAL), impostor,
                  ledger=floor.ledger_id)
    refused(floor, superuser, signed, CredentialRefused,
            "the staff signature of D-101 is by key")


def test_a_signature_made_by_another_key_under_the_right_fingerprint_does_not_verify(
        floor, superuser):
    honest = as_dealer(floor, bet())
    forged_value = Credential.generate("staff", "D-101").sign(honest.message())
    signatures = [s if s.signer != "staff" else Signature(**{**s.model_dump(),
                                                              "value": forged_value})
                  for s in honest.signatures]
    refused(floor, superuser, honest.model_copy(update={"signatures": signatures}),
            CredentialRefused, "the staff signature of D-101 does not verify")


def test_an_unsigned_command_is_refused(floor, superuser):
    honest = as_dealer(floor, bet())
    terminal_only = honest.model_copy(update={"signatures": honest.by("terminal")})
    refused(floor, superuser, terminal_only, CredentialRefused,
            "the command carries no staff signature of D-101")
    with pytest.raises(ValueError):  # no signature at all is not even an envelope
        SignedCommand(command=bet().body(), terminal=TERMINAL, staff="D-101", signatures=[])


def test_a_command_whose_body_was_changed_after_signing_is_refused(floor, superuser):
    honest = as_dealer(floor, bet("100.00"))
    tampered = honest.model_copy(update={"command": {**honest.command, "amount": "10000.00"}})
    refused(floor, superuser, tampered, CredentialRefused,
            "the terminal signature of BAC-01-DT does not verify: the command was changed "
            "after it was signed")


def test_a_command_signed_for_another_ledger_is_refused(floor, superuser):
    """The same people enrolled on two ledgers: a command signed for one is not the other's."""
    other = str(uuid4())
    signed = KEYRING.sign(bet(), staff="D-101", terminal=TERMINAL, ledger=other)
    refused(floor, superuser, signed, CredentialRefused,
            f"place_bet was signed for ledger {other}, and this is ledger {floor.ledger_id}: "
            "nothing recorded.")


def test_a_command_naming_no_ledger_is_refused(floor, superuser):
    honest = as_dealer(floor, bet())
    message = signed_bytes(honest.command, honest.terminal, honest.staff)  # as before `ledger`
    keys = {"terminal": KEYRING.credential("terminal", TERMINAL),
            "staff": KEYRING.credential("staff", "D-101")}
    signatures = [Signature(**{**s.model_dump(), "value": keys[s.signer].sign(message)})
                  for s in honest.signatures]
    unnamed = honest.model_copy(update={"ledger": None, "signatures": signatures})
    unnamed.__dict__.pop("signed_message", None)
    assert unnamed.message() == message
    refused(floor, superuser, unnamed, CredentialRefused, "place_bet names no ledger")


def test_a_command_signed_for_another_ledger_cannot_be_relabelled_for_this_one(
        floor, superuser):
    signed = KEYRING.sign(bet(), staff="D-101", terminal=TERMINAL, ledger=str(uuid4()))
    relabelled = SignedCommand.model_validate({**signed.model_dump(), "ledger": floor.ledger_id})
    refused(floor, superuser, relabelled, CredentialRefused,
            "the terminal signature of BAC-01-DT does not verify")


def test_a_command_naming_its_own_actor_is_refused(floor, superuser):
    body = {**bet().body(), "actor": {"staff_id": "PB-7", "role": "pit_boss"}}
    signed = sign(body, KEYRING.credential("terminal", TERMINAL),
                  KEYRING.credential("staff", "D-101"), ledger=floor.ledger_id)
    refused(floor, superuser, signed, InvalidInput,
            "place_bet: 'actor' is not sent: the ledger takes who acted")


def test_a_suspended_dealer_is_refused_until_reinstated(floor, superuser):
    admin(floor, SuspendStaff(staff_id="D-101", reason="under investigation"))
    refused(floor, superuser, as_dealer(floor, bet()), CredentialRefused,
            "sent by D-101 (D-101), who is suspended (under investigation)")
    admin(floor, ReinstateStaff(staff_id="D-101", reason="cleared"))
    assert not floor.execute(as_dealer(floor, bet())).duplicate


def test_a_role_the_registry_does_not_give_is_refused(floor, superuser):
    floor.admin.ensure_staff("CASH-1", "Cashier", [Role.CASHIER])
    floor.admin.ensure_terminal("PIT-1", TerminalKind.PIT_WORKSTATION, "pit 1")
    close = KEYRING.sign(CloseTable(table="BAC-01"), staff="CASH-1", terminal="PIT-1",
                         ledger=floor.ledger_id)
    refused(floor, superuser, close, NotAllowed,
            "closing a table needs a supervisor or pit boss: cashier CASH-1 cannot.")


def test_roles_taken_away_take_effect_on_the_next_command(floor, superuser):
    floor.admin.ensure_staff("SV-2", "Supervisor", [Role.SUPERVISOR])
    floor.admin.ensure_terminal("PIT-1", TerminalKind.PIT_WORKSTATION, "pit 1")
    admin(floor, ChangeStaffRoles(staff_id="SV-2", roles=[Role.DEALER]))
    void = KEYRING.sign(VoidRound(table="BAC-01", reason="x"), staff="SV-2", terminal="PIT-1",
                        ledger=floor.ledger_id)
    refused(floor, superuser, void, NotAllowed, "dealer SV-2 cannot.")


def test_a_dealer_terminal_cannot_carry_a_table_opening(floor, superuser):
    floor.admin.ensure_staff("PB-7", "Pit Boss", [Role.PIT_BOSS])
    opening = KEYRING.sign(open_table("BAC-02"), staff="PB-7", terminal=TERMINAL,
                           ledger=floor.ledger_id)
    refused(floor, superuser, opening, NotAllowed,
            f"opening a table cannot be sent from terminal {TERMINAL}: a dealer terminal does "
            "not carry it; a pit workstation does.")


def test_the_same_command_id_with_other_content_is_refused_naming_both(floor, superuser):
    command_id = uuid4()
    first = bet("100.00", command_id=command_id)
    assert not floor.execute(as_dealer(floor, first)).duplicate
    assert floor.execute(as_dealer(floor, first)).duplicate  # the same command again: nothing new
    message = refused(floor, superuser, as_dealer(floor, bet("500.00", command_id=command_id)),
                      IdempotencyConflict, f"command id {command_id} was recorded as place_bet")
    assert "amount 100.00" in message and "amount 500.00" in message
    assert "already recorded" not in message


def test_each_event_names_the_verified_staff_terminal_and_key_fingerprints(floor, superuser):
    floor.execute(as_dealer(floor, bet()))
    by = superuser.execute(
        "SELECT body -> 'by' FROM ledger_event_log WHERE event_type = 'Round.BetPlaced'"
    ).fetchone()[0]
    assert by["actor"] == {"staff_id": "D-101", "role": "dealer"}
    assert by["terminal"] == TERMINAL
    assert by["staff_key"] == KEYRING.credential("staff", "D-101").fingerprint
    assert by["terminal_key"] == KEYRING.credential("terminal", TERMINAL).fingerprint
    receipt = superuser.execute(
        "SELECT body FROM ledger_event_log WHERE event_type = "
        "'CommandReceipt.Accepted' AND body ->> 'command_type' = 'PlaceBet'").fetchone()[0]
    signed = from_receipt(receipt["signed"], receipt["command"])
    assert signed.message() == as_dealer(floor, PlaceBet.model_validate(signed.command)).message()


def test_a_dealer_suspended_by_an_earlier_command_of_the_same_batch_is_refused(
        floor, superuser):
    """The review's case: one batch holding the suspension and then the suspended dealer's
    bet. Both were admitted on the registry as it stood, and one insert recorded both."""
    writer = floor.inner.writer
    assert not floor.execute(as_dealer(floor, bet())).duplicate  # D-101 held in memory, active
    suspend = _Pending(None, KEYRING.sign(SuspendStaff(staff_id="D-101", reason="caught"),
                                          staff=ADMIN, terminal=CONSOLE,
                                          ledger=floor.ledger_id), Sent(), {})
    late_bet = _Pending(None, as_dealer(floor, bet("300.00")), Sent(), {})
    before = event_count(superuser)
    writer._record([suspend, late_bet])  # as the writer thread takes a batch
    assert suspend.result is not None and isinstance(late_bet.error, RegistryMoved)
    assert event_count(superuser) == before + 1  # the suspension's receipt: no bet
    refused(floor, superuser, as_dealer(floor, bet("300.00")), CredentialRefused,  # sent again
            "sent by D-101 (D-101), who is suspended (caught)")


def _other_process(settings):
    """Another process on the same database (the CLI): its own registry, no group writer."""
    return open_ledger(LedgerSettings(database_url=settings.database_url, group_commit=False))


def test_a_suspension_by_another_process_stops_a_dealer_the_door_holds_in_memory(
        floor, settings, superuser):
    assert not floor.execute(as_dealer(floor, bet())).duplicate
    held = floor.inner.registry.get(staff_stream_id("D-101"))
    assert held is not None and held.active  # the door reads D-101 from memory from now on
    with _other_process(settings) as cli:
        admin(cli.ledger, SuspendStaff(staff_id="D-101", reason="under investigation"))
    refused(floor, superuser, as_dealer(floor, bet("200.00")), CredentialRefused,
            "sent by D-101 (D-101), who is suspended (under investigation)")


def test_a_reinstatement_by_another_process_admits_a_dealer_held_in_memory_as_suspended(
        floor, settings, superuser):
    admin(floor, SuspendStaff(staff_id="D-101", reason="under investigation"))
    refused(floor, superuser, as_dealer(floor, bet()), CredentialRefused, "who is suspended")
    assert not floor.inner.registry.get(staff_stream_id("D-101")).active  # held as suspended
    with _other_process(settings) as cli:
        admin(cli.ledger, ReinstateStaff(staff_id="D-101", reason="cleared"))
    assert not floor.execute(as_dealer(floor, bet())).duplicate


def test_a_terminal_revoked_by_another_process_is_refused_though_held_in_memory(
        floor, settings, superuser):
    assert not floor.execute(as_dealer(floor, bet())).duplicate
    with _other_process(settings) as cli:
        admin(cli.ledger, RevokeTerminal(terminal_id=TERMINAL, reason="stolen"))
    refused(floor, superuser, as_dealer(floor, bet("200.00")), CredentialRefused,
            f"terminal {TERMINAL} was revoked (stolen)")
