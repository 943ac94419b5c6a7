"""`ledger report shift`, `day` and `month`: the shift's reconciliation, per table and rolled
up; the gaming day's, shift by shift and table by table; the month to date, day by day.
`ledger report statistics`: theoretical and actual hold and their bands over a day, a month or
a year to date; `ledger report protection`: the game-protection signals of a shift, a day or a
month; `ledger report investigate`: a finding on a flagged figure, signed."""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import psycopg
import typer

from ledger.cli.common import JsonOption, console, err_console, reading, say_practice
from ledger.cli.console import WideOption
from ledger.core.formatting import PRACTICE_MARK
from ledger.reports.shift import to_csv, to_json, to_rich
from projections.engine.runner import ProjectionRunner
from projections.registry import select
from projections.shifts.read import ShiftReportView, shift_report

app = typer.Typer(help="Shift, gaming-day and month-to-date reports; statistics and investigations.",
                  no_args_is_help=True)


class Format(StrEnum):
    CSV = "csv"
    JSON = "json"
    HTML = "html"




@app.command()
def shift(
    day: Annotated[str | None, typer.Option(
        "--day", help="Gaming day, YYYY-MM-DD (default: the current one, Macau time).")] = None,
    shift_name: Annotated[str | None, typer.Option(
        "--shift", help="Shift name, e.g. day (default: the shift now running).")] = None,
    table: Annotated[str | None, typer.Option(help="One table only.")] = None,
    formats: Annotated[list[Format] | None, typer.Option(
        "--format", help="Also write csv, json and/or html (repeat the option).")] = None,
    output: Annotated[Path, typer.Option(help="Folder the files are written to.")] = Path("reports"),
    catch_up: Annotated[bool, typer.Option(help="Bring the projections up to date first.")] = True,
    as_json: JsonOption = False,
    wide: WideOption = False,
) -> None:
    """Print the shift report (ledger win, accounting win, variance, hold) and write files."""
    from ledger.cli.shift import shift_slot

    with reading() as rt:
        gaming_day, shift_name = shift_slot(rt.settings.shift_schedule, day, shift_name)
        if catch_up:
            _catch_up(rt)
        with rt.database.connect() as conn:
            view = shift_report(conn, gaming_day, shift_name, table.upper() if table else None,
                                day_starts=rt.settings.shift_schedule.day_starts)
    if as_json:
        sys.stdout.write(marked(to_json(view), Format.JSON, rt.practice) + "\n")
    else:
        say_practice(rt.practice)
        to_rich(view, console, wide=wide)
    for fmt in formats or []:
        output.mkdir(parents=True, exist_ok=True)
        path = output / f"shift-{gaming_day}-{shift_name}{'-' + table if table else ''}.{fmt}"
        path.write_text(shift_file(fmt, view, rt.settings, rt.practice), encoding="utf-8")
        (err_console if as_json else console).print(f"wrote {path}", highlight=False)


DayOption = Annotated[str | None, typer.Option(
    "--day", help="Gaming day, YYYY-MM-DD (default: the current one, Macau time).")]
FormatsOption = Annotated[list[Format] | None, typer.Option(
    "--format", help="Also write csv, json and/or html (repeat the option).")]
OutputOption = Annotated[Path, typer.Option(help="Folder the files are written to.")]
CatchUpOption = Annotated[bool, typer.Option(help="Bring the projections up to date first.")]


@app.command()
def day(day: DayOption = None, formats: FormatsOption = None,
        output: OutputOption = Path("reports"), catch_up: CatchUpOption = True,
        as_json: JsonOption = False, wide: WideOption = False) -> None:
    """The gaming day: each shift, each table's day, game and pit subtotals, the floor; whether
    the day is closed."""
    from projections.shifts.period_reports import gaming_day_report

    _period("day", day, formats, output, catch_up, as_json, wide,
            lambda conn, on, schedule: gaming_day_report(conn, on, schedule.names,
                                                      day_starts=schedule.day_starts))


@app.command()
def month(through: Annotated[str | None, typer.Option(
              "--through", help="Last gaming day, YYYY-MM-DD (default: the current one).")] = None,
          formats: FormatsOption = None, output: OutputOption = Path("reports"),
          catch_up: CatchUpOption = True, as_json: JsonOption = False,
          wide: WideOption = False) -> None:
    """The month to date: drop, win and hold day by day, by game and by pit."""
    from projections.shifts.period_reports import month_to_date

    _period("month", through, formats, output, catch_up, as_json, wide,
            lambda conn, on, schedule: month_to_date(conn, on, day_starts=schedule.day_starts))


def _period(kind: str, day: str | None, formats: list[Format] | None, output: Path,
            catch_up: bool, as_json: bool, wide: bool, build: Any) -> None:
    from ledger.cli.shift import shift_slot
    from ledger.reports import period

    with reading() as rt:
        on, _ = shift_slot(rt.settings.shift_schedule, day, None)
        if catch_up:
            _catch_up(rt)
        with rt.database.connect() as conn:
            view = build(conn, on, rt.settings.shift_schedule)
    if as_json:
        sys.stdout.write(marked(period.to_json(view), Format.JSON, rt.practice) + "\n")
    else:
        say_practice(rt.practice)
        period.to_rich(view, console, wide=wide)
    for fmt in formats or []:
        output.mkdir(parents=True, exist_ok=True)
        path = output / f"{kind}-{on}.{fmt}"
        if fmt is Format.HTML:
            from ledger.pages.period import to_html

            text = to_html(view, rt.settings.property_name, schedule=rt.settings.shift_schedule)
        else:
            text = period.to_csv(view) if fmt is Format.CSV else period.to_json(view)
        path.write_text(marked(text, fmt, rt.practice), encoding="utf-8")
        (err_console if as_json else console).print(f"wrote {path}", highlight=False)


def _catch_up(rt: Any) -> None:
    try:
        with ProjectionRunner(rt.database, select(["shift_report"])) as runner:
            runner.catch_up()
    except psycopg.errors.InsufficientPrivilege:  # a reader: report what is projected
        err_console.print("[yellow]note:[/] this login may only read, so the report "
                          "is as far as the projection runner has brought it "
                          "(`ledger projections status` shows how far).",
                          highlight=False)


def marked(text: str, fmt: Format, practice: bool) -> str:
    """An export of a practice ledger, saying so: a JSON object's first key, a CSV's first
    line (a comment); a page names its property as practice already."""
    if not practice or fmt is Format.HTML:
        return text
    if fmt is Format.CSV:
        return f"# {PRACTICE_MARK}\n{text}"
    return json.dumps({"practice": PRACTICE_MARK, **json.loads(text)}, indent=2)


def shift_file(fmt: Format, view: ShiftReportView, settings: Any, practice: bool) -> str:
    """A shift report's file as every command writes it (the demo's too): a practice ledger's
    marked as practice."""
    return marked(_render(fmt, view, settings), fmt, practice)


def _render(fmt: Format, view: ShiftReportView, settings: Any) -> str:
    if fmt is Format.HTML:
        from ledger.pages.shift_report import to_html  # Jinja2 only when a page is asked for

        return to_html(view, settings.property_name, schedule=settings.shift_schedule)
    return to_csv(view) if fmt is Format.CSV else to_json(view)


@app.command()
def group(day: DayOption = None, catch_up: CatchUpOption = True,
          as_json: JsonOption = False, wide: WideOption = False) -> None:
    """On a group database: each replicated property's gaming day by game and pit, side by
    side (`ledger db init --replica-of` feeds it)."""
    from ledger.cli.shift import shift_slot
    from ledger.reports.group import group_day
    from ledger.reports.group import to_json as group_json
    from ledger.reports.group import to_rich as group_rich

    with reading() as rt:
        gaming_day, _ = shift_slot(rt.settings.shift_schedule, day, None)
        view = group_day(rt.database, gaming_day, rt.settings.shift_schedule, catch_up=catch_up)
    if as_json:
        sys.stdout.write(group_json(view) + "\n")
    else:
        group_rich(view, console, wide=wide)


class Period(StrEnum):
    DAY = "day"
    MONTH = "month"
    YTD = "ytd"


@app.command()
def statistics(
    period: Annotated[Period, typer.Option(
        help="day (the gaming day), month (to date) or ytd (year to date).")] = Period.MONTH,
    through: Annotated[str | None, typer.Option(
        "--through", help="Last gaming day, YYYY-MM-DD (default: the current one).")] = None,
    confidence: Annotated[str, typer.Option(
        help="The bands' confidence, between 0 and 1.")] = "0.95",
    formats: FormatsOption = None, output: OutputOption = Path("reports"),
    catch_up: CatchUpOption = True, as_json: JsonOption = False, wide: WideOption = False,
) -> None:
    """Theoretical win from the real handle and exact edges, its band, actual hold on the
    handle and on the drop, and win-to-drop's change from the previous business year (the
    previous month in the first year) with its interval, per table, dealer, game, pit and the
    floor; a change outside its interval is listed for investigation (the house rule, taken
    from Maryland's COMAR 36.05.03.25(B)(2))."""
    from ledger.cli.shift import shift_slot
    from ledger.reports import statistics_files as files
    from ledger.reports.statistics import statistics as build

    level = _decimal("--confidence", confidence)
    with reading() as rt:
        on, _ = shift_slot(rt.settings.shift_schedule, through, None)
        if catch_up:
            _catch_up(rt)
        with rt.database.connect() as conn:
            report = build(conn, period.value, on, property_name=rt.settings.property_name,
                           confidence=level)
        practice = rt.practice
    if as_json:
        sys.stdout.write(marked(files.to_json(report), Format.JSON, practice) + "\n")
    else:
        say_practice(practice)
        files.to_rich(report, console, wide=wide)
    for fmt in formats or []:
        output.mkdir(parents=True, exist_ok=True)
        path = output / f"statistics-{period.value}-{on}.{fmt}"
        if fmt is Format.HTML:
            from ledger.pages.statistics import to_html

            text = to_html(report)
        else:
            text = files.to_csv(report) if fmt is Format.CSV else files.to_json(report)
        path.write_text(marked(text, fmt, practice), encoding="utf-8")
        (err_console if as_json else console).print(f"wrote {path}", highlight=False)


class ProtectionFormat(StrEnum):
    """The protection report's files: its findings are sentences, not a table for a
    spreadsheet, so it is written as JSON or a page, never CSV."""

    JSON = "json"
    HTML = "html"


class ProtectionPeriod(StrEnum):
    SHIFT = "shift"
    DAY = "day"
    MONTH = "month"


@app.command()
def protection(
    period: Annotated[ProtectionPeriod, typer.Option(
        help="shift, day (the gaming day) or month (to date).")] = ProtectionPeriod.SHIFT,
    day: DayOption = None,
    shift_name: Annotated[str | None, typer.Option(
        "--shift", help="Shift name, e.g. day (default: the shift now running).")] = None,
    formats: Annotated[list[ProtectionFormat] | None, typer.Option(
        "--format", help="Also write json and/or html (repeat the option).")] = None,
    output: OutputOption = Path("reports"), as_json: JsonOption = False,
) -> None:
    """Game protection: players winning more than chance allows, stakes that follow the coming
    cards, dealers' irregularities against the floor's, voids after the cards had decided,
    jackpot hits; each with its chance under fair play, corrected for how many were tested."""
    from ledger.audit.protection import report as protect
    from ledger.cli.shift import shift_slot

    with reading() as rt:
        on, name = shift_slot(rt.settings.shift_schedule, day, shift_name)
        with rt.database.connect() as conn:
            view = protect.protection_report(
                conn, period.value, on, name, rt.settings.shift_schedule,
                now=rt.ledger.clock.now(), property_name=rt.settings.property_name)
    if as_json:
        sys.stdout.write(marked(protect.to_json(view), Format.JSON, rt.practice) + "\n")
    else:
        say_practice(rt.practice)
        protect.to_rich(view, console)
    for fmt in formats or []:
        output.mkdir(parents=True, exist_ok=True)
        suffix = f"-{name}" if period is ProtectionPeriod.SHIFT else ""
        path = output / f"protection-{period.value}-{on}{suffix}.{fmt}"
        if fmt is ProtectionFormat.HTML:
            from ledger.pages.protection import to_html

            text = to_html(view)
        else:
            text = marked(protect.to_json(view), Format.JSON, rt.practice)
        path.write_text(text, encoding="utf-8")
        (err_console if as_json else console).print(f"wrote {path}", highlight=False)


@app.command()
def hold(
    through: Annotated[str | None, typer.Option(
        "--through", help="Last gaming day, YYYY-MM-DD (default: the current one).")] = None,
    confidence: Annotated[str, typer.Option(
        help="The bands' confidence, between 0 and 1.")] = "0.95",
    formats: FormatsOption = None, output: OutputOption = Path("reports"),
    catch_up: CatchUpOption = True, as_json: JsonOption = False, wide: WideOption = False,
) -> None:
    """Theoretical against actual hold by game and for the floor, for the gaming day, the month
    to date and the year to date, each with its band; what is outside it listed."""
    from ledger.cli.shift import shift_slot
    from ledger.core.errors import InvalidInput
    from ledger.reports import hold_files as files
    from ledger.reports.hold import hold_report

    level = _decimal("--confidence", confidence)
    if Format.HTML in (formats or []):
        raise InvalidInput("--format html: the hold report is written as csv or json.")
    with reading() as rt:
        on, _ = shift_slot(rt.settings.shift_schedule, through, None)
        if catch_up:
            _catch_up(rt)
        with rt.database.connect() as conn:
            report = hold_report(conn, on, property_name=rt.settings.property_name,
                                 confidence=level)
        practice = rt.practice
    if as_json:
        sys.stdout.write(marked(files.to_json(report), Format.JSON, practice) + "\n")
    else:
        say_practice(practice)
        files.to_rich(report, console, wide=wide)
    for fmt in formats or []:
        output.mkdir(parents=True, exist_ok=True)
        path = output / f"hold-{on}.{fmt}"
        text = files.to_csv(report) if fmt is Format.CSV else files.to_json(report)
        path.write_text(marked(text, fmt, practice), encoding="utf-8")
        (err_console if as_json else console).print(f"wrote {path}", highlight=False)


@app.command()
def investigate(
    scope: Annotated[str, typer.Argument(
        help="What was looked into: 'table SP-01', 'dealer D-7', 'game baccarat', 'pit P1' "
             "or 'floor'.")],
    subject: Annotated[str, typer.Option(help="The flag looked into, in a line.")],
    finding: Annotated[str, typer.Option(help="What the investigation found, in a line.")],
    first_day: Annotated[str, typer.Option("--from", help="First gaming day, YYYY-MM-DD.")],
    last_day: Annotated[str | None, typer.Option(
        "--to", help="Last gaming day, YYYY-MM-DD (default: the first).")] = None,
) -> None:
    """Record an investigation's finding on a flagged figure, signed: shown on every
    statistics report of a period it overlaps, and kept like every record."""
    from ledger.application.bus import SHIFT
    from ledger.cli.common import sender
    from ledger.commands.shift import NoteInvestigation
    from ledger.domain.shift_schedule import parse_gaming_day

    first = parse_gaming_day(first_day)
    last = parse_gaming_day(last_day) if last_day else first
    sender(SHIFT)(NoteInvestigation(first_day=first, last_day=last, scope=scope,
                                    subject=subject, finding=finding))


def _decimal(option: str, text: str) -> Any:
    from decimal import Decimal, InvalidOperation

    from ledger.core.errors import InvalidInput

    try:
        return Decimal(text)
    except InvalidOperation:
        raise InvalidInput(f"{option} '{text}' is not a number.") from None
