"""An ordered batch of signed commands, recorded all together or not at all.

A terminal that sends several commands as one (a round's opening, its bets and its first cards,
say) means them as one: `execute_batch` admits every command at the door, runs each handler on
the streams as the earlier commands of the batch left them, and inserts every event and every
receipt in one transaction. A refusal anywhere (at the door, by the rules) records nothing of
the batch and says which command, by its place and name, was refused and why (`BatchRefused`).
A command already recorded (the same `command_id`, as when a batch is sent again after a lost
reply) is answered "already recorded" and not recorded twice; a batch sent again whole is all
"already recorded". Another writer on one of the batch's streams meanwhile (the group writer,
the CLI) makes the insert fail as a whole on the stream's version; the batch is then checked
again on fresh state, as a single command is. The group writer, for its part, finds a stream
this batch wrote moved on by the version its own insert expects, and reads it again.
"""

from __future__ import annotations

import random
import time
from copy import deepcopy
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from ledger.application.handlers.unit_of_work import ReadsByKind
from ledger.application.ledger import BACKOFF_SECONDS, MAX_ATTEMPTS, Ledger, Recorded, Sent
from ledger.commands import Command
from ledger.core.errors import ConcurrencyConflict, InvalidInput, LedgerError
from ledger.domain.base import Aggregate
from ledger.identity.door import admit
from ledger.identity.envelope import SignedCommand
from ledger.infrastructure.session import is_lost
from ledger.presentation.details import details

MAX_BATCH = 100
"""The most commands one batch may carry: a whole round of any game, with room."""


class BatchRefused(LedgerError):
    """One command of a batch was refused, so nothing of the batch was recorded; `cause` is the
    refusal as that command alone would have had it (its kind decides the HTTP status)."""

    def __init__(self, index: int, name: str, total: int, cause: LedgerError) -> None:
        super().__init__(f"command {index + 1} of {total} ({name}): {_bare(cause)}; nothing of "
                         "the batch was recorded.")
        self.index = index
        self.name = name
        self.cause = cause


def _bare(error: LedgerError) -> str:
    """The refusal's sentence without its own 'nothing recorded' (the batch says it once)."""
    text = str(error).rstrip(".")
    for tail in ("; nothing recorded", ": nothing recorded", ", nothing recorded"):
        text = text.removesuffix(tail)
    return text


class _Staged(ReadsByKind):
    """The handlers' unit of work on the streams as the batch's earlier commands left them
    (each handler gets a copy, so a refused one changes nothing)."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.rules = ledger.rules
        self.staged: dict[UUID, Aggregate] = {}

    def found(self, aggregate_id: UUID) -> Aggregate | None:
        if aggregate_id in self.staged:
            return deepcopy(self.staged[aggregate_id])
        return self.ledger.found(aggregate_id)

    def exists(self, aggregate_id: UUID) -> bool:
        return aggregate_id in self.staged or self.ledger.exists(aggregate_id)


def execute_batch(ledger: Ledger, batch: list[SignedCommand]) -> list[Recorded]:
    """Every command of `batch` recorded, in order, in one transaction; or none of them."""
    if not batch:
        raise InvalidInput("the batch is empty: send at least one command.")
    if len(batch) > MAX_BATCH:
        raise InvalidInput(f"a batch carries at most {MAX_BATCH} commands, this one "
                           f"{len(batch)}: send it in parts; nothing recorded.")
    commands = []
    for index, signed in enumerate(batch):
        try:
            commands.append(admit(signed, ledger.staff, ledger.terminal, ledger.clock,
                                  ledger_id=ledger.ledger_id))
        except LedgerError as error:
            raise BatchRefused(index, signed.name, len(batch), error) from None
    ids = [command.command_id for command in commands]
    if len(set(ids)) != len(ids):
        raise InvalidInput("two commands of the batch carry the same command_id: each command "
                           "has its own; nothing recorded.")
    sent = Sent()
    return ledger.until_deadline(f"a batch of {len(batch)}",
                                 lambda: _record(ledger, commands, batch, sent), sent)


def _record(ledger: Ledger, commands: list[Command], batch: list[SignedCommand],
            sent: Sent) -> list[Recorded]:
    for attempt in range(MAX_ATTEMPTS):
        view = _Staged(ledger)
        results: list[Recorded | None] = []
        events: list[Any] = []
        for index, (command, signed) in enumerate(zip(commands, batch)):
            try:
                if ledger.is_recorded(command):
                    results.append(sent.found(command.command_id))
                    continue
                aggregates = ledger.bus.handle(command, view)
            except LedgerError as error:
                raise BatchRefused(index, signed.name, len(batch), error) from None
            mine = [event for aggregate in aggregates for event in aggregate.collect_events()]
            mine.append(ledger.receipt(command, signed, aggregates))
            for aggregate in aggregates:
                view.staged[aggregate.id] = aggregate
            events += mine
            results.append(Recorded(command.command_id, duplicate=False, events=tuple(
                (e.originator_id, e.originator_version, type(e).__qualname__) for e in mine),
                details=details(mine)))
        if not events:
            return [result for result in results if result is not None]
        try:
            ledger.app.events.put(events)
        except IntegrityError:  # another writer got to one of the streams first
            time.sleep(random.uniform(0, BACKOFF_SECONDS * 2**attempt))
            continue
        except Exception as error:  # a lost connection: the receipts tell, on the next attempt
            sent.unknown = sent.unknown or is_lost(error)
            raise
        return [result for result in results if result is not None]
    raise ConcurrencyConflict(f"a batch of {len(batch)} lost {MAX_ATTEMPTS} races with other "
                              "terminals writing the same streams; nothing was recorded, send "
                              "it again.")
