"""`ledger --help` lists every command in the order of a shift without importing them; each
listed help is the command's own, and each listed command loads."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ledger.cli.main import COMMANDS, load


@pytest.mark.parametrize(("name", "target", "listed"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_each_listed_command_loads_and_its_listed_help_is_its_own(name, target, listed):
    command = load(name, target)
    own = (command.help or "").strip().splitlines()[0]
    assert listed == own, f"ledger.cli.main lists {name} as {listed!r}; its own help is {own!r}"


def test_the_help_imports_no_database_client_no_event_store_and_no_rules():
    probe = ("import sys; sys.argv = ['ledger', '--help']\n"
             "from ledger.cli.main import main\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "heavy = [m for m in ('psycopg', 'eventsourcing', 'ledger.commands', "
             "'ledger.games.rulesets', 'ledger.games.stud_poker', 'ledger.bootstrap') "
             "if m in sys.modules]\n"
             "print('HEAVY', heavy, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=False)
    assert "HEAVY []" in done.stderr, done.stderr[-2000:]
    listed = [line.split()[1] for line in done.stdout.splitlines()
              if line.startswith("│ ") and len(line.split()) > 2 and line.split()[1].islower()]
    names = [name for name, _, _ in COMMANDS]
    assert [n for n in listed if n in names] == names  # all of them, in the shift's order

