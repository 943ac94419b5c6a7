"""`ledger db init|status`."""

from __future__ import annotations

import typer
from psycopg import sql
from rich.table import Table as RichTable

from ledger.bootstrap import init_database, is_initialised, resolve_database
from ledger.cli.common import console
from ledger.config import LedgerSettings
from ledger.infrastructure.database import EVENTS_TABLE
from projections.tracking import positions

app = typer.Typer(help="Create the database and see where it stands.", no_args_is_help=True)


@app.command()
def init() -> None:
    """Create every table, trigger and view (safe to run twice)."""
    settings = LedgerSettings()
    database = resolve_database(settings)
    init_database(settings, database)
    console.print(f"[green]ready:[/] {database.describe()}", highlight=False)


@app.command()
def status() -> None:
    """Where the database is, how many events it holds, and each projection's position."""
    database = resolve_database(LedgerSettings())
    grid = RichTable(show_header=False, box=None)
    grid.add_row("database", database.describe())
    if not is_initialised(database):
        grid.add_row("state", "[yellow]not initialised: run `ledger db init`[/]")
        console.print(grid)
        return
    with database.connect() as conn:
        count, last = conn.execute(
            sql.SQL("SELECT count(*), max(notification_id) FROM {}").format(
                sql.Identifier(EVENTS_TABLE)
            )
        ).fetchone() or (0, None)
        tracked = positions(conn)
    grid.add_row("events", f"{count:,}")
    grid.add_row("last position", str(last or 0))
    for name, position in tracked.items():
        grid.add_row(f"projection {name}", f"{position} (lag {(last or 0) - position})")
    if not tracked:
        grid.add_row("projections", "none has run yet")
    console.print(grid)
