"""What a command executed again records, set beside what the log holds for it.

Used by `ledger.audit.verification.authorship`: the first difference between the events a command's own
handler records on the streams as they stood and the events the log holds for that command,
named by field; the receipt beside what the door makes of its envelope; the registry's
bootstrap beside its two signed commands.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import JSONTranscoder
from pydantic import ValidationError

from ledger.core.errors import first_line
from ledger.core.formatting import counted
from ledger.domain.registry import Registry, StaffMember, TerminalDevice
from ledger.infrastructure.mapper import PydanticJSONMapper

UNTIMED = ("timestamp",)
"""What a command executed again cannot reproduce: when its events were written."""

mapper = PydanticJSONMapper(transcoder=JSONTranscoder())


@dataclass(frozen=True)
class Row:
    """One event as stored."""

    position: int
    stream_id: UUID
    version: int
    topic: str
    state: bytes

    @property
    def kind(self) -> str:
        return self.topic.split(":", 1)[-1]

    @property
    def where(self) -> str:
        return f"stream {self.stream_id} version {self.version} (position {self.position})"


class Known(Protocol):
    def exists(self, aggregate_id: UUID) -> bool: ...


BOOTSTRAP_FIELDS = {
    Registry.Bootstrapped.event_type: (("administrator", "enrol", "staff_id"),
                              ("terminal", "register", "terminal_id")),
    StaffMember.Enrolled.event_type: tuple((name, "enrol", name)
                                  for name in ("staff_id", "name", "roles", "public_key")),
    TerminalDevice.Registered.event_type: tuple((name, "register", name) for name in
                                       ("terminal_id", "kind", "location", "public_key")),
}


def bootstrap_differs(enrol: dict[str, Any], register: dict[str, Any],
                      events: list[Any]) -> list[str]:
    """The bootstrap's three events say what its two signed commands say, field by field."""
    commands = {"enrol": enrol, "register": register}
    problems = []
    kinds = sorted(type(e).__qualname__ for e in events if e is not None)
    if kinds != sorted(BOOTSTRAP_FIELDS):
        problems.append(f"it records {', '.join(kinds) or 'nothing'}, not the registry's root, "
                        "the first administrator and their console")
    for event in events:
        for field_name, command, key in BOOTSTRAP_FIELDS.get(type(event).__qualname__, ()):
            value = getattr(event, field_name)
            value = [str(v) for v in value] if isinstance(value, list) else str(value)
            wanted = commands[command].get(key)
            wanted = [str(v) for v in wanted] if isinstance(wanted, list) else str(wanted)
            if value != wanted:
                problems.append(f"{type(event).__qualname__}'s {field_name} is not what its "
                                "signed command says")
    return problems


def body_of(command: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in command.items() if k not in ("actor", "terminal", "credentials")}


def receipt_differs(receipt: Any, command: Any) -> str | None:
    if receipt.command_type != type(command).__name__:
        return f"it names {receipt.command_type}, the envelope {type(command).__name__}"
    made = command.model_dump(mode="json")
    for key in sorted(set(made) | set(receipt.command)):
        if made.get(key) != receipt.command.get(key):
            return f"its command's {key} differs from the envelope's"
    if receipt.by != command.provenance:
        return "its provenance (who, where, which keys) is not what the signatures prove"
    return None


def drawn_ids(produced: list[Any], rows: list[Row], streams: Known) -> dict[str, str]:
    """A stream a command starts may take a random id (a shoe's): executed again it draws
    another. Each new stream the command starts is paired, in order and by type, with a new
    stream the log starts in its run, and is compared under that id."""
    recorded = [row for row in rows if row.version == 1]
    drawn: dict[str, str] = {}
    for event in produced:
        if event.originator_version != 1 or streams.exists(event.originator_id):
            continue
        topic = mapper.to_stored_event(event).topic
        match = next((r for r in recorded if r.topic == topic), None)
        if match is not None:
            recorded.remove(match)
            drawn[str(event.originator_id)] = str(match.stream_id)
    return drawn


def compare(produced: list[Any], rows: list[Row], drawn: dict[str, str]) -> str | None:
    """The first difference between what the command records and what the log holds."""
    for index in range(max(len(produced), len(rows))):
        made = produced[index] if index < len(produced) else None
        row = rows[index] if index < len(rows) else None
        if row is None:
            assert made is not None
            return (f"the command records {type(made).__qualname__} on stream "
                    f"{made.originator_id} version {made.originator_version}, which the log "
                    "does not hold")
        if made is None:
            return (f"{row.where} holds {row.kind}, which the command does not record: the "
                    "command could not have recorded it")
        stored = mapper.to_stored_event(made)
        stream = drawn.get(str(stored.originator_id), str(stored.originator_id))
        if (stream, stored.originator_version, stored.topic) != (
                str(row.stream_id), row.version, row.topic):
            return (f"{row.where} holds {row.kind}; the command records "
                    f"{type(made).__qualname__} on stream {stream} version "
                    f"{made.originator_version}")
        text = stored.state.decode("utf-8")
        for mine, theirs in drawn.items():
            text = text.replace(mine, theirs)
        field_name = differing_field(json.loads(text), json.loads(row.state))
        if field_name is not None:
            return (f"{row.where} ({row.kind}): its {field_name} is not what the command "
                    "records")
    return None


def differing_field(made: dict[str, Any], recorded: dict[str, Any]) -> str | None:
    for key in sorted(set(made) | set(recorded)):
        if key in UNTIMED:
            continue
        if made.get(key) != recorded.get(key):
            return key
    return None


def claimed_command(event: Any, row: Row) -> str | None:
    """The command an event claims: from the event, or from its raw body when it cannot be
    read as the event it names."""
    if event is not None:
        by = getattr(event, "by", None)
        return str(by.command_id) if by is not None else None
    try:
        body = json.loads(row.state)
        command_id = body.get("by", {}).get("command_id")
    except (ValueError, AttributeError):
        return None
    return str(command_id) if command_id is not None else None


def refusal(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return f"its envelope is malformed ({counted(error.error_count(), 'problem')})"
    return first_line(error)[:300]
