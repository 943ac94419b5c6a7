"""`ledger simulate`: a floor of tables playing a shift through the same commands as terminals."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from datetime import datetime, timedelta
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
from ledger.core.errors import InvalidInput, NotAllowed, WrongState
from ledger.core.formatting import TIME_LABEL, macau
from ledger.domain.shift_schedule import ShiftSlot, parse_gaming_day
from ledger.identity.keys import Credential
from ledger.runtime.bootstrap import open_ledger
from ledger.runtime.credentials import acting
from ledger.simulation.bias import Bias, parse_bias
from ledger.simulation.floor import (
    GAME_ORDER,
    FloorResult,
    check_bias,
    floor_plan,
    free_floor,
    run_floor,
)
from ledger.simulation.preflight import HOW_TO_ACT, check_can_play, free_shift, label
from ledger.simulation.staffing import FloorStaff

CLOSING_SECONDS = 1800
"""The last half hour of a shift is its closing: the count, the inventories, the paperwork."""
ROUND_AT_LEAST = 30
"""The fewest seconds a simulated round takes: a shift a minute old has time for two."""
CLOSING_RESERVE = 120
"""Seconds kept before now for a shift in force's closing (the drop, the count, the table)."""


def play_window(slot: ShiftSlot, now: datetime) -> int:
    """The seconds the rounds are spread over from the shift's start: the shift less its
    closing; for the shift in force, only the part already played, less a moment for its
    closing (nothing is dated after now). Refused for a shift that has not begun."""
    if now < slot.starts_at:
        raise WrongState(f"{label(slot)} has not begun: it starts at "
                         f"{macau(slot.starts_at):%Y-%m-%d %H:%M} {TIME_LABEL}, and a simulated "
                         "shift dates nothing after the moment the ledger records it. Simulate "
                         "it once it has begun, or a shift already under way or past (--day, "
                         "--shift).")
    whole = int((slot.ends_at - slot.starts_at).total_seconds()) - CLOSING_SECONDS
    if now in slot:
        whole = min(whole, int((now - slot.starts_at).total_seconds()) - CLOSING_RESERVE)
    return whole


def rounds_that_fit(slot: ShiftSlot, rounds: int, now: datetime) -> int:
    """`rounds`, or as many as the part of the shift already played allows (at least
    `ROUND_AT_LEAST` seconds each); refused when not one does."""
    fit = play_window(slot, now) // ROUND_AT_LEAST
    if fit < 1:
        raise WrongState(f"{label(slot)} began at {macau(slot.starts_at):%H:%M} {TIME_LABEL}, "
                         f"{int((now - slot.starts_at).total_seconds())} s ago: not yet time for "
                         "a round and the closing. Simulate it in a few minutes.")
    return min(rounds, fit)


def check_practice(practice: bool) -> None:
    """Simulated play goes only into a practice ledger: a property's real one never holds it."""
    if not practice:
        raise NotAllowed("this ledger was not made for practice: a property's real ledger never "
                         "holds simulated play. Simulate on a practice ledger (`ledger db init "
                         "--practice` on a new database, as the demo makes).")


def check_not_too_old(slot: ShiftSlot, now: datetime, past: timedelta) -> None:
    """Refuse, before anything is recorded, a shift older than the ledger's clock takes."""
    opens = slot.starts_at - timedelta(minutes=30)
    if opens < now - past:
        raise WrongState(f"{label(slot)} opens its tables at {macau(opens):%Y-%m-%d %H:%M} "
                         f"{TIME_LABEL}, more than {int(past.total_seconds() // 3600)} h before "
                         "the ledger's clock: the door takes no command that old. Simulate a "
                         "later shift.")


def _administrator(settings: LedgerSettings) -> tuple[Credential, Credential]:
    try:
        return acting(settings)
    except InvalidInput as error:
        raise InvalidInput(f"{error} The simulator needs an administrator's keys: "
                           f"{HOW_TO_ACT}.") from None


def new_seed() -> int:
    """A seed for a floor not played before (printed, so `--seed` can play it again)."""
    return secrets.randbelow(1_000_000)


def simulate_floor(tables: int, rounds: int, seed: int | None = None,
                   slot: ShiftSlot | None = None, games: tuple[str, ...] = GAME_ORDER,
                   irregularity_rate: float = 0.01,  # money-safe
                   operator: tuple[Credential, Credential] | None = None,
                   bias: Mapping[str, Bias] | None = None, *, shift: str | None = None,
                   another_floor: bool = False) -> FloorResult:
    """Run the floor in `slot` (default: the shift in force now, or the first after it the
    ledger does not hold; `shift`: that shift of the gaming day in force) with a progress bar
    of rounds recorded and events per second; staffed by `operator` (an administrator's and
    their console's credentials; default: the settings'). `bias` puts a biased player at some
    tables (`ledger.simulation.bias`). `seed`: default, a new one. `another_floor`: where the
    shift in force is in the ledger at these tables, the next tables of each game play it
    (the demo run again). Refused before its first command if it could not be played through,
    or if it would date anything after the ledger's clock."""
    seed = new_seed() if seed is None else seed
    plan = floor_plan(tables, games)
    check_bias(plan, bias or {})
    with open_ledger() as rt:
        check_practice(rt.practice)
        now = rt.ledger.clock.now()  # the ledger's one clock: nothing is dated after it
        administrator, terminal = operator or _administrator(rt.settings)
        schedule = rt.settings.shift_schedule
        if slot is None and shift is not None:
            slot = schedule.slot(schedule.locate(now).gaming_day, shift)
        if slot is None and another_floor:
            slot = schedule.locate(now)
            plan = free_floor(rt.ledger, tables, games, slot)
            check_bias(plan, bias or {})
        codes = [spec.code for spec in plan]
        slot = slot or free_shift(rt.ledger, schedule, codes, now)
        asked, rounds = rounds, rounds_that_fit(slot, rounds, now)
        check_not_too_old(slot, now, rt.ledger.clock.past)
        check_can_play(rt.ledger, codes, slot, schedule, (administrator, terminal))
        console.print(f"simulating {label(slot)}: {tables} tables, {rounds} rounds each, "
                      f"seed {seed} (`--seed {seed}` plays it again on another ledger)",
                      highlight=False)
        if rounds < asked:
            console.print(f"the shift began at {macau(slot.starts_at):%H:%M} {TIME_LABEL}: "
                          f"the time played so far has room for {rounds} of the {asked} rounds "
                          "asked", highlight=False)
        with Progress(
            TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(),
            TextColumn("rounds"), TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
            console=console, transient=False,
        ) as progress:
            task = progress.add_task("floor", total=tables * rounds, rate="")
            started = time.perf_counter()

            def on_round(events: int) -> None:
                seconds = max(time.perf_counter() - started, 1e-9)  # money-safe: a duration
                progress.update(task, advance=1, rate=f"{events / seconds:,.0f} events/s")

            staff = FloorStaff.under(rt.ledger, administrator, terminal,
                                     rt.settings.simulator_keys_dir)
            result = run_floor(rt.ledger, staff, plan, rounds=rounds, seed=seed,
                               day=slot.gaming_day, shift=slot.shift, starts_at=slot.starts_at,
                               play_seconds=play_window(slot, now), on_round=on_round,
                               irregularity_rate=irregularity_rate, bias=bias, until=now)
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
    seed: Annotated[int | None, typer.Option(
        help="The same seed gives the same rounds (default: a new one, printed).")] = None,
    games: Annotated[str, typer.Option(
        help=f"Comma-separated games (default: {', '.join(GAME_ORDER)}).",
        show_default=False)] = ",".join(GAME_ORDER),
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
        "of rounds (default 0.5). Baccarat and Fortune 8 tables. Also informed-bettor and "
        "lucky-streak (baccarat) and misdealer (baccarat, Stud Poker, Q Poker): the cases game "
        "protection must catch or leave alone. Repeat for more tables.")
    ] = None,
) -> None:
    """Simulate a shift on a floor of tables of every game, as dealer terminals would send it.

    Run it as an administrator at an admin console (LEDGER_STAFF_CREDENTIAL and
    LEDGER_TERMINAL_CREDENTIAL; after the demo, the demo administrator's keys in demo-operator/
    beside the simulator's keys): the floor's staff are enrolled and its terminals registered
    under your signature, their keys kept in LEDGER_SIMULATOR_KEYS. Nothing is recorded if the
    shift cannot be played through (a table open, the shift already in the ledger)."""
    from ledger.games.registry import game_code

    chosen = tuple(game_code(g) for g in games.split(",") if g.strip())
    unknown = [g for g in chosen if g not in GAME_ORDER]
    if unknown:
        raise InvalidInput(f"the simulator plays {', '.join(GAME_ORDER)}: not {unknown[0]}.")
    count = rounds or max(1, int((hours or 0.5) * 60))
    slot = None
    if day is not None:
        schedule = LedgerSettings().shift_schedule
        slot = schedule.slot(parse_gaming_day(day), shift or schedule.names[0])
    biased = dict(parse_bias(text) for text in bias or [])
    result = simulate_floor(tables, count, seed, slot, chosen, irregularity_rate, bias=biased,
                            shift=shift)
    if result.errors:
        raise typer.Exit(1)
