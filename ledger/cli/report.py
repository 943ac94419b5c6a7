"""`ledger report shift`: the shift's reconciliation, per table and rolled up."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import psycopg
import typer

from ledger.bootstrap import open_ledger
from ledger.cli.common import JsonOption, console, err_console
from ledger.reports.shift import to_csv, to_json, to_rich
from projections.registry import select
from projections.reports import ShiftReportView, shift_report
from projections.runner import ProjectionRunner

app = typer.Typer(help="Shift reports and reconciliation.", no_args_is_help=True)


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
) -> None:
    """Print the shift report (ledger win, accounting win, variance, hold) and write files."""
    from ledger.cli.shift import shift_slot

    with open_ledger() as rt:
        gaming_day, shift_name = shift_slot(rt.settings.shift_schedule, day, shift_name)
        if catch_up:
            try:
                with ProjectionRunner(rt.database, select(["shift_report"])) as runner:
                    runner.catch_up()
            except psycopg.errors.InsufficientPrivilege:  # a reader: report what is projected
                err_console.print("[yellow]note:[/] this login may only read, so the report "
                                  "is as far as the projection runner has brought it "
                                  "(`ledger projections status` shows how far).",
                                  highlight=False)
        with rt.database.connect() as conn:
            view = shift_report(conn, gaming_day, shift_name, table.upper() if table else None)
    if as_json:
        sys.stdout.write(to_json(view) + "\n")
    else:
        to_rich(view, console)
    for fmt in formats or []:
        output.mkdir(parents=True, exist_ok=True)
        path = output / f"shift-{gaming_day}-{shift_name}{'-' + table if table else ''}.{fmt}"
        path.write_text(_render(fmt, view, rt.settings.property_name), encoding="utf-8")
        (err_console if as_json else console).print(f"wrote {path}", highlight=False)


def _render(fmt: Format, view: ShiftReportView, property_name: str) -> str:
    if fmt is Format.HTML:
        from ledger.pages.shift_report import to_html  # Jinja2 only when a page is asked for

        return to_html(view, property_name)
    return to_csv(view) if fmt is Format.CSV else to_json(view)
