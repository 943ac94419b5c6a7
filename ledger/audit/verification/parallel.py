"""`ledger verify --full --workers N`: the authorship check spread over worker processes.

The parent reads the log once, in its order, and hands every row to every worker
(`multiprocessing`, forkserver where the platform has it, else spawn; a worker holds no
database connection). Each worker runs the single-process check (`ledger.audit.verification.authorship`)
over the whole log with one difference: of the commands, in log order, worker *i* proves the
*i*-th of every N, signatures, door and handler, and only applies the others' events to its
streams as the log records them. So every worker holds every stream as it stood, whatever a
command reads (another table's, a pool, a gaming day, the registry), and the work that costs,
the envelope's signatures and the command executed again, is divided.

That is exact because the single-process check applies a command's events whether it is
proven or not, all but the registry's, which only a proven command changes (a key no valid
command brought in proves nothing after it). A command whose events touch the registry is
therefore proven by every worker, and named by its own; decoding a row, a run's structure
(claims, second receipts, the bootstrap) and applying events are done by all, named by worker
0. Each failure is keyed by its run and its command's place in the run, and the merged list is
in the order the single-process check names them, with the same words; the streams not proven,
the pools' balances, the commands counted and the state carried at a boundary
(`ledger.audit.verification.log_streams.Carried`) are gathered from the workers the same way.

The incremental path (`resume=`) stays single-process: it checks only what came after a
boundary.
"""

from __future__ import annotations

import contextlib
import copy
import multiprocessing
import pickle
import queue
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from psycopg import Connection

from ledger.audit.verification.authorship import (
    REGISTRY_STREAMS,
    Authorship,
    _Checker,
    _rows,
    _runs,
)
from ledger.audit.verification.comparison import Row
from ledger.audit.verification.log_streams import Carried, Streams, carries
from ledger.core.errors import LedgerError

BATCH = 500  # rows a message to the workers
AHEAD = 32  # messages waiting for a worker before the read waits for it
END = pickle.dumps(None)
PRELOAD = ["__main__", "ledger.audit.verification.parallel", "ledger.audit.verification.worker_preload",
           "ledger.identity.door", "ledger.identity.envelope", "ledger.domain.receipt"]

Key = tuple[int, int, int]  # (run, the command's place in its run or -1, order found)


class WorkerFailed(LedgerError):
    code = "verify_worker_failed"


@dataclass
class _Named:
    key: Key
    subject: str
    reason: str
    rows: list[tuple[UUID, int]]


@dataclass
class _Found:
    """What one worker found and proved, for the parent to merge."""

    named: list[_Named] = field(default_factory=list)
    proved: int = 0  # commands this worker proved and counts
    run_level: int = 0  # commands counted by the run's structure (the bootstrap's)
    events: int = 0
    notes: list[str] = field(default_factory=list)
    unbound: int = 0
    pools: dict[UUID, Any] = field(default_factory=dict)  # worker 0's
    carried_run: int | None = None  # the run before which the state was carried
    carried_after: int = 0
    carried_unbound: int = 0
    carried_streams: dict[UUID, Any] | None = None  # worker 0's
    seconds: float = 0.0  # money-safe: the worker's CPU seconds


def check_authorship_parallel(conn: Connection[Any], *, workers: int,
                              administrator_key: str | None = None,
                              ledger_id: str | None = None,
                              boundary: int | None = None) -> Authorship:
    """`check_authorship` over the whole log, its work spread over `workers` processes; the
    same failures, in the same order and words, the same counts and carried state."""
    from ledger.audit.log.formats import recorded_ledger_id
    from ledger.audit.verification.authorship import check_authorship
    from ledger.infrastructure.registry_rows import bound_from

    ledger_id = ledger_id or recorded_ledger_id(conn)
    if workers <= 1:
        return check_authorship(conn, administrator_key=administrator_key,
                                ledger_id=ledger_id, boundary=boundary)
    context = _context()
    pipes, processes = [], []
    for index in range(workers):
        mine, theirs = context.Pipe()
        process = context.Process(target=_work, name=f"ledger-verify-{index}", daemon=True,
                                  args=(theirs, index, workers, administrator_key, ledger_id,
                                        boundary, bound_from(conn)))
        process.start()
        theirs.close()
        pipes.append(mine)
        processes.append(process)
    feeders = [_Feeder(pipe) for pipe in pipes]
    try:
        with closing(_rows(conn)) as rows:
            batch: list[tuple[int, bytes, int, str, bytes]] = []
            for row in rows:
                batch.append((row.position, row.stream_id.bytes, row.version, row.topic,
                              row.state))
                if len(batch) >= BATCH:
                    _send(feeders, pickle.dumps(batch, protocol=5))
                    batch = []
            if batch:
                _send(feeders, pickle.dumps(batch, protocol=5))
        _send(feeders, END)
        for feeder in feeders:
            feeder.join()
        found = [_result(pipe, index) for index, pipe in enumerate(pipes)]
    finally:
        for feeder in feeders:
            feeder.stop()
        for pipe in pipes:
            pipe.close()
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
    return _merged(found, administrator_key, ledger_id)


def prepare(workers: int) -> None:
    """Start the server the workers are forked from, loading the ledger's modules, while the
    caller does other work (the chains, the seal); the check itself waits for it."""
    if workers > 1 and _context().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


class _Feeder(threading.Thread):
    """Hands one worker its batches, up to AHEAD of them waiting: a worker a little behind
    holds back neither the read nor the other workers."""

    def __init__(self, pipe: Any) -> None:
        super().__init__(daemon=True)
        self.pipe = pipe
        self.waiting: queue.Queue[bytes] = queue.Queue(maxsize=AHEAD)
        self.broken = False
        self.start()

    def run(self) -> None:
        while True:
            message = self.waiting.get()
            if not self.broken:
                try:
                    self.pipe.send_bytes(message)
                except OSError:  # the worker stopped: its result says why
                    self.broken = True
            if message is END:
                return

    def stop(self) -> None:
        if self.is_alive():
            self.broken = True
            with contextlib.suppress(queue.Full):
                self.waiting.put_nowait(END)


def _send(feeders: list[_Feeder], message: bytes) -> None:
    for feeder in feeders:
        feeder.waiting.put(message)


def _result(pipe: Any, index: int) -> _Found:
    try:
        kind, payload = pipe.recv()
    except (EOFError, ConnectionResetError, OSError):
        raise WorkerFailed(f"verify's worker {index} stopped without a result") from None
    if kind != "done":
        raise WorkerFailed(f"verify's worker {index} failed: {payload}")
    found: _Found = payload
    return found


def _merged(found: list[_Found], administrator_key: str | None,
            ledger_id: str | None) -> Authorship:
    """The workers' findings as the single-process check makes them, in its order."""
    named = sorted((n for worker in found for n in worker.named), key=lambda n: n.key)
    first = found[0]
    result = Authorship(commands=first.run_level + sum(w.proved for w in found),
                        events=first.events, notes=list(first.notes),
                        worker_seconds=[w.seconds for w in found])
    unproven: dict[UUID, set[int]] = {}
    for number, failure in enumerate(named):
        if first.carried_run is not None and result.carried is None \
                and failure.key[0] >= first.carried_run:
            result.carried = _carried(first, found, named[:number])
        result.failures.append((failure.subject, failure.reason))
        for stream, position in failure.rows:
            unproven.setdefault(stream, set()).add(position)
    if first.carried_run is not None and result.carried is None:
        result.carried = _carried(first, found, named)
    ending = _Checker(administrator_key, ledger_id)
    ending.found, ending.unproven = result, unproven
    ending.unbound = sum(w.unbound for w in found)
    ending.streams.streams.update(first.pools)
    ending.finish()
    return result


def _carried(first: _Found, found: list[_Found], before: list[_Named]) -> Carried:
    unproven: dict[UUID, set[int]] = {}
    for failure in before:
        for stream, position in failure.rows:
            unproven.setdefault(stream, set()).add(position)
    return Carried(first.carried_after, first.carried_streams or {}, unproven,
                   sum(w.carried_unbound for w in found))


# -- a worker ----------------------------------------------------------------------------
def _work(pipe: Any, index: int, workers: int, administrator_key: str | None,
          ledger_id: str | None, boundary: int | None, bound: int | None) -> None:
    try:
        worker = _Worker(index, workers, administrator_key, ledger_id)
        worker.bound_from = bound
        found = worker.check(_received(pipe), boundary)
    except BaseException:  # noqa: BLE001 - handed to the parent, which names it
        pipe.send(("error", traceback.format_exc(limit=-3).strip().splitlines()[-1]))
    else:
        pipe.send(("done", found))
    finally:
        pipe.close()


def _received(pipe: Any) -> Iterator[Row]:
    while True:
        batch = pickle.loads(pipe.recv_bytes())
        if batch is None:
            return
        for position, stream, version, topic, state in batch:
            yield Row(position, UUID(bytes=stream), version, topic, state)


class _Worker(_Checker):
    """The single-process check, proving every N-th command and applying the others."""

    def __init__(self, index: int, workers: int, administrator_key: str | None,
                 ledger_id: str | None) -> None:
        super().__init__(administrator_key, ledger_id)
        self.index, self.workers = index, workers
        self.mine = _Found()
        self.run_number = 0
        self.place = -1  # the command's place in its run; -1: the run's structure
        self.sequence = 0  # commands met, in log order
        self.naming = True

    def check(self, rows: Iterator[Row], boundary: int | None) -> _Found:
        after = 0
        for events, receipts in _runs(rows):
            end = (receipts or events)[-1].position
            if boundary is not None and end > boundary and self.mine.carried_run is None:
                self.carry(after)
            self.place = -1
            self.run(events, receipts)
            self.run_number += 1
            after = end
        if boundary is not None and self.mine.carried_run is None:
            self.carry(after)
        from ledger.domain.jackpot_pool import JackpotPool

        mine = self.mine
        mine.events, mine.notes, mine.unbound = self.found.events, self.found.notes, self.unbound
        mine.run_level = self.found.commands - mine.proved
        mine.seconds = time.process_time()
        if self.index == 0:
            mine.pools = {stream: aggregate for stream, aggregate in self.streams.streams.items()
                          if isinstance(aggregate, JackpotPool)}
        return mine

    def carry(self, after: int) -> None:
        self.mine.carried_run, self.mine.carried_after = self.run_number, after
        self.mine.carried_unbound = self.unbound
        if self.index == 0:
            self.mine.carried_streams = {
                stream: copy.deepcopy(aggregate)
                for stream, aggregate in self.streams.streams.items() if carries(aggregate)}

    def fail(self, subject: str, reason: str, *rows: Row) -> None:
        if not self.naming or (self.place < 0 and self.index != 0):
            return
        key = (self.run_number, self.place, len(self.mine.named))
        self.mine.named.append(_Named(key, subject, reason,
                                      [(row.stream_id, row.position) for row in rows]))

    def _command(self, receipt_row: Row, receipt: Any, rows: list[Row],
                 decoded: dict[int, Any]) -> None:
        self.place += 1
        ours = self.sequence % self.workers == self.index
        self.sequence += 1
        if ours:
            self.mine.proved += 1
            super()._command(receipt_row, receipt, rows, decoded)
        elif any(row.kind.startswith(REGISTRY_STREAMS) for row in rows):
            # whether the registry changes depends on the proof: every worker proves it
            commands, unbound, self.naming = self.found.commands, self.unbound, False
            try:
                super()._command(receipt_row, receipt, rows, decoded)
            finally:
                self.found.commands, self.unbound, self.naming = commands, unbound, True
        else:
            _apply_as_recorded(self.streams, rows, decoded)


def _apply_as_recorded(streams: Streams, rows: list[Row], decoded: dict[int, Any]) -> None:
    """Another worker's command, none of its events the registry's: proven or not, the
    single-process check applies them all as recorded (those that apply)."""
    for row in rows:
        event = decoded[row.position]
        if event is None:
            continue
        try:
            streams.apply(event)
        except Exception:  # noqa: BLE001, S112 - its owner names it
            continue
