"""What the projection tests share: a floor of recorded tables, and the projection's rows."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from ledger.application.ledger import Ledger
from ledger.commands import utc_now
from ledger.commands.table import CloseTable, SignInDealer, SignOutDealer
from ledger.domain.base import Provenance
from ledger.domain.table import Table, table_id
from projections.tables.state import TableState
from tests.integration.helpers import DEALER, PIT_BOSS, open_table

GAMES = ("baccarat", "stud-poker", "q-poker", "fortune-8")


class Floor:
    """Records table commands one at a time, each a legal next step for its table."""

    def __init__(self, ledger: Ledger, tables: int = 4, prefix: str = "T") -> None:
        self.ledger = ledger
        self.codes = [f"{prefix}-{n:02d}" for n in range(tables)]
        self.steps = 0
        for n, code in enumerate(self.codes):
            ledger.execute(open_table(code, game=GAMES[n % len(GAMES)]))

    def step(self) -> None:
        """The next command for the next table: dealer in, dealer out, close, re-open."""
        code = self.codes[self.steps % len(self.codes)]
        phase = (self.steps // len(self.codes)) % 4
        self.steps += 1
        if phase == 0:
            self.ledger.execute(SignInDealer(table=code, dealer_id=f"D-{self.steps}", actor=PIT_BOSS))
        elif phase == 1:
            self.ledger.execute(CloseTable(table=code, actor=PIT_BOSS))  # signs the dealer out
        elif phase == 2:
            self.ledger.execute(open_table(code, game="baccarat", pit="east"))
        else:
            self.ledger.execute(SignInDealer(table=code, dealer_id="D-9", actor=PIT_BOSS))
            self.ledger.execute(SignOutDealer(table=code, dealer_id="D-9", actor=PIT_BOSS))

    def steps_of(self, count: int) -> None:
        for _ in range(count):
            self.step()


def append_dealer_shifts(ledger: Ledger, code: str, events: int, per_save: int = 50) -> None:
    """`events` sign-ins and sign-outs at an open table, saved `per_save` to a transaction.

    Straight through the application (no command per event), to record thousands quickly.
    """
    table = ledger.load(Table, table_id(code), f"table {code}")
    pending = 0
    for n in range(events):
        by = Provenance(command_id=uuid4(), actor=DEALER, terminal="test", at=utc_now())
        if table.dealer is None:
            table.sign_in(dealer_id=f"D-{n % 7}", by=by)
        else:
            table.sign_out(dealer_id=table.dealer, by=by)
        pending += 1
        if pending == per_save:
            ledger.app.save(table)
            pending = 0
    if pending:
        ledger.app.save(table)


def table_state_rows(conn: Any) -> list[tuple[Any, ...]]:
    """Every row of the live table-state projection, every column, in a stable order."""
    return conn.execute("SELECT * FROM table_state ORDER BY stream_id").fetchall()


def position(conn: Any, name: str = TableState.name) -> int:
    row = conn.execute(
        "SELECT position FROM ledger_tracking WHERE projection = %s", (name,)
    ).fetchone()
    return int(row[0]) if row else 0


def last_position(conn: Any) -> int:
    return int(conn.execute(
        "SELECT coalesce(max(notification_id), 0) FROM ledger_events"
    ).fetchone()[0])


def handled_events_per_stream(conn: Any) -> dict[Any, int]:
    """How many events of the types table state handles each stream holds: each must be
    applied exactly once."""
    rows = conn.execute(
        "SELECT originator_id, count(*) FROM ledger_events "
        "WHERE split_part(topic, ':', 2) = ANY(%s) GROUP BY originator_id",
        (TableState.handled_types(),),
    ).fetchall()
    return {stream: int(count) for stream, count in rows}


def events_applied_per_stream(conn: Any) -> dict[Any, int]:
    rows = conn.execute("SELECT stream_id, events_applied FROM table_state").fetchall()
    return {stream: int(count) for stream, count in rows}
