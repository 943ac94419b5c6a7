"""What the benchmarks share: a throw-away database, timing, and a printed table."""

from __future__ import annotations

import os
import secrets
import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from psycopg import sql
from rich.console import Console
from rich.table import Table

from ledger.bootstrap import init_database, resolve_database
from ledger.config import LedgerSettings
from ledger.infrastructure.database import Database

console = Console()


@contextmanager
def throwaway_database(prefix: str) -> Iterator[tuple[LedgerSettings, Database]]:
    """A fresh, initialised ledger database on the configured server, dropped afterwards."""
    server = resolve_database(LedgerSettings())
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    with server.connect() as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    database = server.with_dbname(name)
    settings = LedgerSettings(database_url=database.url, pool_size=20)
    try:
        init_database(settings, database)
        console.print(f"[dim]benchmark database: {database.describe()}[/]")
        yield settings, database
    finally:
        with server.connect() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@dataclass
class Measurement:
    label: str
    writers: int
    count: int
    seconds: float  # money-safe: a duration
    latencies: list[float]  # money-safe: seconds per operation

    @property
    def rate(self) -> float:  # money-safe
        return self.count / self.seconds

    def percentile(self, p: float) -> float:  # money-safe
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    @property
    def p50_ms(self) -> float:  # money-safe
        return statistics.median(self.latencies) * 1000

    @property
    def p99_ms(self) -> float:  # money-safe
        return self.percentile(99) * 1000


def print_table(title: str, rows: list[Measurement], baseline: dict[int, Measurement]) -> None:
    table = Table(title=title)
    for column in ("path", "writers", "events", "events/s", "p50 ms", "p99 ms", "vs raw"):
        table.add_column(column, justify="right" if column != "path" else "left")
    for m in rows:
        base = baseline.get(m.writers)
        ratio = f"{m.rate / base.rate:.2f}x" if base else "-"
        table.add_row(
            m.label, str(m.writers), f"{m.count:,}", f"{m.rate:,.0f}", f"{m.p50_ms:.2f}",
            f"{m.p99_ms:.2f}", ratio,
        )
    console.print(table)
