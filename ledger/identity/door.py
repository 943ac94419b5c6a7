"""The application's door: a signed command in, an admitted command (or a refusal) out.

Everything about identity and authority is decided here, once, before any handler runs: the
command was signed for this ledger (its `ledger` is this ledger's id, so a command signed for
one ledger is never recorded on another where the same people are enrolled); the terminal is
registered and not revoked, and its key signed these bytes; the member of staff is
enrolled, not suspended, and their key signed the same bytes; the registry (never the command)
gives the role, and `authority` says whether that role, from that kind of device, may send
this command; a co-signing supervisor signed too; everyone the command names as a signatory
is enrolled in the role they sign in. The body carries its own `command_id` and `at`: the door
fills in nothing the signers did not sign. Then the body is validated (the grammar of
`ledger.domain.grammar`, at most `MAX_COMMAND_BYTES`) and its time checked against the
ledger's clock window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pydantic import ValidationError

from ledger.commands import Command, command_class, unknown_command
from ledger.core.clock import THE_CLOCK, Clock
from ledger.core.errors import (
    CredentialRefused,
    InvalidInput,
    NotAllowed,
    NotFound,
    describe_validation_error,
)
from ledger.domain.base import SUPERVISING_ROLES, Actor
from ledger.domain.grammar import normal_identifier, shown
from ledger.domain.registry import StaffMember, TerminalDevice, role_list
from ledger.identity import authority
from ledger.identity.envelope import Signature, SignedCommand
from ledger.identity.keys import fingerprint, verify

StaffLookup = Callable[[str], StaffMember | None]
TerminalLookup = Callable[[str], TerminalDevice | None]
RESERVED = ("actor", "terminal", "credentials")
SIGNED_BY_THE_SENDER = ("command_id", "at")
"""What a signed command must carry, because the ledger cannot fill it in without changing the
bytes its signers signed: which command it is (the idempotency key) and when it happened."""
_HOW_TO_WRITE = {
    "command_id": "'command_id', a UUID drawn once for the command (sent again, it keeps it)",
    "at": "'at', when it happened, with its UTC offset (such as \"2026-11-22T14:06:00+08:00\")",
}
MAX_COMMAND_BYTES = 16_384
"""The largest command body admitted (canonical JSON): a whole revealed 8-deck shoe is ~2.5 kB."""


def admit(signed: SignedCommand, staff_of: StaffLookup, terminal_of: TerminalLookup,
          clock: ClockWindow | None = None, *, ledger_id: str | None) -> Command:
    """The command `signed` asks for, admitted; `ledger_id` is this ledger's id, which the
    envelope must name (None only for `ledger verify` re-checking an envelope recorded
    before envelopes named their ledger: one that names a ledger is then refused)."""
    name = _check_body(signed)
    check_ledger(signed, ledger_id)
    device = _terminal(signed, terminal_of)
    message = signed.message()
    _check_signature(signed, "terminal", signed.terminal, device.public_key, message)
    if name not in authority.DEVICES[device.kind]:
        kind = device.kind.value.replace('_', ' ')
        raise NotAllowed(f"{authority.action(name)} cannot be sent from terminal "
                         f"{device.terminal_id}: {_a(kind)} {kind} does not carry it; "
                         f"{authority.carried_by(name)} does.")
    member = _staff(signed.staff, staff_of, "sent by")
    _check_signature(signed, "staff", member.staff_id, member.public_key, message)
    role = authority.acting_role(name, member.roles)
    if role is None:
        allowed = authority.who_may(authority.AUTHORITY[name])
        raise NotAllowed(f"{authority.action(name)} needs {allowed}: "
                         f"{role_list(member.roles)} {member.staff_id} cannot.")
    own = authority.SELF_ONLY.get((name, role))
    if own and _same_id(signed.command.get(own)) != member.staff_id:
        raise NotAllowed(f"{authority.action(name)}: a {role.value.replace('_', ' ')} signs only "
                         f"themselves, and {member.staff_id} is not "
                         f"{shown(str(signed.command.get(own)))}.")
    signers = {member.staff_id}
    for cosignature in signed.by("cosigner"):
        cosigner = _staff(cosignature.id, staff_of, "co-signed by")
        _check_signature(signed, "cosigner", cosigner.staff_id, cosigner.public_key, message)
        signers.add(cosigner.staff_id)
    fields: dict[str, Any] = {
        **signed.command,
        "actor": Actor(staff_id=member.staff_id, role=role),
        "terminal": device.terminal_id,
        "credentials": {"staff_key": fingerprint(member.public_key),
                        "terminal_key": fingerprint(device.public_key),
                        "vouched": signed.vouched},
    }
    if "supervisor" in signed.command:
        fields["supervisor"] = _supervisor(signed.command["supervisor"], name, signers, staff_of)
    _check_named_staff(signed.command, staff_of)
    try:
        command = command_class(name).model_validate(fields)
    except ValidationError as error:
        raise InvalidInput(f"{name}: {describe_validation_error(error).rstrip('.')}; nothing "
                           "recorded.") from None
    if clock is not None:
        clock.check(name, command.at)
    return command


@dataclass(frozen=True)
class ClockWindow:
    """How far a command's time may be from the ledger's clock: a terminal's clock may lag or
    a feed be ingested late (`past`), but nothing happens in the future (`ahead`). `clock` is
    the ledger's one clock (`ledger.core.clock`), given by the composition root."""

    past: timedelta = timedelta(hours=36)
    ahead: timedelta = timedelta(minutes=5)
    clock: Clock = THE_CLOCK

    def now(self) -> datetime:
        return self.clock.now()

    def check(self, name: str, at: datetime, now: datetime | None = None) -> None:
        now = now or self.clock.now()
        if at < now - self.past or at > now + self.ahead:
            raise InvalidInput(
                f"{name}: its time {at.isoformat()} is not within {_span(self.past)} before and "
                f"{_span(self.ahead)} after the ledger's clock ({now.isoformat(timespec='seconds')}"
                "); check the terminal's clock: nothing recorded.")


def check_ledger(signed: SignedCommand, ledger_id: str | None) -> None:
    """The envelope names this ledger: its signatures then cover which ledger it is for."""
    if ledger_id is None and signed.ledger is None:
        return  # recorded before envelopes named their ledger (`ledger verify` only)
    if signed.ledger is None:
        raise CredentialRefused(
            f"{shown(signed.name)} names no ledger: a command is signed for one ledger, its "
            f"'ledger' the id `GET /v1/ledger` gives (this is ledger {ledger_id}); nothing "
            "recorded.")
    if signed.ledger != ledger_id:
        raise CredentialRefused(f"{shown(signed.name)} was signed for ledger "
                                f"{shown(signed.ledger)}, and this is ledger {ledger_id}: "
                                "nothing recorded.")


def _a(noun: str) -> str:
    return "an" if noun[:1] in "aeiou" else "a"


def _span(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    return f"{minutes // 60} h" if minutes % 60 == 0 and minutes else f"{minutes} min"


def _same_id(value: Any) -> Any:
    """An id a command names, in the normal form two ids are compared in (`S-A` is `s-a`)."""
    try:
        return normal_identifier(value)
    except InvalidInput:
        return value  # the command's own validation names what is wrong with it


def _check_body(signed: SignedCommand) -> str:
    name = signed.name
    size = signed.command_size
    if size > MAX_COMMAND_BYTES:
        raise InvalidInput(f"{shown(name)}: a command is at most {MAX_COMMAND_BYTES:,} bytes, "
                           f"this one is {size:,}: nothing recorded.")
    if "command" not in signed.command:
        raise InvalidInput("the line has no 'command' field, which names what it does (such as "
                           "place_bet): `ledger schema` lists every command a terminal can send, "
                           "with its fields; nothing recorded.")
    if name not in authority.AUTHORITY:
        raise unknown_command(name)
    for key in RESERVED:
        if key in signed.command:
            raise InvalidInput(f"{name}: '{key}' is not sent: the ledger takes who acted and "
                               "from where from the verified signatures.")
    missing = [key for key in SIGNED_BY_THE_SENDER if key not in signed.command]
    if missing:
        raise InvalidInput(
            f"the signed command carries no {' and no '.join(map(repr, missing))}, and the ledger"
            " fills in nothing its signers did not sign: add "
            f"{' and '.join(_HOW_TO_WRITE[key] for key in missing)}, and sign it again; "
            "nothing recorded.")
    return name


def _terminal(signed: SignedCommand, terminal_of: TerminalLookup) -> TerminalDevice:
    device = terminal_of(signed.terminal)
    if device is None:
        raise CredentialRefused(f"terminal {signed.terminal} is not registered: nothing is "
                                "accepted from it.")
    if not device.active:
        raise CredentialRefused(f"terminal {signed.terminal} was revoked ({device.revoked}): "
                                "nothing is accepted from it.")
    return device


def _staff(staff_id: str, staff_of: StaffLookup, how: str) -> StaffMember:
    member = staff_of(staff_id)
    if member is None:
        raise CredentialRefused(f"{how} {staff_id}, who is not enrolled: nothing recorded.")
    if not member.active:
        raise CredentialRefused(f"{how} {member.describe()}, who is suspended "
                                f"({member.suspended}): nothing recorded.")
    return member


def _check_signature(signed: SignedCommand, signer: str, id: str, public_key: str,
                     message: bytes) -> None:
    mine: list[Signature] = [s for s in signed.by(signer) if s.id == id]
    if not mine:
        raise CredentialRefused(f"the command carries no {signer} signature of {id}: "
                                "every command is signed by its terminal and its sender.")
    if len(signed.by(signer)) > 1 and signer != "cosigner":
        raise CredentialRefused(f"the command carries more than one {signer} signature.")
    registered = fingerprint(public_key)
    for signature in mine:
        if signature.key != registered:
            raise CredentialRefused(
                f"the {signer} signature of {id} is by key {signature.key[:40]}, but the "
                f"registry holds {registered} for {id}: wrong or retired key, nothing recorded.")
        if not verify(public_key, signature.value, message):
            raise CredentialRefused(
                f"the {signer} signature of {id} does not verify: the command was changed "
                "after it was signed, or the signature is not that key's; nothing recorded.")


def _supervisor(staff_id: Any, name: str, signers: set[str], staff_of: StaffLookup) -> Actor:
    if not isinstance(staff_id, str):
        raise InvalidInput(f"{name}: supervisor is the signing supervisor's staff id; the "
                           "registry gives the role.")
    staff_id = normal_identifier(staff_id, "the supervisor's staff id")
    if staff_id not in signers:
        raise CredentialRefused(
            f"{authority.action(name)} is signed by supervisor {staff_id}, whose own signature "
            "is missing: they send it or co-sign it with their credential.")
    member = _staff(staff_id, staff_of, "co-signed by")
    role = next((r for r in authority.SENIORITY if r in member.roles and r in SUPERVISING_ROLES),
                authority.senior_role(member.roles))
    return Actor(staff_id=member.staff_id, role=role)


def _check_named_staff(body: dict[str, Any], staff_of: StaffLookup) -> None:
    for field, role in authority.NAMED_STAFF.items():
        value = body.get(field)
        for staff_id in ([value] if isinstance(value, str) else value or []):
            if not isinstance(staff_id, str):
                continue  # the command's own validation names the bad value
            staff_id = normal_identifier(staff_id, f"the {field.replace('_', ' ')}")
            member = staff_of(staff_id)
            if member is None:
                raise NotFound(f"{field.replace('_', ' ')} {staff_id} is not enrolled.")
            if not member.active:
                raise NotAllowed(f"{field.replace('_', ' ')} {member.describe()} is suspended "
                                 f"({member.suspended}).")
            if role not in member.roles:
                raise NotAllowed(f"{field.replace('_', ' ')} {member.describe()} is not a "
                                 f"{role.value.replace('_', ' ')}: they hold "
                                 f"{role_list(member.roles)}.")
