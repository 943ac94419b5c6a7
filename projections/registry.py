"""Every projection the ledger keeps, by name. A new projection is one more entry here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from psycopg import Connection

from ledger.core.errors import InvalidInput
from projections.engine.base import Projection
from projections.jackpot_pools import JackpotPools
from projections.shifts.report import ShiftReport
from projections.tables.state import TableState

PROJECTIONS: tuple[type[Projection], ...] = (TableState, JackpotPools, ShiftReport)


def projection_names() -> list[str]:
    return [projection.name for projection in PROJECTIONS]


def select(names: Sequence[str] = ()) -> list[type[Projection]]:
    """The projections named (all of them when none is), refusing a name nobody knows."""
    known = {projection.name: projection for projection in PROJECTIONS}
    for name in names:
        if name not in known:
            raise InvalidInput(
                f"unknown projection '{name}': known are "
                f"{', '.join(name.replace('_', '-') for name in projection_names())}."
            )
    return [known[name] for name in dict.fromkeys(names)] if names else list(PROJECTIONS)


def create_projection_tables(conn: Connection[Any]) -> None:
    """Every projection's live tables (idempotent: `ledger db init` calls it)."""
    for projection in PROJECTIONS:
        projection().create_tables(conn)
