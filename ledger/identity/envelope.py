"""The signed command: what a terminal sends, and what every signature covers.

    {"protocol": "round-ledger/command/1",
     "command": {"command": "place_bet", "command_id": "...", "at": "...", "table": "BAC-01", ...},
     "terminal": "BAC-01-T1", "staff": "D-101", "ledger": "<the ledger's id>",
     "signatures": [{"signer": "terminal", "id": "BAC-01-T1", "key": "ed25519:...", "value": "..."},
                    {"signer": "staff", "id": "D-101", "key": "ed25519:...", "value": "..."}]}

Each signature is Ed25519 over `canonical_json` of the envelope without `signatures`
(`protocol`, `command`, `terminal`, `staff`, `ledger`, and `vouched` when present). `ledger` is
the id `ledger db init` drew for the ledger the command is meant for (`ledger_seal_state`), so
a command signed for one ledger is refused by another where the same people are enrolled; the
door requires it, and the model still reads the receipts recorded before it existed (their
bytes, without it, are what their signatures cover). The terminal's
signature proves where, the staff member's who; a supervisor who signs with them (a shift's
inventory, a fill slip) adds a `cosigner` signature over the same bytes. Any party holding a
registered key can produce this without the ledger's code.

A receipt keeps the envelope beside the command's JSON (`CommandReceipt.Accepted.command`).
The body a terminal sends, made from that JSON (`sent_body`), is the envelope's `command` byte
for byte as canonical JSON for every command sent as `Command.body()` writes it: the receipt
then keeps the envelope without its `command` (`kept_in_receipt`: the frame and the signatures;
the body was about a third of the envelope's bytes), and `from_receipt` makes the envelope
again from the receipt, so a receipt whose command is changed no longer verifies. An envelope
whose body differs in any byte (a field a terminal left out, an amount written "100") is kept
whole, as receipts recorded by earlier versions keep it: `from_receipt` reads both.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cached_property, lru_cache
from typing import Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ledger.commands.base import sent_body
from ledger.core.errors import InvalidInput
from ledger.domain.base import KeepsDerived
from ledger.domain.grammar import clean_text, normal_identifier
from ledger.identity.keys import Credential, canonical_json

PROTOCOL: Final = "round-ledger/command/1"


def _as_registered(value: str) -> str:
    normal = normal_identifier(value, "a signer's id")
    if normal != value:
        raise InvalidInput(f"'{value[:40]}' is signed as sent, so it must be the id the registry "
                           f"holds: {normal}.")
    return value


def _printable(value: str) -> str:
    clean_text(value, "vouched", limit=200)  # refuses control characters; the bytes are signed
    return value


def _finite(command: dict[str, Any]) -> dict[str, Any]:
    """A command whose every number can be written as JSON (and so signed): never infinite or
    NaN, which a JSON reader makes of `1e999` and the signed bytes cannot hold."""
    pending: list[Any] = [command]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending += item.values()
        elif isinstance(item, list):
            pending += item
        elif isinstance(item, float) and not math.isfinite(item):  # money-safe: refuses a float
            raise InvalidInput(f"the command holds the number {item}: not a finite amount of "
                               "money (money is sent as a string of patacas such as "
                               "\"100.00\").")
    return command


SignerId = Annotated[str, AfterValidator(_as_registered)]
"""A terminal or staff id in the envelope, exactly as the registry holds it (upper case)."""
MAX_SIGNATURES = 4


class Signature(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    signer: Literal["terminal", "staff", "cosigner"]
    id: SignerId
    key: str = Field(min_length=1, max_length=64, description="the key's fingerprint")
    value: str = Field(min_length=1, max_length=128, description="base64 Ed25519 signature")


class SignedCommand(KeepsDerived):
    model_config = ConfigDict(frozen=True, extra="forbid")

    protocol: Literal["round-ledger/command/1"] = PROTOCOL
    command: Annotated[dict[str, Any], AfterValidator(_finite)]
    terminal: SignerId
    staff: SignerId
    ledger: str | None = Field(
        default=None, min_length=1, max_length=64,
        description="the id of the ledger the command is signed for (`GET /v1/ledger`); "
                    "required: only receipts recorded before it existed lack it")
    vouched: Annotated[str, AfterValidator(_printable)] | None = Field(
        default=None, max_length=200,
        description="set when the terminal signs for a line it did not write (ingest)")
    signatures: list[Signature] = Field(min_length=1, max_length=MAX_SIGNATURES)

    @property
    def name(self) -> str:
        return str(self.command.get("command", "?"))

    def message(self) -> bytes:
        """The bytes every signature covers (made once per envelope: the caller's thread
        verifies ahead with them, the door again, under group commit)."""
        return self.signed_message

    @cached_property
    def signed_message(self) -> bytes:
        """Kept with the envelope, which is frozen (its command is never changed in place); a
        copy with changes makes its own."""
        return signed_bytes(self.command, self.terminal, self.staff, self.vouched, self.ledger)

    @property
    def command_size(self) -> int:
        """The command's length as canonical JSON, read off the signed bytes: they hold it
        once, in the place of the empty object here."""
        return len(self.signed_message) - _frame_length(self.terminal, self.staff, self.vouched,
                                                        self.ledger)

    def by(self, signer: str) -> list[Signature]:
        return [s for s in self.signatures if s.signer == signer]


@lru_cache(maxsize=4096)
def _frame_length(terminal: str, staff: str, vouched: str | None, ledger: str | None) -> int:
    """The length of the signed bytes around the command (a terminal and a person send many)."""
    return len(signed_bytes({}, terminal, staff, vouched, ledger)) - len(b"{}")


def signed_bytes(command: dict[str, Any], terminal: str, staff: str,
                 vouched: str | None = None, ledger: str | None = None) -> bytes:
    """What every signature covers; `ledger` absent only in receipts recorded before it was."""
    unsigned: dict[str, Any] = {"protocol": PROTOCOL, "command": _finite(command),
                                "terminal": terminal,
                                "staff": staff}
    if ledger is not None:
        unsigned["ledger"] = ledger
    if vouched is not None:
        unsigned["vouched"] = vouched
    return canonical_json(unsigned)


def sign(command: Any, terminal: Credential, staff: Credential,
         cosigners: Iterable[Credential] = (), vouched: str | None = None, *,
         ledger: str) -> SignedCommand:
    """Sign a command (a `Command` or the dict a terminal would send) as terminal and staff,
    for the ledger whose id is `ledger` (`Ledger.ledger_id`, `GET /v1/ledger`)."""
    body = command.body() if hasattr(command, "body") else dict(command)
    message = signed_bytes(body, terminal.id, staff.id, vouched, ledger)
    signatures = [
        Signature(signer="terminal", id=terminal.id, key=terminal.fingerprint,
                  value=terminal.sign(message)),
        Signature(signer="staff", id=staff.id, key=staff.fingerprint, value=staff.sign(message)),
        *(Signature(signer="cosigner", id=c.id, key=c.fingerprint, value=c.sign(message))
          for c in cosigners if c.id != staff.id),
    ]
    signed = SignedCommand(command=body, terminal=terminal.id, staff=staff.id, ledger=ledger,
                           vouched=vouched, signatures=signatures)
    signed.__dict__["signed_message"] = message  # the bytes just signed: not made again
    return signed


def kept_in_receipt(signed: SignedCommand, command: dict[str, Any]) -> dict[str, Any]:
    """The envelope as the receipt of `command` (the admitted command's JSON) keeps it: without
    its body when `sent_body(command)` gives exactly the bytes signed, whole otherwise."""
    body = sent_body(command)
    if signed_bytes(body, signed.terminal, signed.staff, signed.vouched,
                    signed.ledger) == signed.message():
        return signed.model_dump(mode="json", exclude={"command"})
    return signed.model_dump(mode="json")


def from_receipt(kept: dict[str, Any], command: dict[str, Any]) -> SignedCommand:
    """The envelope a receipt keeps (`kept_in_receipt`, or whole as earlier receipts keep it),
    with its body made again from the receipt's `command` when it keeps none."""
    if "command" in kept:
        return SignedCommand.model_validate(kept)
    return SignedCommand.model_validate({**kept, "command": sent_body(command)})
