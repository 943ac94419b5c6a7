"""The application: load the streams a command touches, check, record, save atomically.

`Ledger.execute(command)` is the one door every entry way (Python, CLI, ingest) goes through.
A command's events and its receipt are saved in one insert transaction, across every stream
it touches; a repeated command finds its receipt and records nothing; a write that loses a
race to another terminal is re-run on the fresh state, so it either still holds or is refused
with the reason.
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
from ledger.domain.base import Aggregate, require_recording_role
from ledger.domain.receipt import CommandReceipt, receipt_id
from ledger.errors import ConcurrencyConflict, LedgerError, NotFound
from ledger.infrastructure.mapper import PydanticJSONMapper

MAX_ATTEMPTS = 10
BACKOFF_SECONDS = 0.002  # money-safe: the first wait after a lost race; it doubles each time
_jitter = random.Random()  # spreads terminals that lost the same race; no game depends on it

Handler = Callable[["Ledger", Any], tuple[Aggregate, ...]]


class LedgerApplication(Application[UUID]):
    """The library's application: its tables are `ledger_events` (and `ledger_snapshots`)."""

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

    def execute(self, command: Command) -> Recorded:
        handler = self.handlers[type(command)]
        require_recording_role(command.actor)
        for attempt in range(MAX_ATTEMPTS):
            if self.is_recorded(command.command_id):
                return Recorded(command.command_id, duplicate=True, events=())
            try:
                aggregates = handler(self, command)
            except LedgerError:
                if self.is_recorded(command.command_id):  # the same command, recorded meanwhile
                    return Recorded(command.command_id, duplicate=True, events=())
                raise
            receipt = CommandReceipt(
                command_type=type(command).__name__,
                command=command.model_dump(mode="json"),
                streams=[str(aggregate.id) for aggregate in aggregates],
                by=command.provenance,
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

    def is_recorded(self, command_id: UUID) -> bool:
        return next(self.app.events.get(receipt_id(command_id), limit=1), None) is not None

    def load(self, aggregate_id: UUID, what: str) -> Any:
        try:
            return self.app.repository.get(aggregate_id)
        except AggregateNotFoundError:
            raise NotFound(f"{what} does not exist.") from None

    def exists(self, aggregate_id: UUID) -> bool:
        return next(self.app.events.get(aggregate_id, limit=1), None) is not None

    def stream_events(self, aggregate_id: UUID) -> Iterator[Any]:
        return iter(self.app.events.get(aggregate_id))
