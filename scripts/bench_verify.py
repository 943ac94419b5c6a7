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
import time
from typing import Any

from bench_floor import measure_floor
from bench_projections import plain_read
from benchlib import console, throwaway_database
from rich.table import Table as RichTable

from ledger.audit.authorship import check_authorship
from ledger.audit.parallel import check_authorship_parallel
from ledger.audit.verify import verify_ledger


def _timed(work: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2,
                        help="the processes of the parallel proof, beside one")
    args = parser.parse_args()
    with throwaway_database("ledger_bench_verify") as (settings, database):
        measure_floor(settings, args.tables, args.rounds, 7, True)
        plain_read(database, 5000)
        (rows, _), read_wall, read_cpu = _timed(lambda: plain_read(database, 5000))
        with database.connect(long=True) as conn:
            proved, proof_wall, proof_cpu = _timed(lambda: check_authorship(conn))
            spread, spread_wall, spread_cpu = _timed(
                lambda: check_authorship_parallel(conn, workers=args.workers))
            report, whole_wall, whole_cpu = _timed(
                lambda: verify_ledger(conn, projections=False))
            spread_report, spread_whole_wall, spread_whole_cpu = _timed(
                lambda: verify_ledger(conn, projections=False, workers=args.workers))
    assert not proved.failures and report.ok, (proved.failures[:3], report.failures[:3])
    assert (spread.commands, spread.failures) == (proved.commands, proved.failures)
    assert spread_report.ok
    grid = RichTable(title=f"verify over a floor's {rows:,} events ({args.tables} tables, "
                           f"{args.rounds} rounds each; {proved.commands:,} commands)")
    for column in ("path", "seconds", "CPU seconds", "events/s", "vs plain read"):
        grid.add_column(column, justify="left" if column == "path" else "right")
    read_rate = rows / read_wall
    many = f"{args.workers} workers"
    for name, wall, cpu in (
            ("plain psycopg read", read_wall, read_cpu),
            ("every event proven by its signed command, 1 process", proof_wall, proof_cpu),
            (f"every event proven by its signed command, {many}", spread_wall, spread_cpu),
            ("ledger verify, projections apart, 1 process", whole_wall, whole_cpu),
            (f"ledger verify, projections apart, {many}", spread_whole_wall, spread_whole_cpu)):
        rate = rows / wall
        grid.add_row(name, f"{wall:.2f}", f"{cpu:.2f}", f"{rate:,.0f}",
                     f"{rate / read_rate:.3f}x")
    console.print(grid)
    console.print(f"{many} against 1: the proof {proof_wall / spread_wall:.2f}x as fast, "
                  f"the whole verify {whole_wall / spread_whole_wall:.2f}x (CPU seconds are "
                  "the parent's only: the workers' are not counted)")


if __name__ == "__main__":
    main()
