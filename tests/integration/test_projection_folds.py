"""Table state's events folded set-based in PostgreSQL (the Table stream's, and the bets, cards
and shoe draws of every round) leave exactly what their per-event handlers leave, row for row,
however the batches cut the events, at the end of a shift and in the middle of its rounds.

The handlers are the reference (`ledger verify` rebuilds with them); the fold is what the runner
and the rebuild use. Each comparison rebuilds the projection twice from the same events, once
with the fold and once with it switched off, and checks that the fold really ran. The shift
compared holds every type of event each projection handles (a handler added for a new type
fails here until the shift records one), its irregular moments added to the floor's shift.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest

from ledger.commands.round import DealCard, OpenRound, PlaceBet, RecordIrregularity, SettleRound
from ledger.commands.shift import AdjustDrop, RecordFill, VoidSlip
from ledger.commands.table import (
    ChangeTableSettings,
    CloseTable,
    OpenTable,
    SignInDealer,
    SignOutDealer,
)
from ledger.core import clock as ledger_clock
from ledger.domain.base import Aggregate
from projections.engine.base import Projection
from projections.engine.rebuild import rebuild
from projections.shifts.report import ShiftReport
from projections.tables.state import TableState
from tests.integration.floor_driver import (
    DAY,
    DEALER,
    PIT_BOSS,
    SHIFT,
    SUPERVISOR,
    FloorDriver,
)
from tests.signing import open_ledger, playing_other_days

BATCH_SIZES = (1, 7, 5000)  # every event alone, runs cut mid-command, the whole floor at once


def rows(conn: Any, projection: type[Projection] = TableState
         ) -> dict[str, list[tuple[Any, ...]]]:
    return {table: sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
            for table in projection.tables}


def folded_and_handled(database: Any, conn: Any, monkeypatch: Any, batch_size: int,
                       must_run: set[str] | None = None,
                       projection: type[Projection] = TableState) -> tuple[
        dict[str, list[tuple[Any, ...]]], dict[str, list[tuple[Any, ...]]]]:
    """The projection's rows rebuilt with its folds (which must have run), then without."""
    runs: dict[str, list[tuple[int, int]]] = {}

    def counting(name: str) -> Any:
        fold = getattr(projection, name)

        def counted(self: Projection, cursor: Any, lo: int, hi: int) -> None:
            runs.setdefault(name, []).append((lo, hi))
            fold(self, cursor, lo, hi)
        return counted

    with monkeypatch.context() as patch:
        for name in set(projection.folds.values()):
            patch.setattr(projection, name, counting(name))
        rebuild(database, projection, batch_size=batch_size)
    must_run = set(projection.folds.values()) if must_run is None else must_run
    assert must_run <= set(runs), f"the folds that ran: {sorted(runs)}"
    folded = rows(conn, projection)
    with monkeypatch.context() as patch:
        patch.setattr(projection, "folds", {})
        rebuild(database, projection, batch_size=batch_size)
    return folded, rows(conn, projection)


def irregular_moments(floor: FloorDriver) -> None:
    """Before the tables close: a dealing error noted and the coup going on, a dealer signed
    out and in again, new house settings, a fill slip recorded and voided."""
    floor.send(OpenRound, table="BAC-01")
    floor.send(PlaceBet, table="BAC-01", box=1, spot="banker", amount=Decimal(100), player="P-1")
    for to, card in (("player", "2S"), ("banker", "4H")):
        floor.send(DealCard, table="BAC-01", to=to, card=card, face_up=True)
    floor.send(RecordIrregularity, table="BAC-01", kind="initial_deal_error", cards=["2D"],
               note="the player's second card slid to the banker: moved back")
    for to, card in (("player", "2D"), ("banker", "KC"), ("player", "9S")):
        floor.send(DealCard, table="BAC-01", to=to, card=card, face_up=True)
    floor.send(SettleRound, table="BAC-01")
    floor.send(SignOutDealer, actor=PIT_BOSS, table="BAC-02", dealer_id=DEALER.staff_id)
    floor.send(SignInDealer, actor=PIT_BOSS, table="BAC-02", dealer_id=DEALER.staff_id)
    floor.send(ChangeTableSettings, actor=SUPERVISOR, table="F8-01", effective_from=DAY,
               settings={"min_bet": "200", "max_bet": "30000"}, authorisation="DICJ-F8-1")
    shift = {"table": "BAC-01", "gaming_day": DAY, "shift": SHIFT}
    floor.send(RecordFill, actor=SUPERVISOR, slip=107, chips={"1000": 1}, runner_id="R-1",
               supervisor=SUPERVISOR, **shift)
    floor.send(VoidSlip, actor=SUPERVISOR, slip=107, reason="written for the wrong table",
               **shift)


def after_the_count(floor: FloorDriver) -> None:
    """After the shifts close: a drop corrected, a table closed and opened again."""
    floor.send(AdjustDrop, actor=SUPERVISOR, table="BAC-01", gaming_day=DAY, shift=SHIFT,
               cash=Decimal(4100), markers=Decimal(0), reason="a note found in the box")
    floor.send(CloseTable, actor=PIT_BOSS, table="BAC-02")
    floor.send(OpenTable, actor=PIT_BOSS, table="BAC-02", game="baccarat",
               min_bet=Decimal(500), max_bet=Decimal(50000), pit="west")


def stored_types(conn: Any) -> set[str]:
    return {kind for (kind,) in conn.execute(
        "SELECT DISTINCT split_part(topic, ':', 2) FROM ledger_events").fetchall()}


@pytest.mark.parametrize("projection", [TableState, ShiftReport])
def test_a_shift_of_every_game_folded_equals_its_events_applied_one_by_one(
        settings, database, superuser, monkeypatch, projection):
    looked: list[str] = []

    def mid_round(name: str) -> None:  # a round half dealt: its phase, bets and cards so far
        looked.append(name)
        for batch_size in (7, 5000):
            folded, handled = folded_and_handled(database, superuser, monkeypatch, batch_size,
                                                 set(), projection)
            assert folded == handled, f"{name}, batches of {batch_size}"

    with open_ledger(settings) as rt:
        floor = FloorDriver(rt.ledger)
        floor.record_shift(mid_round, before_close=lambda: irregular_moments(floor))
        after_the_count(floor)
    assert len(looked) > 3
    assert set(projection.handled_types()) - stored_types(superuser) == set()
    for batch_size in BATCH_SIZES:
        folded, handled = folded_and_handled(database, superuser, monkeypatch, batch_size,
                                             projection=projection)
        # every table has rows, but the stakes of rounds in play: none at the shift's end
        assert all(found for table, found in handled.items() if table != "report_round_stakes")
        assert folded == handled, f"batches of {batch_size}"


@pytest.mark.parametrize("batch_size", BATCH_SIZES)
def test_limits_taken_on_a_date_that_goes_back_keep_the_last_ones_found(
        settings, database, superuser, monkeypatch, batch_size):
    """Terminals stamp times in their own zone, so the date an event takes its limits on can go
    back: a settings change stamped -12:00 after one stamped +14:00 finds no limits in force on
    its date and leaves those the earlier one found, not the opening's."""
    east, west = timezone(timedelta(hours=14)), timezone(timedelta(hours=-12))
    now = ledger_clock.now().astimezone(east).replace(microsecond=0) - timedelta(hours=3)
    today = now.date()
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)

        def send(command_type: Any, when: datetime, **fields: Any) -> None:
            rt.ledger.execute(command_type(table="BAC-Z1", actor=SUPERVISOR, at=when, **fields))

        send(OpenTable, now, game="baccarat", min_bet=Decimal(100), max_bet=Decimal(20000))
        send(ChangeTableSettings, now + timedelta(minutes=10),
             settings={"min_bet": "200", "max_bet": "30000"}, effective_from=today,
             authorisation="DICJ-Z-1")
        send(ChangeTableSettings, (now + timedelta(minutes=20)).astimezone(west),
             settings={"min_bet": "500", "max_bet": "50000"},
             effective_from=today + timedelta(days=1), authorisation="DICJ-Z-2")
        send(SignInDealer, now + timedelta(minutes=30), dealer_id="D-1")
        send(CloseTable, now + timedelta(minutes=40))
    folded, handled = folded_and_handled(database, superuser, monkeypatch, batch_size,
                                         {"fold_table_events"})
    assert folded == handled
    state = superuser.execute("SELECT min_bet, limits_from, dealer, is_open FROM table_state"
                              ).fetchone()
    assert state == (Decimal("200.00"), today, None, False)


class Repainted(Aggregate.Event):
    """An event no projection knows."""


def test_a_fold_cannot_stand_without_the_handler_it_is_checked_against():
    from projections.engine.base import folds, handles

    with pytest.raises(TypeError, match="folds"):
        class Unchecked(TableState):
            @folds(Repainted)
            def fold_paint(self, cursor: Any, lo: int, hi: int) -> None: ...

    class Checked(TableState):
        @handles(Repainted)
        def repainted(self, event: Any, cursor: Any) -> None: ...

        @folds(Repainted)
        def fold_paint(self, cursor: Any, lo: int, hi: int) -> None: ...

    assert Checked.folds[Repainted.event_type] == "fold_paint"


def test_rounds_and_shoes_shown_once_a_batch_leave_what_showing_them_after_every_event_left(
        settings, database, superuser):
    """Every round and shoe a batch touched is copied onto its table once, at the batch's end:
    a whole shift in one batch leaves the rows that every event in a batch of its own left."""
    with open_ledger(settings) as rt:
        FloorDriver(rt.ledger).record_shift()
    rebuild(database, TableState, batch_size=1)
    one_by_one = rows(superuser)
    rebuild(database, TableState, batch_size=5000)
    assert rows(superuser) == one_by_one
    assert any(row for row in one_by_one["table_rounds"])
