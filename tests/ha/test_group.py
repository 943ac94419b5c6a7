"""A group of properties: two casinos, each with its own ledger (and the same table codes),
publish their events; one group database receives both by logical replication, each in its
property's schema, and reports them side by side by game and pit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from ledger.application.config import LedgerSettings
from tests.clock import ENV
from tests.ha.drill import DAY, property_ledger
from tests.signing import credential_env

# one cluster for the three files (tests/ha/conftest.py): in one process when the run is spread
pytestmark = pytest.mark.xdist_group("patroni-cluster")

LEDGER = str(Path(sys.executable).with_name("ledger"))


def _ledger(url: str, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`ledger` on a property's ledger or the group's (a real one: the host's clock)."""
    done = subprocess.run([LEDGER, *args], capture_output=True, text=True, timeout=300,
                          env={**{k: v for k, v in os.environ.items() if k != ENV},
                               **credential_env(), "LEDGER_DATABASE_URL": url,
                               "LEDGER_PROPERTY": code,
                               "LEDGER_CLOCK_PAST_MINUTES": str(366 * 24 * 60)})
    assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
    return done


def _property(cluster, code: str, seed: int) -> LedgerSettings:
    """A property's own ledger with a floor played on it, its events published."""
    settings = property_ledger(cluster, code, seed)
    _ledger(settings.database_url, code, "db", "publish")
    return settings


def _standbys_caught_up(cluster) -> None:
    """Every running standby has replayed what the primary has written (the properties'
    databases made): a subscription's multi-host connection may try a standby first."""
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        (target,) = conn.execute("SELECT pg_current_wal_lsn()").fetchone()
    deadline = time.monotonic() + 60
    for node in cluster.nodes:
        if node.process is None or node.process.poll() is not None:
            continue
        with psycopg.connect(cluster.node_url(node), autocommit=True) as conn:
            while conn.execute("SELECT pg_is_in_recovery() AND coalesce("
                               "pg_last_wal_replay_lsn() < %s::pg_lsn, true)",
                               (target,)).fetchone()[0]:
                assert time.monotonic() < deadline, f"{node} did not catch up"
                time.sleep(0.2)


def _events(url: str, code: str) -> int:
    with psycopg.connect(url, options=f"-c search_path={code}") as conn:
        return int(conn.execute("SELECT count(*) FROM ledger_events").fetchone()[0])


def test_two_properties_with_the_same_table_codes_reported_side_by_side_in_a_group(cluster):
    properties = {code: _property(cluster, code, seed) for code, seed in (("east", 3),
                                                                         ("west", 8))}
    sources = {code: settings.database_url for code, settings in properties.items()}
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute('CREATE DATABASE "group_ledger"')
    _standbys_caught_up(cluster)
    group = cluster.url("group_ledger")
    for code, url in sources.items():
        said = _ledger(group, code, "db", "init", "--replica-of", url).stdout
        assert f"replicating: property {code}" in said
    deadline = time.monotonic() + 120
    while any(_events(group, code) < _events(url, code) for code, url in sources.items()):
        assert time.monotonic() < deadline, "the group database did not receive every event"
        time.sleep(0.5)
    report = json.loads(_ledger(group, "east", "report", "group", "--day", DAY.isoformat(),
                                "--json").stdout)
    assert report["properties"] == ["east", "west"]
    lines = {(line["property"], line["game"]): line for line in report["lines"]}
    assert {key[1] for key in lines} == {"baccarat", "stud-poker"}  # BAC-01 and SP-01 in each
    for code, url in sources.items():  # each property's figures are its own report's
        own = json.loads(_ledger(url, code, "report", "day", "--day", DAY.isoformat(),
                                 "--json").stdout)
        handle = sum(Decimal(line["handle"]) for line in report["lines"]
                     if line["property"] == code)
        assert handle == Decimal(own["floor"]["handle"]) > 0, (code, handle, own["floor"])
    assert lines[("east", "baccarat")]["handle"] != lines[("west", "baccarat")]["handle"]
    _a_runner_there_hears_of_new_events(group, properties["east"])


def _a_runner_there_hears_of_new_events(group: str, east: LedgerSettings) -> None:
    """Replication applies rows without the property's statement trigger, so the group's
    replica schema NOTIFYs from a row trigger: its runner is woken as on a property."""
    from tests.integration.helpers import open_table
    from tests.signing import open_ledger as signing_ledger

    with psycopg.connect(group, autocommit=True,
                         options="-c search_path=east") as listener:
        listener.execute("LISTEN ledger_events")
        with signing_ledger(east) as rt:
            rt.ledger.execute(open_table("BAC-09"))
        heard = list(listener.notifies(timeout=30, stop_after=1))
    assert heard and heard[0].channel == "ledger_events"
