"""`ledger simulate`: a floor of tables playing a shift through the same commands as terminals."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from ledger.application.config import LedgerSettings
from ledger.cli.common import console
from ledger.core.errors import InvalidInput
from ledger.domain.shift_schedule import ShiftSlot, parse_gaming_day
from ledger.identity.credentials import acting
from ledger.identity.keys import Credential
from ledger.runtime.bootstrap import open_ledger
from ledger.simulation.bias import Bias, parse_bias
from ledger.simulation.floor import GAME_ORDER, FloorResult, check_bias, floor_plan, run_floor
from ledger.simulation.preflight import HOW_TO_ACT, check_can_play, free_shift, label
from ledger.simulation.staffing import FloorStaff

CLOSING_SECONDS = 1800
"""The last half hour of a shift is its closing: the count, the inventories, the paperwork."""


def play_window(slot: ShiftSlot, rounds: int, now: datetime) -> int:
    """The seconds the rounds are spread over from the shift's start: the shift less its
    closing; for the shift in force, only the part already played (its rounds are not dated
    after now), at least a second a round."""
    whole = int((slot.ends_at - slot.starts_at).total_seconds()) - CLOSING_SECONDS
    if now in slot:
        whole = min(whole, int((now - slot.starts_at).total_seconds()))
    return max(whole, rounds)


def _administrator(settings: LedgerSettings) -> tuple[Credential, Credential]:
    try:
        return acting(settings)
    except InvalidInput as error:
        raise InvalidInput(f"{error} The simulator needs an administrator's keys: "
                           f"{HOW_TO_ACT}.") from None


def simulate_floor(tables: int, rounds: int, seed: int, slot: ShiftSlot | None = None,
                   games: tuple[str, ...] = GAME_ORDER,
                   irregularity_rate: float = 0.01,  # money-safe
                   operator: tuple[Credential, Credential] | None = None,
                   bias: Mapping[str, Bias] | None = None) -> FloorResult:
    """Run the floor in `slot` (default: the shift in force now, or the first after it the
    ledger does not hold) with a progress bar of rounds recorded and events per second;
    staffed by `operator` (an administrator's and their console's credentials; default: the
    settings'). `bias` puts a biased player at some tables (`ledger.simulation.bias`).
    Refused before its first command if it could not be played through."""
    plan = floor_plan(tables, games)
    check_bias(plan, bias or {})
    codes = [spec.code for spec in plan]
    total = tables * rounds
    now = datetime.now(UTC)
    with open_ledger() as rt:
        administrator, terminal = operator or _administrator(rt.settings)
        schedule = rt.settings.shift_schedule
        slot = slot or free_shift(rt.ledger, schedule, codes, now)
        check_can_play(rt.ledger, codes, slot, schedule, (administrator, terminal))
        console.print(f"simulating {label(slot)}: {tables} tables, {rounds} rounds each, "
                      f"seed {seed}", highlight=False)
        with Progress(
            TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(),
            TextColumn("rounds"), TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
            console=console, transient=False,
        ) as progress:
            task = progress.add_task("floor", total=total, rate="")
            started = time.perf_counter()

            def on_round(events: int) -> None:
                seconds = max(time.perf_counter() - started, 1e-9)  # money-safe: a duration
                progress.update(task, advance=1, rate=f"{events / seconds:,.0f} events/s")

            rt.ledger.clock = None  # a simulation dates its own commands, within the shift
            staff = FloorStaff.under(rt.ledger, administrator, terminal,
                                     rt.settings.simulator_keys_dir)
            result = run_floor(rt.ledger, staff, plan, rounds=rounds, seed=seed,
                               day=slot.gaming_day, shift=slot.shift, starts_at=slot.starts_at,
                               play_seconds=play_window(slot, rounds, now), on_round=on_round,
                               irregularity_rate=irregularity_rate, bias=bias)
            elapsed = time.perf_counter() - started
    result.slot = slot
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
    hours: Annotated[float | None, typer.Option(min=0.1, max=24, help="Hours of play (about 60 rounds an hour).")] = None,  # money-safe
    seed: Annotated[int, typer.Option(help="The same seed gives the same rounds.")] = 2004,
    games: Annotated[str, typer.Option(help="Comma-separated games.")] = ",".join(GAME_ORDER),
    day: Annotated[str | None, typer.Option(
        help="Gaming day, YYYY-MM-DD (default: the shift in force now, or the first after it "
        "that the ledger does not hold).")] = None,
    shift: Annotated[str | None, typer.Option(
        help="Shift of that gaming day (default: its first, e.g. day).")] = None,
    irregularity_rate: Annotated[float, typer.Option(  # money-safe: a probability
        min=0.0, max=0.5, help="Chance per round of a card exposed by mistake; misdeals come "
        "at a third of it and shuffler failures (shuffler tables) at half.")] = 0.01,
    bias: Annotated[list[str] | None, typer.Option(
        help="A table biased on purpose, TABLE:KIND[:SHARE], e.g. F8-01:marked-cards:0.5: "
        "a player there knows the next cards and bets the side they make win on that share "
        "of rounds (default 0.5). Baccarat and Fortune 8 tables. Repeat for more tables.")
    ] = None,
) -> None:
    """Simulate a shift on a floor of tables of every game, as dealer terminals would send it.

    Run it as an administrator at an admin console (LEDGER_STAFF_CREDENTIAL and
    LEDGER_TERMINAL_CREDENTIAL; after the demo, the demo administrator's keys in demo-operator/
    beside the simulator's keys): the floor's staff are enrolled and its terminals registered
    under your signature, their keys kept in LEDGER_SIMULATOR_KEYS. Nothing is recorded if the
    shift cannot be played through (a table open, the shift already in the ledger)."""
    chosen = tuple(g.strip() for g in games.split(",") if g.strip())
    unknown = [g for g in chosen if g not in GAME_ORDER]
    if unknown:
        raise InvalidInput(f"unknown game '{unknown[0]}': known are {', '.join(GAME_ORDER)}.")
    count = rounds or max(1, int((hours or 0.5) * 60))
    slot = None
    if day is not None or shift is not None:
        schedule = LedgerSettings().shift_schedule
        gaming_day = (parse_gaming_day(day) if day is not None
                      else schedule.locate(datetime.now(UTC)).gaming_day)
        slot = schedule.slot(gaming_day, shift or schedule.names[0])
    biased = dict(parse_bias(text) for text in bias or [])
    result = simulate_floor(tables, count, seed, slot, chosen, irregularity_rate, bias=biased)
    if result.errors:
        raise typer.Exit(1)
