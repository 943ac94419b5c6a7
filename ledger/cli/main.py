"""`ledger`: the admin commands of the round ledger.

The command tree is listed here with each command's one-line help, and a command's module is
imported only when that command runs (`Deferred`): `ledger --help` imports no database
client, no event store and no rules, and `ledger round bet` imports what a round needs, not
the replay page or the simulator. The commands are listed in the order of a shift: setting
up, the floor, surveillance, accounting, then the ledger's own upkeep.
"""

from __future__ import annotations

import os
from datetime import datetime
from importlib import import_module
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from ledger.cli.errors import run_guarded, usage_guarded
from ledger.cli.metavars import name_what_to_type
from ledger.core.clock import Clock, current, running, started_at

COMMANDS: tuple[tuple[str, str, str], ...] = (
    # setting up
    ("db", "ledger.cli.db:app", "Create the database and see where it stands."),
    ("key", "ledger.cli.registry:keys", "Make a key pair; show a key's public half."),
    ("staff", "ledger.cli.registry:staff",
     "Enrol, suspend, reinstate staff; change roles and keys."),
    ("terminal", "ledger.cli.registry:terminals", "Register and revoke terminals and devices."),
    # the floor, in the order a shift runs
    ("table", "ledger.cli.table:app", "Open and close tables; dealers in and out."),
    ("shift", "ledger.cli.shift:app",
     "A table's shift: opening and closing inventories, fill and credit slips, the drop."),
    ("shoe", "ledger.cli.shoe:app", "Shuffle, cut, burn and close shoes."),
    ("round", "ledger.cli.round:app", "Record a round: bets, cards, decisions, settlement."),
    ("jackpot", "ledger.cli.jackpot:app", "Progressive jackpot pools."),
    ("ingest", "ledger.cli.checks:ingest",
     "Record the signed commands of a JSON-lines file; report each line accepted or rejected."),
    # surveillance
    ("replay", "ledger.cli.replay:replay",
     "Rebuild a round from the event store and check it; exit 1 on DISCREPANCY."),
    ("recall", "ledger.cli.replay:recall",
     "The last rounds of a table, with hands, results and payouts, from the event store."),
    ("hand", "ledger.cli.hand:hand",
     "Evaluate cards under a game's rules: a poker hand, a baccarat coup, a Fortune 8 card."),
    ("events", "ledger.cli.events:app", "Read the stored events."),
    ("edges", "ledger.cli.edges:edges",
     "Each bet's house edge and standard deviation under a table's rules and settings."),
    ("export", "ledger.cli.evidence:export",
     "Evidence for a dispute, as one file anyone can check."),
    ("verify-bundle", "ledger.cli.evidence:verify_bundle",
     ("Check a bundle with no database: MATCH (exit 0), DISCREPANCY (1), TAMPERED (2), or "
      "UNTRUSTED (3): it matched, but only under the sealing key it carries itself.")),
    # accounting
    ("report", "ledger.cli.report:app",
     "Shift, gaming-day and month-to-date reports; statistics and investigations."),
    # the ledger's upkeep
    ("verify", "ledger.cli.checks:verify",
     "Check the ledger: every event proven by its signed command, and the seal."),
    ("serve", "ledger.cli.serve:serve",
     "Serve the terminal API and the live floor pages over HTTP."),
    ("archive", "ledger.cli.archive:archive",
     "Move closed, sealed, witnessed ranges of events to an archive database, read in place."),
    ("projections", "ledger.cli.projections:app", "Keep the read models live, and rebuild them."),
    ("seal", "ledger.cli.seal:app",
     "Seal the global order: signed checkpoints, and their witnesses."),
    ("trust", "ledger.cli.trust:app",
     "Write and read the trust file verify is given from outside the database."),
    ("witness", "ledger.cli.witness:app",
     "Run a witness that cosigns the seal's checkpoints; export its memory."),
    ("schema", "ledger.cli.checks:schema",
     "Print the JSON Schema of every command a terminal can send."),
    ("simulate", "ledger.cli.simulate:simulate",
     "Simulate a shift on a floor of tables of every game, as dealer terminals would send it."),
    ("demo", "ledger.cli.checks:demo",
     "Run the ledger end to end on the configured (or embedded) database, a practice ledger."),
)
"""(name, where it is defined, its one-line help): `tests/unit/test_cli_tree.py` checks that
each help here is the command's own."""


def load(name: str, target: str) -> Any:
    """The click command `name` for `module:attribute`, a Typer group or a command function,
    as Typer builds it inside `ledger` (no shell-completion options of its own)."""
    module, _, attribute = target.partition(":")
    found = getattr(import_module(module), attribute)
    holder = typer.Typer(add_completion=False)
    holder.callback()(lambda: None)  # a group always, whose one command is the one wanted
    if isinstance(found, typer.Typer):
        holder.add_typer(found, name=name)
    else:
        holder.command(name)(found)
    group = typer.main.get_command(holder)
    assert isinstance(group, TyperGroup)  # a Typer with a callback builds a group
    return name_what_to_type(group.commands[name])


class Deferred(TyperCommand):
    """A command listed by name and help, its module imported when it is run."""

    def __init__(self, name: str, target: str, help: str) -> None:
        super().__init__(name=name, help=help, short_help=help)
        self.target = target

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None,
                     **extra: Any) -> Any:
        command = load(self.name or "", self.target)
        return command.make_context(info_name, args, parent=parent, **extra)


class LazyGroup(TyperGroup):
    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        for name, target, help in COMMANDS:
            self.commands.setdefault(name, Deferred(name, target, help))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        name_what_to_type(self)  # Typer adds its completion options after the group is made
        super().format_help(ctx, formatter)


app = typer.Typer(
    help="The round ledger: every action at a live table, recorded as an immutable event.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    cls=LazyGroup,
)


def _version(asked: bool) -> None:
    if asked:
        from ledger import software_version
        from ledger.cli.console import console

        console.print(f"round-ledger {software_version()}", highlight=False)
        raise typer.Exit()


@app.callback()
def ledger(
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_version,
        help="Print the ledger's version and exit.")] = False,
) -> None:
    """The round ledger: every action at a live table, recorded as an immutable event."""


def _practice_clock() -> Clock:
    """The clock a practice ledger's rehearsal starts at (LEDGER_CLOCK_AT), for the whole
    command, or the host's; the ledger refuses it on a real ledger as it opens, and the
    settings name a malformed one."""
    at = os.environ.get("LEDGER_CLOCK_AT", "")
    try:
        start = datetime.fromisoformat(at)
    except ValueError:
        return current()
    return started_at(start) if start.tzinfo is not None else current()


def main() -> None:
    with running(_practice_clock()):
        code = run_guarded(lambda: usage_guarded(app))
    if isinstance(code, int) and code:
        raise SystemExit(code)
