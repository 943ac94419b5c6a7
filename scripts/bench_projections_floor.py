"""Every projection's catch-up over a simulated floor's own events, against a plain read of them.

The million-event store of `bench_projections` holds Table events and receipts only, which
table state folds set-based. A floor's events are mostly rounds and shoes (cards dealt and
drawn, bets placed and settled): this plays one (64 tables, group commit), then catches each
projection up from position 0 over those events, in the runner's batches, and prints its rate
beside a plain read of the same rows in the same run.
"""

from __future__ import annotations

import time
from typing import Any

from bench_floor import measure_floor
from bench_projections import plain_read
from benchlib import console, throwaway_database
from rich.table import Table as RichTable

from projections.engine.runner import DEFAULT_BATCH_SIZE, ProjectionRunner
from projections.registry import PROJECTIONS

TABLES = 64


def floor_catch_up(rounds: int, seed: int = 7) -> dict[str, Any]:
    with throwaway_database("ledger_bench_proj_floor") as (settings, database):
        measure_floor(settings, TABLES, rounds, seed, True)
        with database.connect() as conn:  # from position 0: the floor's runner never ran
            for projection in PROJECTIONS:
                projection().drop_tables(conn)
            conn.execute("DELETE FROM ledger_tracking")
            mix = conn.execute(
                "SELECT split_part(topic, ':', 2), count(*) FROM ledger_events "
                "GROUP BY 1 ORDER BY 2 DESC LIMIT 5").fetchall()
            conn.execute("VACUUM (ANALYZE) ledger_events")
        plain_read(database, DEFAULT_BATCH_SIZE)  # warm the cache for all
        read = plain_read(database, DEFAULT_BATCH_SIZE)
        caught = {}
        for projection in PROJECTIONS:
            started = time.perf_counter()
            with ProjectionRunner(database, [projection]) as runner:
                events = runner.catch_up()
            caught[projection.name] = (events, time.perf_counter() - started)
    return {"read": read, "caught": caught, "mix": mix}


def report(result: dict[str, Any], rounds: int) -> None:
    rows, seconds = result["read"]
    read_rate = rows / seconds
    grid = RichTable(title=f"catch-up over a floor's {rows:,} events ({TABLES} tables, "
                           f"{rounds} rounds each), batches of {DEFAULT_BATCH_SIZE:,}")
    for column in ("path", "events", "seconds", "events/s", "vs plain read"):
        grid.add_column(column, justify="left" if column == "path" else "right")
    grid.add_row("plain psycopg read", f"{rows:,}", f"{seconds:.2f}", f"{read_rate:,.0f}",
                 "1.00x")
    for name, (events, taken) in result["caught"].items():
        rate = events / taken
        grid.add_row(name, f"{events:,}", f"{taken:.2f}", f"{rate:,.0f}",
                     f"{rate / read_rate:.2f}x")
    console.print(grid)
    console.print("[dim]the floor's commonest events: " + ", ".join(
        f"{kind} {count:,}" for kind, count in result["mix"]) + "[/]")
