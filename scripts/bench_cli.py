"""How long a `ledger` command takes before it does anything: Python's own start as the raw
baseline, then the imports of `ledger --help`, of a write command (`ledger round bet`: its CLI module, the
composition root and the handler it runs) and of a read command (`ledger replay`), each in a
fresh interpreter with the package's bytecode compiled (as `pip install` leaves it), several
times, the cases taken in turn; the median of each, its ratio to the bare interpreter, and
the time to the interpreter's exit. Also the wall time of `ledger --help` as a person waits
for it. No database is needed: a command's imports come before it connects.
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchlib import console
from rich.table import Table

CASES = (
    ("python -c pass (raw)", None),
    ("ledger --help", "ledger.cli.main"),
    # a write: its CLI module, the composition root it opens, the handler it runs and the
    # credentials it signs with
    ("ledger round bet (a write)", ("ledger.cli.main,ledger.cli.round,ledger.runtime.bootstrap,"
                                   "ledger.application.handlers.rounds,ledger.runtime.credentials")),
    # the same write with LEDGER_API_URL: signed here, sent to `ledger serve`
    ("ledger round bet, sent to the API", ("ledger.cli.main,ledger.cli.round,ledger.cli.remote,"
                                          "ledger.commands.round,ledger.runtime.credentials")),
    ("ledger replay (a read)", "ledger.cli.main,ledger.cli.replay"),
    ("everything (before: all at once)", "ledger.cli.main," + ",".join(
        f"ledger.cli.{m}" for m in ("db", "registry", "table", "shift", "shoe", "round",
                                    "jackpot", "checks", "replay", "hand", "events",
                                    "evidence", "report", "projections", "seal", "simulate"))
     + "," + ",".join(f"ledger.application.handlers.{m}" for m in ("tables", "shoes", "rounds", "jackpots",
                                                       "shift", "days", "registry"))),
)


def started(modules: str | None) -> tuple[float, float]:  # money-safe: seconds
    """Seconds from a fresh interpreter's spawn to its modules imported (the interpreter's own
    start included, as a person waits for it), and to its exit (Python's tear-down too). The
    child reads the same monotonic clock as the parent when its imports are done."""
    code = "import time" if modules is None else "; ".join(
        f"import {m}" for m in modules.split(",")) + "; import time"
    code += "; print(time.monotonic())"
    begun = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True)
    ended = time.monotonic()
    return float(done.stdout.split()[-1]) - begun, ended - begun


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=11, help="fresh interpreters per case")
    args = parser.parse_args()
    # as an installed ledger runs: `pip install` compiles a package's bytecode, an editable
    # install under PYTHONDONTWRITEBYTECODE (this project's CI) would compile every module on
    # every start
    root = Path(__file__).resolve().parent.parent
    compileall.compile_dir(root / "ledger", quiet=1)
    for _, modules in CASES:
        started(modules)  # warm the file cache
    # round-robin, one fresh interpreter of each case in turn: a machine whose speed drifts in
    # the run (this one's does, by a fifth within minutes) slows every case alike
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in CASES}
    for _ in range(args.runs):
        for name, modules in CASES:
            runs[name].append(started(modules))
    medians = {name: (statistics.median(r[0] for r in timed),
                      statistics.median(r[1] for r in timed)) for name, timed in runs.items()}
    raw, _raw_exit = medians[CASES[0][0]]
    table = Table(title=f"a command's start (median of {args.runs} fresh interpreters)")
    for column in ("what", "to the command (s)", "imports alone", "vs raw", "to exit (s)"):
        table.add_column(column, justify="left" if column == "what" else "right")
    for name, (seconds, exiting) in medians.items():
        table.add_row(name, f"{seconds:.3f}", f"{max(seconds - raw, 0):.3f}",
                      f"{seconds / raw:.1f}x", f"{exiting:.3f}")
    console.print(table)
    console.print("'to the command': from the spawn to the imports done, where the command "
                  "starts its work; 'to exit' adds Python's tear-down of what was imported.")
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
