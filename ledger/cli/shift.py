"""`ledger shift open|fill|credit|void-slip|drop|adjust-drop|close|close-day|show`.

Every command acts on one shift of one table: `--day` and `--shift` name it, and default to
the gaming day and shift in force now by `LEDGER_SHIFT_SCHEDULE`.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table as RichTable

from ledger.application.bus import SHIFT
from ledger.application.handlers.shift import load_shift
from ledger.cli.common import (
    CosignerOption,
    JsonOption,
    console,
    print_json,
    runtime,
    signed,
)
from ledger.cli.console import WideOption
from ledger.commands import utc_now
from ledger.commands.shift import (
    AdjustDrop,
    CloseGamingDay,
    CloseShift,
    EnterDrop,
    OpenShift,
    RecordCredit,
    RecordFill,
    ShiftCommand,
    VoidSlip,
)
from ledger.core.formatting import amount, count, heading, money
from ledger.domain.base import Actor
from ledger.domain.chips import parse_chips, plain
from ledger.domain.shift import Shift, describe_shift
from ledger.domain.shift_schedule import ShiftSchedule, parse_gaming_day
from ledger.domain.table import check_table_code
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.wording import label, term

app = typer.Typer(
    help="A table's shift: opening and closing inventories, fill and credit slips, the drop.",
    no_args_is_help=True,
)
Code = Annotated[str, typer.Argument(help="Table code, e.g. BAC-01.")]
DayOption = Annotated[
    str | None,
    typer.Option("--day", help="Gaming day, YYYY-MM-DD. Default: the gaming day in force now."),
]
ShiftOption = Annotated[
    str | None,
    typer.Option("--shift", help="Shift name from the schedule (day, swing, graveyard by "
                                 "default). Default: the shift in force now."),
]
ChipsOption = Annotated[
    str, typer.Option("--chips", help="Chips counted, denomination=count: 100=40,500=20.")
]
DealerOption = Annotated[str, typer.Option("--dealer", help="Staff id of the dealer who signs.")]
SupervisorOption = Annotated[
    str, typer.Option("--supervisor", help="Staff id of the supervisor who signs: you, or the "
                      "holder of the --cosigner key.")
]
SlipOption = Annotated[int, typer.Option("--slip", min=1, help="The slip's printed number.")]
RunnerOption = Annotated[
    str, typer.Option("--runner", help="Staff id of the runner or cashier who signed the slip.")
]
CountedDayOption = Annotated[str, typer.Option(
    "--day", help="Gaming day of the shift whose drop box was counted, YYYY-MM-DD. Required: "
    "the count room often counts after that shift has closed.")]
CountedShiftOption = Annotated[str, typer.Option(
    "--shift", help="Name of the shift whose drop box was counted. Required, as --day.")]
ReasonOption = Annotated[str, typer.Option("--reason", help="Why (recorded with the event).")]
CashOption = Annotated[str, typer.Option("--cash", help="Cash in the drop box (patacas).")]
MarkersOption = Annotated[
    str, typer.Option("--markers", help="Markers in the drop box (patacas).")
]


def shift_slot(schedule: ShiftSchedule, day: str | None, shift: str | None) -> tuple[date, str]:
    """The gaming day and shift named, or the current one's (Macau time) for any left out."""
    now = schedule.locate(utc_now())
    gaming_day = parse_gaming_day(day) if day else now.gaming_day
    return gaming_day, schedule.check_name(shift) if shift else now.shift


def _record(
    kind: type[ShiftCommand], table: str, day: str | None, shift: str | None,
    cosigners: list[Path] | None = None, **fields: Any,
) -> None:
    with runtime(writing=True, areas=(SHIFT,)) as rt:
        gaming_day, name = shift_slot(rt.settings.shift_schedule, day, shift)
        command = kind(table=table, gaming_day=gaming_day, shift=name, **fields)
        result = rt.ledger.execute(signed(rt, command, cosigners))
    label = describe_shift(check_table_code(table), gaming_day, name)
    console.print(f"{label}: {result.summary()}", highlight=False)


@app.command("open")
def open_(
    table: Code, chips: ChipsOption, dealer: DealerOption, supervisor: SupervisorOption,
    day: DayOption = None, shift: ShiftOption = None, cosigner: CosignerOption = None,
) -> None:
    """Open a shift with its chip inventory, signed by the dealer and a supervisor."""
    _record(
        OpenShift, table, day, shift, cosigner, chips=parse_chips(chips),
        dealer_id=dealer, supervisor=supervisor,
    )


@app.command()
def fill(
    table: Code, slip: SlipOption, chips: ChipsOption, runner: RunnerOption,
    supervisor: SupervisorOption, day: DayOption = None, shift: ShiftOption = None,
    cosigner: CosignerOption = None,
) -> None:
    """Record a fill slip: chips from the cage to the table (the amount is their sum)."""
    _record(
        RecordFill, table, day, shift, cosigner, slip=slip,
        chips=parse_chips(chips), runner_id=runner,
        supervisor=supervisor,
    )


@app.command()
def credit(
    table: Code, slip: SlipOption, chips: ChipsOption, runner: RunnerOption,
    supervisor: SupervisorOption, day: DayOption = None, shift: ShiftOption = None,
    cosigner: CosignerOption = None,
) -> None:
    """Record a credit slip: chips from the table back to the cage (the amount is their sum)."""
    _record(
        RecordCredit, table, day, shift, cosigner, slip=slip,
        chips=parse_chips(chips), runner_id=runner,
        supervisor=supervisor,
    )


@app.command("void-slip")
def void_slip(
    table: Code, slip: SlipOption, reason: ReasonOption, day: DayOption = None,
    shift: ShiftOption = None,
) -> None:
    """Void a fill or credit slip (a supervisor's act): it no longer counts."""
    _record(VoidSlip, table, day, shift, slip=slip, reason=reason)


@app.command()
def drop(
    table: Code, cash: CashOption, markers: MarkersOption,
    counted_by: Annotated[list[str], typer.Option(
        "--counted-by", help="Staff id of a member of the count team (repeat for each).")],
    day: CountedDayOption, shift: CountedShiftOption,
) -> None:
    """Enter the drop as counted: cash and markers (once; a supervisor adjusts it)."""
    _record(
        EnterDrop, table, day, shift, cash=cash, markers=markers,
        counted_by=tuple(counted_by),
    )


@app.command("adjust-drop")
def adjust_drop(
    table: Code, cash: CashOption, markers: MarkersOption, reason: ReasonOption,
    day: CountedDayOption, shift: CountedShiftOption,
) -> None:
    """Correct the drop (a supervisor's act): the new cash and markers, and why."""
    _record(
        AdjustDrop, table, day, shift, cash=cash, markers=markers,
        reason=reason,
    )


@app.command()
def close(
    table: Code, chips: ChipsOption, dealer: DealerOption, supervisor: SupervisorOption,
    day: DayOption = None, shift: ShiftOption = None, cosigner: CosignerOption = None,
) -> None:
    """Close a shift with its closing inventory, signed by the dealer and a supervisor."""
    _record(
        CloseShift, table, day, shift, cosigner, chips=parse_chips(chips),
        dealer_id=dealer, supervisor=supervisor,
    )


@app.command("close-day")
def close_day(
    day: Annotated[str | None, typer.Option(
        "--day", help="Gaming day to close, YYYY-MM-DD. Default: the gaming day in force now."
    )] = None,
) -> None:
    """Close the gaming day once every shift of it has closed: nothing more is recorded for it
    but a late drop and a supervisor's adjustment, each shown as after the close."""
    with runtime(writing=True, areas=(SHIFT,)) as rt:
        gaming_day, _ = shift_slot(rt.settings.shift_schedule, day, None)
        result = rt.ledger.execute(signed(rt, CloseGamingDay(gaming_day=gaming_day)))
    console.print(f"gaming day {gaming_day.isoformat()}: {result.summary()}", highlight=False)


@app.command()
def show(table: Code, day: DayOption = None, shift: ShiftOption = None,
         as_json: JsonOption = False, wide: WideOption = False) -> None:
    """A shift as its events say it stands: inventories, slips, drop and accounting win."""
    with runtime() as rt:
        gaming_day, name = shift_slot(rt.settings.shift_schedule, day, shift)
        loaded = load_shift(rt.ledger, table, gaming_day, name)
    if as_json:
        print_json(_view(loaded))
        return
    _render(loaded, wide)


def _view(shift: Shift) -> dict[str, Any]:
    """`shift show --json`: what `_render` prints, chips as {face: count} (`"1000": 50`)."""
    def chips(counted: dict[Decimal, int] | None) -> dict[str, int] | None:
        return None if counted is None else {plain(d): n for d, n in sorted(counted.items())}

    def signed_by(pair: tuple[str, Actor] | None) -> dict[str, Any] | None:
        return None if pair is None else {"dealer": pair[0], "supervisor": pair[1]}

    return {
        "table": shift.code, "gaming_day": shift.gaming_day, "shift": shift.shift,
        "label": shift.label, "is_closed": shift.is_closed,
        "opened_by": signed_by(shift.opened_by), "closed_by": signed_by(shift.closed_by),
        "opening_chips": chips(shift.opening_chips), "closing_chips": chips(shift.closing_chips),
        "slips": [{"number": s.number, "kind": s.kind.value, "amount": s.amount,
                   "chips": chips(s.chips), "runner": s.runner_id, "supervisor": s.supervisor,
                   "voided": s.voided}
                  for s in sorted(shift.slips.values(), key=lambda s: s.number)],
        "drop": None if shift.drop is None else {
            "cash": shift.drop.cash, "markers": shift.drop.markers,
            "counted_by": list(shift.drop.counted_by)},
        "figures": shift.figures(),
    }


def _render(shift: Shift, wide: bool) -> None:
    state = "[bold]closed[/]" if shift.is_closed else "[green]open[/]"
    console.print(f"{shift.label}: {state}", highlight=False)
    opened_dealer, opened_supervisor = shift.opened_by
    signed = f"opened by dealer {opened_dealer} and {opened_supervisor}"
    if shift.closed_by:
        signed += f"; closed by dealer {shift.closed_by[0]} and {shift.closed_by[1]}"
    console.print(signed, highlight=False)

    inventory = Grid(figure(heading("chip")), figure("opening"), figure("closing"),
                     title="inventory")
    closing = shift.closing_chips or {}
    for chip in sorted({*shift.opening_chips, *closing}):
        inventory.add_row(
            _face(chip), count(shift.opening_chips.get(chip)), count(closing.get(chip))
        )
    inventory.print(console, wide=wide)

    if shift.slips:
        slips = Grid(figure("slip"), text("kind"), figure(heading("amount")),
                     text("chips", 4, wraps=True), text("runner", 3), text("supervisor", 2),
                     text("status", 1, wraps=True), title="slips")
        for slip in sorted(shift.slips.values(), key=lambda s: s.number):
            chips = ", ".join(f"{_face(d)}x{count(n)}" for d, n in slip.chips.items())
            status = f"[red]voided[/] {term(slip.voided)}" if slip.voided else "counts"
            slips.add_row(str(slip.number), slip.kind.value, amount(slip.amount), chips,
                          slip.runner_id, slip.supervisor.staff_id, status)
        slips.print(console, wide=wide)

    figures = shift.figures()
    grid = RichTable(show_header=False, box=None, title="accounting")
    if shift.drop:
        grid.add_row("drop: cash", money(shift.drop.cash))
        grid.add_row("drop: markers", money(shift.drop.markers))
        grid.add_row("counted by", ", ".join(shift.drop.counted_by))
    for name, value in figures.model_dump().items():
        pending = name == "drop" and value is None  # the count room has not counted it yet
        grid.add_row(label(name), "not counted yet" if pending else money(value))
    console.print(grid)


def _face(chip: Decimal) -> str:
    """A chip's face value, thousands separated: `100,000`, `2.50`."""
    whole, point, cents = plain(chip).partition(".")
    return f"{int(whole):,}{point}{cents}"
