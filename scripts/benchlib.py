"""What the benchmarks share: a throw-away database, a signing floor, timing, a printed table."""

from __future__ import annotations

import os
import secrets
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from psycopg import sql
from rich.console import Console
from rich.table import Table

from ledger.application.administration import Administrator, bootstrap_registry, is_bootstrapped
from ledger.application.config import LedgerSettings
from ledger.application.ledger import Ledger
from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind
from ledger.identity.envelope import SignedCommand
from ledger.identity.keyring import Keyring
from ledger.infrastructure.database import Database
from ledger.infrastructure.roles import GroupRoles
from ledger.runtime.bootstrap import init_database, resolve_database

console = Console() if sys.stdout.isatty() else Console(width=200)
"""Full width when piped to a file, so no figure is cut."""


@contextmanager
def throwaway_database(prefix: str, **settings: Any) -> Iterator[tuple[LedgerSettings,
                                                                       Database]]:
    """A fresh, initialised ledger database on the configured server, dropped afterwards
    (`settings`: more of the ledger's settings, as `partition_events`)."""
    server = resolve_database(LedgerSettings())
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(3)}"
    with server.connect() as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    database = server.with_dbname(name)
    # group roles of its own, dropped with the database: never the deployment's `ledger_*`
    # the simulated floors replay a fixed gaming day, whatever today is: the clock window
    # takes terminal times up to a year back
    made = LedgerSettings(database_url=database.url, pool_size=20, db_role_prefix=name,
                          clock_past_minutes=366 * 24 * 60, **settings)
    try:
        init_database(made, database)
        console.print(f"[dim]benchmark database: {database.describe()}[/]")
        yield made, database
    finally:
        with server.connect() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
            for role in GroupRoles.named(name).all:
                conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(role)))


BENCH_ADMIN, BENCH_CONSOLE = "ADM-BENCH", "BENCH-CONSOLE"
KEYRING = Keyring(None)
"""The benchmarks' keys, in memory for the life of the process: every ledger a benchmark opens
on its throw-away databases is bootstrapped and staffed with these."""


@dataclass
class Signer:
    """What a benchmark needs to send signed commands: the administrator who enrols its staff
    and registers its terminals, and the keyring that holds everyone's keys."""

    ledger: Ledger
    admin: Administrator
    keyring: Keyring

    def staff(self, staff_id: str, *roles: Role) -> str:
        self.admin.ensure_staff(staff_id, staff_id, roles)
        return staff_id

    def terminal(self, terminal_id: str, kind: TerminalKind) -> str:
        self.admin.ensure_terminal(terminal_id, kind, "benchmark")
        return terminal_id

    def sign(self, command: Any, *, staff: str, terminal: str,
             cosigners: tuple[str, ...] = ()) -> SignedCommand:
        return self.keyring.sign(command, staff=staff, terminal=terminal, cosigners=cosigners,
                                 ledger=self.ledger.ledger_id)

    def floor_staff(self) -> Any:
        """The simulator's floor, enrolled by the benchmark administrator (keys in memory)."""
        from ledger.simulation.staffing import FloorStaff

        return FloorStaff.under(self.ledger, KEYRING.credential("staff", BENCH_ADMIN),
                                KEYRING.credential("terminal", BENCH_CONSOLE), None)


def signer(rt: Any) -> Signer:
    """Sign for the ledger of this runtime: its registry is bootstrapped with the benchmark
    administrator's in-memory keys the first time (a throw-away database starts empty)."""
    ledger: Ledger = rt.ledger
    admin_key = KEYRING.credential("staff", BENCH_ADMIN)
    console_key = KEYRING.credential("terminal", BENCH_CONSOLE)
    if not is_bootstrapped(ledger):
        bootstrap_registry(ledger, admin_key, console_key, "Benchmark Administrator")
    else:
        member = ledger.staff(BENCH_ADMIN)
        if member is None or member.public_key != admin_key.public_key:
            raise SystemExit("this database's registry was bootstrapped by someone else: the "
                             "benchmarks run on throw-away databases they bootstrap themselves.")
    return Signer(ledger, Administrator(ledger, KEYRING, BENCH_ADMIN, BENCH_CONSOLE), KEYRING)


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


def print_table(title: str, rows: list[Measurement], baseline: dict[int, Measurement],
                relative: dict[str, dict[int, Measurement]] | None = None,
                relative_name: str = "") -> None:
    """One row per measurement; 'vs raw' divides its rate by the baseline's at the same
    concurrency. With `relative` (row label -> the measurements, by writers, to compare that
    row with), a further column `relative_name` gives that ratio too."""
    table = Table(title=title)
    columns = ["path", "writers", "events", "events/s", "p50 ms", "p99 ms", "vs raw"]
    if relative is not None:
        columns.append(relative_name)
    for column in columns:
        table.add_column(column, justify="right" if column != "path" else "left")
    for m in rows:
        base = baseline.get(m.writers)
        ratio = f"{m.rate / base.rate:.2f}x" if base else "-"
        cells = [m.label, str(m.writers), f"{m.count:,}", f"{m.rate:,.0f}", f"{m.p50_ms:.2f}",
                 f"{m.p99_ms:.2f}", ratio]
        if relative is not None:
            other = relative.get(m.label, {}).get(m.writers)
            cells.append(f"{m.rate / other.rate:.2f}x" if other else "-")
        table.add_row(*cells)
    console.print(table)


def cpu_seconds(pid: int) -> float:  # money-safe: seconds
    """The CPU seconds (user and system) a process of this machine has used so far, from
    /proc: a benchmark reads another process's (the server's) before and after its load."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def worktree(ref: str) -> Iterator[Path]:
    """A checkout of commit `ref` beside this one (a git worktree), removed afterwards: the
    code a benchmark measures its own against in the same run."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="ledger-bench-") as where:
        tree = Path(where) / "tree"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "--quiet",
                        str(tree), ref], check=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force",
                            str(tree)], check=False)


@contextmanager
def installed(ref: str) -> Iterator[str]:
    """The `ledger` command of commit `ref`, in a worktree of it installed with its own
    dependencies in a virtual environment of its own."""
    with worktree(ref) as tree:
        console.print(f"[dim]installing {ref} in {tree}[/]")
        subprocess.run(["bash", "-c", f"source {tree}/scripts/_venv.sh"], check=True,
                       stdout=subprocess.DEVNULL)
        yield str(tree / ".venv" / "bin" / "ledger")


def process_family(pid: int) -> list[int]:
    """`pid` and every process descended from it (a server's workers)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(
                stat.read_text().rpartition(")")[2].split()[1])
        except (OSError, ValueError):
            continue
    family, frontier = [pid], [pid]
    while frontier:
        children = [c for c, p in parents.items() if p in frontier]
        family += children
        frontier = children
    return family
