"""Report cost against history size: the shift report reads the projection, not the events.

Fills a throw-away ledger with synthetic shifts (tables opened, shifts opened and closed with
fills and drops, rounds settled bet by bet) written straight into `ledger_events` as the
application would write them (the chain trigger hashes each row), for a short and a long
history; brings the `shift_report` projection up to date; then times the report of one shift
(the same size in both runs). A report that read the events would grow with the history; this
one should not.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from random import Random

from benchlib import console, throwaway_database
from rich.table import Table

from ledger.domain.round import round_id
from ledger.domain.shift import shift_id
from ledger.domain.table import table_id
from projections.engine.runner import ProjectionRunner
from projections.shifts.read import shift_report
from projections.shifts.report import ShiftReport

TABLES = [f"BAC-{n:02d}" for n in range(1, 13)]
SHIFTS = ("day", "swing", "graveyard")
BY = {"command_id": str(uuid.UUID(int=0)), "actor": {"staff_id": "bench", "role": "system"},
      "terminal": "bench", "at": "2026-01-01T00:00:00Z"}


def _row(stream: uuid.UUID, version: int, kind: str, body: dict) -> tuple:
    envelope = {"originator_id": str(stream), "originator_version": version,
                "timestamp": datetime.now(UTC).isoformat(), "by": BY}
    return (stream, version, f"bench:{kind}", json.dumps({**envelope, **body}).encode())


def synthetic_day(day: date, rounds: int, rng: Random, versions: dict) -> list[tuple]:
    rows = []
    for code in TABLES:
        table = table_id(code)
        for shift in SHIFTS:
            sid = shift_id(code, day, shift)
            rows.append(_row(sid, 1, "Shift.Opened", {"code": code, "gaming_day": str(day),
                        "shift": shift, "total": "50000.00", "dealer_id": "D-1"}))
            for _ in range(rounds):
                versions[table] += 1
                rid = round_id(table, versions[table])
                rows.append(_row(rid, 1, "Round.Opened", {"table": code}))
                for n, spot in enumerate(("banker", "player"), start=2):
                    stake = Decimal(rng.choice((100, 200, 500, 1000)))
                    won = rng.random() < 0.45
                    bet = {"box": n, "spot": spot, "stake": str(stake), "outcome":
                           "won" if won else "lost", "returned": str(stake if won else 0),
                           "payout": str(stake if won else 0), "commission": "0.00"}
                    rows.append(_row(rid, n, "Round.BetSettled", {"bet": bet}))
                rows.append(_row(rid, 4, "Round.Settled", {}))
            rows.append(_row(sid, 2, "Shift.FillRecorded", {"slip": 1, "amount": "10000.00"}))
            rows.append(_row(sid, 3, "Shift.DropEntered", {"cash": "8000.00", "markers": "0.00"}))
            rows.append(_row(sid, 4, "Shift.Closed", {"total": "52000.00"}))
    return rows


def fill(database, days: int, rounds: int) -> int:
    rng, versions, count = Random(7), {table_id(c): 0 for c in TABLES}, 0
    with database.connect(autocommit=False) as conn:
        for code in TABLES:
            conn.execute("INSERT INTO ledger_events (originator_id, originator_version, topic, "
                         "state) VALUES (%s, %s, %s, %s)",
                         _row(table_id(code), 1, "Table.Opened",
                              {"code": code, "game": "baccarat", "pit": "A"}))
        for offset in range(days):
            rows = synthetic_day(date(2026, 1, 1) + timedelta(days=offset), rounds, rng, versions)
            with conn.cursor() as cursor:
                cursor.executemany("INSERT INTO ledger_events (originator_id, originator_version, "
                                   "topic, state) VALUES (%s, %s, %s, %s)", rows)
            count += len(rows)
            conn.commit()
    return count + len(TABLES)


def measure(days: int, rounds: int, repeats: int) -> tuple[int, float, float]:  # money-safe
    with throwaway_database("ledger_bench_reports") as (_, database):
        events = fill(database, days, rounds)
        with ProjectionRunner(database, [ShiftReport]) as runner:
            runner.catch_up()
        with database.connect() as conn:
            timings = []
            for _ in range(repeats):
                started = time.perf_counter()
                report = shift_report(conn, date(2026, 1, 1), "day")
                timings.append(time.perf_counter() - started)
        assert len(report.tables) == len(TABLES)
        return events, statistics.median(timings) * 1000, min(timings) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--short", type=int, default=2, help="days of history, short run")
    parser.add_argument("--long", type=int, default=40, help="days of history, long run")
    parser.add_argument("--rounds", type=int, default=20, help="rounds per table per shift")
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    results = [(days, *measure(days, args.rounds, args.repeats)) for days in (args.short, args.long)]
    table = Table(title="shift report of one shift (12 tables) against history size")
    for column in ("days of history", "events", "report p50 ms", "report min ms"):
        table.add_column(column, justify="right")
    for days, events, p50, best in results:
        table.add_row(str(days), f"{events:,}", f"{p50:.2f}", f"{best:.2f}")
    console.print(table)
    (_, small, p50_small, _), (_, large, p50_large, _) = results
    console.print(f"history grew {large / small:.1f}x; report time changed "
                  f"{p50_large / p50_small:.2f}x")


if __name__ == "__main__":
    main()
