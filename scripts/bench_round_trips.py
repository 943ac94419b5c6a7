"""Round trips per command, by kind: how many times the client waits for the server.

One table of each game plays a few rounds on its own (one thread, so the count is exact),
every command signed and sent through `Ledger.execute` as a dealer terminal sends it. A round
trip is one wait of a ledger connection for the server's answer: a statement, a COMMIT, a
pipeline sync or a connection check (`GuardedConnection.round_trips`). For scale, plain
psycopg INSERT + COMMIT is 2.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Any

from benchlib import console, signer
from rich.table import Table as RichTable

from ledger.application.config import LedgerSettings
from ledger.infrastructure.session import GuardedConnection
from ledger.runtime.bootstrap import open_ledger
from ledger.simulation.floor import GAME_ORDER, floor_plan, run_floor


class CountingLedger:
    """The ledger, counting each command's round trips under its kind."""

    def __init__(self, ledger: Any) -> None:
        self.inner = ledger
        self.counts: dict[str, list[int]] = defaultdict(list)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def execute(self, signed: Any) -> Any:
        before = GuardedConnection.round_trips
        try:
            return self.inner.execute(signed)
        finally:
            self.counts[signed.name].append(GuardedConnection.round_trips - before)


def round_trips_by_kind(settings: LedgerSettings, rounds: int) -> dict[str, list[int]]:
    counts: dict[str, list[int]] = defaultdict(list)
    with open_ledger(settings) as rt:
        staff = signer(rt).floor_staff()
        for game in GAME_ORDER:
            plan = floor_plan(1, games=(game,))
            staff.enrol(plan, rounds)  # before counting: enrolment is not the floor's work
            counting = CountingLedger(rt.ledger)
            result = run_floor(counting, staff, plan, rounds=rounds, seed=11,  # type: ignore[arg-type]
                               day=date(2026, 11, 22))
            if result.errors:
                raise SystemExit(f"the {game} table failed: {result.errors[0]}")
            for kind, trips in counting.counts.items():
                counts[kind] += trips
    return counts


def print_round_trips(counts: dict[str, list[int]]) -> None:
    table = RichTable(title="round trips per command, by kind (one table at a time)")
    for column in ("command", "sent", "mean", "min", "max"):
        table.add_column(column, justify="left" if column == "command" else "right")
    every = [n for trips in counts.values() for n in trips]
    for kind, trips in sorted(counts.items(), key=lambda item: -len(item[1])):
        table.add_row(kind, f"{len(trips):,}", f"{sum(trips) / len(trips):.1f}",
                      str(min(trips)), str(max(trips)))
    table.add_row("all commands", f"{len(every):,}", f"{sum(every) / len(every):.1f}",
                  str(min(every)), str(max(every)), style="bold")
    console.print(table)
    console.print("[dim]a round trip = one wait for the server (statement, COMMIT, sync or "
                  "connection check); plain psycopg INSERT + COMMIT is 2.[/]")
