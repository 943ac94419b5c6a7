"""The whole path under load: the simulator's floor at 16 and 64 concurrent tables.

Every round goes through `Ledger.execute` exactly as a dealer terminal's commands do (signed
by the dealer at their terminal, verified and authorised by the door; load the streams, check
against the rules engine, append atomically with a receipt). The floor's staff and devices are
enrolled by the benchmark's administrator before the clock starts. Printed:
rounds/s and events/s recorded, p50/p99 latency per command, and, from the same run and the
same database server, the raw-append figure of plain psycopg INSERT + COMMIT at 16 writers,
measured before and after the floors (the ratios are to the mean of the two: this machine's
speed drifts within minutes).

The group-commit floor's signed commands are then sent again, each table's in order, on a
fresh database ('terminals replayed'): the ledger's own work without the simulated terminals'.

Then the floor at a realistic rate: 64 tables, each terminal sending its next command 2 to 5
seconds after the last (about 15-40 commands/s in all), one round per table; p50 and p99 per
command as a terminal waits for it (the pause is not timed). Its tables play baccarat, Q Poker
and Fortune 8: the simulator's Stud Poker tables take turns on their shared pool, which would
leave most of them idle and the floor far below a real one's rate.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

from bench_append import raw_path
from benchlib import BENCH_ADMIN, BENCH_CONSOLE, console, signer, throwaway_database
from rich.table import Table

from ledger.application.administration import Administrator
from ledger.runtime.bootstrap import open_ledger, resolve_database
from ledger.simulation.floor import floor_plan, run_floor
from ledger.simulation.staffing import FloorStaff


def saturated_rate(answers: list[tuple[float, int]]) -> float:
    """Events/s over the middle half of the run's commands, by when each was answered: the
    floor saturated, every table playing (the whole run's rate also counts the supervisor's
    set-up, one command at a time, and the tail, as the last tables finish alone)."""
    answers = sorted(answers)
    quarter, three_quarters = len(answers) // 4, 3 * len(answers) // 4
    events = sum(n for _, n in answers[quarter + 1:three_quarters + 1])
    return events / max(answers[three_quarters][0] - answers[quarter][0], 1e-9)


class Script:
    """The ledger behind the simulated floor, keeping every signed command as it was sent, by
    the thread (the table) that sent it: the floor's terminals, to be played again."""

    def __init__(self, ledger: Any) -> None:
        self.inner = ledger
        self.sent: dict[str, list[Any]] = defaultdict(list)
        self.events: dict[str, int] = defaultdict(int)
        self.pooled: list[tuple[str, int]] = []
        """The commands that may touch a shared pool (a round settled or voided), as (table,
        its place in the table's commands), in the order the floor recorded them."""
        self.rounds = 0
        self.keyring: Any = None  # the floor's keys: the same people sign again
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def execute(self, signed: Any) -> Any:
        recorded = self.inner.execute(signed)
        name = threading.current_thread().name
        with self._lock:
            if signed.name in POOLED:
                self.pooled.append((name, len(self.sent[name])))
            self.sent[name].append(signed)
            self.events[name] += len(recorded.events)
        return recorded


POOLED = frozenset({"settle_round", "record_irregularity"})


class InOrder:
    """Lets the listed commands (table, place) pass in the listed order, any other at once; a
    failed table lets every waiting one through rather than hang the floor."""

    def __init__(self, order: list[tuple[str, int]]) -> None:
        self.rank = {entry: n for n, entry in enumerate(order)}
        self.next = 0
        self.condition = threading.Condition()

    @contextmanager
    def turn(self, entry: tuple[str, int]) -> Iterator[None]:
        rank = self.rank.get(entry)
        if rank is None:
            yield
            return
        with self.condition:
            self.condition.wait_for(lambda: self.next >= rank)
        try:
            yield
        finally:
            with self.condition:
                self.next = max(self.next, rank + 1)
                self.condition.notify_all()

    def abandon(self) -> None:
        with self.condition:
            self.next = len(self.rank)
            self.condition.notify_all()


def measure_floor(settings, tables: int, rounds: int, seed: int,
                  group: bool, script: Script | None = None) -> dict[str, Any]:
    settings = settings.model_copy(update={"group_commit": group})
    with open_ledger(settings) as rt:
        plan = floor_plan(tables)
        staff = signer(rt).floor_staff()
        staff.enrol(plan, rounds)  # run_floor enrols whoever is missing: no one, by then
        ledger = rt.ledger
        if script is not None:
            script.inner, ledger, script.keyring = rt.ledger, script, staff.keyring
        started = time.perf_counter()
        result = run_floor(ledger, staff, plan, rounds=rounds, seed=seed,
                           day=date(2026, 11, 22))
        elapsed = time.perf_counter() - started
        writer = rt.ledger.writer
        batch = writer.commands / writer.batches if writer and writer.batches else 1.0
    if result.errors:
        raise SystemExit(f"the floor failed: {result.errors[0]}")
    latencies = sorted(x for t in result.tables.values() for x in t.latencies)
    answers = [a for t in result.tables.values() for a in t.recorded_at]
    played = sum(t.rounds + t.voids for t in result.tables.values())
    if script is not None:
        script.rounds = played
    events = sum(t.events for t in result.tables.values())
    return {"tables": tables, "path": "group commit" if group else "per command",
            "batch": batch, "rounds": played, "events": events, "seconds": elapsed,
            "commands": len(latencies), "p50": statistics.median(latencies) * 1000,
            "p99": latencies[int(0.99 * (len(latencies) - 1))] * 1000,
            "saturated": saturated_rate(answers)}


def measure_replayed(settings, tables: int, rounds: int, script: Script) -> dict[str, Any]:
    """The same floor's signed commands sent again, each table's in its order, by one thread
    per table on a fresh database: the terminals' own work (the game, the keys) done before
    the clock starts, as real terminals do it on their own devices. Stud Poker tables settle
    in the order they settled the first time, as they share a pool."""
    settings = settings.model_copy(update={"group_commit": True})
    plan = floor_plan(tables)
    stud = {spec.code for spec in plan if spec.game == "stud-poker"}
    turnstile = InOrder([entry for entry in script.pooled if entry[0] in stud])
    latencies: dict[str, list[float]] = {spec.code: [] for spec in plan}  # money-safe: s
    answers: list[tuple[float, int]] = []
    events: dict[str, int] = dict.fromkeys(latencies, 0)
    errors: list[str] = []
    # the same ledger, restored empty: its envelopes are signed for the first run's ledger id
    with resolve_database(settings).connect() as conn:
        conn.execute("UPDATE ledger_seal_state SET ledger_id = %s", (script.inner.ledger_id,))
    with open_ledger(settings) as rt:
        signer(rt)  # the registry bootstrapped by the benchmark's administrator
        FloorStaff(Administrator(rt.ledger, script.keyring, BENCH_ADMIN, BENCH_CONSOLE)
                   ).enrol(plan, rounds)
        for signed in script.sent["MainThread"]:  # the set-up: pools, shifts, dealers
            rt.ledger.execute(signed)

        def terminal(code: str) -> None:
            try:
                for place, signed in enumerate(script.sent[code]):
                    sent = time.perf_counter()
                    with turnstile.turn((code, place)):
                        recorded = rt.ledger.execute(signed)
                    answered = time.perf_counter()
                    latencies[code].append(answered - sent)
                    answers.append((answered, len(recorded.events)))
                    events[code] += len(recorded.events)
            except Exception as error:  # noqa: BLE001 - reported with its table; the others go on
                errors.append(f"{code}: {type(error).__name__}: {error}")
                turnstile.abandon()

        threads = [threading.Thread(target=terminal, args=(spec.code,), name=spec.code)
                   for spec in plan]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        writer = rt.ledger.writer
        batch = writer.commands / writer.batches if writer and writer.batches else 1.0
    if errors:
        raise SystemExit(f"the replayed floor failed: {errors[0]}")
    replayed = sum(events.values())
    expected = sum(n for name, n in script.events.items() if name != "MainThread")
    if replayed != expected:
        raise SystemExit(f"the replayed floor recorded {replayed:,} events, the floor "
                         f"{expected:,}")
    every = sorted(x for table in latencies.values() for x in table)
    return {"tables": tables, "path": "group, terminals replayed", "batch": batch,
            "rounds": script.rounds, "events": replayed, "seconds": elapsed,
            "commands": len(every), "p50": statistics.median(every) * 1000,
            "p99": every[int(0.99 * (len(every) - 1))] * 1000,
            "saturated": saturated_rate(answers)}


class PacedLedger:
    """The ledger behind table terminals that each send a command every 2-5 s (the floor's
    table threads): the pause is untimed; the command's own time is kept."""

    def __init__(self, ledger: Any, low: float, high: float) -> None:  # money-safe: seconds
        self.inner, self.low, self.high = ledger, low, high
        self.latencies: list[float] = []  # money-safe: seconds
        self.sent_at: list[float] = []  # money-safe: perf_counter seconds
        self._random = random.Random(5)
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def execute(self, signed: Any) -> Any:
        if threading.current_thread() is threading.main_thread():
            return self.inner.execute(signed)  # the supervisor opening the floor: not paced
        with self._lock:
            pause = self._random.uniform(self.low, self.high)
        time.sleep(pause)
        started = time.perf_counter()
        try:
            return self.inner.execute(signed)
        finally:
            self.latencies.append(time.perf_counter() - started)
            self.sent_at.append(started)


def settled() -> None:
    """The set-up's objects kept out of the collector's later scans, as `ledger serve` keeps
    its start-up's: a full collection over everything the set-up made is a pause of tens of
    milliseconds, which a command that met it would count as its own."""
    gc.collect()
    gc.freeze()


def measure_realistic(settings, tables: int, low: float, high: float,  # money-safe: seconds
                      seed: int) -> dict[str, float]:  # money-safe
    with open_ledger(settings) as rt:
        plan = floor_plan(tables, ("baccarat", "q-poker", "fortune-8"))
        staff = signer(rt).floor_staff()
        staff.enrol(plan, 1)
        paced = PacedLedger(rt.ledger, low, high)
        settled()
        started = time.perf_counter()
        result = run_floor(paced, staff, plan, rounds=1, seed=seed,  # type: ignore[arg-type]
                           day=date(2026, 11, 22))
        elapsed = time.perf_counter() - started
    if result.errors:
        raise SystemExit(f"the floor failed: {result.errors[0]}")
    latencies, sent = sorted(paced.latencies), sorted(paced.sent_at)
    # the rate while the floor plays: the middle half of the commands, by when they were sent
    # (the whole run's average counts the set-up and the tail, as the last tables finish)
    quarter, three_quarters = sent[len(sent) // 4], sent[3 * len(sent) // 4]
    playing = (len(sent) // 2) / max(three_quarters - quarter, 1e-9)
    return {"tables": tables, "commands": len(latencies), "seconds": elapsed,
            "playing_rate": playing,
            "p50": statistics.median(latencies) * 1000,
            "p99": latencies[int(0.99 * (len(latencies) - 1))] * 1000,
            "max": latencies[-1] * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=6, help="rounds per table")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-realistic", action="store_true",
                        help="skip the realistic-rate floor (it takes two to three minutes)")
    parser.add_argument("--realistic-only", action="store_true",
                        help="only the realistic-rate floor")
    args = parser.parse_args()
    runs = []
    with throwaway_database("ledger_bench_floor") as (_settings, database):
        raw = raw_path(database, 16, 500)
        console.print(f"[dim]raw append at 16 writers: {raw.rate:,.0f} events/s[/]")
        after = raw
        for tables in () if args.realistic_only else (16, 64):
            script = Script(None)
            for group in (False, True):
                with throwaway_database(f"ledger_bench_floor_{tables}") as (floor_settings, _):
                    runs.append(measure_floor(floor_settings, tables, args.rounds, args.seed,
                                              group, script if group else None))
                console.print(f"[dim]{tables} tables, {runs[-1]['path']} done[/]")
            with throwaway_database(f"ledger_bench_floor_{tables}_again") as (again, _):
                runs.append(measure_replayed(again, tables, args.rounds, script))
            console.print(f"[dim]{tables} tables, {runs[-1]['path']} done[/]")
        if runs:  # the raw append again: this machine's speed drifts within minutes
            after = raw_path(database, 16, 500)
            console.print(f"[dim]raw append at 16 writers, after the floors: "
                          f"{after.rate:,.0f} events/s[/]")
    raw_rate = (raw.rate + after.rate) / 2
    table = Table(title="the floor through Ledger.execute")
    for column in ("tables", "path", "batch", "rounds", "events", "rnd/s", "ev/s", "cmds",
                   "p50 ms", "p99 ms", "vs raw", "saturated ev/s", "sat. vs raw"):
        table.add_column(column, justify="right")
    for run in runs:
        rate = run["events"] / run["seconds"]
        table.add_row(str(run["tables"]), run["path"], f"{run['batch']:.1f}",
                      f"{run['rounds']:,}", f"{run['events']:,}",
                      f"{run['rounds'] / run['seconds']:,.1f}", f"{rate:,.0f}",
                      f"{run['commands']:,}", f"{run['p50']:.1f}", f"{run['p99']:.1f}",
                      f"{rate / raw_rate:.2f}x", f"{run['saturated']:,.0f}",
                      f"{run['saturated'] / raw_rate:.2f}x")
    if runs:
        console.print(table)
    console.print(f"raw psycopg INSERT+COMMIT, 16 writers, same server: {raw_rate:,.0f} events/s "
                  f"(p50 {raw.p50_ms:.2f} ms), the mean of its runs before and after the floors "
                  f"({raw.rate:,.0f} and {after.rate:,.0f}). 'vs raw' = the "
                  "floor's events/s over that; "
                  "latencies are per command, as a terminal waits for it; 'batch' = commands "
                  "per insert of the group writer. 'ev/s' is the whole run's, from the "
                  "supervisor's set-up (one command at a time) to the last table's last "
                  "command; 'saturated ev/s' the middle half of the commands by when each was "
                  "answered, while every table plays. 'terminals replayed': the group-commit "
                  "floor's own signed commands sent again on a fresh database, each table's "
                  "in order, so the benchmark's process does the ledger's work alone (the "
                  "door, the rules, the insert) and not the simulated terminals' (playing the "
                  "game, signing), which real terminals do on their own devices.")
    if args.no_realistic:
        return
    with throwaway_database("ledger_bench_floor_paced") as (paced_settings, _):
        paced = measure_realistic(paced_settings, 64, 2.0, 5.0, args.seed)
    rate = paced["commands"] / paced["seconds"]
    console.print(
        f"realistic floor: {paced['tables']} tables, a command every 2-5 s at each "
        f"({paced['playing_rate']:.1f} commands/s while all play, the middle half of the "
        f"commands; {rate:.1f}/s over the whole run with set-up and tail; "
        f"{paced['commands']:,} commands): p50 "
        f"{paced['p50']:.1f} ms, p99 {paced['p99']:.1f} ms, max {paced['max']:.1f} ms per command "
        f"(goal: p99 under 15 ms); p50 = {paced['p50'] / raw.p50_ms:.1f}x raw INSERT+COMMIT's "
        f"p50 at 16 writers.", highlight=False)


if __name__ == "__main__":
    main()
