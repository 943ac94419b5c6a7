"""`ledger verify`'s rate against a plain read of the same rows, same run.

Plays a floor (group commit, its tables and rounds as `bench-floor` plays them), then times
over its events: a plain psycopg read of every row in the global order (twice, the first to
warm the cache); the proof of every event by its signed command (each envelope's signatures
verified against the registry as it stood, the door run again, the command executed again and
compared with what was recorded); and the whole of `ledger verify` without the projections'
rebuild-and-compare (chains, seal, authorship, cross-stream checks, shoes, money, pools).
Prints events/s, CPU seconds and each rate as a ratio to the plain read.
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
from ledger.audit.verify import verify_ledger


def _timed(work: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with throwaway_database("ledger_bench_verify") as (settings, database):
        measure_floor(settings, args.tables, args.rounds, 7, True)
        plain_read(database, 5000)
        (rows, _), read_wall, read_cpu = _timed(lambda: plain_read(database, 5000))
        with database.connect(long=True) as conn:
            proved, proof_wall, proof_cpu = _timed(lambda: check_authorship(conn))
            report, whole_wall, whole_cpu = _timed(
                lambda: verify_ledger(conn, projections=False))
    assert not proved.failures and report.ok, (proved.failures[:3], report.failures[:3])
    grid = RichTable(title=f"verify over a floor's {rows:,} events ({args.tables} tables, "
                           f"{args.rounds} rounds each; {proved.commands:,} commands)")
    for column in ("path", "seconds", "CPU seconds", "events/s", "vs plain read"):
        grid.add_column(column, justify="left" if column == "path" else "right")
    read_rate = rows / read_wall
    for name, wall, cpu in (("plain psycopg read", read_wall, read_cpu),
                            ("every event proven by its signed command", proof_wall, proof_cpu),
                            ("ledger verify, projections apart", whole_wall, whole_cpu)):
        rate = rows / wall
        grid.add_row(name, f"{wall:.2f}", f"{cpu:.2f}", f"{rate:,.0f}",
                     f"{rate / read_rate:.3f}x")
    console.print(grid)


if __name__ == "__main__":
    main()
