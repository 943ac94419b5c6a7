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
from typing import Any, Protocol, TypeVar
from uuid import UUID, uuid4

import psycopg
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, JSONTranscoder, Mapper
from eventsourcing.persistence import InterfaceError as LibraryInterfaceError
from eventsourcing.persistence import OperationalError as LibraryOperationalError
from eventsourcing.utils import TopicError
from pydantic import ValidationError

from ledger.application.bus import Bus
from ledger.application.folding import project, unreadable
from ledger.application.handlers.unit_of_work import ReadsByKind
from ledger.application.registry_proof import RegistryProof, with_alarm
from ledger.commands import Command
from ledger.core.errors import (
    ConcurrencyConflict,
    DamagedStream,
    DatabaseUnavailable,
    IdempotencyConflict,
    LedgerError,
    PrivilegeMissing,
    first_line,
)
from ledger.domain.base import Aggregate, of_kind
from ledger.domain.receipt import RULES_EDITION, CommandReceipt, accepted, receipt_id
from ledger.domain.registry import (
    StaffMember,
    TerminalDevice,
    staff_stream_id,
    terminal_stream_id,
)
from ledger.identity.door import ClockWindow, StaffLookup, TerminalLookup, admit
from ledger.identity.envelope import SignedCommand, kept_in_receipt
from ledger.identity.keys import verify
from ledger.identity.registry_cache import RegistryCache, RegistryMoved
from ledger.infrastructure.database import EVENTS_TABLE
from ledger.infrastructure.mapper import PydanticJSONMapper
from ledger.infrastructure.registry_rows import rows_of
from ledger.infrastructure.roles import missing_insert_privileges
from ledger.infrastructure.session import is_aborted, is_lost
from ledger.presentation.details import details
from ledger.presentation.wording import describe

MAX_ATTEMPTS = 10
BACKOFF_SECONDS = 0.002  # money-safe: the first wait after a lost race; it doubles each time
_jitter = random.Random()  # spreads terminals that lost the same race; no game depends on it
T = TypeVar("T")

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
    events: tuple[tuple[UUID, int, str], ...]  # (stream, version, `Round.BetPlaced`)
    confirmed: bool = False
    """True when this call's own commit lost its reply and the receipt confirmed it."""
    details: tuple[str, ...] = ()
    """What the money did, a line an event that moved it (`ledger.presentation.details`)."""

    def summary(self, between: str = "\n  ") -> str:
        """What was recorded in words, then what the money did, a line each (or, for a report
        of one line a command, after `between`)."""
        if self.confirmed:
            return (f"recorded (command {self.command_id}: the database's reply was lost, and "
                    "its receipt confirms it was recorded, once)")
        if self.duplicate:
            return f"command {self.command_id} was already recorded: nothing new"
        said = describe(kind for _, _, kind in self.events)
        return between.join((f"recorded: {said}" if said else "recorded", *self.details))


class Writer(Protocol):
    """What admits and records the commands `Ledger.execute` is sent, for every thread of the
    process (`ledger.application.group_commit.GroupWriter`)."""

    def execute(self, signed: SignedCommand, sent: Sent) -> Recorded:
        """Admit the command at the door on the registry in memory and record it; raises
        `RegistryMoved` (nothing recorded) when a registry stream it was admitted on had moved
        on by the insert."""
        ...

    def hand(self, signed: SignedCommand, sent: Sent,
             notify: Callable[[], None] | None = None) -> Handed:
        """The same without waiting: `notify` is called (on the writer's thread) once it is
        answered, and the answer is then `outcome()`."""
        ...


class Handed(Protocol):
    """A command handed to the writer (`Writer.hand`)."""

    def outcome(self) -> Recorded:
        """What was recorded, once answered; raises what refused it, `RegistryMoved`, or the
        database's error."""
        ...


class Ledger(ReadsByKind):
    """The service layer: one method to execute commands, a few to read streams. It is the
    handlers' unit of work on PostgreSQL (`ledger.application.handlers.unit_of_work.UnitOfWork`)."""

    rules = RULES_EDITION  # recorded with each receipt (a test sets an earlier one)

    def __init__(self, app: LedgerApplication, clock: ClockWindow | None = None,
                 deadline: float = 60.0,  # money-safe: seconds
                 ledger_id: str | None = None, bus: Bus | None = None) -> None:
        self.app = app
        self.bus = bus or Bus()
        """The handlers of the command areas the composition root loaded (`ledger.application.bus`); a
        command of another area is refused (`AreaNotLoaded`)."""
        self.ledger_id = ledger_id or str(uuid4())
        """The id `ledger db init` drew for this ledger (`ledger_seal_state`), read once when it
        opens: every envelope is signed for it and the door refuses any other. A ledger not on
        a database (a unit test's) draws its own."""
        self.clock: ClockWindow = clock or ClockWindow()
        """The window a command's time must fall in, on the ledger's one clock (given by the
        composition root, never by a terminal; nothing turns it off)."""
        self.deadline = deadline
        """How long a command waits for an unreachable or frozen database before failing."""
        self.on_wait: Callable[[str], None] = lambda message: None
        """Told once per command when it starts waiting for the database (the CLI prints it)."""
        self.writer: Writer | None = None
        """The group-commit writer, when the composition root starts one: `execute` hands it
        the admitted commands of every thread; without it each records its own."""
        self.proof = RegistryProof(rows_of(app), self.ledger_id, self.found)
        """The registry as the door trusts it (`ledger.application.registry_proof`)."""
        self.registry = RegistryCache(self.proof.current)
        """The registry as the door reads it when the writer checks what it read."""

    def _verify_ahead(self, signed: SignedCommand, memory_only: bool = False) -> None:
        """The envelope's signatures verified in the caller's thread against the keys the
        registry in memory holds, so that the writer's door finds them verified (`verify`
        keeps what it found good): Ed25519 is most of the door's time and runs without the
        interpreter lock, so the terminals' threads do it beside the writer, not in its
        turn. Nothing is decided here: the writer's door checks every signature again, against
        the registry as it reads it then. `memory_only`: a key not in memory is left to the
        door (the caller must not wait for the database)."""
        message = signed.message()
        look = self.registry.held if memory_only else self.registry.get
        for signature in signed.signatures:
            holder = look(terminal_stream_id(signature.id) if signature.signer == "terminal"
                          else staff_stream_id(signature.id))
            if isinstance(holder, StaffMember | TerminalDevice):
                verify(holder.public_key, signature.value, message)

    def admit_from_memory(self, signed: SignedCommand) -> tuple[Command, dict[UUID, int]]:
        """The door on the registry in memory: the command admitted and the registry streams
        read for it, at the versions read (the writer checks them at the insert). A refusal
        made on what memory held is asked again of the database before it is given."""
        reads = self.registry.reads()
        try:
            return admit(signed, reads.staff, reads.terminal, self.clock,
                         ledger_id=self.ledger_id), reads.versions
        except LedgerError:
            self.registry.forget(reads.versions)
            reads = self.registry.reads()
            return self.door(signed, reads.staff, reads.terminal), reads.versions

    def door(self, signed: SignedCommand, staff_of: StaffLookup,
             terminal_of: TerminalLookup) -> Command:
        """`admit` on these lookups; a refusal met where the registry holds an entry nothing
        proves says so (the alarm, where the sender sees it)."""
        try:
            return admit(signed, staff_of, terminal_of, self.clock, ledger_id=self.ledger_id)
        except LedgerError as error:
            raise with_alarm(error, signed, self.proof) from None

    def hand(self, signed: SignedCommand, sent: Sent,
             notify: Callable[[], None]) -> Handed | None:
        """Hand one signed command to the group writer without waiting for it (its signatures
        verified ahead here, on keys already in memory): `notify` is called on the writer's
        thread once it is answered, then `Handed.outcome()` gives the answer. For a caller
        that must not block (an event loop); None without a group writer. It is tried once:
        on `RegistryMoved` hand it again, and on a lost database go on with
        `execute(signed, sent)`, which rides it out."""
        if self.writer is None:
            return None
        self._verify_ahead(signed, memory_only=True)
        return self.writer.hand(signed, sent, notify)

    def execute(self, signed: SignedCommand, sent: Sent | None = None) -> Recorded:
        """Verify, authorise and record one signed command, riding out a lost database.
        `sent`: what an earlier try of this same call did (`hand`)."""
        sent = sent or Sent()

        def once() -> Recorded:
            if self.writer is None:
                command = self.door(signed, self.staff, self.terminal)
                return self.record(command, signed, sent)
            self._verify_ahead(signed)
            while True:  # the registry in memory, checked by the writer at the insert
                try:
                    return self.writer.execute(signed, sent)
                except RegistryMoved:
                    continue  # dropped from memory by the writer: admitted on the fresh one

        return self.until_deadline(signed.name, once, sent)

    def until_deadline(self, name: str, attempt: Callable[[], T], sent: Sent) -> T:
        """`attempt()` again while the database cannot be reached, up to the deadline."""
        started = time.monotonic()
        while True:
            try:
                return attempt()
            except LOST_DATABASE as error:
                if not is_lost(error):
                    if is_aborted(error):
                        self._explain_aborted_insert()
                    raise
                waited = time.monotonic() - started
                reason = first_line(error)[:200]
                if waited >= self.deadline:
                    outcome = ("it may have been recorded: send it again with the same command "
                               "id, and the ledger records it once" if sent.unknown
                               else "nothing was recorded")
                    raise DatabaseUnavailable(
                        f"{name}: waited {waited:.0f} s for the database (the deadline is "
                        f"{self.deadline:.0f} s) and it did not answer ({reason}); "
                        f"{outcome}.") from None
                if not sent.waiting:
                    sent.waiting = True
                    self.on_wait(f"{name}: the database cannot record it now ({reason}); waiting up "
                                 f"to {self.deadline:.0f} s...")
                time.sleep(min(1.0, max(self.deadline - waited, 0.0)))

    def _explain_aborted_insert(self) -> None:
        """An insert whose pipeline was aborted hides why; the usual reason is a login that may
        read but not record, which is said as such (`PrivilegeMissing`)."""
        with self.app.factory.datastore.get_connection() as conn:  # type: ignore[attr-defined]  # typed as the base factory, which has no datastore
            conn.autocommit = True
            missing = missing_insert_privileges(conn, EVENTS_TABLE)
        if missing:
            raise PrivilegeMissing(EVENTS_TABLE, missing)

    def record(self, command: Command, signed: SignedCommand | None,
               sent: Sent | None = None) -> Recorded:
        """Record a command the door admitted (or `ledger db init`'s bootstrap)."""
        handler = self.bus.handler_for(type(command))
        sent = sent or Sent()
        for attempt in range(MAX_ATTEMPTS):
            if self.is_recorded(command):
                return sent.found(command.command_id)
            try:
                aggregates = handler(command, self)
            except LedgerError:
                if self.is_recorded(command):  # the same command, recorded meanwhile
                    return sent.found(command.command_id)
                raise
            receipt = self.receipt(command, signed, aggregates)
            try:
                recordings = self.app.save(*aggregates, receipt)
            except LOST_DATABASE as error:
                # the commit may have reached the server: the receipt tells, on the next attempt
                sent.unknown = sent.unknown or is_lost(error)
                raise
            except IntegrityError:  # another terminal wrote first: re-check on the fresh state
                time.sleep(_jitter.uniform(0, BACKOFF_SECONDS * 2**attempt))
                continue
            events = tuple(
                (r.domain_event.originator_id, r.domain_event.originator_version,
                 type(r.domain_event).__qualname__)
                for r in recordings
            )
            return Recorded(command.command_id, duplicate=False, events=events,
                            details=details(r.domain_event for r in recordings))
        raise ConcurrencyConflict(
            f"{type(command).__name__} lost {MAX_ATTEMPTS} races with other terminals "
            "writing the same streams; nothing was recorded, send it again."
        )

    def receipt(self, command: Command, signed: SignedCommand | None,
                aggregates: tuple[Aggregate, ...]) -> CommandReceipt.Accepted:
        """The command's idempotency receipt (its one event), naming the streams it wrote and
        keeping the signed envelope (`kept_in_receipt`)."""
        dumped = command.model_dump(mode="json")
        return accepted(
            command_type=type(command).__name__,
            command=dumped,
            streams=[str(aggregate.id) for aggregate in aggregates],
            by=command.provenance,
            signed=kept_in_receipt(signed, dumped) if signed else None,
            rules=self.rules if self.rules > 1 else None,
        )

    def is_recorded(self, command: Command) -> bool:
        """True if this very command was recorded; a different one under its id is refused."""
        accepted: Any = next(self.app.events.get(receipt_id(command.command_id), limit=1), None)
        if accepted is None:
            return False
        before, now = accepted.command, command.model_dump(mode="json")
        if before != now:
            raise IdempotencyConflict(_conflict(command.command_id, before, now))
        return True

    def staff(self, staff_id: str) -> StaffMember | None:
        """The member as the door trusts them: their entries proven (`registry_proof`)."""
        stream = staff_stream_id(staff_id)
        return of_kind(StaffMember, self.proof.entry(stream), stream)

    def terminal(self, terminal_id: str) -> TerminalDevice | None:
        """The terminal as the door trusts it: its entries proven (`registry_proof`)."""
        stream = terminal_stream_id(terminal_id)
        return of_kind(TerminalDevice, self.proof.entry(stream), stream)

    def found(self, aggregate_id: UUID) -> Aggregate | None:
        """The stream's aggregate as recorded, or None when it has no event; a stored event
        that cannot be read refuses the command in one sentence naming it, but on a registry
        stream, which is read as the door reads it (`RegistryProof.instead_of`)."""
        try:
            return self.app.repository.get(aggregate_id, projector_func=project)
        except AggregateNotFoundError:
            return None
        except (ValidationError, TopicError, DamagedStream) as error:
            damaged = error if isinstance(error, DamagedStream) else unreadable(aggregate_id, error)
            return self.proof.instead_of(damaged, aggregate_id)

    def exists(self, aggregate_id: UUID) -> bool:
        return next(self.app.events.get(aggregate_id, limit=1), None) is not None

    def stream_events(self, aggregate_id: UUID) -> Iterator[Any]:
        return iter(self.app.events.get(aggregate_id))


@dataclass
class Sent:
    """What one call of `execute` has done so far: whether a save's outcome is unknown (the
    connection was lost before its reply), and whether the caller was told it is waiting."""

    unknown: bool = False
    waiting: bool = False

    def found(self, command_id: UUID) -> Recorded:
        """The answer when the command's receipt is found: this call's own lost commit
        ("recorded", confirmed), or an earlier send ("already recorded")."""
        return Recorded(command_id, duplicate=not self.unknown, events=(),
                        confirmed=self.unknown)


LOST_DATABASE = (LibraryOperationalError, LibraryInterfaceError, psycopg.OperationalError,
                 psycopg.InterfaceError)
"""What a lost, down or frozen server raises (the library wraps psycopg's errors)."""


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
