"""Everything the ledger's URL says reaches every connection it opens, the library's pool
included: several hosts (the first that answers, and with target_session_attrs=read-write only
a primary), and any other libpq setting."""

from __future__ import annotations

import socket
from uuid import uuid4

from psycopg.conninfo import conninfo_to_dict, make_conninfo

from ledger.application.config import LedgerSettings
from ledger.infrastructure.database import Database
from tests.integration.helpers import open_table
from tests.signing import open_ledger


def _dead_port() -> int:
    with socket.socket() as probe:  # bound, then closed: nothing listens there
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _hosts_first_dead(database: Database, **more: str) -> str:
    """The test database's URL with a host that refuses connections listed before it."""
    params = conninfo_to_dict(database.url)
    host, port = str(params.get("host") or "localhost"), str(params.get("port") or "5432")
    params.update(host=f"127.0.0.1,{host}", port=f"{_dead_port()},{port}", **more)
    return make_conninfo("", **params)


def test_a_multi_host_url_records_on_the_primary_that_answers(database, superuser):
    """A terminal's URL names every node of the cluster: a node that is down is passed over,
    and the command is recorded on the read-write one."""
    url = _hosts_first_dead(database, target_session_attrs="read-write")
    with open_ledger(LedgerSettings(database_url=url, pool_size=2)) as rt:
        recorded = rt.ledger.execute(open_table("BAC-31"))
        assert not recorded.duplicate
        assert "127.0.0.1:" in rt.database.describe() and "," in rt.database.describe()
    count = superuser.execute("SELECT count(*) FROM ledger_event_log "
                              "WHERE event_type = 'Table.Opened'").fetchone()[0]
    assert count == 1


def test_every_libpq_setting_of_the_url_reaches_the_librarys_pool(database, superuser):
    """The library's own pool (which records the events) is opened with the URL's settings,
    not only host, port, user and database: its connections carry the URL's application_name."""
    name = f"ledger-test-{uuid4().hex[:8]}"
    url = _hosts_first_dead(database, application_name=name)
    with open_ledger(LedgerSettings(database_url=url, pool_size=2)) as rt:
        rt.ledger.execute(open_table("BAC-32"))
        pool = rt.ledger.app.recorder.datastore.pool  # the library's, not the ledger's own
        with pool.connection() as conn:
            seen = conn.execute("SELECT current_setting('application_name') AS name"
                                ).fetchone()["name"]
    assert seen == name
