"""What the demo prints last: the exact commands for the shift it played, by who runs them.

Each line runs as printed, from the folder the demo ran in, on the same database: reading needs
no key (the database login is the authority to read); recording needs the key files of the
person and the terminal, which the simulator kept for the floor's people and the demo for its
administrator.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from rich.console import Console

from ledger.application.config import LedgerSettings
from ledger.core.formatting import TIME_LABEL, macau
from ledger.domain.shift_schedule import ShiftSlot
from ledger.simulation.floor import GAME_ORDER
from ledger.simulation.preflight import following, label
from ledger.simulation.staffing import FLOOR_DESK, SUPERVISOR

DEMO_ADMIN, DEMO_CONSOLE, DEMO_VERIFIER = "DEMO-ADMIN", "DEMO-CONSOLE", "DEMO-VERIFIER"


def operator_keys(settings: LedgerSettings) -> tuple[Path, Path]:
    """The administrator's and their console's key files the demo acted with."""
    if settings.staff_credential is not None and settings.terminal_credential is not None:
        return settings.staff_credential, settings.terminal_credential
    folder = settings.simulator_keys_dir.parent / "demo-operator"
    return folder / f"staff-{DEMO_ADMIN}.key", folder / f"terminal-{DEMO_CONSOLE}.key"


def commands(settings: LedgerSettings, slot: ShiftSlot, replayed: list[tuple[str, int]],
             trust: Path, witnessed: list[Path], tables: int,
             rounds: int) -> list[tuple[str, str]]:
    """(who and why, the command line) for the shift the demo played."""
    keys = settings.simulator_keys_dir
    day, shift = str(slot.gaming_day), slot.shift
    admin_key, console_key = operator_keys(settings)
    table, number = replayed[0] if replayed else ("BAC-01", 1)
    found: list[tuple[str, str]] = [
        ("Accounting: the shift's report, on screen and as a page to print",
         _line("report", "shift", "--day", day, "--shift", shift, "--format", "html",
               "--output", "reports")),
        (("Accounting and the regulator: theoretical against actual hold, month to date, from "
          "the real handle and each bet's exact edge (`ledger edges --game baccarat` shows them)"),
         _line("report", "statistics", "--period", "month", "--through", day, "--format",
               "html", "--output", "reports")),
        ("Surveillance: a round rebuilt from the events alone, proven under the seal",
         _line("replay", table, str(number), "--trust", str(trust), "--html",
               f"replay-{table}-{number}.html")),
        ("Pit boss: the table's last rounds, with hands, results and payouts",
         _line("recall", table, "--last", "5")),
        ("Pit boss: the floor's tables as they stand", _line("table", "list")),
        (("A regulator: the ledger checked from outside the database, against the trust file "
          "and what the witnesses remember; with the verifier's key, only what came after the "
          "last verification (`--full`: everything)"),
         _line("verify", "--trust", str(trust), "--key",
               str(settings.simulator_keys_dir.parent / "demo-operator"
                   / f"verifier-{DEMO_VERIFIER}.key"),
               *(arg for path in witnessed for arg in ("--witness-state", str(path))),
               *(("--offline",) if witnessed else ()))),
        (("The floor supervisor: the live floor in a browser (until Ctrl-C), then open "
          "http://127.0.0.1:8080/floor and sign in with the key file "
          f"{keys / f'staff-{SUPERVISOR.staff_id}.key'}"),
         _line("serve", env={"LEDGER_TERMINAL_CREDENTIAL": keys / f"terminal-{FLOOR_DESK}.key"})),
        (("The administrator: the floor plays its next shift once it has begun (the first one "
          f"the ledger does not hold; {label(following(settings.shift_schedule, slot))} starts "
          f"at {macau(following(settings.shift_schedule, slot).starts_at):%H:%M} {TIME_LABEL}: "
          "asked before then, it says so and records nothing), with a new seed"),
         _line("simulate", "--tables", str(tables), "--rounds", str(rounds),
               "--games", ",".join(GAME_ORDER),
               env={"LEDGER_STAFF_CREDENTIAL": admin_key,
                    "LEDGER_TERMINAL_CREDENTIAL": console_key})),
    ]
    return found


def ledger_command(folder: Path | None = None) -> str:
    """The `ledger` command as a shell in `folder` (default: the working folder) runs it with
    no virtual environment activated: the console script beside this Python (`.venv/bin/ledger`
    when it lies under the folder, else its whole path); plain `ledger` only when there is no
    such script (an install that put it on the PATH)."""
    script = Path(sys.executable).with_name("ledger")
    if not script.exists():
        return "ledger"
    here = (folder or Path.cwd()).resolve()
    try:
        return str(script.relative_to(here))
    except ValueError:
        return str(script)


def _line(*args: str, env: dict[str, Path] | None = None) -> str:
    prefix = " ".join(f"{name}={shlex.quote(str(path))}" for name, path in (env or {}).items())
    command = " ".join(shlex.quote(arg) for arg in (ledger_command(), *args))
    return f"{prefix} {command}" if prefix else command


def made(settings: LedgerSettings) -> list[Path]:
    """The folders the demo made, each by its own name: never the folder they sit in, which
    may hold anything else (LEDGER_DATA_DIR=/tmp/demo puts the keys beside it, in /tmp)."""
    return [settings.data_dir.expanduser(), settings.simulator_keys_dir,
            settings.simulator_keys_dir.parent / "demo-operator", settings.witness_root]


def after_the_demo(console: Console, settings: LedgerSettings, slot: ShiftSlot,
                   replayed: list[tuple[str, int]], trust: Path, witnessed: list[Path],
                   tables: int, rounds: int) -> None:
    """The commands, then how to start again."""
    console.rule("[bold]after the demo")
    where = ("the embedded PostgreSQL" if settings.uses_embedded_server
             else "the server LEDGER_DATABASE_URL names (keep it set)")
    console.print(f"The demo played {label(slot)} on {where}. Each command runs as printed, "
                  "from this folder, as it stands: no virtual environment to activate first "
                  "(`source .venv/bin/activate` puts `ledger` on your PATH, to type it "
                  "short). Reading needs no key; recording needs the key files "
                  "of the person and of the terminal, kept in "
                  f"{settings.simulator_keys_dir}.", highlight=False, soft_wrap=True)
    for who, line in commands(settings, slot, replayed, trust, witnessed, tables, rounds):
        console.print(f"\n{who}:", highlight=False, soft_wrap=True)
        console.print(f"  {line}", highlight=False, soft_wrap=True, markup=False)
    again = (f"with no ledger command running, remove {' '.join(map(str, made(settings)))} "
             "(the embedded database, the keys and the witnesses' memory) and run scripts/demo"
             if settings.uses_embedded_server
             else "point LEDGER_DATABASE_URL at a new, empty database and run scripts/demo")
    console.print(f"\nTo start again: {again}.", highlight=False, soft_wrap=True)
