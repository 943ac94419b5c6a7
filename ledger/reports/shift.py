"""The shift report as CSV, JSON, a rich table and a self-contained HTML page with a chart."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from rich import box
from rich.console import Console

from ledger.core.formatting import (
    CURRENCY,
    amount,
    counted,
    decimal_text,
    exact_json,
    money,
    when,
)
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.csv_table import heading, named
from ledger.presentation.wording import game, line_name
from projections.shifts.read import DayClose, Figures, ShiftReportView

COLUMNS = (
    "table", "game", "pit", "rounds_played", "rounds_voided", "handle", "payouts", "commission",
    "ledger_win", "opening", "closing", "fills", "credits", "drop", "accounting_win",
    "variance", "hold_pct", "jackpot_stakes", "jackpot_contributions", "jackpot_prizes",
    "irregularities", "dealers", "dealt_no_round", "flags",
)


def _value(line: Figures, column: str) -> Any:
    value = getattr(line, column, "")
    if isinstance(value, list):
        return "; ".join(map(str, value))
    return "" if value is None else value


def to_csv(view: ShiftReportView) -> str:
    """Headed in words, a game by its name (`to_json` keeps the codes, the words beside)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([heading(c) for c in ("level", *COLUMNS)])
    for t in view.tables:
        writer.writerow(["table", *(game(t.game) if c == "game" else _value(t, c)
                                    for c in COLUMNS)])
    for level, rollups in (("game", view.by_game), ("pit", view.by_pit), ("floor", [view.floor])):
        for r in rollups:
            writer.writerow([level, named(level, r.name), *(_value(r, c) for c in COLUMNS[1:])])
    return out.getvalue()


def to_json(view: ShiftReportView) -> str:
    """The report for machines, as every report's JSON is written (`exact_json`)."""
    data = exact_json(view.model_dump())

    def exact(line: dict[str, Any], source: Figures) -> None:
        line.update(variance=decimal_text(source.variance), hold_pct=decimal_text(source.hold_pct))

    for line, source in zip(data["tables"], view.tables, strict=True):
        exact(line, source)
        line["said"] = {"game": game(source.game)}  # the words beside the code
    for key, level in (("by_game", "game"), ("by_pit", "pit")):
        for line, source in zip(data[key], getattr(view, key), strict=True):
            exact(line, source)
            line["said"] = line_name(level, source.name)
    exact(data["floor"], view.floor)
    return json.dumps(data, indent=2)


HOLD_ON_DROP = "hold %\non drop"
"""The shift's hold: the accounting win over the drop, headed so, beside the drop it divides."""


def to_rich(view: ShiftReportView, console: Console, *, wide: bool = False) -> None:
    """The reconciliation at a glance; each flag below the table, one line each. Too narrow a
    terminal leaves out the rounds first, then hold and the drop, then the handle: never the
    reconciliation (ledger win, accounting win, variance)."""
    grid = Grid(text("table"), figure("rounds", 5), figure("handle", 2), figure("ledger win"),
                figure("acct. win"), figure("variance"), figure("drop", 3),
                figure(HOLD_ON_DROP, 4),
                title=f"{view.shift} shift, gaming day {view.gaming_day} ({CURRENCY})",
                box=box.SIMPLE_HEAD, pad_edge=False)
    for t in view.tables:  # a flagged table is starred; its reasons follow the table
        grid.add_row(*_row(f"[red]{t.table}*[/]" if t.flags else t.table, t))
    grid.add_section()
    for r in (*view.by_game, *view.by_pit):
        label = f"pit {r.name}" if r in view.by_pit else game(r.name)
        grid.add_row(*_row(f"[bold]{label}[/]", r))
    grid.add_section()
    grid.add_row(*_row("[bold]FLOOR[/]", view.floor))
    grid.print(console, wide=wide)
    console.print(day_state(view.day_closed), highlight=False)
    floor = view.floor
    console.print(
        f"jackpot (kept apart from table win): stakes {money(floor.jackpot_stakes)}, "
        f"contributions {money(floor.jackpot_contributions)}, prizes "
        f"{money(floor.jackpot_prizes)}; {counted(floor.irregularities, 'irregularity', 'irregularities')}; "
        f"drop {money(floor.drop)}; {floor.flagged} of {counted(floor.tables, 'table')} flagged for review",
        highlight=False,
    )
    for t in view.tables:
        for flag in t.flags:
            console.print(f"[red]review {t.table}[/]: {flag}", highlight=False)
    for line in unassigned_lines(view):
        console.print(f"[red]review[/]: {line}", highlight=False)


def day_state(closed: DayClose | None) -> str:
    """Whether the gaming day is closed, in a sentence."""
    if closed is None:
        return "the gaming day is open: shifts, slips and rounds may still be recorded"
    return f"the gaming day closed {when(closed.at)} (by {closed.by})"


def unassigned_lines(view: ShiftReportView) -> list[str]:
    """Each round of the gaming day played outside every shift, one sentence each."""
    return [f"round {r.number} at {r.table}, opened "
            f"{when(r.opened_at)}, was played outside "
            "every shift: it is in no shift's figures" if r.opened_at else
            f"round {r.number} at {r.table} was played outside every shift"
            for r in view.unassigned]


def dealt_no_round(view: ShiftReportView) -> str:
    """The shift's dealers who signed in (or signed a count) at a table and dealt none of its
    rounds, said once for the floor, not on every table (a relief signed in as a table closes
    is at most tables): `signed in, dealt no round: D-2 at BAC-01; D-5 at SP-01 and SP-02`;
    "" for none."""
    tables: dict[str, list[str]] = {}
    for t in view.tables:
        for dealer in t.dealt_no_round:
            tables.setdefault(dealer, []).append(t.table)
    if not tables:
        return ""
    return "signed in, dealt no round: " + "; ".join(
        f"{dealer} at {_listed(codes)}" for dealer, codes in tables.items())


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _row(name: str, line: Figures) -> list[str]:
    rounds = f"{line.rounds_played}" + (f" +{line.rounds_voided}v" if line.rounds_voided else "")
    return [
        name, rounds, amount(line.handle), amount(line.ledger_win), amount(line.accounting_win),
        amount(line.variance), amount(line.drop),
        "-" if line.hold_pct is None else f"{line.hold_pct}",
    ]
