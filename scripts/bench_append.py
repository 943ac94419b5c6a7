"""Append throughput: the ledger's own path against plain psycopg INSERT + COMMIT.

Each writer is a thread with its own connection(s) and its own stream; every append is one
transaction holding one event, as a dealer's actions arrive. Four paths, same concurrency:
- raw: INSERT of the same JSON body into a plain table, then COMMIT (the floor);
- library: `Application.save` of one new event (table lock, hash-chain trigger, append-only
  triggers, JSON mapping): what the event store itself costs;
- signed: `Ledger.execute` of a real command signed by its dealer at their dealer terminal
  (the door verifies both signatures, looks the terminal and the dealer up in the registry and
  authorises; then load the stream, check, save the event with its idempotency receipt and the
  signed envelope): what a terminal sees;
- unsigned: the same commands, admitted by the door beforehand (untimed), through
  `Ledger.record(command, None)` alone: the command path without any verification.
Then the signature work alone, on one thread: signing a command as its dealer and terminal
(what the terminal does) and verifying its two signatures (what the door does). Last, the
round trips of each kind of command, one table of each game at a time (`bench_round_trips`).
"""

from __future__ import annotations

import argparse
import threading
import time
import uuid
from collections.abc import Callable
from decimal import Decimal

from bench_round_trips import print_round_trips, round_trips_by_kind
from benchlib import Measurement, Signer, console, print_table, signer, throwaway_database
from rich.table import Table as RichTable

from ledger.commands import Command
from ledger.commands.table import OpenTable, SignInDealer, SignOutDealer
from ledger.domain.base import Actor, Provenance, Role
from ledger.domain.registry import TerminalKind
from ledger.domain.table import Table
from ledger.identity.door import admit
from ledger.identity.envelope import SignedCommand
from ledger.identity.keys import verify
from ledger.runtime.bootstrap import open_ledger

BODY = (
    b'{"dealer_id":"D-101","by":{"command_id":"6f1c2c9e-6a52-4c55-9d4e-2b1f0d0b7a11",'
    b'"actor":{"staff_id":"D-101","role":"dealer"},"terminal":"bench","at":"2026-11-22T00:00:00Z"}}'
)
ACTOR = Actor(staff_id="bench", role=Role.DEALER)
PIT_BOSS, PIT_WORKSTATION = "PB-BENCH", "PIT-BENCH"
SIGNED, UNSIGNED = "signed command (execute)", "unsigned command (record)"


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


def writer_commands(signing: Signer, w: int, per_writer: int) -> list[SignedCommand]:
    """A table of this writer's own, opened by the pit boss at the pit workstation, and the
    dealer's signed sign-ins and sign-outs at it, alternating, signed at their terminal."""
    code = f"CMD-{w}-{uuid.uuid4().hex[:6]}"
    dealer = signing.staff(f"D-BENCH-{w}", Role.DEALER)
    terminal = signing.terminal(f"BENCH-DT-{w}", TerminalKind.DEALER_TERMINAL)
    signing.ledger.execute(signing.sign(
        OpenTable(table=code, game="baccarat", min_bet=Decimal(100), max_bet=Decimal(500)),
        staff=PIT_BOSS, terminal=PIT_WORKSTATION))
    kinds = (SignInDealer, SignOutDealer)
    return [signing.sign(kinds[n % 2](table=code, dealer_id=dealer), staff=dealer,
                         terminal=terminal) for n in range(per_writer)]


def signed_path(signing: Signer, writers: int, per_writer: int) -> Measurement:
    """Signed beforehand, as a terminal would; timed: `Ledger.execute` (door and record)."""
    def make(w: int) -> Callable[[], None]:
        commands, next_one = writer_commands(signing, w, per_writer), iter(range(per_writer))

        def execute() -> None:
            signing.ledger.execute(commands[next(next_one)])

        return execute

    return run_threads(writers, per_writer, make, SIGNED)


def unsigned_path(signing: Signer, writers: int, per_writer: int) -> Measurement:
    """The same commands admitted by the door beforehand; timed: `Ledger.record` alone."""
    ledger = signing.ledger

    def make(w: int) -> Callable[[], None]:
        admitted: list[Command] = [admit(signed, ledger.staff, ledger.terminal,
                                         ledger_id=ledger.ledger_id)
                                   for signed in writer_commands(signing, w, per_writer)]
        next_one = iter(range(per_writer))

        def record() -> None:
            ledger.record(admitted[next(next_one)], None)

        return record

    return run_threads(writers, per_writer, make, UNSIGNED)


def signature_work(signing: Signer, count: int) -> list[tuple[str, int, float]]:  # money-safe
    """(operation, how many, seconds in all) on one thread: signing a command as dealer and
    terminal; verifying its two signatures over `SignedCommand.message()`; and the whole door
    (`admit`: verification, registry look-ups, authorisation, validation) for comparison."""
    dealer, terminal = "D-BENCH-0", "BENCH-DT-0"
    commands = [SignInDealer(table="SIG-BENCH", dealer_id=dealer) for _ in range(count)]
    public = {"terminal": signing.keyring.credential("terminal", terminal).public_key,
              "staff": signing.keyring.credential("staff", dealer).public_key}
    started = time.perf_counter()
    signed = [signing.sign(command, staff=dealer, terminal=terminal) for command in commands]
    sign_seconds = time.perf_counter() - started
    started = time.perf_counter()
    for envelope in signed:
        message = envelope.message()
        for signature in envelope.signatures:
            if not verify(public[signature.signer], signature.value, message):
                raise SystemExit(f"a {signature.signer} signature did not verify")
    verify_seconds = time.perf_counter() - started
    ledger = signing.ledger
    started = time.perf_counter()
    for envelope in signed:
        admit(envelope, ledger.staff, ledger.terminal, ledger_id=ledger.ledger_id)
    admit_seconds = time.perf_counter() - started
    return [("sign (terminal + staff)", count, sign_seconds),
            ("verify (message + 2 signatures)", count, verify_seconds),
            ("door: admit (verify, registry, authorise)", count, admit_seconds)]


def print_signature_work(work: list[tuple[str, int, float]]) -> None:  # money-safe
    table = RichTable(title="signature work alone, one thread, per command")
    for column in ("operation", "commands", "ops/s", "µs each"):
        table.add_column(column, justify="left" if column == "operation" else "right")
    for name, count, seconds in work:
        table.add_row(name, f"{count:,}", f"{count / seconds:,.0f}",
                      f"{seconds / count * 1e6:,.1f}")
    console.print(table)


def datetime_now():
    from datetime import UTC, datetime

    return datetime.now(UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=4000, help="events per measurement")
    parser.add_argument("--signatures", type=int, default=4000,
                        help="commands signed and verified in the signature-work measurement")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds per game in the round-trip count")
    args = parser.parse_args()
    rows, baseline = [], {}
    signed_rows: dict[int, Measurement] = {}
    unsigned_rows: dict[int, Measurement] = {}
    with throwaway_database("ledger_bench_append") as (settings, database):
        with open_ledger(settings) as rt:
            signing = signer(rt)
            signing.staff(PIT_BOSS, Role.PIT_BOSS)
            signing.terminal(PIT_WORKSTATION, TerminalKind.PIT_WORKSTATION)
            for writers in (1, 16):
                per_writer = max(1, args.events // writers)
                raw = raw_path(database, writers, per_writer)
                baseline[writers] = raw
                signed = signed_rows[writers] = signed_path(signing, writers, per_writer)
                unsigned = unsigned_rows[writers] = unsigned_path(signing, writers, per_writer)
                rows += [raw, library_path(rt, writers, per_writer), signed, unsigned]
                console.print(f"[dim]{writers} writer(s) done[/]")
            work = signature_work(signing, args.signatures)
        with throwaway_database("ledger_bench_trips") as (trip_settings, _):
            trips = round_trips_by_kind(trip_settings, args.rounds)
    print_table("append: one event per transaction", rows, baseline,
                relative={SIGNED: unsigned_rows, UNSIGNED: unsigned_rows},
                relative_name="vs unsigned")
    console.print(
        "[dim]'vs raw' = events/s of the path ÷ events/s of plain INSERT+COMMIT at the same "
        "concurrency; 'vs unsigned' = ÷ events/s of the same commands recorded without the "
        "door. A command also writes its idempotency receipt (2 rows) and reads the stream "
        "first; a signed one's receipt also keeps the signed envelope, an unsigned one's none.[/]"
    )
    print_signature_work(work)
    verify_us = work[1][2] / work[1][1] * 1e6  # money-safe: microseconds
    admit_us = work[2][2] / work[2][1] * 1e6  # money-safe: microseconds
    for writers in sorted(signed_rows):
        signed_us = signed_rows[writers].p50_ms * 1000  # money-safe: microseconds
        gap_us = signed_us - unsigned_rows[writers].p50_ms * 1000  # money-safe: microseconds
        console.print(
            f"{writers} writer(s): verifying a command's 2 signatures costs {verify_us:,.0f} µs "
            f"= {verify_us / signed_us:.1%} of the signed execute's p50 latency "
            f"({signed_us:,.0f} µs); the whole door (admit) {admit_us:,.0f} µs = "
            f"{admit_us / signed_us:.1%}; measured p50 signed - unsigned: {gap_us:,.0f} µs "
            f"({gap_us / signed_us:.1%}).", highlight=False)
    print_round_trips(trips)


if __name__ == "__main__":
    main()
