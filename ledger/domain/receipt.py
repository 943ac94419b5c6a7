"""A receipt per accepted command, saved with the command's events in one transaction.

Its stream id follows from the command id, so a repeated command collides with its own
receipt: that is how the ledger records a command once however often it arrives. It keeps the
signed envelope as it arrived, so anyone holding the registry's public keys can check later
that the terminal and the person named really signed exactly this command: without its body
when the body is the receipt's `command` as a terminal sends it, byte for byte
(`ledger.identity.envelope.kept_in_receipt`; `from_receipt` makes the envelope again).
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event
from eventsourcing.utils import get_topic

from ledger.domain.base import Aggregate, Provenance

RULES_EDITION = 3
"""The edition of the rules a command is executed under, recorded with its receipt, so that
`ledger verify` executes every command again under the rules it was recorded under:

1. (a receipt that names none) house settings looked up by the UTC date of the command;
2. rounds and shoes look house settings up by the gaming day their table's shift records;
3. a table's shifts open in time order: none of a gaming day before the latest one a shift
   of that table opened on.
"""

RECEIPT_NAMESPACE = uuid5(NAMESPACE_URL, "https://round-ledger/command")


def receipt_id(command_id: UUID) -> UUID:
    return uuid5(RECEIPT_NAMESPACE, str(command_id))


class CommandReceipt(Aggregate):
    class Accepted(Aggregate.Created):
        command_type: str
        command: dict[str, Any]
        streams: list[str]
        by: Provenance
        signed: dict[str, Any] | None = None  # the envelope, the evidence
        rules: int | None = None  # the rules' edition it was executed under (None: the first)

    @staticmethod
    def create_id(by: Provenance, **_: object) -> UUID:
        return receipt_id(by.command_id)

    @event(Accepted)
    def __init__(
        self, command_type: str, command: dict[str, Any], streams: list[str], by: Provenance,
        signed: dict[str, Any] | None = None, rules: int | None = None,
    ) -> None:
        self.command_type = command_type
        self.streams = streams


RECEIPT_TOPIC = get_topic(CommandReceipt)


def accepted(command_type: str, command: dict[str, Any], streams: list[str], by: Provenance,
             signed: dict[str, Any] | None = None,
             rules: int | None = None) -> CommandReceipt.Accepted:
    """A receipt's one event, made as the library makes a created event (the same id, topic,
    version and time) without building the aggregate it would start: a receipt is written once
    and never changed, and the group writer makes one per command. Its fields come from the
    validated command and envelope (their JSON form) and the provenance the door made, so the
    event is not validated a second time."""
    return CommandReceipt.Accepted.model_construct(
        originator_id=receipt_id(by.command_id), originator_version=CommandReceipt.INITIAL_VERSION,
        timestamp=CommandReceipt.Accepted.create_timestamp(), originator_topic=RECEIPT_TOPIC,
        command_type=command_type, command=command, streams=streams, by=by, signed=signed,
        rules=rules)
