"""Properties never share a table: `LEDGER_PROPERTY` puts a property's whole ledger (events,
seal, projections, registry) in the PostgreSQL schema of its name, so two casinos' BAC-01 can
live in one database, each with its own streams, chain and registry."""

from __future__ import annotations

import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

from ledger.application.config import LedgerSettings
from ledger.domain.table import Table, table_id
from ledger.runtime.bootstrap import init_database, is_initialised, resolve_database
from tests.integration.helpers import open_table
from tests.signing import UNTRUSTED, bootstrap, credential_env, open_ledger

LEDGER = str(Path(sys.executable).with_name("ledger"))


def _property(database, code: str) -> LedgerSettings:
    settings = LedgerSettings(database_url=database.url, pool_size=2, property_code=code)
    init_database(settings, resolve_database(settings), practice=True)  # a test's play
    return settings


def test_two_properties_open_the_same_table_code_in_one_database_each_its_own(
        database, superuser):
    east, west = _property(database, "macau_east"), _property(database, "macau_west")
    for settings, minimum in ((east, "100.00"), (west, "300.00")):
        with open_ledger(settings) as rt:
            bootstrap(rt.ledger.inner)
            rt.ledger.execute(open_table("BAC-01").model_copy(
                update={"min_bet": Decimal(minimum)}))
    for settings, minimum in ((east, "100.00"), (west, "300.00")):
        with open_ledger(settings) as rt:
            assert rt.ledger.load(Table, table_id("BAC-01"), "BAC-01").min_bet == Decimal(minimum)
            assert "property " + settings.property_code in rt.database.describe()
    counts = {schema: superuser.execute(
        f"SELECT count(*) FROM {schema}.ledger_event_log WHERE event_type = 'Table.Opened'"
    ).fetchone()[0] for schema in ("macau_east", "macau_west", "public")}
    assert counts == {"macau_east": 1, "macau_west": 1, "public": 0}


def test_each_property_verifies_alone_and_an_uninitialised_one_is_refused(database):
    east = _property(database, "macau_east")
    with open_ledger(east) as rt:
        bootstrap(rt.ledger.inner)
        rt.ledger.execute(open_table("BAC-01"))
    env = {**os.environ, **credential_env(), "LEDGER_DATABASE_URL": database.url}
    verified = subprocess.run([LEDGER, "verify"], capture_output=True, text=True,
                              env={**env, "LEDGER_PROPERTY": "macau_east"})
    assert verified.returncode == UNTRUSTED, verified.stdout + verified.stderr
    assert not is_initialised(resolve_database(LedgerSettings(database_url=database.url,
                                                              property_code="macau_north")))
    refused = subprocess.run([LEDGER, "table", "list"], capture_output=True, text=True,
                             env={**env, "LEDGER_PROPERTY": "macau_north"})
    assert refused.returncode == 1
    assert "property macau_north" in refused.stderr and "ledger db init" in refused.stderr
