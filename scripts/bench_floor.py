"""The whole path under load: the simulator's floor at 16 and 64 concurrent tables.

Every round goes through `Ledger.execute` exactly as a dealer terminal's commands do (signed
by the dealer at their terminal, verified and authorised by the door; load the streams, check
against the rules engine, append atomically with a receipt). The floor's staff and devices are
enrolled by the benchmark's administrator before the clock starts. Printed:
rounds/s and events/s recorded, p50/p99 latency per command, and, from the same run and the
same database server, the raw-append figure of plain psycopg INSERT + COMMIT at 16 writers.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import date

from bench_append import raw_path
from benchlib import console, signer, throwaway_database
from rich.table import Table

from ledger.bootstrap import open_ledger
from ledger.simulation.floor import floor_plan, run_floor


def measure_floor(settings, tables: int, rounds: int, seed: int) -> dict[str, float]:  # money-safe
    with open_ledger(settings) as rt:
        plan = floor_plan(tables)
        staff = signer(rt).floor_staff()
        staff.enrol(plan, rounds)  # run_floor enrols whoever is missing: no one, by then
        started = time.perf_counter()
        result = run_floor(rt.ledger, staff, plan, rounds=rounds, seed=seed,
                           day=date(2026, 11, 22))
        elapsed = time.perf_counter() - started
    if result.errors:
        raise SystemExit(f"the floor failed: {result.errors[0]}")
    latencies = sorted(x for t in result.tables.values() for x in t.latencies)
    played = sum(t.rounds + t.voids for t in result.tables.values())
    events = sum(t.events for t in result.tables.values())
    return {"tables": tables, "rounds": played, "events": events, "seconds": elapsed,
            "commands": len(latencies), "p50": statistics.median(latencies) * 1000,
            "p99": latencies[int(0.99 * (len(latencies) - 1))] * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=6, help="rounds per table")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    runs = []
    with throwaway_database("ledger_bench_floor") as (settings, database):
        raw = raw_path(database, 16, 500)
        console.print(f"[dim]raw append at 16 writers: {raw.rate:,.0f} events/s[/]")
        for tables in (16, 64):
            with throwaway_database(f"ledger_bench_floor_{tables}") as (floor_settings, _):
                runs.append(measure_floor(floor_settings, tables, args.rounds, args.seed))
                console.print(f"[dim]{tables} tables done[/]")
    table = Table(title="the floor through Ledger.execute")
    for column in ("tables", "rounds", "events", "rnd/s", "ev/s", "cmds", "p50 ms",
                   "p99 ms", "vs raw"):
        table.add_column(column, justify="right")
    for run in runs:
        rate = run["events"] / run["seconds"]
        table.add_row(str(run["tables"]), f"{run['rounds']:,}", f"{run['events']:,}",
                      f"{run['rounds'] / run['seconds']:,.1f}", f"{rate:,.0f}",
                      f"{run['commands']:,}", f"{run['p50']:.1f}", f"{run['p99']:.1f}",
                      f"{rate / raw.rate:.2f}x")
    console.print(table)
    console.print(f"raw psycopg INSERT+COMMIT, 16 writers, same server: {raw.rate:,.0f} events/s "
                  f"(p50 {raw.p50_ms:.2f} ms). 'vs raw' = the floor's events/s over that; "
                  "latencies are per command, as a terminal waits for it.")


if __name__ == "__main__":
    main()
