"""How long a `ledger` command takes before it does anything: Python's own start as the raw
baseline, then the imports of `ledger --help`, of a write command (`ledger round bet`) and of a
read command (`ledger replay`), each in a fresh interpreter, several times; the median of each
and its ratio to the bare interpreter. Also the wall time of `ledger --help` as a person waits
for it. No database is needed: a command's imports come before it connects.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

from benchlib import console
from rich.table import Table

CASES = (
    ("python -c pass (raw)", None),
    ("ledger --help", "ledger.cli.main"),
    ("ledger round bet (a write)", "ledger.cli.main,ledger.cli.round"),
    ("ledger replay (a read)", "ledger.cli.main,ledger.cli.replay"),
    ("everything (before: all at once)", "ledger.cli.main," + ",".join(
        f"ledger.cli.{m}" for m in ("db", "registry", "table", "shift", "shoe", "round",
                                    "jackpot", "checks", "replay", "hand", "events",
                                    "evidence", "report", "projections", "seal", "simulate"))),
)


def started(modules: str | None) -> float:  # money-safe: seconds
    """Seconds from a fresh interpreter's start to the modules imported (the interpreter's own
    start included, as a person waits for it)."""
    code = "pass" if modules is None else "; ".join(f"import {m}" for m in modules.split(","))
    begun = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - begun


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="fresh interpreters per case")
    args = parser.parse_args()
    medians = {}
    for name, modules in CASES:
        started(modules)  # warm the file cache
        medians[name] = statistics.median(started(modules) for _ in range(args.runs))
    raw = medians[CASES[0][0]]
    table = Table(title=f"a command's start (median of {args.runs} fresh interpreters)")
    for column in ("what", "seconds", "imports alone", "vs raw"):
        table.add_column(column, justify="left" if column == "what" else "right")
    for name, seconds in medians.items():
        table.add_row(name, f"{seconds:.3f}", f"{max(seconds - raw, 0):.3f}",
                      f"{seconds / raw:.1f}x")
    console.print(table)
    ledger = shutil.which("ledger")
    if ledger:
        walls = []
        for _ in range(args.runs):
            begun = time.perf_counter()
            subprocess.run([ledger, "--help"], check=True, capture_output=True)
            walls.append(time.perf_counter() - begun)
        console.print(f"`ledger --help` as a person waits for it: {statistics.median(walls):.3f} s "
                      f"(median of {args.runs}); the bare interpreter {raw:.3f} s.")


if __name__ == "__main__":
    main()
