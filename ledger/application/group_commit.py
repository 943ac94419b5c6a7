"""Group commit: one writer records the commands of every terminal thread, a batch per insert.

Terminal threads (the simulator's tables, the HTTP server's requests) verify their envelopes'
signatures ahead (Ed25519 runs without the interpreter lock), then hand them to the writer and
wait for their answer. The writer takes every command waiting, admits each at the door (on the
registry in memory), checks each against its streams in memory, and records the whole batch's
events and receipts in one autocommit insert (one transaction, one round trip), then answers
each caller:

- **Streams in memory.** The writer keeps the streams it recorded, at the version it recorded
  (`known`), so a command reads nothing it wrote itself. A later command of the same batch sees
  the earlier ones' events (a staged copy); a command refused by the rules leaves the staged
  streams as they were.
- **Another writer meanwhile.** A stream another process wrote (the CLI, ingest) is caught two
  ways. A stream the batch writes carries its expected version into the insert: the database's
  unique (stream, version) refuses the whole insert, and the batch is recorded again command by
  command on fresh state (`Ledger.record`), so no terminal sees another's conflict. A stream a
  command only read is checked against the database's last version by the insert itself (it
  records nothing if one moved, `StreamsMoved`: then one query names which), so the check costs
  no round trip; a stale one is forgotten and the batch's commands go alone.
- **The registry in memory.** The door read the sender's and terminal's registry streams from
  memory (`ledger.identity.registry_cache`); their versions are checked by the insert with
  the streams read, for every command of the batch. A command whose registry moved on is not
  recorded: its caller admits it again on the fresh registry (`RegistryMoved`), and the batch's
  other commands go alone.
- **Refusals alone.** A command the rules refuse in the batch is checked again alone, on fresh
  state, after the batch (so a stale stream can never refuse it); its refusal is its own.
- **A damaged stream.** A stream whose stored history does not chain is refused by the
  database's chain trigger: the command writing it is refused in one sentence naming it (run
  `ledger verify`), and the batch's other commands go alone.
- **Resends.** A command resent after a lost reply (its outcome unknown) goes alone: its
  receipt is checked first, so it is recorded once.
- **Lost database.** Every command of the batch gets the error; each caller's deadline loop
  (`Ledger.until_deadline`) waits and sends again, and the receipt says whether it was recorded.

Commands still commit atomically across the streams they touch; the events of a batch are in
command order, each command's receipt after its events.
"""

from __future__ import annotations

import queue
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from ledger.application.handlers.unit_of_work import ReadsByKind
from ledger.application.ledger import Ledger, Recorded, Sent
from ledger.commands import Command
from ledger.core.errors import LedgerError
from ledger.domain.base import Aggregate
from ledger.identity.envelope import SignedCommand
from ledger.identity.registry_cache import RegistryMoved
from ledger.infrastructure.recorder import StreamsMoved, UnchainedStream, last_versions
from ledger.infrastructure.session import is_lost
from ledger.presentation.details import details

MAX_BATCH = 200
KNOWN_STREAMS = 5000


def _touches(pending: _Pending, events: list[Any], error: UnchainedStream) -> bool:
    """Whether the command writes the damaged stream: then it is refused with its sentence."""
    if any(str(event.originator_id) == error.stream_id for event in events):
        pending.fail(error)
        return True
    return False


def _taken() -> threading.Lock:
    lock = threading.Lock()
    lock.acquire()
    return lock


@dataclass
class _Pending:
    command: Command | None  # None until the writer admits it at the door
    signed: SignedCommand | None
    sent: Sent
    registry: dict[UUID, int]
    result: Recorded | None = None
    error: BaseException | None = None
    answered: threading.Lock = field(default_factory=_taken)
    """Held until the command is answered: its caller waits to take it (a lock released is one
    call into C, where an Event is set through a Condition's Python)."""
    notify: Callable[[], None] | None = None
    """Called once answered, on the thread that answers it: a caller that does not wait in a
    thread of its own (the HTTP server's event loop) is woken by it."""

    @property
    def admitted(self) -> Command:
        """The command as the door admitted it: read once the writer has admitted it."""
        assert self.command is not None, "read before the door admitted it"
        return self.command

    def answer(self, result: Recorded) -> None:
        if not self.is_done():  # answered once
            self.result = result
            self._answered()

    def fail(self, error: BaseException) -> None:
        if not self.is_done():
            self.error = error
            self._answered()

    def _answered(self) -> None:
        self.answered.release()
        if self.notify is not None:
            self.notify()

    def is_done(self) -> bool:
        return self.result is not None or self.error is not None

    def wait(self) -> None:
        self.answered.acquire()

    def outcome(self) -> Recorded:
        """The answer, once given: what was recorded, or the error raised."""
        if self.error is not None:
            raise self.error
        assert self.result is not None, "asked before it was answered"
        return self.result


class _Batch(ReadsByKind):
    """What one batch's commands read and wrote: the handlers' unit of work
    (`ledger.application.handlers.unit_of_work.UnitOfWork`)."""

    def __init__(self, writer: GroupWriter) -> None:
        self.writer = writer
        self.rules = writer.ledger.rules
        self.staged: dict[UUID, Aggregate] = {}  # written by an earlier command of this batch
        self.read: dict[UUID, int] = {}  # read from `known`: the version trusted

    def found(self, aggregate_id: UUID) -> Aggregate | None:
        if aggregate_id in self.staged:
            return self.staged[aggregate_id].__deepcopy__({})
        copy = self.writer.known_copy(aggregate_id)
        if copy is not None:
            self.read[aggregate_id] = copy.version
            return copy
        return self.writer.ledger.found(aggregate_id)

    def exists(self, aggregate_id: UUID) -> bool:
        if aggregate_id in self.staged or self.writer.knows(aggregate_id):
            return True
        return self.writer.ledger.exists(aggregate_id)

    def keep(self, aggregates: Iterable[Aggregate]) -> None:
        for aggregate in aggregates:
            self.staged[aggregate.id] = aggregate


def _expected(read: dict[UUID, int], batch: list[_Pending]) -> dict[UUID, int] | None:
    """Every stream the batch read from memory and every registry stream its commands were
    admitted on, at the version read; None when two commands read one stream at two versions
    (one of them is stale: the batch is checked by a query first)."""
    expected = dict(read)
    for pending in batch:
        for stream, version in pending.registry.items():
            if expected.setdefault(stream, version) != version:
                return None
    return expected


class GroupWriter:
    """The one thread that records the commands `Ledger.execute` hands it."""

    def __init__(self, ledger: Ledger, max_batch: int = MAX_BATCH) -> None:
        self.ledger = ledger
        self.max_batch = max_batch
        self.batches = 0
        self.commands = 0
        self.alone = 0
        """Batches taken, commands received, and commands recorded alone (refused in a batch,
        resent after a lost reply, or in a batch that met another writer's stream)."""
        self._known: OrderedDict[UUID, Aggregate] = OrderedDict()
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="ledger-group-writer",
                                        daemon=True)
        self._thread.start()

    # -- the callers' side --------------------------------------------------------------------
    def execute(self, signed: SignedCommand, sent: Sent) -> Recorded:
        """Admitted at the door by the writer's thread, then recorded: the callers' threads
        only wait, so the writer never queues for the interpreter behind them (one thread runs
        Python at a time; 64 terminals verifying signatures made the writer wait for its turn
        after every round trip)."""
        pending = self.hand(signed, sent)
        pending.wait()
        return pending.outcome()

    def hand(self, signed: SignedCommand, sent: Sent,
             notify: Callable[[], None] | None = None) -> _Pending:
        """Hand the command over without waiting: `notify` is called once it is answered,
        then `outcome()` gives the answer (or raises `RegistryMoved`, or what refused it)."""
        pending = _Pending(None, signed, sent, {}, notify=notify)
        self._queue.put(pending)
        return pending

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join()

    # -- streams in memory --------------------------------------------------------------------
    def known_copy(self, aggregate_id: UUID) -> Aggregate | None:
        aggregate = self._known.get(aggregate_id)
        if aggregate is None:
            return None
        self._known.move_to_end(aggregate_id)
        return aggregate.__deepcopy__({})  # the aggregate's own copy, without deepcopy's memo

    def knows(self, aggregate_id: UUID) -> bool:
        return aggregate_id in self._known

    def _remember(self, aggregates: Iterable[Aggregate]) -> None:
        for aggregate in aggregates:
            self._known[aggregate.id] = aggregate
            self._known.move_to_end(aggregate.id)
        while len(self._known) > KNOWN_STREAMS:
            self._known.popitem(last=False)

    def _forget(self, ids: Iterable[UUID]) -> None:
        for aggregate_id in ids:
            self._known.pop(aggregate_id, None)

    # -- the writer's side --------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            try:
                self._record(batch)
            except BaseException as error:  # noqa: BLE001 - never leave a caller waiting
                for pending in batch:
                    if not pending.is_done():
                        pending.fail(error)
            if stop:
                return

    def _record(self, batch: list[_Pending]) -> None:
        self.batches += 1
        self.commands += len(batch)
        view = _Batch(self)
        staged: list[tuple[_Pending, list[Any]]] = []
        alone: list[_Pending] = []
        for pending in batch:
            if pending.command is None and not self._admit(pending, view):
                continue  # refused at the door, or sent back to it
            if pending.sent.unknown:
                alone.append(pending)  # a resend after a lost reply: its receipt first
                continue
            command = pending.admitted
            try:
                aggregates = self.ledger.bus.handle(command, view)
            except LedgerError:  # its copies are dropped; the staged streams are as they were
                alone.append(pending)  # refused here: checked again alone, on fresh state
                continue
            except Exception as error:  # noqa: BLE001 - its caller is told, whatever it was
                pending.fail(error)
                continue
            events = [event for aggregate in aggregates for event in aggregate.collect_events()]
            events.append(self.ledger.receipt(command, pending.signed, aggregates))
            view.keep(aggregates)
            staged.append((pending, events))
        read = {i: v for i, v in view.read.items() if i not in view.staged}
        unmoved = _expected(read, batch)
        checked = False  # every stream and registry read of the batch found unmoved
        if staged and unmoved:
            try:  # the check and the insert in one round trip
                alone = self._commit(view, staged, unmoved) + alone
            except StreamsMoved:  # nothing recorded: which moved is asked below
                pass
            else:  # recorded: the check held (a refused insert or a lost one checked nothing)
                checked = all(pending.result is not None for pending, _ in staged)
                staged = []
        if staged or (alone and not checked):
            staged, alone = self._check(view, batch, read, staged, alone)
        if staged:
            alone = self._commit(view, staged) + alone
        for pending in alone:
            if not pending.is_done():
                self._alone(pending)

    def _admit(self, pending: _Pending, view: _Batch) -> bool:
        """The door, on the registry in memory. A command whose sender, terminal or co-signer
        an earlier command of this batch changed (a suspension, a revocation, a new key) goes
        back to its caller (`RegistryMoved`), to be admitted after this batch is recorded, on
        the registry as it then stands: the insert's check compares with the database before
        the batch's own rows, so it would not see that change."""
        assert pending.signed is not None
        try:
            pending.command, pending.registry = self.ledger.admit_from_memory(pending.signed)
        except BaseException as error:  # noqa: BLE001 - refused, or the database lost meanwhile
            pending.fail(error)
            return False
        if any(stream in view.staged for stream in pending.registry):
            pending.fail(RegistryMoved())
            return False
        return True

    def _check(self, view: _Batch, batch: list[_Pending], read: dict[UUID, int],
               staged: list[tuple[_Pending, list[Any]]], alone: list[_Pending],
               ) -> tuple[list[tuple[_Pending, list[Any]]], list[_Pending]]:
        """The streams read from memory against the database: a command whose registry moved
        is admitted again by its caller; if any stream moved, the staged commands go alone."""
        last = self._last_versions(read.keys() | {i for p in batch for i in p.registry})
        stale = {i for i, version in read.items() if last.get(i, 0) != version}
        moved = [p for p in batch if not p.is_done()
                 and any(last.get(i, 0) != v for i, v in p.registry.items())]
        if not (stale or moved):
            return staged, alone
        self._forget(stale)
        self.ledger.registry.forget(i for p in moved for i in p.registry)
        for pending in moved:
            pending.fail(RegistryMoved())
        if staged:  # the staged streams are dropped: the others go alone, on fresh state
            self._forget(view.staged)
            alone = [p for p, _ in staged] + alone
        return [], [p for p in alone if not p.is_done()]

    def _commit(self, view: _Batch, staged: list[tuple[_Pending, list[Any]]],
                unmoved: dict[UUID, int] | None = None) -> list[_Pending]:
        """Insert the batch (on condition that the streams in `unmoved` are at those
        versions); returns the commands to record alone instead."""
        try:
            # the event store itself: `Application.save` checks each event against a runtime
            # protocol, about 3% of the writer's time, for events the writer made itself
            self.ledger.app.events.put([event for _, events in staged for event in events],
                                       unmoved=unmoved)
        except StreamsMoved:
            self._forget(view.staged)
            raise
        except IntegrityError:  # another writer got to a stream (or a receipt) first
            self._forget(view.staged)
            return [pending for pending, _ in staged]
        except UnchainedStream as error:  # its commands are refused; the others go alone
            self._forget(view.staged)
            return [pending for pending, events in staged
                    if not _touches(pending, events, error)]
        except Exception as error:  # noqa: BLE001 - every caller of the batch is told
            self._forget(view.staged)
            for pending, _ in staged:
                pending.sent.unknown = pending.sent.unknown or is_lost(error)
                pending.fail(error)
            return []
        self._remember(view.staged.values())
        self.ledger.registry.forget(view.staged)  # an enrolment or a suspension: read again
        for pending, events in staged:
            command = pending.admitted
            pending.answer(Recorded(command.command_id, duplicate=False, events=tuple(
                (event.originator_id, event.originator_version, type(event).__qualname__)
                for event in events), details=details(events)))
        return []

    def _last_versions(self, streams: set[UUID]) -> dict[UUID, int]:
        """The database's last version of the streams read from memory (the batch's and the
        door's), in one query."""
        if not streams:
            return {}
        with self.ledger.app.factory.datastore.get_connection() as conn:  # type: ignore[attr-defined]  # typed as the base factory, which has no datastore
            return last_versions(conn, list(streams))

    def _alone(self, pending: _Pending) -> None:
        self.alone += 1
        try:
            command = pending.admitted
            result = self.ledger.record(command, pending.signed, pending.sent)
        except BaseException as error:  # noqa: BLE001 - its caller is told, whatever it was
            pending.fail(error)
            return
        written = {stream for stream, _, _ in result.events}
        self._forget(written)
        self.ledger.registry.forget(written)
        pending.answer(result)
