"""`ledger projections run|status|rebuild`: keep the read models live, see where they stand."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import psycopg
import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ledger.application.config import LedgerSettings
from ledger.cli.common import (
    JsonOption,
    WideOption,
    console,
    err_console,
    print_json,
    stop_on_signals,
)
from ledger.core.errors import DatabaseUnavailable, WrongState, first_line
from ledger.core.formatting import TIME_LABEL, clock, count, counted
from ledger.infrastructure.database import Database
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.render import safe
from ledger.presentation.wording import projection, projection_name
from ledger.runtime.bootstrap import is_initialised, resolve_database
from projections import registry
from projections.engine.rebuild import rebuild as rebuild_projection
from projections.engine.runner import DEFAULT_BATCH_SIZE, Batch, ProjectionRunner
from projections.queries import projection_statuses

app = typer.Typer(help="Keep the read models live, and rebuild them.", no_args_is_help=True)

BatchSize = Annotated[
    int, typer.Option("--batch-size", min=1, help="Events per transaction.")
]


def _database() -> Database:
    database = resolve_database(LedgerSettings())
    if not is_initialised(database):
        raise WrongState(
            f"the database at {database.describe()} is not initialised: run `ledger db init`."
        )
    return database


@contextmanager
def _connection_errors_as_one_line() -> Iterator[None]:
    try:
        yield
    except psycopg.OperationalError as error:
        reason = first_line(error)
        raise DatabaseUnavailable(f"lost the database: {reason}") from None


@app.command()
def run(
    names: Annotated[list[str] | None, typer.Argument(
        metavar="NAME", help="Projections to run (default: all).")] = None,
    once: Annotated[bool, typer.Option(
        "--once", help="Catch up with the events recorded so far, then exit.")] = False,
    batch_size: BatchSize = DEFAULT_BATCH_SIZE,
    poll: Annotated[float, typer.Option(  # money-safe: seconds
        min=0.05, help="Seconds between checks when no notification arrives.")] = 1.0,
) -> None:
    """Catch up from each projection's position, then follow new events until Ctrl-C."""
    projections = registry.select([projection_name(name) for name in names or ()])
    database = _database()

    def report(batch: Batch) -> None:
        if not once:
            console.print(f"{projection(batch.projection)}: +{count(batch.events)} -> position "
                          f"{count(batch.position)}",
                          highlight=False)

    runner = ProjectionRunner(database, projections, batch_size=batch_size, poll_seconds=poll,
                              on_batch=report, on_rebuild=lambda line: console.print(
                                  line, highlight=False, soft_wrap=True))
    with stop_on_signals() as stop, _connection_errors_as_one_line(), runner:
        if once:
            runner.refuse_on_standby()
            runner.catch_up(stop)
        else:
            console.print(f"following {', '.join(projection(p.name) for p in projections)} "
                          "(Ctrl-C to stop)", highlight=False)
            runner.follow(stop, on_lost=lambda reason: err_console.print(
                f"[yellow]lost the database[/] ({safe(reason)}): reconnecting, then resuming "
                "from the committed positions", highlight=False, soft_wrap=True))
        positions = runner.positions()
    verb = "stopped" if stop.is_set() else "caught up"
    for name, position in sorted(positions.items()):
        console.print(f"{projection(name)}: {verb} at position {count(position)}",
                      highlight=False)


@app.command()
def status(as_json: JsonOption = False, wide: WideOption = False) -> None:
    """Each projection's position, and its lag behind the last recorded event."""
    with _database().connect() as conn:
        statuses = projection_statuses(conn)
    if as_json:
        print_json(statuses)
        return
    grid = Grid(text("projection"), figure("position"), figure("last event", 2),
                figure("lag (events)"), text(f"updated ({TIME_LABEL})", 1))
    for s in statuses:
        lag = f"[green]{count(s.lag)}[/]" if s.lag == 0 else f"[yellow]{count(s.lag)}[/]"
        updated = clock(s.updated_at) if s.updated_at else "never run"
        grid.add_row(projection(s.name), count(s.position), count(s.last_position), lag, updated)
    grid.print(console, wide=wide)


@app.command()
def rebuild(
    name: Annotated[str | None, typer.Argument(help="Projection to rebuild (default: all).")]
    = None,
    batch_size: BatchSize = DEFAULT_BATCH_SIZE,
) -> None:
    """Rebuild from the first event into shadow tables, then swap them in when complete.

    Writers and a running `ledger projections run` carry on meanwhile.
    """
    projections = registry.select([projection_name(name)] if name else ())
    database = _database()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    rebuilt = []
    with Progress(*columns, console=console) as progress, _connection_errors_as_one_line():
        for chosen in projections:
            task = progress.add_task(f"rebuilding {projection(chosen.name)} (positions)",
                                     total=None)

            def advance(position: int, last: int, task: TaskID = task) -> None:
                progress.update(task, completed=position, total=max(last, position))

            done = rebuild_projection(database, chosen, batch_size=batch_size,
                                      on_progress=advance)
            progress.update(task, completed=done.position, total=max(done.position, 1))
            rebuilt.append(done)
    for done in rebuilt:
        console.print(f"{projection(done.projection)}: rebuilt from the first event "
                      f"({counted(done.events, 'event')}), swapped in at position "
                      f"{count(done.position)}", highlight=False)
