"""`ledger projections run|status|rebuild` as an operator runs them."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time

from tests.e2e.conftest import LEDGER
from tests.e2e.shifts import open_shift


def _head(superuser) -> int:
    return superuser.execute("SELECT coalesce(max(notification_id), 0) FROM ledger_events"
                             ).fetchone()[0]


def _open_floor(cli) -> None:
    for code, game in (("BAC-01", "baccarat"), ("SP-01", "stud-poker")):
        assert cli("table", "open", code, "--game", game, "--min", "100", "--max", "5000").code == 0
    assert cli("table", "sign-in", "BAC-01", "D-5").code == 0


def _status_row(status_out: str) -> list[str]:
    """The cells of the table_state row of `ledger projections status`."""
    row = next(line for line in status_out.splitlines() if "table-state" in line)
    return [cell.strip() for cell in row.split("│")[1:-1]]


def _table_state(superuser) -> list[tuple]:
    return superuser.execute(
        "SELECT code, is_open, dealer, events_applied FROM table_state ORDER BY code"
    ).fetchall()


def test_status_shows_the_lag_of_a_projection_that_never_ran(cli, superuser):
    base = _head(superuser)  # the registry's enrolments, made before any table
    _open_floor(cli)
    status = cli("projections", "status")
    assert status.code == 0, status.err
    head = str(base + 6)
    assert _status_row(status.out) == ["table-state", "0", head, head, "never run"]
    as_json = {s["name"]: s for s in json.loads(cli("projections", "status", "--json").out)}
    assert (as_json["table_state"]["position"], as_json["table_state"]["lag"]) == (0, int(head))


def test_run_once_catches_up_and_status_then_shows_no_lag(cli, superuser):
    head = _head(superuser) + 6
    _open_floor(cli)
    run = cli("projections", "run", "--once")
    assert run.code == 0, run.err
    assert f"table-state: caught up at position {head}" in run.out
    assert _table_state(superuser) == [("BAC-01", True, "D-5", 2), ("SP-01", True, None, 1)]
    status = cli("projections", "status")
    assert _status_row(status.out)[:4] == ["table-state", str(head), str(head), "0"]
    assert re.search(rf"projection table-state +{head} \(lag 0\)", cli("db", "status").out)


def test_rebuild_replaces_the_model_with_one_built_from_the_first_event(cli, superuser):
    head = _head(superuser) + 9
    _open_floor(cli)
    assert cli("projections", "run", "--once").code == 0
    live = _table_state(superuser)
    cli("table", "close", "BAC-01")
    rebuilt = cli("projections", "rebuild", "table-state", "--batch-size", "2")
    assert rebuilt.code == 0, rebuilt.err
    assert (f"table-state: rebuilt from the first event ({head} events), swapped in at "
            f"position {head}") in rebuilt.out
    assert _table_state(superuser) == [("BAC-01", False, None, 4), live[1]]


def test_run_follows_new_events_until_interrupted(cli, database, superuser):
    head = _head(superuser) + 8
    _open_floor(cli)
    env = {**os.environ, "LEDGER_DATABASE_URL": database.url, "COLUMNS": "200"}
    follower = subprocess.Popen([LEDGER, "projections", "run", "--poll", "0.1"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert cli("table", "sign-in", "SP-01", "D-6").code == 0
        hang_guard = time.monotonic() + 120
        while follower.poll() is None and time.monotonic() < hang_guard:
            if ("SP-01", True, "D-6", 2) in _table_state(superuser):
                break  # the follower has applied the sign-in
            time.sleep(0.05)
        follower.send_signal(signal.SIGINT)
        out, err = follower.communicate(timeout=60)
    finally:
        if follower.poll() is None:
            follower.kill()
    assert follower.returncode == 0, err
    assert "following table-state, jackpot-pools, shift-report (Ctrl-C to stop)" in out
    assert f"table-state: stopped at position {head}" in out


def test_an_unknown_projection_is_one_red_line_and_exit_1(cli):
    for command in (("run", "--once", "jackpots"), ("rebuild", "jackpots")):
        result = cli("projections", *command)
        assert result.code == 1
        assert result.err.strip().splitlines() == [
            ("error: unknown projection 'jackpots': known are table-state, jackpot-pools, "
            "shift-report.")
        ]


def test_an_uninitialised_database_is_one_red_line_and_exit_1(cli, server, run_id):
    name = f"{run_id}_bare"
    with server.connect() as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        result = cli("projections", "status", url=server.with_dbname(name).url)
    finally:
        with server.connect() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith("is not initialised: run `ledger db init`.")


def test_db_status_names_a_stopped_projection_and_lists_open_rounds(cli, superuser):
    _open_floor(cli)
    open_shift(cli, "SP-01", dealer="D-6")
    for step in (("table", "sign-in", "SP-01", "D-6"), ("shoe", "shuffle", "SP-01"),
                 ("round", "open", "SP-01"),
                 ("projections", "run", "--once")):
        assert cli(*step).code == 0, step
    superuser.execute("UPDATE ledger_tracking SET stalled = 'projection table_state stopped at "
                      "event 7 (Table.Opened, stream x v1): numeric field overflow' "
                      "WHERE projection = 'table_state'")
    status = cli("db", "status")
    assert status.code == 0, status.err
    assert "stopped: projection table_state stopped at event 7" in status.out
    assert "round 1 of SP-01 open since" in status.out
    verify = cli("verify")
    assert verify.code == 1
    assert "projection table_state stopped at event 7" in verify.out
    assert "round 1 of SP-01 open since" in verify.out
