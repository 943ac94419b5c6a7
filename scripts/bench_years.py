"""A ledger of many gaming days, its closed ranges archived, and what a property asks of it then.

Plays `--days` gaming days from `--first-day` (the simulator's floor, every command signed, in
the ledger's process), in partitions of `--partition-events` positions; seals it and writes its
trust file; archives every closed, sealed range to an archive database on the same server
(`ledger archive`'s path, retention 0: the simulated days are recorded today); then measures,
in the same run:

- the oldest round replayed once archived (its events read from the archive through the
  primary) against the same round replayed on the primary before, and the readable log of its
  stream (what `recall` and `events show` read): milliseconds, medians, and the ratio;
- `verify --full` (no projections) against a plain read of the same rows, archived and not;
- bytes per event on the primary (its partitions, TOAST and indexes) and in the archive.

The issue's scale is ten million events; this machine plays about 1,500 events a second in
process, so the days given set the size (the figures in the docs say how many were played).
Needs `postgres_fdw` on the server (not the embedded one).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from contextlib import ExitStack
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench_projections import plain_read
from benchlib import console, signer, throwaway_database
from rich.table import Table

from ledger.audit.log.trust import trust_of, write_trust
from ledger.audit.replay.round import Verdict, replay_round
from ledger.audit.seal.sealer import Cadence, Sealer
from ledger.audit.verification.archiving import plan
from ledger.audit.verification.incremental import verify
from ledger.identity.keys import Credential
from ledger.infrastructure import partitions
from ledger.infrastructure.archive import copy_out, swap_in
from ledger.infrastructure.event_log import events_of
from ledger.runtime.bootstrap import init_database, open_ledger
from ledger.simulation.floor import floor_plan, run_floor


def _median_ms(work: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def _round(conn: Any, newest: bool) -> Any:
    order = "DESC" if newest else "ASC"
    row = conn.execute("SELECT originator_id FROM ledger_events WHERE topic LIKE "
                       "'%:Round.Settled' ORDER BY notification_id " + order + " LIMIT 1"
                       ).fetchone()
    return row[0]


def _bytes(conn: Any, where: str) -> int:
    row = conn.execute(where).fetchone()
    return int(row[0] or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=8)
    parser.add_argument("--first-day", type=date.fromisoformat, default=date(2026, 1, 28))
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=12, help="rounds a table a day")
    parser.add_argument("--partition-events", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ledger-bench-years-") as folder_name, \
            throwaway_database("ledger_bench_years", partition_events=args.partition_events) \
            as (settings, database), \
            throwaway_database("ledger_bench_archive") as (_, archive), ExitStack() as stack:
        folder = Path(folder_name)
        games = ("baccarat", "stud-poker", "q-poker", "fortune-8")
        floor = floor_plan(args.tables, games)
        rt = stack.enter_context(open_ledger(settings))
        staff = signer(rt).floor_staff()
        staff.enrol(floor, args.rounds)
        started = time.perf_counter()
        for day in range(args.days):
            run_floor(rt.ledger, staff, floor, rounds=args.rounds, seed=300 + day,
                      day=args.first_day + timedelta(days=day), play_seconds=60)
        played = time.perf_counter() - started
        init_database(settings, database)  # the default partition's rows given their range
        seal = Credential.generate("seal", "SEAL-BENCH")
        witness = folder / "witness"
        with database.connect() as conn:
            Sealer(database, seal, witness, Cadence(every_events=10_000)).catch_up(
                conn, checkpoint_at_end=True)
            trust = trust_of(conn, seal.public_key, [])
            ledger_id = str(trust.ledger)
            events = int(conn.execute("SELECT count(*) FROM ledger_events").fetchone()[0])
        trust_path = folder / "trust.json"
        write_trust(trust_path, trust)
        last_day = date.today()  # the simulated days are recorded now: every closed range
        with database.connect() as conn:
            oldest = _round(conn, newest=False)
        here = _measured(database, oldest, trust, trust_path, witness, args.runs)
        with database.connect() as conn:
            chosen = plan(conn, "ledger_events", trust, witness / ledger_id, through=last_day,
                          keep_days=0, today=date.today())
            with archive.connect() as target:
                for piece in chosen.ranges:
                    copy_out(conn, target, ledger_id, piece)
                    with conn.transaction():
                        swap_in(conn, "ledger_events", archive.url, ledger_id, piece)
            layout = partitions.layout(conn, "ledger_events")
        moved = sum(piece.rows for piece in chosen.ranges)
        there = _measured(database, oldest, trust, trust_path, witness, args.runs)
        with archive.connect() as target:
            there["bytes"] = _bytes(
                target, "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN "
                "pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND "
                f"n.nspname = '{'ledger_' + ledger_id.replace('-', '_')}'") / max(moved, 1)
    grid = Table(title=f"{events:,} events ({args.days} days from {args.first_day}, "
                       f"{args.tables} tables, {args.rounds} rounds each, played in "
                       f"{played:.0f} s); {moved:,} of them archived in {layout['archived']} "
                       f"ranges, {layout['on_primary']} range(s) left on the primary")
    for column in ("measure", "on the primary", "archived, read through it", "ratio"):
        grid.add_column(column, justify="left" if column == "measure" else "right")
    for label, key, form in (("the oldest round replayed (ms, median)", "replay", ".1f"),
                             ("its stream's readable log (ms, median)", "log", ".2f"),
                             ("plain read of every row (events/s)", "read", ",.0f"),
                             ("verify --full, no projections (events/s)", "verify", ",.0f"),
                             ("bytes an event (table, TOAST, indexes)", "bytes", ",.0f")):
        grid.add_row(label, format(here[key], form), format(there[key], form),
                     f"{there[key] / here[key]:.2f}x")
    console.print(grid)
    for label, figures in (("on the primary", here), ("archived", there)):
        console.print(f"verify --full {label}: {figures['verify'] / figures['read']:.3f}x the "
                      "plain read of the same rows")


def _measured(database: Any, oldest: Any, trust: Any, trust_path: Path, witness: Path,
              runs: int) -> dict[str, float]:
    """The oldest round's replay and log, a plain read and verify --full, bytes an event on
    the primary's own partitions."""
    with database.connect() as conn:
        assert replay_round(conn, oldest).check.verdict == Verdict.MATCH, oldest
        figures = {"replay": _median_ms(lambda: replay_round(conn, oldest), runs),
                   "log": _median_ms(lambda: events_of(conn, oldest), runs)}
        local = _bytes(conn, "SELECT sum(pg_total_relation_size(relid)) FROM "
                       "pg_partition_tree('ledger_events') t JOIN pg_class c ON c.oid = "
                       "t.relid WHERE t.isleaf AND c.relkind = 'r'")
        events = _bytes(conn, "SELECT count(*) FROM ledger_events")
    figures["bytes"] = local / events
    plain_read(database, 5000)
    started = time.perf_counter()
    rows, _ = plain_read(database, 5000)
    figures["read"] = rows / (time.perf_counter() - started)
    with database.connect(long=True) as conn:
        started = time.perf_counter()
        done = verify(conn, trust=trust, trust_path=trust_path, verifier=None, full=True,
                      witness_root=witness, projections=False)
        figures["verify"] = events / (time.perf_counter() - started)
    assert done.report.ok, [str(f) for f in done.report.failures[:3]]
    return figures

if __name__ == "__main__":
    main()
