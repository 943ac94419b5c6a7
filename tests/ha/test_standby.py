"""Reads on a hot standby: surveillance and accounting read a node that replays the primary,
never loading it. The read models there are the primary's, replicated; each command says it is
reading a standby and how far behind the primary that is, and nothing tries to write.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from ledger.infrastructure.database import Database
from ledger.runtime.bootstrap import init_database, open_ledger
from ledger.simulation.floor import floor_plan, run_floor
from tests.ha.drill import DAY, settings_for
from tests.signing import UNTRUSTED, credential_env, floor_staff

# one cluster for the three files (tests/ha/conftest.py): in one process when the run is spread
pytestmark = pytest.mark.xdist_group("patroni-cluster")

LEDGER = str(Path(sys.executable).with_name("ledger"))


def _played(cluster, dbname: str) -> None:
    """A small floor played on the primary and its projections brought up to date there."""
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    settings = settings_for(cluster, dbname)
    init_database(settings, Database(settings.database_url), practice=True)  # a test's play
    with open_ledger(settings) as rt:
        result = run_floor(rt.ledger, floor_staff(rt.ledger), floor_plan(2), rounds=3, seed=5,
                           day=DAY)
    assert not result.errors, result.errors
    done = _ledger(cluster.url(dbname), "projections", "run", "--once")
    assert done.returncode == 0, done.stderr


def _replayed(cluster, dbname: str):
    """A standby that has replayed everything the primary has written so far."""
    with psycopg.connect(cluster.url(dbname)) as primary:
        written = primary.execute("SELECT pg_current_wal_lsn()").fetchone()[0]
    deadline = time.monotonic() + 120  # after a failover the standby left follows the new one
    while time.monotonic() < deadline:
        for member in cluster.members():
            if member["role"] in ("replica", "sync_standby") and member["state"] in (
                    "running", "streaming"):
                node = next(n for n in cluster.nodes if n.name == member["name"])
                try:  # its own database: the ledger's may not have reached it yet
                    with psycopg.connect(cluster.node_url(node), connect_timeout=5) as conn:
                        replayed = conn.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn",
                                                (written,)).fetchone()[0]
                except psycopg.OperationalError:  # restarting to follow a new primary
                    continue
                if replayed:
                    return node
        time.sleep(0.2)
    raise AssertionError(f"no standby replayed the primary's writes within 120 s: "
                         f"{cluster.members()}")


def _ledger(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LEDGER, *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **credential_env(), "LEDGER_DATABASE_URL": url,
                               "LEDGER_CLOCK_PAST_MINUTES": str(366 * 24 * 60)})


def test_replay_recall_verify_reports_and_tables_read_a_hot_standby(cluster):
    _played(cluster, "standby_floor")
    node = _replayed(cluster, "standby_floor")
    url = cluster.node_url(node, "standby_floor")
    reads = {
        "table list": ("table", "list"),
        "recall": ("recall", "BAC-01", "--last", "3"),
        "replay": ("replay", "BAC-01", "1"),
        "shift report": ("report", "shift", "--day", DAY.isoformat(), "--shift", "day",
                         "--json"),
        "day report": ("report", "day", "--day", DAY.isoformat(), "--json"),
        "verify": ("verify",),
    }
    outcomes = {}
    for what, args in reads.items():
        done = _ledger(url, *args)
        outcomes[what] = (done.returncode, "reading a hot standby" in done.stderr)
        held = UNTRUSTED if what == "verify" else 0  # no trust file given: it says so
        assert done.returncode == held, (what, done.stdout[-2000:], done.stderr[-2000:])
    assert outcomes == {what: (UNTRUSTED if what == "verify" else 0, True) for what in reads}
    assert '"table": "BAC-01"' in _ledger(url, *reads["shift report"]).stdout


def test_projections_are_not_run_on_a_standby_and_say_where_to_run_them(cluster):
    _played(cluster, "standby_runner")
    node = _replayed(cluster, "standby_runner")
    for once in ([], ["--once"]):
        done = _ledger(cluster.node_url(node, "standby_runner"), "projections", "run", *once)
        assert done.returncode == 1, (once, done.stdout)
        assert "is a hot standby" in done.stderr and "against the primary" in done.stderr


def test_the_floor_is_read_from_a_standby_by_polling_and_says_how_far_behind_it_is(cluster):
    """`ledger serve` on a standby: its floor feed cannot LISTEN there (refused in recovery)
    nor bring projections up to date, so it reads the replicated ones every second, and the
    floor's alerts say it is reading a standby."""
    from ledger.application.config import LedgerSettings
    from ledger.web.app import FLOOR_PROJECTIONS
    from ledger.web.feed import FloorFeed
    from projections.registry import select

    _played(cluster, "standby_feed")
    node = _replayed(cluster, "standby_feed")
    feed = FloorFeed(Database(cluster.node_url(node, "standby_feed")),
                     LedgerSettings().shift_schedule, projections=select(FLOOR_PROJECTIONS))
    feed.start()
    try:
        assert feed.wait_ready(30), "the feed never read the floor from the standby"
        view = feed.view
    finally:
        feed.close()
    assert view is not None
    assert {table.state.code for table in view.tables} == {"BAC-01", "SP-01"}
    assert view.alerts and view.alerts[0].startswith("reading a hot standby"), view.alerts
