"""Fixtures shared by the integration and end-to-end tiers: a real PostgreSQL, never a mock.

The server is the one `LEDGER_TEST_DATABASE_URL` names, or an embedded one (pgserver) in a
temporary folder that is deleted after the run. Each run makes a template database with the
ledger's schema, and each test that asks for `database` gets its own copy, dropped after it.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from ledger.application.config import LedgerSettings
from ledger.infrastructure.database import Database
from ledger.infrastructure.embedded import embedded_server
from ledger.infrastructure.roles import GroupRoles
from ledger.runtime.bootstrap import init_database, open_ledger
from tests.clock import refresh_env
from tests.signing import bootstrap, enrol_e2e_defaults


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow enumerations and simulations first: spread over several processes, they then
    run beside the rest of the suite rather than alone at its end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


TIERS = ("unit", "simulation", "integration", "e2e", "ha")
_spent: dict[str, list[float]] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Each test's set-up, call and tear-down, added to its tier's time (on the controller
    too when the run is spread: the workers' reports come to it)."""
    parts = report.nodeid.split("/")
    tier = parts[1] if len(parts) > 2 and parts[0] == "tests" and parts[1] in TIERS else "other"
    counted = _spent.setdefault(tier, [0, 0.0])
    counted[0] += report.when == "call"
    counted[1] += report.duration


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Where the run's time went, by tier (docs/testing.md gives each tier's budget)."""
    if not _spent:
        return
    terminalreporter.write_sep("-", "time by tier (each test's set-up, call and tear-down)")
    for tier in (*TIERS, "other"):
        if tier in _spent:
            tests, seconds = _spent[tier]
            terminalreporter.write_line(f"{tier:<12} {int(tests):>5} tests {seconds:>9.1f} s")


@pytest.fixture(autouse=True)
def _on_the_runs_clock() -> None:
    """Each `ledger` a test starts runs on the run's clock from the test's start
    (`tests/clock.py`), never on the host's."""
    refresh_env()


@pytest.fixture(scope="session")
def server() -> Iterator[Database]:
    """A maintenance connection URL on the test server."""
    url = os.environ.get("LEDGER_TEST_DATABASE_URL")
    if url:
        yield Database(url)
        return
    with tempfile.TemporaryDirectory(prefix="ledger-test-pg-") as folder:
        Path(folder).chmod(0o755)  # made here: as root the server's own user must pass it
        pgdata = Path(folder) / "pgdata"
        embedded = embedded_server(pgdata, cleanup_mode="delete")
        try:
            yield Database(embedded.get_uri("postgres"), embedded_dir=pgdata)
        finally:
            embedded.cleanup()


def _create_database(server: Database, name: str, template: str | None = None) -> Database:
    with server.connect() as conn:
        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template:
            statement += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
        conn.execute(statement)
    return server.with_dbname(name)


def _drop_database(server: Database, name: str) -> None:
    with server.connect() as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


TEST_PARTITION_EVENTS = 400
"""Positions per partition of every test ledger: small, so the suite appends across
partitions and into the default one, as a floor running past its partitions would."""


@pytest.fixture(scope="session")
def run_id() -> str:
    return f"ledger_test_{os.getpid()}_{secrets.token_hex(3)}"


@pytest.fixture(scope="session")
def database_roles(server: Database, run_id: str) -> Iterator[GroupRoles]:
    """The owner, writer and reader group roles `ledger db init` makes: named after this run
    (every test database, and every `ledger` the tests run, uses them), dropped at its end."""
    os.environ["LEDGER_DB_ROLE_PREFIX"] = run_id
    roles = GroupRoles.named(run_id)
    try:
        yield roles
    finally:
        os.environ.pop("LEDGER_DB_ROLE_PREFIX", None)
        with server.connect() as conn:
            for name in roles.all:
                try:
                    conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(name)))
                except psycopg.Error:  # a database still holds grants to it
                    pass


@pytest.fixture(scope="session")
def template_database(server: Database, run_id: str,
                      database_roles: GroupRoles) -> Iterator[str]:
    """An initialised, empty ledger database that each test's database is copied from."""
    name = f"{run_id}_template"
    database = _create_database(server, name)
    try:
        settings = LedgerSettings(database_url=database.url,
                                  partition_events=TEST_PARTITION_EVENTS)
        init_database(settings, database, practice=True)  # a test's play is practice
        with open_ledger(settings) as rt:
            bootstrap(rt.ledger)  # the test administrator and console, as `db init` does
            enrol_e2e_defaults(rt.ledger)
        yield name
    finally:
        _drop_database(server, name)


def _fresh(server: Database, template_database: str, run_id: str) -> Iterator[Database]:
    name = f"{run_id}_{secrets.token_hex(4)}"
    copy = _create_database(server, name, template=template_database)
    try:
        yield copy
    finally:
        _drop_database(server, name)


@pytest.fixture
def database(server: Database, template_database: str, run_id: str) -> Iterator[Database]:
    """A fresh, initialised ledger database of this test's own."""
    yield from _fresh(server, template_database, run_id)


@pytest.fixture
def second_database(server: Database, template_database: str,
                    run_id: str) -> Iterator[Database]:
    """Another, for a test that compares two ledgers."""
    yield from _fresh(server, template_database, run_id)


@pytest.fixture
def settings(database: Database) -> LedgerSettings:
    return LedgerSettings(database_url=database.url, pool_size=4)


@pytest.fixture
def superuser(database: Database) -> Iterator[psycopg.Connection]:
    """A plain autocommit connection, to act behind the application's back."""
    with database.connect() as conn:
        yield conn
