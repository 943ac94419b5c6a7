"""The group's gaming day: each property's figures side by side, by game and pit, read in the
group database from the events each property replicates there (`ledger.infrastructure.
replication`). Each property's shift-report projection is brought up to date in its own schema
first, and its gaming-day report is added up by game and pit: the same figures its own
`ledger report day` gives, never mixed with another property's."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import date
from decimal import Decimal
from typing import Any

from pydantic import BaseModel
from rich.console import Console

from ledger.core.formatting import amount, exact_json
from ledger.domain.shift_schedule import ShiftSchedule
from ledger.infrastructure.database import Database
from ledger.infrastructure.replication import replicated_properties
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.wording import game
from projections.engine.runner import ProjectionRunner
from projections.registry import select
from projections.shifts.period_reports import gaming_day_report

ZERO = Decimal("0.00")


class GroupLine(BaseModel):
    property: str
    game: str
    pit: str
    tables: int
    rounds_played: int
    handle: Decimal
    ledger_win: Decimal
    drop: Decimal | None  # None: a drop box of the line not counted yet


class GroupDay(BaseModel):
    gaming_day: date
    properties: list[str]
    lines: list[GroupLine]


def group_day(database: Database, gaming_day: date, schedule: ShiftSchedule, *,
              catch_up: bool = True) -> GroupDay:
    with database.connect() as conn:
        properties = replicated_properties(conn)
    lines: list[GroupLine] = []
    for code in properties:
        own = database.with_schema(code)
        if catch_up:
            with ProjectionRunner(own, select(["shift_report"])) as runner:
                runner.catch_up()
        with own.connect() as conn:
            view = gaming_day_report(conn, gaming_day, schedule.names,
                                     day_starts=schedule.day_starts)
        lines += _by_game_and_pit(code, view.tables)
    return GroupDay(gaming_day=gaming_day, properties=properties, lines=lines)


def _by_game_and_pit(code: str, tables: list[Any]) -> list[GroupLine]:
    grouped: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for line in tables:
        grouped[(line.game, line.pit)].append(line)
    return [GroupLine(
        property=code, game=game, pit=pit, tables=len({line.table for line in lines}),
        rounds_played=sum(line.rounds_played for line in lines),
        handle=sum((line.handle for line in lines), ZERO),
        ledger_win=sum((line.ledger_win for line in lines), ZERO),
        drop=None if any(line.drop is None for line in lines)
        else sum((line.drop for line in lines), ZERO))
        for (game, pit), lines in sorted(grouped.items())]


def to_json(view: GroupDay) -> str:
    """The report for machines, as every report's JSON is written (`exact_json`)."""
    return json.dumps(exact_json(view.model_dump()), indent=2)


def to_rich(view: GroupDay, console: Console, *, wide: bool = False) -> None:
    """Too narrow a terminal leaves out the tables first, then the rounds and the pit: never a
    property, a game or its money."""
    grid = Grid(text("property"), text("game"), figure("pit", 3), figure("tables", 1),
                figure("rounds", 2), figure("handle"), figure("ledger win"), figure("drop"),
                title=f"Group gaming day {view.gaming_day}: "
                      f"{', '.join(view.properties) or 'no property replicated here'} (MOP)")
    for line in view.lines:
        grid.add_row(line.property, game(line.game), line.pit, str(line.tables),
                     f"{line.rounds_played:,}", amount(line.handle), amount(line.ledger_win),
                     amount(line.drop) if line.drop is not None else "not counted")
    grid.print(console, wide=wide)
