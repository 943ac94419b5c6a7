"""The floor as the CLI reads it: a table straight from its events; the tables and pools from
the projections, brought up to date first."""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel

from ledger.application.ledger import Ledger
from ledger.domain.table import Table, check_table_code, table_id
from ledger.infrastructure.database import Database
from projections import queries as projected
from projections.engine.runner import ProjectionRunner
from projections.jackpot_pools import JackpotPools
from projections.tables.state import TableState


class TableView(BaseModel):
    code: str
    game: str
    rule_set: str
    min_bet: Decimal
    max_bet: Decimal
    pit: str
    is_open: bool
    dealer: str | None
    version: int


def _view(table: Table) -> TableView:
    return TableView(
        code=table.code, game=table.game, rule_set=table.rule_set, min_bet=table.min_bet,
        max_bet=table.max_bet, pit=table.pit, is_open=table.is_open, dealer=table.dealer,
        version=table.version,
    )


def table_view(ledger: Ledger, code: str) -> TableView:
    code = check_table_code(code)
    return _view(ledger.load(Table, table_id(code), f"table {code}"))


def _caught_up(database: Database, projection: type[JackpotPools | TableState]) -> None:
    """The projection brought up to the last event, so what is read next is current."""
    with ProjectionRunner(database, [projection], rebuild=False) as runner:
        runner.catch_up()


def floor_tables(database: Database) -> list[projected.TableState]:
    """Every table as the table-state projection has it, caught up first."""
    _caught_up(database, TableState)
    with database.connect() as conn:
        return projected.table_states(conn)


def floor_pools(database: Database) -> list[projected.JackpotPoolView]:
    """Every jackpot pool as the jackpot-pools projection has it, caught up first."""
    _caught_up(database, JackpotPools)
    with database.connect() as conn:
        return projected.jackpot_pools(conn)
