"""Append throughput: the ledger's own path against plain psycopg INSERT + COMMIT.

Each writer is a thread with its own connection(s) and its own stream; every append is one
transaction holding one event, as a dealer's actions arrive. Three paths, same concurrency:
- raw: INSERT of the same JSON body into a plain table, then COMMIT (the floor);
- library: `Application.save` of one new event (table lock, hash-chain trigger, append-only
  triggers, JSON mapping): what the event store itself costs;
- command: `Ledger.execute` of a real command (load the stream, check, save the event with its
  idempotency receipt): what a terminal sees.
"""

from __future__ import annotations

import argparse
import threading
import time
import uuid
from collections.abc import Callable

from benchlib import Measurement, console, print_table, throwaway_database

from ledger.bootstrap import open_ledger
from ledger.commands import OpenTable, SignInDealer, SignOutDealer
from ledger.domain.base import Actor, Provenance, Role
from ledger.domain.table import Table
from decimal import Decimal

BODY = (
    b'{"dealer_id":"D-101","by":{"command_id":"6f1c2c9e-6a52-4c55-9d4e-2b1f0d0b7a11",'
    b'"actor":{"staff_id":"D-101","role":"dealer"},"terminal":"bench","at":"2026-11-22T00:00:00Z"}}'
)
ACTOR = Actor(staff_id="bench", role=Role.DEALER)


def run_threads(writers: int, per_writer: int, make_worker: Callable[[int], Callable[[], None]],
                label: str) -> Measurement:
    latencies: list[list[float]] = [[] for _ in range(writers)]
    workers = [make_worker(w) for w in range(writers)]
    barrier = threading.Barrier(writers + 1)

    def loop(w: int) -> None:
        barrier.wait()
        for _ in range(per_writer):
            started = time.perf_counter()
            workers[w]()
            latencies[w].append(time.perf_counter() - started)

    threads = [threading.Thread(target=loop, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    barrier.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    flat = [x for xs in latencies for x in xs]
    return Measurement(label, writers, len(flat), elapsed, flat)


def raw_path(database, writers: int, per_writer: int) -> Measurement:
    with database.connect() as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_raw (stream uuid, version bigint, topic text, "
            "state bytea, PRIMARY KEY (stream, version))"
        )
    connections = [database.connect(autocommit=False) for _ in range(writers)]

    def make(w: int) -> Callable[[], None]:
        conn, stream, version = connections[w], uuid.uuid4(), [0]

        def insert() -> None:
            version[0] += 1
            conn.execute(
                "INSERT INTO bench_raw VALUES (%s, %s, %s, %s)",
                (stream, version[0], "bench:Raw", BODY),
            )
            conn.commit()

        return insert

    try:
        return run_threads(writers, per_writer, make, "raw psycopg INSERT+COMMIT")
    finally:
        for conn in connections:
            conn.close()


def library_path(rt, writers: int, per_writer: int) -> Measurement:
    def make(w: int) -> Callable[[], None]:
        by = Provenance(command_id=uuid.uuid4(), actor=ACTOR, terminal="bench",
                        at=datetime_now())
        table = Table(code=f"LIB-{w}-{uuid.uuid4().hex[:6]}", game="baccarat",
                      rule_set="baccarat/2004", min_bet=Decimal("100.00"),
                      max_bet=Decimal("500.00"), pit="bench", settings={}, by=by)
        rt.ledger.app.save(table)
        flip = [False]

        def append() -> None:
            if flip[0]:
                table.sign_out(dealer_id="D-101", by=by)
            else:
                table.sign_in(dealer_id="D-101", by=by)
            flip[0] = not flip[0]
            rt.ledger.app.save(table)

        return append

    return run_threads(writers, per_writer, make, "ledger event store (app.save)")


def command_path(rt, writers: int, per_writer: int) -> Measurement:
    def make(w: int) -> Callable[[], None]:
        code = f"CMD-{w}-{uuid.uuid4().hex[:6]}"
        rt.ledger.execute(OpenTable(table=code, game="baccarat", min_bet=Decimal("100"),
                                    max_bet=Decimal("500"), actor=ACTOR, terminal="bench"))
        flip = [False]

        def execute() -> None:
            kind = SignOutDealer if flip[0] else SignInDealer
            rt.ledger.execute(kind(table=code, dealer_id="D-101", actor=ACTOR, terminal="bench"))
            flip[0] = not flip[0]

        return execute

    return run_threads(writers, per_writer, make, "ledger command (execute)")


def datetime_now():
    from datetime import UTC, datetime

    return datetime.now(UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=4000, help="events per measurement")
    args = parser.parse_args()
    rows, baseline = [], {}
    with throwaway_database("ledger_bench_append") as (settings, database):
        with open_ledger(settings) as rt:
            for writers in (1, 16):
                per_writer = max(1, args.events // writers)
                raw = raw_path(database, writers, per_writer)
                baseline[writers] = raw
                rows += [raw, library_path(rt, writers, per_writer),
                         command_path(rt, writers, per_writer)]
                console.print(f"[dim]{writers} writer(s) done[/]")
    print_table("append: one event per transaction", rows, baseline)
    console.print(
        "[dim]'vs raw' = events/s of the path ÷ events/s of plain INSERT+COMMIT at the same "
        "concurrency. A command also writes its idempotency receipt (2 rows) and reads the "
        "stream first.[/]"
    )


if __name__ == "__main__":
    main()
