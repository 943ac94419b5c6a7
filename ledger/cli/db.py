"""`ledger db init|status|publish`."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table as RichTable

from ledger.application.administration import (
    bootstrap_registry,
    is_bootstrapped,
    registry_summary,
)
from ledger.application.config import LedgerSettings
from ledger.audit.verification.open_rounds import OpenRound, open_rounds
from ledger.cli.common import JsonOption, console, err_console, print_json
from ledger.core import clock
from ledger.core.errors import InvalidInput
from ledger.core.formatting import PRACTICE_MARK, count, iso
from ledger.identity.keys import Credential
from ledger.infrastructure.database import EVENTS_TABLE, Database
from ledger.infrastructure.event_log import event_count
from ledger.infrastructure.partitions import layout
from ledger.infrastructure.roles import GroupRoles
from ledger.presentation.render import safe
from ledger.presentation.wording import projection
from ledger.runtime.bootstrap import (
    init_database,
    initialised_ledger_id,
    open_ledger,
    resolve_database,
)
from ledger.runtime.credentials import configured
from projections.engine.tracking import positions, stalled
from projections.engine.versions import being_rebuilt, difference, stale
from projections.registry import PROJECTIONS

app = typer.Typer(help="Create the database and see where it stands.", no_args_is_help=True)


@app.command()
def init(
    admin_credential: Annotated[Path | None, typer.Option(
        "--admin-credential", help="Key file of the first administrator (`ledger key new staff "
        "ID`); default: LEDGER_STAFF_CREDENTIAL or LEDGER_STAFF_KEY.")] = None,
    terminal_credential: Annotated[Path | None, typer.Option(
        "--terminal-credential", help="Key file of the administrator's console; default: "
        "LEDGER_TERMINAL_CREDENTIAL or LEDGER_TERMINAL_KEY.")] = None,
    admin_name: Annotated[str | None, typer.Option(
        "--admin-name", help="The first administrator's full name (needed the first time).")
    ] = None,
    replica_of: Annotated[str | None, typer.Option(
        "--replica-of", metavar="URL", help="On a group database: receive the property "
        "LEDGER_PROPERTY names by logical replication from its ledger at URL (which has run "
        "`ledger db publish`).")] = None,
    practice: Annotated[bool, typer.Option(
        "--practice", help="Make a new ledger a practice ledger (the demo's): it may hold "
        "simulated play (`ledger simulate`), and says so on every page, report, export, bundle "
        "and replay and in its trust file. Only on a new, empty database; a property's real "
        "ledger is made without it and never holds simulated play.")] = False,
) -> None:
    """Create every table, trigger, view and group role (safe to run twice); the first time,
    enrol the first administrator and register their console from the keys you supply."""
    settings = LedgerSettings()
    database = resolve_database(settings)
    if replica_of is not None:
        _replica(settings, database, replica_of)
        return
    note = init_database(settings, database, practice=practice)
    console.print(f"[green]ready:[/] {database.describe()}", highlight=False)
    roles = GroupRoles.named(settings.db_role_prefix)
    if note:
        err_console.print(f"[yellow]note:[/] {note}", highlight=False)
    else:
        console.print(f"group roles: {', '.join(roles.all)}", highlight=False)
    with open_ledger(settings) as rt:
        console.print(f"ledger: {rt.ledger.ledger_id} (every command is signed for this id)",
                      highlight=False)
        if rt.practice:
            console.print(f"[bold red]{PRACTICE_MARK}[/]: simulated play may be recorded here",
                          highlight=False)
        if is_bootstrapped(rt.ledger):
            console.print(f"registry: {registry_summary(rt.ledger)}", highlight=False)
            return
        if admin_name is None:
            raise InvalidInput("the registry has no administrator yet: run `ledger db init "
                               "--admin-name NAME` with the administrator's and console's "
                               "credentials (there is no default account).")
        admin = (Credential.load(admin_credential, "staff") if admin_credential
                 else configured(settings, "staff"))
        terminal = (Credential.load(terminal_credential, "terminal") if terminal_credential
                    else configured(settings, "terminal"))
        bootstrap_registry(rt.ledger, admin, terminal, admin_name)
    console.print(f"registry: administrator {admin.id} ({admin_name}, key {admin.fingerprint}) "
                  f"at console {terminal.id} ({terminal.fingerprint}) enrolled", highlight=False)


@app.command()
def status(as_json: JsonOption = False) -> None:
    """Where the database is, how many events it holds, and each projection's position."""
    state = _status(resolve_database(LedgerSettings()))
    if as_json:
        print_json(state)
        return
    grid = RichTable(show_header=False, box=None)
    grid.add_row("database", state["database"])
    if not state["initialised"]:
        grid.add_row("state", "[yellow]not initialised: run `ledger db init`[/]")
        console.print(grid)
        return
    grid.add_row("ledger", state["ledger"])
    grid.add_row("events", f"{state['events']:,}")
    grid.add_row("last position", count(state["last_position"]))
    parts = state["partitions"]
    grid.add_row("partitions", f"{count(parts['on_primary'])} on the primary, "
                 f"{count(parts['archived'])} archived" + (
                     f"\n[yellow]{count(parts['past_the_ranges'])} events past the partitions "
                     "made ahead: run `ledger db init`[/]" if parts["past_the_ranges"] else ""))
    for p in state["projections"]:
        stopped, other = p["stopped"], p["other_version"]
        grid.add_row(f"projection {projection(p['name'])}",
                     f"{count(p['position'])} (lag {count(p['lag'])})"
                     + (f"\n[red]stopped[/]: {safe(stopped)}" if stopped is not None else "")
                     + (f"\n[yellow]built by another version[/] ({safe(other)}): "
                        f"{_rebuilding(p['rebuilding'])}" if other is not None else ""))
    if not state["projections"]:
        grid.add_row("projections", "none has run yet")
    grid.add_row("open rounds", count(len(state["open_rounds"])) if state["open_rounds"] else "none")
    for round_ in state["open_rounds"]:
        line = safe(round_["description"])
        grid.add_row("", f"[yellow]{line}[/]" if round_["stale"] else line)
    console.print(grid)


def _status(database: Database) -> dict[str, Any]:
    """What `db status` prints, as plain values: its terminal grid and its `--json`."""
    state: dict[str, Any] = {"database": database.describe(), "initialised": False,
                             "events": None, "last_position": None, "partitions": None, "projections": [],
                             "open_rounds": []}
    ledger_id = initialised_ledger_id(database)
    if ledger_id is None:
        return state
    with database.connect() as conn:
        count, last = event_count(conn)
        parts = layout(conn, EVENTS_TABLE)
        tracked = positions(conn)
        stopped = stalled(conn)
        old = stale(conn, list(PROJECTIONS))
        building = being_rebuilt(conn, list(old))
        rounds = open_rounds(conn)
    last = last or 0
    now = clock.now()
    return {**state, "initialised": True, "ledger": ledger_id, "events": count,
            "last_position": last, "partitions": parts,
            "projections": [{"name": name, "position": position, "lag": last - position,
                             "stopped": stopped.get(name), "rebuilding": name in building,
                             "other_version": difference(*old[name]) if name in old else None}
                            for name, position in tracked.items()],
            "open_rounds": [_open_round(round_, now) for round_ in rounds]}


def _rebuilding(now: bool) -> str:
    """What is done about a projection whose live tables another version built."""
    return ("being rebuilt beside its live tables, swapped in when caught up" if now
            else "`ledger projections run` rebuilds it by itself")


def _open_round(round_: OpenRound, now: datetime) -> dict[str, Any]:
    return {"round_id": round_.round_id, "table": round_.table, "number": round_.number,
            "opened_at": iso(round_.opened_at), "last_event_at": iso(round_.last_event_at),
            "stale": round_.is_stale(now), "description": round_.describe(now)}


def _replica(settings: LedgerSettings, database: Database, publisher_url: str) -> None:
    from ledger.infrastructure.replication import prepare_replica, subscribe

    code = settings.property_code
    if code is None:
        raise InvalidInput("--replica-of needs LEDGER_PROPERTY: the property's code, the same "
                           "as on its own ledger (its schema there and here).")
    init_database(settings, database)
    publisher = Database(publisher_url, limits=database.limits)
    with database.connect() as conn, publisher.connect() as source:
        prepare_replica(conn)
        made = subscribe(conn, source, code, publisher_url)
    console.print(f"[green]{'replicating' if made else 'already replicating'}:[/] property "
                  f"{code} from {publisher.describe()} into {database.describe()}",
                  highlight=False)


@app.command()
def publish() -> None:
    """On a property's ledger: publish its events for a group database (needs
    wal_level = logical and LEDGER_PROPERTY)."""
    from ledger.infrastructure.replication import publish as make_publication

    settings = LedgerSettings()
    if settings.property_code is None:
        raise InvalidInput("publish needs LEDGER_PROPERTY: the group database keeps each "
                           "property in a schema of its code.")
    database = resolve_database(settings)
    with database.connect() as conn:
        name = make_publication(conn, settings.property_code)
    console.print(f"[green]published:[/] {name} ({database.describe()}); on the group "
                  f"database: LEDGER_PROPERTY={settings.property_code} ledger db init "
                  "--replica-of URL", highlight=False)
