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
             "'ledger.games.rulesets', 'ledger.games.stud_poker', 'ledger.runtime.bootstrap') "
             "if m in sys.modules]\n"
             "print('HEAVY', heavy, file=sys.stderr)")
    done = _in_a_fresh_interpreter(probe)
    assert "HEAVY []" in done.stderr, done.stderr[-2000:]
    listed = [line.split()[1] for line in done.stdout.splitlines()
              if line.startswith("│ ") and len(line.split()) > 2 and line.split()[1].islower()]
    names = [name for name, _, _ in COMMANDS]
    assert [n for n in listed if n in names] == names  # all of them, in the shift's order


def test_a_bet_loads_its_own_area_and_not_every_command_handler_or_projection():
    """`ledger round bet` imports the round commands and handlers it runs, not the shift's,
    the registry's or the pools' commands, nor the projections (the start a script pays)."""
    probe = ("import sys\n"
             "import ledger.cli.main, ledger.cli.round, ledger.runtime.bootstrap\n"
             "from ledger.application.bus import ROUND, Bus\n"
             "from ledger.commands.round import PlaceBet\n"
             "Bus((ROUND,)).handler_for(PlaceBet)\n"
             "loaded = [m for m in ('ledger.commands.shift', 'ledger.commands.registry', "
             "'ledger.commands.jackpot', 'ledger.application.handlers.shift', 'ledger.application.handlers.registry', "
             "'ledger.application.handlers.jackpots', 'ledger.audit.seal.sealer', 'projections') "
             "if m in sys.modules]\n"
             "print('LOADED', loaded, 'ledger.application.handlers.rounds' in sys.modules)")
    _prints(probe, "LOADED [] True")


def test_a_read_imports_neither_the_commands_nor_the_signing_keys():
    """`ledger replay` reads: it signs nothing, so it loads no command models and no
    cryptography (a reader's start)."""
    probe = ("import sys\n"
             "import ledger.cli.main, ledger.cli.replay\n"
             "signing = [m for m in ('ledger.commands', 'ledger.identity.envelope', "
             "'cryptography') if m in sys.modules]\n"
             "print('SIGNING', signing)")
    _prints(probe, "SIGNING []")


def test_a_command_builds_only_the_classes_it_meets_and_a_server_builds_all_first():
    """pydantic builds an event or command class when it is first used (a bet meets a handful
    of the ledger's event classes and one command); a process that records from many threads
    builds every one before its first command (`open_ledger(warm=True)`, its default)."""
    probe = ("from ledger.domain.round import Round\n"
             "from ledger.domain.base import build_event_classes\n"
             "from ledger.commands import build_command_classes\n"
             "from ledger.commands.round import PlaceBet\n"
             "before = (Round.BetPlaced.__pydantic_complete__, PlaceBet.__pydantic_complete__)\n"
             "built = (build_event_classes(), build_command_classes())\n"
             "print('BUILT', before, built[0] > 50, built[1] > 30, build_event_classes(), "
             "build_command_classes(), Round.BetPlaced.__pydantic_complete__, "
             "PlaceBet.__pydantic_complete__)")
    _prints(probe, "BUILT (False, False) True True 0 0 True True")


def _prints(probe: str, expected: str) -> None:
    done = _in_a_fresh_interpreter(probe)
    assert expected in done.stdout, (done.stdout + done.stderr)[-2000:]


def _in_a_fresh_interpreter(code: str) -> subprocess.CompletedProcess[str]:
    """What a new process loads: this one has imported everything already."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
