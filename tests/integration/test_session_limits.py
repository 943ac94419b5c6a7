"""Every ledger connection carries its limits: the ledger's own and the event store's pool."""

from __future__ import annotations

from ledger.infrastructure.session import SessionLimits
from ledger.runtime.bootstrap import build_application
from projections.tables.state import TableState


def _limits(cursor) -> dict[str, str]:
    return {name: cursor.execute(f"SHOW {name}").fetchone()[0] for name in (
        "statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout")}


def test_every_connection_carries_the_statement_lock_and_idle_timeouts_and_keepalives(
        settings, database):
    expected = {"statement_timeout": "30s", "lock_timeout": "5s",
                "idle_in_transaction_session_timeout": "30s"}
    with database.connect() as conn:
        assert _limits(conn.cursor()) == expected
        assert conn.info.get_parameters().get("keepalives") == "1"
    with database.connect(long=True) as conn:  # verify's and a rebuild's whole-ledger reads
        assert _limits(conn.cursor())["statement_timeout"] == "0"
    app = build_application(settings, database)
    try:
        with app.factory.datastore.get_connection() as pooled:
            rows = {name: pooled.execute(f"SHOW {name}").fetchone()[name] for name in expected}
            assert rows == expected
            assert pooled.info.get_parameters().get("keepalives") == "1"
            assert type(pooled).client_timeout == SessionLimits().client_timeout
    finally:
        app.close()


def test_money_columns_made_narrower_by_an_older_version_are_widened(database):
    with database.connect() as conn:
        TableState().create_tables(conn)
        conn.execute("ALTER TABLE table_state ALTER COLUMN max_bet TYPE numeric(14, 2)")
        TableState().create_tables(conn)
        kind = conn.execute("SELECT numeric_precision, numeric_scale FROM "
                            "information_schema.columns WHERE table_name = 'table_state' "
                            "AND column_name = 'max_bet'").fetchone()
    assert kind == (18, 2)
