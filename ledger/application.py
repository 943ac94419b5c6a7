"""The application: load the streams a command touches, check, record, save atomically.

`Ledger.execute(signed)` is the one door every entry way (Python, CLI, ingest) goes through:
it takes a signed command, has `ledger.identity.door` verify who sent it from where and
whether they may, then records it. A command's events and its receipt are saved in one insert
transaction, across every stream it touches; the same command sent again finds its receipt
and records nothing, and a different command under the same id is refused; a write that loses
a race to another terminal is re-run on the fresh state, so it either still holds or is
refused with the reason.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, JSONTranscoder, Mapper

from ledger.commands import Command
from ledger.domain.base import Aggregate
from ledger.domain.receipt import CommandReceipt, receipt_id
from ledger.domain.registry import (
    StaffMember, TerminalDevice, staff_stream_id, terminal_stream_id,
)
from ledger.errors import ConcurrencyConflict, IdempotencyConflict, LedgerError, NotFound
from ledger.identity.door import admit
from ledger.identity.envelope import SignedCommand
from ledger.infrastructure.mapper import PydanticJSONMapper

MAX_ATTEMPTS = 10
BACKOFF_SECONDS = 0.002  # money-safe: the first wait after a lost race; it doubles each time
_jitter = random.Random()  # spreads terminals that lost the same race; no game depends on it

Handler = Callable[["Ledger", Any], tuple[Aggregate, ...]]


class LedgerApplication(Application[UUID]):
    """The library's application: its table is `ledger_events`; it reads no snapshot store."""

    name = "ledger"

    def construct_mapper(self) -> Mapper[UUID]:
        return PydanticJSONMapper(transcoder=JSONTranscoder())


@dataclass(frozen=True)
class Recorded:
    """What a command did: the events it recorded, or that it had been recorded before."""

    command_id: UUID
    duplicate: bool
    events: tuple[tuple[UUID, int, str], ...]  # (stream, version, event type)

    def summary(self) -> str:
        if self.duplicate:
            return f"command {self.command_id} was already recorded: nothing new"
        kinds = ", ".join(kind for _, _, kind in self.events if kind != "Accepted")
        return f"recorded {kinds}" if kinds else "recorded"


class Ledger:
    """The service layer: one method to execute commands, a few to read streams."""

    handlers: dict[type[Command], Handler] = {}

    def __init__(self, app: LedgerApplication) -> None:
        self.app = app

    @classmethod
    def handles(cls, command_type: type[Command]) -> Callable[[Handler], Handler]:
        def register(handler: Handler) -> Handler:
            cls.handlers[command_type] = handler
            return handler

        return register

    def execute(self, signed: SignedCommand) -> Recorded:
        """Verify, authorise and record one signed command."""
        command = admit(signed, self.staff, self.terminal)
        return self.record(command, signed)

    def record(self, command: Command, signed: SignedCommand | None) -> Recorded:
        """Record a command the door admitted (or `ledger db init`'s bootstrap)."""
        handler = self.handlers[type(command)]
        for attempt in range(MAX_ATTEMPTS):
            if self.is_recorded(command):
                return Recorded(command.command_id, duplicate=True, events=())
            try:
                aggregates = handler(self, command)
            except LedgerError:
                if self.is_recorded(command):  # the same command, recorded meanwhile
                    return Recorded(command.command_id, duplicate=True, events=())
                raise
            receipt = CommandReceipt(
                command_type=type(command).__name__,
                command=command.model_dump(mode="json"),
                streams=[str(aggregate.id) for aggregate in aggregates],
                by=command.provenance,
                signed=signed.model_dump(mode="json") if signed else None,
            )
            try:
                recordings = self.app.save(*aggregates, receipt)
            except IntegrityError:  # another terminal wrote first: re-check on the fresh state
                time.sleep(_jitter.uniform(0, BACKOFF_SECONDS * 2**attempt))
                continue
            events = tuple(
                (r.domain_event.originator_id, r.domain_event.originator_version,
                 type(r.domain_event).__name__)
                for r in recordings
            )
            return Recorded(command.command_id, duplicate=False, events=events)
        raise ConcurrencyConflict(
            f"{type(command).__name__} lost {MAX_ATTEMPTS} races with other terminals "
            "writing the same streams; nothing was recorded, send it again."
        )

    def is_recorded(self, command: Command) -> bool:
        """True if this very command was recorded; a different one under its id is refused."""
        accepted = next(self.app.events.get(receipt_id(command.command_id), limit=1), None)
        if accepted is None:
            return False
        before, now = accepted.command, command.model_dump(mode="json")
        if before != now:
            raise IdempotencyConflict(_conflict(command.command_id, before, now))
        return True

    def staff(self, staff_id: str) -> StaffMember | None:
        return self._get(staff_stream_id(staff_id))

    def terminal(self, terminal_id: str) -> TerminalDevice | None:
        return self._get(terminal_stream_id(terminal_id))

    def _get(self, aggregate_id: UUID) -> Any:
        try:
            return self.app.repository.get(aggregate_id)
        except AggregateNotFoundError:
            return None

    def load(self, aggregate_id: UUID, what: str) -> Any:
        try:
            return self.app.repository.get(aggregate_id)
        except AggregateNotFoundError:
            raise NotFound(f"{what} does not exist.") from None

    def exists(self, aggregate_id: UUID) -> bool:
        return next(self.app.events.get(aggregate_id, limit=1), None) is not None

    def stream_events(self, aggregate_id: UUID) -> Iterator[Any]:
        return iter(self.app.events.get(aggregate_id))


def _conflict(command_id: UUID, before: dict[str, Any], now: dict[str, Any]) -> str:
    """'... was recorded as place_bet (amount 100.00) and now arrives as place_bet (amount
    200.00)': the two commands, by the fields where they differ."""
    keys = [k for k in sorted(set(before) | set(now)) if before.get(k) != now.get(k)]
    shown = [k for k in keys if k not in ("at",)][:3] or keys[:3]

    def describe(command: dict[str, Any]) -> str:
        fields = ", ".join(f"{k} {_short(command.get(k))}" for k in shown)
        return f"{command.get('command')} ({fields})"

    return (f"command id {command_id} was recorded as {describe(before)} and now arrives as "
            f"{describe(now)}: one id names one command, so nothing was recorded; send a new "
            "command id.")


def _short(value: Any) -> str:
    text = "none" if value is None else str(value)
    return text if len(text) <= 60 else text[:57] + "..."
