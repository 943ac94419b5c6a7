"""`ledger simulate`: a floor of tables playing a shift through the same commands as terminals."""

from __future__ import annotations

import time
from datetime import date
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ledger.bootstrap import open_ledger
from ledger.cli.common import console
from ledger.errors import InvalidInput
from ledger.identity.credentials import acting
from ledger.identity.keys import Credential
from ledger.simulation.staffing import FloorStaff
from ledger.simulation.floor import GAME_ORDER, FloorResult, floor_plan, run_floor


def simulate_floor(tables: int, rounds: int, seed: int, day: date,
                   games: tuple[str, ...] = GAME_ORDER,
                   irregularity_rate: float = 0.01,  # money-safe
                   operator: tuple[Credential, Credential] | None = None) -> FloorResult:
    """Run the floor with a progress bar of rounds recorded and events per second; staffed by
    `operator` (an administrator's and their console's credentials; default: the settings')."""
    plan = floor_plan(tables, games)
    total = tables * rounds
    with open_ledger() as rt, Progress(
        TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(),
        TextColumn("rounds"), TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
        console=console, transient=False,
    ) as progress:
        task = progress.add_task("floor", total=total, rate="")
        started = time.perf_counter()

        def on_round(events: int) -> None:
            seconds = max(time.perf_counter() - started, 1e-9)  # money-safe: a duration
            progress.update(task, advance=1, rate=f"{events / seconds:,.0f} events/s")

        rt.ledger.clock = None  # a simulation plays days of its own, not the clock's
        administrator, terminal = operator or acting(rt.settings)
        staff = FloorStaff.under(rt.ledger, administrator, terminal, rt.settings.simulator_keys_dir)
        result = run_floor(rt.ledger, staff, plan, rounds=rounds, seed=seed, day=day, on_round=on_round,
                           irregularity_rate=irregularity_rate)
        elapsed = time.perf_counter() - started
    tallies = result.tables.values()
    events = sum(t.events for t in tallies)
    failures = sum(t.shuffler_failures for t in tallies)
    console.print(f"{sum(t.rounds for t in tallies)} rounds settled, "
                  f"{sum(t.voids for t in tallies)} voided"
                  + (f" ({failures} by a shuffler failure)" if failures else "")
                  + f", {events:,} events in {elapsed:.1f} s ({events / elapsed:,.0f} events/s)",
                  highlight=False)
    for error in result.errors:
        console.print(f"[red]{error}[/]", highlight=False)
    return result


def simulate(
    tables: Annotated[int, typer.Option(min=1, max=200, help="Tables on the floor.")] = 12,
    rounds: Annotated[int | None, typer.Option(min=1, help="Rounds per table.")] = None,
    hours: Annotated[float | None, typer.Option(min=0.1, help="Hours of play (about 60 rounds an hour).")] = None,  # money-safe
    seed: Annotated[int, typer.Option(help="The same seed gives the same rounds.")] = 2004,
    games: Annotated[str, typer.Option(help="Comma-separated games.")] = ",".join(GAME_ORDER),
    day: Annotated[str | None, typer.Option(help="Gaming day, YYYY-MM-DD (default today).")] = None,
    irregularity_rate: Annotated[float, typer.Option(  # money-safe: a probability
        min=0.0, max=0.5, help="Chance per round of a card exposed by mistake; misdeals come "
        "at a third of it and shuffler failures (shuffler tables) at half.")] = 0.01,
) -> None:
    """Simulate a shift on a floor of tables of every game, as dealer terminals would send it.

    Run it as an administrator (your staff and terminal credentials): the floor's staff are
    enrolled and its terminals registered under your signature, their keys kept in
    LEDGER_SIMULATOR_KEYS."""
    chosen = tuple(g.strip() for g in games.split(",") if g.strip())
    unknown = [g for g in chosen if g not in GAME_ORDER]
    if unknown:
        raise InvalidInput(f"unknown game '{unknown[0]}': known are {', '.join(GAME_ORDER)}.")
    count = rounds or max(1, int((hours or 0.5) * 60))
    result = simulate_floor(tables, count, seed, date.fromisoformat(day) if day else date.today(),
                            chosen, irregularity_rate)
    if result.errors:
        raise typer.Exit(1)
