"""A projection whose live tables another version of the code built: the runner rebuilds it
beside them by itself, readers keep the old tables until the swap, the other projections keep
following, and one session at a time builds it; `db status` and `verify` name it meanwhile."""

from __future__ import annotations

import threading
from typing import Any

import psycopg

from ledger.audit.replay.chain import verify_chains
from ledger.audit.verification.findings import LedgerReport
from ledger.audit.verification.projection_check import check_projections
from ledger.cli.db import _status
from projections.engine.runner import Batch, ProjectionRunner
from projections.engine.shadow import claim, release
from projections.engine.versions import Version, code_version, recorded
from projections.jackpot_pools import JackpotPools
from projections.tables.state import TableState
from tests.integration.projection_helpers import Floor, last_position, table_state_rows
from tests.signing import open_ledger

OLD = "0:00000000"


def _floor(settings: Any, steps: int = 30, prefix: str = "T") -> None:
    with open_ledger(settings) as rt:
        Floor(rt.ledger, tables=4, prefix=prefix).steps_of(steps)


def _caught_up(database: Any, **options: Any) -> list[str]:
    said: list[str] = []
    with ProjectionRunner(database, [TableState, JackpotPools], on_rebuild=said.append,
                          **options) as runner:
        runner.catch_up()
    return said


def _as_old(superuser: Any, name: str = TableState.name) -> None:
    """The live tables recorded as another version's, one of their rows not the events'."""
    superuser.execute("UPDATE ledger_tracking SET version = %s WHERE projection = %s",
                      (OLD, name))
    superuser.execute("UPDATE table_state SET pit = 'OLD' WHERE code = 'T-00'")


def test_a_projection_starts_at_the_codes_version_and_is_not_rebuilt(settings, database,
                                                                     superuser):
    _floor(settings, 5)
    assert _caught_up(database) == []
    versions = recorded(superuser)
    assert versions[TableState.name] == code_version(TableState)
    assert _caught_up(database) == []


def test_the_runner_rebuilds_another_versions_projection_beside_it_while_the_others_follow(
        settings, database, superuser):
    _floor(settings)
    _caught_up(database)
    _as_old(superuser)
    _floor(settings, 10, "U")  # recorded since: the other projection has batches to follow
    seen: list[str] = []

    def batch(done: Batch) -> None:  # what a reader sees of the old tables meanwhile
        with database.connect() as reader:
            pit = reader.execute("SELECT pit FROM table_state WHERE code = 'T-00'").fetchone()
        seen.append(f"{done.projection} batch, T-00's pit {pit[0] if pit else None}")

    with ProjectionRunner(database, [TableState, JackpotPools], batch_size=20, on_batch=batch,
                          on_rebuild=seen.append) as runner:
        runner.catch_up()
    started = next(i for i, line in enumerate(seen) if line.startswith("rebuilding table-state"))
    swapped = next(i for i, line in enumerate(seen) if "swapped in at position" in line)
    assert "the code's version 1 (tables " in seen[started] and "the live tables' 0 (tables " \
        "00000000)" in seen[started], seen[started]
    during = seen[started + 1:swapped]
    assert during and all(line == "jackpot_pools batch, T-00's pit OLD" for line in during), seen
    assert f"at position {last_position(superuser):,}" in seen[swapped]
    assert superuser.execute("SELECT pit FROM table_state WHERE code = 'T-00'").fetchone()[0] != "OLD"
    assert recorded(superuser)[TableState.name] == code_version(TableState)
    shadow = superuser.execute("SELECT to_regclass('table_state__rebuild')").fetchone()[0]
    assert shadow is None
    report = LedgerReport(chains=verify_chains(superuser))
    check_projections(superuser, report)
    assert not report.failures and not report.notes, (report.failures, report.notes)


def test_a_read_that_may_not_rebuild_leaves_another_versions_tables_as_they_stand(
        settings, database, superuser):
    _floor(settings)
    _caught_up(database)
    _as_old(superuser)
    before = table_state_rows(superuser)
    _floor(settings, 10, "U")
    assert _caught_up(database, rebuild=False) == []
    assert table_state_rows(superuser) == before  # neither followed nor rebuilt
    assert recorded(superuser)[TableState.name] == Version.parse(OLD)
    assert "swapped in at position" in _caught_up(database)[-1]


def test_two_runners_never_both_rebuild_a_projection(settings, database, superuser):
    _floor(settings)
    _caught_up(database)
    _as_old(superuser)
    said: list[list[str]] = [[], []]

    def run(index: int) -> None:
        with ProjectionRunner(database, [TableState], batch_size=10,
                              on_rebuild=said[index].append) as runner:
            runner.catch_up()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = said[0] + said[1]
    assert sum(line.startswith("rebuilding table-state") for line in lines) == 1, lines
    assert sum("swapped in at position" in line for line in lines) == 1, lines
    assert recorded(superuser)[TableState.name] == code_version(TableState)


def test_a_runner_leaves_a_projection_another_session_builds_and_follows_it_once_swapped(
        settings, database, superuser):
    _floor(settings)
    _caught_up(database)
    _as_old(superuser)
    before = table_state_rows(superuser)
    with database.connect() as other:
        assert claim(other, TableState.name)  # another runner's build, under way
        said = _caught_up(database)
        assert said == [("table-state: being rebuilt by another session; followed here once "
                         "it is swapped in")]
        assert table_state_rows(superuser) == before  # neither followed nor rebuilt here
        status = {p["name"]: p for p in _status(database)["projections"]}
        assert status["table_state"]["rebuilding"] is True
        assert status["jackpot_pools"]["other_version"] is None
        report = LedgerReport(chains=verify_chains(superuser))
        check_projections(superuser, report)
        assert [n for n in report.notes if "table-state" in n] == [(
            "projection table-state not compared: being rebuilt beside its live tables (the "
            f"code's version {code_version(TableState)}, the live tables' 0 (tables 00000000)), "
            "swapped in when caught up")]
        assert not any("rebuild it" in note for note in report.notes)
        release(other, TableState.name)  # it died before its swap
    said = _caught_up(database)
    assert said[0].startswith("rebuilding table-state") and "swapped in at position" in said[1]


def test_an_insider_who_marks_tampered_rows_as_another_versions_sees_them_rebuilt_away(
        settings, database, superuser):
    _floor(settings)
    _caught_up(database)
    _as_old(superuser)  # tampered, and passed off as an old version's tables
    report = LedgerReport(chains=verify_chains(superuser))
    check_projections(superuser, report)
    assert not report.failures
    assert any(note.startswith("projection table-state: table table_state differs") and
               "another version built" in note for note in report.notes), report.notes
    status = {p["name"]: p for p in _status(database)["projections"]}
    assert status["table_state"]["other_version"] is not None
    assert status["table_state"]["rebuilding"] is False
    _caught_up(database)
    report = LedgerReport(chains=verify_chains(superuser))
    check_projections(superuser, report)
    assert not report.failures and not report.notes


def test_a_live_table_altered_behind_the_ledger_at_the_codes_version_fails_verify(
        settings, database, superuser):
    _floor(settings, 5)
    _caught_up(database)
    superuser.execute("ALTER TABLE table_state ADD COLUMN hidden text")
    report = LedgerReport(chains=verify_chains(superuser))
    check_projections(superuser, report)
    assert [f.reason for f in report.failures if "table-state" in f.subject] == [(
        "the live table table_state has another shape than the code's, though its tracking row "
        "says the code's version built it: altered behind the ledger? `ledger projections "
        "rebuild table-state` builds it again")], report.failures


def test_a_runner_that_loses_its_connection_mid_rebuild_leaves_the_live_tables_whole(
        settings, database, superuser):
    _floor(settings)
    _caught_up(database)
    _as_old(superuser)
    before = table_state_rows(superuser)
    with ProjectionRunner(database, [TableState], batch_size=10) as runner:
        runner._rebuild_step(TableState)  # claimed, started, one batch into the shadow
        assert runner.building
        superuser.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE application_name = 'ledger projections' "
                          "AND datname = current_database()")
        try:
            runner.catch_up()
        except psycopg.OperationalError:
            pass
    assert table_state_rows(superuser) == before  # readers kept the old tables whole
    said = _caught_up(database)
    assert said[0].startswith("rebuilding table-state") and "swapped in at position" in said[-1]


def test_a_following_runner_writes_nothing_over_tables_a_newer_version_swapped_in(
        settings, database, superuser):
    _floor(settings)
    said: list[str] = []
    with ProjectionRunner(database, [TableState], on_rebuild=said.append) as runner:
        runner.catch_up()
        # meanwhile a newer release's runner swaps in its own tables
        superuser.execute("UPDATE ledger_tracking SET version = '99:abcdef00' "
                          "WHERE projection = 'table_state'")
        before = table_state_rows(superuser)
        at = superuser.execute("SELECT position FROM ledger_tracking "
                               "WHERE projection = 'table_state'").fetchone()[0]
        _floor(settings, 10, "U")
        runner.catch_up()
        runner.catch_up()
    assert table_state_rows(superuser) == before  # neither followed nor rebuilt back
    assert superuser.execute("SELECT position FROM ledger_tracking "
                             "WHERE projection = 'table_state'").fetchone()[0] == at
    assert said == [("table-state: its live tables were built by a newer version of the code "
                     f"(the code's version {code_version(TableState)}, the live tables' 99 "
                     "(tables abcdef00)): left as they stand here")]


def test_a_caller_with_other_work_gets_its_turn_between_a_rebuilds_batches(
        settings, database, superuser):
    _floor(settings)
    _caught_up(database)
    _as_old(superuser)
    said: list[str] = []
    calls = 0
    with ProjectionRunner(database, [TableState], batch_size=10, on_rebuild=said.append
                          ) as runner:
        runner.catch_up(until_rebuilt=False)
        assert runner.building and said[0].startswith("rebuilding table-state")
        while runner.building:  # the floor's feed reads its page between these calls
            calls += 1
            runner.catch_up(until_rebuilt=False)
    assert calls > 3 and "swapped in at position" in said[-1]
    assert recorded(superuser)[TableState.name] == code_version(TableState)
