"""The failover drill (`scripts/ha`): starts etcd and three PostgreSQL 15 nodes under Patroni
with synchronous replication on loopback (installing Debian's `patroni`, `etcd-server` and
`etcd-client` first when run as root), plays a simulated floor through the ledger's multi-host
URL, kills the primary's Patroni and PostgreSQL with SIGKILL once the floor is busy, and prints
what the terminals were told against what the new primary holds; then two properties, each
with the same table codes in its own ledger, replicated into one group database, and the
group's gaming day. Everything it started is stopped, and its folder removed, at the end. The
same harness runs in the tests (`tests/ha/`)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ledger.reports.group import to_rich as group_rich
from tests.ha.cluster import Cluster, install, missing
from tests.ha.drill import Drill, failover_drill, group_drill
from tests.signing import UNTRUSTED as UNTRUSTED_EXIT
from tests.signing import credential_env

console = Console() if sys.stdout.isatty() else Console(width=120)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=6, help="rounds per table")
    parser.add_argument("--kill-after", type=int, default=600,
                        help="commands acknowledged before the primary is killed")
    args = parser.parse_args()
    install()
    why = missing()
    if why:
        console.print(f"[red]cannot run the drill here:[/] {why}")
        return 1
    started = time.monotonic()
    with Cluster() as cluster:
        members = ", ".join(f"{m['name']} ({m['role']}, port {m['port']})"
                            for m in cluster.members())
        console.print(f"cluster up in {time.monotonic() - started:.1f} s: {members}",
                      highlight=False)
        console.print(f"terminals connect to {cluster.url('ledger')}", highlight=False)
        drill = failover_drill(cluster, tables=args.tables, rounds=args.rounds,
                               kill_after=args.kill_after)
        verified = subprocess.run(
            [str(Path(sys.executable).with_name("ledger")), "verify"], capture_output=True,
            text=True, env={**os.environ, **credential_env(),
                            "LEDGER_DATABASE_URL": cluster.url("ledger")})
        _print(drill, verified.returncode in (0, UNTRUSTED_EXIT), args)  # no trust file here
        console.print("then two properties, each with BAC-01 and SP-01 in its own ledger, "
                      "replicated into one group database:", highlight=False)
        group_rich(group_drill(cluster), console)
    console.print("everything started was stopped and its folder removed.")
    return 0 if not drill.missing and not drill.errors and verified.returncode == 0 else 1


def _print(drill: Drill, verified: bool, args: Any) -> None:
    table = Table(title=f"failover drill: {args.tables} tables, primary {drill.killed} killed "
                        f"(SIGKILL) after {args.kill_after} commands, {drill.promoted} promoted")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("events acknowledged to terminals", f"{drill.acknowledged:,}")
    table.add_row("of those, on the new primary", f"{drill.on_new_primary:,}")
    table.add_row("missing", f"{len(drill.missing):,}")
    table.add_row("write stall (longest time nothing was acknowledged)", f"{drill.stall:.1f} s")
    table.add_row("commands acknowledged after the kill", f"{drill.after_kill:,}")
    table.add_row("tables that failed", f"{len(drill.errors)}")
    table.add_row("ledger verify on the new primary", "passed" if verified else "FAILED")
    console.print(table)
    if drill.waits:
        console.print(f"what a terminal was told: {drill.waits[0]}", highlight=False)
    for error in drill.errors:
        console.print(f"[red]{error}[/]", highlight=False)


if __name__ == "__main__":
    sys.exit(main())
