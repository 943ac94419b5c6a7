"""The projection runner and the table-state projection on a real PostgreSQL.

What they must hold: the live model equals a rebuild from scratch row for row, however the
events arrived and even while writers go on during the rebuild; rows and position are
committed together; events of types a projection ignores still move its position.
"""

from __future__ import annotations

import threading
from decimal import Decimal
from typing import Any
from uuid import uuid4

import psycopg
import pytest

from ledger.audit.replay.chain import verify_chains
from ledger.audit.verification.findings import LedgerReport
from ledger.audit.verification.projection_check import check_projections
from ledger.commands.table import CloseTable, SignInDealer
from ledger.core.errors import NotFound, ProjectionStalled, WrongState
from ledger.domain.table import table_id
from projections.engine.rebuild import rebuild
from projections.engine.runner import Batch, ProjectionRunner
from projections.engine.tracking import stalled
from projections.queries import table_state, table_states
from projections.tables.state import TableState
from tests.integration.helpers import PIT_BOSS, open_table
from tests.integration.projection_helpers import (
    Floor,
    events_applied_per_stream,
    handled_events_per_stream,
    last_position,
    position,
    table_state_rows,
)
from tests.signing import open_ledger


def catch_up(database: Any, batch_size: int = 1000) -> None:
    with ProjectionRunner(database, [TableState], batch_size=batch_size) as runner:
        runner.catch_up()


def test_table_state_follows_a_table_through_dealers_closing_and_reopening(settings, database):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("SP-01", game="stud-poker", rule_set="stud-poker/2003"))
        rt.ledger.execute(SignInDealer(table="SP-01", dealer_id="D-7", actor=PIT_BOSS))
        catch_up(database)
        with database.connect() as conn:
            staffed = table_state(conn, "sp-01")
        rt.ledger.execute(CloseTable(table="SP-01", actor=PIT_BOSS))
        rt.ledger.execute(open_table("SP-01", game="stud-poker", max_bet=Decimal(9000),
                                     pit="vip"))
        catch_up(database)
        with database.connect() as conn:
            reopened = table_state(conn, "SP-01")
    assert (staffed.is_open, staffed.game, staffed.rule_set, staffed.dealer) == (
        True, "stud-poker", "stud-poker/2003", "D-7")
    assert (reopened.is_open, reopened.dealer, reopened.max_bet, reopened.pit) == (
        True, None, Decimal("9000.00"), "VIP")
    assert reopened.rule_set == "stud-poker/2004" and reopened.closed_at is not None
    assert reopened.round_id is None and reopened.last_results is None  # no round events yet
    assert reopened.events_applied == 5  # opened, signed in, signed out, closed, re-opened


def test_a_projection_built_a_few_events_at_a_time_equals_a_rebuild_from_scratch(
    settings, database, superuser
):
    with open_ledger(settings) as rt:
        floor = Floor(rt.ledger, tables=5)
        for _ in range(8):
            floor.steps_of(5)
            catch_up(database, batch_size=3)
    live = table_state_rows(superuser)
    rebuild(database, TableState, batch_size=7)
    assert table_state_rows(superuser) == live
    assert position(superuser) == last_position(superuser)


def test_one_pass_of_a_busy_floor_returns_after_a_batch_saying_more_are_waiting(
        settings, database):
    """The floor's feed reads the floor between passes: a catch-up that went on while events
    kept coming would leave the screens seconds behind a busy floor."""
    with open_ledger(settings) as rt:
        for n in range(1, 4):
            rt.ledger.execute(open_table(f"BAC-0{n}"))
    with ProjectionRunner(database, [TableState], batch_size=2) as runner:
        read = runner.catch_up(one_pass=True)
        assert (read, runner.behind) == (2, True)
        passes = 1
        while runner.behind:
            runner.catch_up(one_pass=True)
            passes += 1
        with database.connect() as conn:
            assert position(conn, "table_state") == last_position(conn)
    assert passes > 2


def test_live_projection_equals_a_rebuild_while_writers_go_on_during_the_rebuild(
    settings, database, superuser
):
    """A follower runs throughout; every shadow batch of the rebuild is followed by a write."""
    stop, follower_error = threading.Event(), []

    def follow() -> None:
        try:
            with ProjectionRunner(database, [TableState], batch_size=4, poll_seconds=0.05) as r:
                r.follow(stop)
        except BaseException as error:  # noqa: BLE001 - surfaced below, in the test's thread
            follower_error.append(error)

    with open_ledger(settings) as rt:
        floor = Floor(rt.ledger, tables=6)
        floor.steps_of(30)
        follower = threading.Thread(target=follow)
        follower.start()
        writes_during_rebuild = []

        def write_while_rebuilding(position: int, last: int) -> None:
            if len(writes_during_rebuild) < 12:  # bounded, so the rebuild can catch up
                floor.step()
                writes_during_rebuild.append(position)

        rebuild(database, TableState, batch_size=5, on_progress=write_while_rebuilding)
        floor.steps_of(10)  # after the swap: the follower carries on, on the new tables
        stop.set()
        follower.join()
    assert not follower_error, follower_error
    assert len(writes_during_rebuild) == 12
    catch_up(database)
    live = table_state_rows(superuser)
    rebuild(database, TableState)
    assert table_state_rows(superuser) == live
    assert events_applied_per_stream(superuser) == handled_events_per_stream(superuser)


def test_a_projection_ignores_event_types_it_does_not_handle_but_records_their_position(
    settings, database, superuser
):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))  # a Table.Opened and a command receipt
    catch_up(database)
    before = table_state_rows(superuser)
    superuser.execute(
        "INSERT INTO ledger_events (originator_id, originator_version, topic, state) "
        "VALUES (%s, 1, 'elsewhere.module:Gadget.Spun', %s)",
        (uuid4(), b'{"spun": true}'),
    )
    unknown = last_position(superuser)
    catch_up(database)
    assert position(superuser) == unknown
    assert table_state_rows(superuser) == before


class FailsOnSignIn(TableState):
    """Table state whose sign-in handler writes its row, then fails; its set-based fold of
    Table events fails too, so the batch falls back to the handlers."""

    def dealer_signed_in(self, event: Any, cursor: Any) -> None:
        super().dealer_signed_in(event, cursor)
        raise RuntimeError("the projection failed after writing its row")

    def fold_table_events(self, cursor: Any, lo: int, hi: int) -> None:
        super().fold_table_events(cursor, lo, hi)
        raise RuntimeError("the fold failed after writing its rows")


def test_an_event_a_projection_cannot_apply_stops_it_there_named_keeping_what_came_before(
        settings, database, superuser):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-02"))
        catch_up(database)
        rt.ledger.execute(SignInDealer(table="BAC-02", dealer_id="D-3", actor=PIT_BOSS))
        rt.ledger.execute(open_table("BAC-03"))
    before_rows = table_state_rows(superuser)
    poison = superuser.execute("SELECT position FROM ledger_event_log WHERE event_type = "
                               "'Table.DealerSignedIn'").fetchone()[0]
    with (ProjectionRunner(database, [FailsOnSignIn]) as failing,
          pytest.raises(ProjectionStalled) as stalled_at):
        failing.catch_up()
    message = str(stalled_at.value)
    assert message.startswith(f"projection table-state stopped at event {poison} "
                              "(Table.DealerSignedIn, stream ") and "\n" not in message
    assert "the projection failed after writing its row" in message
    assert table_state_rows(superuser) == before_rows  # the failed event left no trace
    assert position(superuser) < poison  # the events before it are applied, not it
    assert stalled(superuser) == {"table_state": message.removesuffix(".")}
    report = LedgerReport(chains=verify_chains(superuser))
    check_projections(superuser, report)  # `verify` names it too
    assert message.removesuffix(".") in [failure.reason for failure in report.failures]
    catch_up(database)  # the projection that can apply it moves on, and is no longer stalled
    assert stalled(superuser) == {}
    assert events_applied_per_stream(superuser) == {table_id("BAC-02"): 2, table_id("BAC-03"): 1}


class FailsOnceOnSignIn(TableState):
    """Table state whose first run of Table events fails (a passing fault in the set-based
    fold), then applies as usual: the batch is applied again event by event."""

    failed = False

    def fold_table_events(self, cursor: Any, lo: int, hi: int) -> None:
        if not FailsOnceOnSignIn.failed:
            FailsOnceOnSignIn.failed = True
            raise RuntimeError("a passing fault")
        super().fold_table_events(cursor, lo, hi)


def test_a_failure_that_does_not_come_back_does_not_stop_the_projection(
        settings, database, superuser):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-02"))
        rt.ledger.execute(SignInDealer(table="BAC-02", dealer_id="D-3", actor=PIT_BOSS))
    with ProjectionRunner(database, [FailsOnceOnSignIn]) as runner:
        assert runner.catch_up() > 0  # no ProjectionStalled: every event applied on the retry
    assert stalled(superuser) == {}
    assert position(superuser) == last_position(superuser)
    assert events_applied_per_stream(superuser) == {table_id("BAC-02"): 2}


def test_two_runners_at_once_apply_every_event_exactly_once(settings, database, superuser):
    with open_ledger(settings) as rt:
        Floor(rt.ledger, tables=4).steps_of(40)
    barrier, errors = threading.Barrier(2), []

    def run() -> None:
        try:
            with ProjectionRunner(database, [TableState], batch_size=3) as runner:
                barrier.wait()
                runner.catch_up()
        except BaseException as error:  # noqa: BLE001 - surfaced below, in the test's thread
            errors.append(error)

    runners = [threading.Thread(target=run) for _ in range(2)]
    for thread in runners:
        thread.start()
    for thread in runners:
        thread.join()
    assert not errors, errors
    assert events_applied_per_stream(superuser) == handled_events_per_stream(superuser)
    assert position(superuser) == last_position(superuser)


def test_readers_see_the_whole_old_model_until_the_rebuild_is_swapped_in(
    settings, database, superuser
):
    with open_ledger(settings) as rt:
        Floor(rt.ledger, tables=6).steps_of(12)
    catch_up(database)
    complete = table_state_rows(superuser)
    seen_half_way = []

    def read_live_model(position: int, last: int) -> None:
        seen_half_way.append(table_state_rows(superuser))

    rebuild(database, TableState, batch_size=4, on_progress=read_live_model)
    assert len(seen_half_way) > 3
    assert all(rows == complete for rows in seen_half_way)


def test_a_rebuilt_table_takes_the_live_names_so_it_can_be_rebuilt_again(
    settings, database, superuser
):
    with open_ledger(settings) as rt:
        Floor(rt.ledger, tables=2).steps_of(4)
    rebuild(database, TableState)
    rebuild(database, TableState)
    relations = {name for (name,) in superuser.execute(
        "SELECT relname FROM pg_class WHERE relname LIKE 'table_state%'"
    ).fetchall()}
    assert relations == {"table_state", "table_state_pkey", "table_state_code_key"}
    with database.connect() as conn:
        assert [t.code for t in table_states(conn)] == ["T-00", "T-01"]


def test_a_second_rebuild_of_the_same_projection_at_once_is_refused(database, superuser):
    superuser.execute("SELECT pg_advisory_lock(hashtext('ledger projection rebuild table_state'))")
    with pytest.raises(WrongState, match="a rebuild of table-state is already running"):
        rebuild(database, TableState)


def test_a_following_runner_is_woken_by_the_stores_notification_and_stops_when_asked(
    settings, database
):
    """The poll interval is an hour: only the NOTIFY of the library's insert can wake it."""
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("F8-01", game="fortune-8"))
        stop, reached, lock = threading.Event(), threading.Event(), threading.Lock()
        target: list[int] = []
        applied: list[int] = []

        def on_batch(batch: Batch) -> None:
            with lock:
                applied.append(batch.position)
                if target and batch.position >= target[0]:
                    reached.set()

        runner = ProjectionRunner(database, [TableState], on_batch=on_batch, poll_seconds=3600)
        with runner:
            follower = threading.Thread(target=runner.follow, args=(stop,))
            follower.start()
            rt.ledger.execute(SignInDealer(table="F8-01", dealer_id="D-8", actor=PIT_BOSS))
            with database.connect() as conn, lock:
                target.append(last_position(conn))
                if applied and applied[-1] >= target[0]:
                    reached.set()
            woken = reached.wait(timeout=120)  # a guard against hanging, not a speed limit
            stop.set()
            follower.join()
    assert woken, "the follower never applied the new event"
    with database.connect() as conn:
        assert table_state(conn, "F8-01").dealer == "D-8"


def test_an_unknown_table_is_a_sentence(database):
    with database.connect() as conn, pytest.raises(NotFound, match="table NOPE-1 is not in"):
        table_state(conn, "NOPE-1")


def test_the_runner_needs_no_tables_made_beforehand(database, superuser):
    superuser.execute("DROP TABLE table_state")
    catch_up(database)
    assert superuser.execute("SELECT count(*) FROM table_state").fetchone()[0] == 0
    with pytest.raises(psycopg.errors.UndefinedTable):
        superuser.execute("SELECT 1 FROM table_state__rebuild")
