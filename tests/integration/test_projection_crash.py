"""A projection process killed mid-way (SIGKILL) and restarted ends as an uninterrupted run.

To kill it provably mid-batch, without timing: the test holds, uncommitted, a row with the key
that one table's `Table.Opened` (recorded half-way through the history) will insert. The
runner's batch reaching that event waits on the test's lock, having already written the rows
of the batch's earlier events; the test sees that wait in `pg_stat_activity`, SIGKILLs the
process, and only then lets go. The batch in flight must vanish whole; the restart must apply
it exactly once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ledger.domain.table import table_id
from projections.engine.rebuild import rebuild
from projections.tables.state import TableState
from tests.integration.helpers import open_table
from tests.integration.projection_helpers import (
    append_dealer_shifts,
    events_applied_per_stream,
    handled_events_per_stream,
    last_position,
    position,
    table_state_rows,
)
from tests.signing import open_ledger

LEDGER = str(Path(sys.executable).with_name("ledger"))
TABLES = [f"CR-{n:02d}" for n in range(16)]
LATE = "CR-LATE"


def record_history(settings) -> None:
    """About 3,300 events: 16 tables' dealer shifts, and one table opened half-way."""
    with open_ledger(settings) as rt:
        for code in TABLES:
            rt.ledger.execute(open_table(code))
        for round_ in range(4):
            if round_ == 2:
                rt.ledger.execute(open_table(LATE))
            for code in TABLES + ([LATE] if round_ >= 2 else []):
                append_dealer_shifts(rt.ledger, code, events=50, per_save=25)


def hold_the_late_tables_row(database):
    """An open transaction owning the primary key the late table's first event will insert."""
    blocker = database.connect(autocommit=False)
    blocker.execute(
        "INSERT INTO table_state (stream_id, code, is_open, game, rule_set, min_bet, max_bet, "
        "pit, opened_at, version, events_applied, updated_position) "
        "VALUES (%s, 'HELD-BY-TEST', true, '-', '-', 1, 1, '-', now(), 0, 0, 0)",
        (table_id(LATE),),
    )
    return blocker


def wait_until_blocked_by(superuser, blocker_pid: int, runner: subprocess.Popen) -> None:
    """Until the runner's batch waits on the test's lock (fails if the runner exits first)."""
    while runner.poll() is None:
        waiting = superuser.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
            (blocker_pid,),
        ).fetchone()[0]
        if waiting:
            return
        time.sleep(0.02)
    raise AssertionError(f"the runner exited ({runner.returncode}) before reaching the late table")


def test_a_runner_killed_mid_batch_and_restarted_counts_nothing_twice_and_misses_nothing(
    settings, database, superuser
):
    record_history(settings)
    late_opened = superuser.execute(
        "SELECT notification_id FROM ledger_events WHERE originator_id = %s "
        "AND originator_version = 1", (table_id(LATE),),
    ).fetchone()[0]
    env = {**os.environ, "LEDGER_DATABASE_URL": database.url}
    blocker = hold_the_late_tables_row(database)
    runner = subprocess.Popen(
        [LEDGER, "projections", "run", "--batch-size", "40"], env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        wait_until_blocked_by(superuser, blocker.info.backend_pid, runner)
        committed_when_killed = position(superuser)
        runner.send_signal(signal.SIGKILL)
        runner.wait()
    finally:
        blocker.rollback()
        blocker.close()
        if runner.poll() is None:
            runner.kill()
    assert 0 < committed_when_killed < late_opened  # killed mid-way, mid-batch

    restarted = subprocess.run(
        [LEDGER, "projections", "run", "--once"], env=env, capture_output=True, text=True,
        timeout=300, check=False,
    )
    assert restarted.returncode == 0, restarted.stderr
    assert position(superuser) == last_position(superuser)
    assert events_applied_per_stream(superuser) == handled_events_per_stream(superuser)
    assert len(handled_events_per_stream(superuser)) == len(TABLES) + 1
    restarted_rows = table_state_rows(superuser)
    rebuild(database, TableState)  # the uninterrupted run, from the first event
    assert table_state_rows(superuser) == restarted_rows
