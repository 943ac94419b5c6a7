"""A primary that dies mid-shift: three PostgreSQL nodes under Patroni with synchronous
replication, a floor recording through a multi-host URL, the primary's Patroni and PostgreSQL
killed with SIGKILL. Every event a terminal was told was recorded is on the new primary, the
floor carries on there, and `ledger verify` passes on it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ha.drill import failover_drill
from tests.signing import UNTRUSTED, credential_env

# one cluster for the three files (tests/ha/conftest.py): in one process when the run is spread
pytestmark = pytest.mark.xdist_group("patroni-cluster")

LEDGER = str(Path(sys.executable).with_name("ledger"))


def test_a_primary_killed_mid_shift_loses_no_acknowledged_event(cluster):
    drill = failover_drill(cluster, tables=4, rounds=6, kill_after=150)
    assert not drill.errors, drill.errors
    assert drill.promoted != drill.killed
    assert drill.after_kill > 0, "nothing was recorded after the primary died"
    assert drill.missing == [] and drill.on_new_primary == drill.acknowledged
    assert any("waiting up to" in line for line in drill.waits), drill.waits
    verified = subprocess.run([LEDGER, "verify"], capture_output=True, text=True, timeout=300,
                              env={**os.environ, **credential_env(),
                                   "LEDGER_DATABASE_URL": cluster.url("ledger")})
    assert verified.returncode == UNTRUSTED, verified.stdout + verified.stderr
