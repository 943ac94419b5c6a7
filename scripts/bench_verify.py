"""`ledger verify`'s rate against a plain read of the same rows, same run.

Plays a floor (group commit, its tables and rounds as `bench-floor` plays them), then times
over its events: a plain psycopg read of every row in the global order (twice, the first to
warm the cache); the proof of every event by its signed command (each envelope's signatures
verified against the registry as it stood, the door run again, the command executed again and
compared with what was recorded); and the whole of `ledger verify` without the projections'
rebuild-and-compare (chains, seal, authorship, cross-stream checks, shoes, money, pools);
the last two again with the proof spread over `--workers` processes (`ledger verify --full
--workers N`), which must find what the single process finds. Prints events/s, CPU seconds
and each rate as a ratio to the plain read, and the speed-up of the workers over one process.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from bench_floor import measure_floor
from bench_projections import plain_read
from benchlib import console, throwaway_database
from rich.table import Table as RichTable

from ledger.audit.verification.authorship import check_authorship
from ledger.audit.verification.parallel import check_authorship_parallel
from ledger.audit.verification.verify import verify_ledger


def _timed(work: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _best(work: Any, runs: int) -> tuple[Any, float, float]:
    """The fastest of `runs` (the machine may be shared: the others only add waiting)."""
    return min((_timed(work) for _ in range(runs)), key=lambda timed: timed[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2,
                        help="the processes of the parallel proof, beside one")
    parser.add_argument("--runs", type=int, default=3, help="each timed this often, the "
                        "fastest kept")
    args = parser.parse_args()
    before = f"{os.getloadavg()[0]:.2f}"
    many = f"{args.workers} workers"
    with throwaway_database("ledger_bench_verify") as (settings, database):
        measure_floor(settings, args.tables, args.rounds, 7, True)
        plain_read(database, 5000)
        (rows, _), read_wall, read_cpu = _best(lambda: plain_read(database, 5000), args.runs)
        with database.connect(long=True) as conn:
            # first, as `ledger verify` meets it: the workers' server starts with the check,
            # loading the ledger's modules while the chains and the seal are checked
            first, first_wall, _ = _timed(
                lambda: verify_ledger(conn, projections=False, workers=args.workers))
            timed = {
                "proof, 1 process": _best(lambda: check_authorship(conn), args.runs),
                f"proof, {many}": _best(
                    lambda: check_authorship_parallel(conn, workers=args.workers), args.runs),
                "verify, 1 process": _best(lambda: verify_ledger(conn, projections=False),
                                           args.runs),
                f"verify, {many}": _best(
                    lambda: verify_ledger(conn, projections=False, workers=args.workers),
                    args.runs)}
    proved, spread = timed["proof, 1 process"][0], timed[f"proof, {many}"][0]
    assert not proved.failures and first.ok and timed["verify, 1 process"][0].ok
    assert (spread.commands, spread.failures) == (proved.commands, proved.failures)
    grid = RichTable(title=f"verify over a floor's {rows:,} events ({args.tables} tables, "
                           f"{args.rounds} rounds each; {proved.commands:,} commands), the "
                           f"fastest of {args.runs}")
    for column in ("path", "seconds", "CPU seconds", "events/s", "vs plain read"):
        grid.add_column(column, justify="left" if column == "path" else "right")
    read_rate = rows / read_wall
    names = {"proof": "every event proven by its signed command",
             "verify": "ledger verify, projections apart"}
    grid.add_row("plain psycopg read", f"{read_wall:.2f}", f"{read_cpu:.2f}",
                 f"{read_rate:,.0f}", "1.000x")
    for name, (found, wall, cpu) in timed.items():
        what, how = name.split(", ")
        if what == "proof" and how == many:
            cpu += sum(found.worker_seconds)
        rate = rows / wall
        grid.add_row(f"{names[what]}, {how}", f"{wall:.2f}", f"{cpu:.2f}", f"{rate:,.0f}",
                     f"{rate / read_rate:.3f}x")
    console.print(grid)
    wall = {name: timed[name][1] for name in timed}
    console.print(
        f"{many} against 1: the proof {wall['proof, 1 process'] / wall[f'proof, {many}']:.2f}x "
        f"as fast, the whole verify "
        f"{wall['verify, 1 process'] / wall[f'verify, {many}']:.2f}x; the first verify over "
        f"workers, their server started with it: {first_wall:.2f} s. CPU seconds: the proof "
        "over workers counts the parent and its workers ("
        + ", ".join(f"{s:.2f}" for s in spread.worker_seconds) + " s each); the whole "
        "verify over workers, the parent's only")
    console.print(f"load average before and after: {before} / {os.getloadavg()[0]:.2f} "
                  f"({os.cpu_count()} cores)")

if __name__ == "__main__":
    main()
