"""A day's `ledger verify` after a long history, against the same day's on an empty ledger.

Two throw-away ledgers play the same day (the same floor, the same seed): one after `--days`
days of history, one fresh (its floor's staff enrolled, nothing played). Each is sealed, its
trust file written, and verified once in full with the verifier's key (the record), then plays
the day, is sealed again and verified (three times, the record put back each time; the
medians): that verification resumes from the record and checks only the day. Prints each ledger's events, the day's verification (wall and CPU seconds,
events/s) and the ratio of the two: it should stay near 1 however long the history, where the
full verification grows with it (its time over the history is printed too)."""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from contextlib import ExitStack
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from benchlib import console, signer, throwaway_database
from rich.table import Table

from ledger.audit.log.trust import trust_of, write_trust
from ledger.audit.seal.sealer import Cadence, Sealer
from ledger.audit.verification.incremental import Verification, verify
from ledger.identity.keys import Credential
from ledger.runtime.bootstrap import open_ledger
from ledger.simulation.floor import floor_plan, run_floor

FIRST_DAY = date(2026, 1, 5)


def _timed(work: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _events(database: Any) -> int:
    with database.connect() as conn:
        return int(conn.execute("SELECT count(*) FROM ledger_events").fetchone()[0])


def measure(days: int, tables: int, rounds: int, folder: Path, sample: int = 200,
            repeats: int = 3) -> dict[str, Any]:
    """One ledger with `days` days of history, then the day: the day's verification."""
    name = f"ledger_bench_incremental_{days}"
    with throwaway_database(name) as (settings, database), ExitStack() as stack:
        plan = floor_plan(tables, ("baccarat", "stud-poker", "q-poker", "fortune-8"))
        rt = stack.enter_context(open_ledger(settings))
        staff = signer(rt).floor_staff()  # one floor staff: the keys it registered are its own
        staff.enrol(plan, rounds)  # before the record, in both: the day is the same work
        for day in range(days):
            run_floor(rt.ledger, staff, plan, rounds=rounds, seed=100 + day,
                      day=FIRST_DAY + timedelta(days=day), play_seconds=60)
        seal = Credential.generate("seal", "SEAL-BENCH")
        verifier = Credential.generate("verifier", "V-BENCH")
        trust_path = folder / f"trust-{days}.json"
        sealer = Sealer(database, seal, folder / "witness", Cadence(every_events=10_000))

        def sealed() -> None:
            with database.connect() as conn:
                sealer.catch_up(conn, checkpoint_at_end=True)

        def verified() -> Verification:
            with database.connect(long=True) as conn:
                done = verify(conn, trust=_trust, trust_path=trust_path, verifier=verifier,
                              witness_root=folder / "witness", projections=False,
                              sample=sample)
            assert done.report.ok, [str(f) for f in done.report.failures[:3]]
            return done

        sealed()
        with database.connect() as conn:
            _trust = trust_of(conn, seal.public_key, [])
        write_trust(trust_path, _trust)
        history = _events(database)
        _, full_wall, _ = _timed(verified)
        run_floor(rt.ledger, staff, plan, rounds=rounds, seed=7,
                  day=FIRST_DAY + timedelta(days=days), play_seconds=60)
        sealed()
        record = trust_path.with_name(trust_path.stem + ".verified.json")
        kept = record.read_bytes()
        walls, cpus = [], []
        for _ in range(repeats):  # the record put back each time: the same day verified again
            record.write_bytes(kept)
            done, wall, cpu = _timed(verified)
            assert done.since is not None, done.notes
            walls.append(wall)
            cpus.append(cpu)
        return {"days": days, "history": history, "day": _events(database) - history,
                "full": full_wall, "wall": statistics.median(walls),
                "cpu": statistics.median(cpus)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=10, help="days of history before the day")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=12, help="rounds a table a day")
    parser.add_argument("--sample", type=int, default=200,
                        help="events of the verified history proven again (verify's --sample)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ledger-bench-incremental-") as folder:
        empty = measure(0, args.tables, args.rounds, Path(folder), args.sample)
        long = measure(args.days, args.tables, args.rounds, Path(folder), args.sample)
    grid = Table(title=f"a day's verify ({args.tables} tables, {args.rounds} rounds each) after "
                       f"{args.days} days of history, against the same day on an empty ledger; "
                       f"{args.sample} events of the history drawn and proven again")
    for column in ("ledger", "events before the day", "the day's events",
                   "full verify of the history (s)", "the day's verify (s)", "CPU (s)",
                   "events/s", "vs the empty ledger"):
        grid.add_column(column, justify="left" if column == "ledger" else "right")
    for label, row in (("empty", empty), (f"{args.days} days", long)):
        grid.add_row(label, f"{row['history']:,}", f"{row['day']:,}", f"{row['full']:.2f}",
                     f"{row['wall']:.2f}", f"{row['cpu']:.2f}",
                     f"{row['day'] / row['wall']:,.0f}", f"{row['wall'] / empty['wall']:.2f}x")
    console.print(grid)


if __name__ == "__main__":
    main()
