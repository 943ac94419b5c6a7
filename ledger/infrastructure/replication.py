"""A group database fed by logical replication: each property's events, published from its own
ledger, arrive in the group database in a schema of the property's name (the same name as on
the property: `LEDGER_PROPERTY`), so several properties' `BAC-01` never share a table.

On the property: `publish` (a publication of the events table, inserts only; the server needs
`wal_level = logical`). On the group database: `ledger db init --replica-of URL` makes the
property's schema as `ledger db init` would, then `prepare_replica` and `subscribe`:

- the hash chain is not computed again there (the chain trigger is disabled in that schema):
  each row arrives with the chain hash the property's server computed, and the initial copy
  does not arrive in version order; nor are positions drawn there (the position trigger is
  disabled too): each row keeps the one the property's sequence gave;
- the append-only triggers stay on (ENABLE ALWAYS): nothing rewrites a replicated event there
  either, the replication's own apply included;
- the projections there are run by the group's own runner, woken as on a property: a row
  trigger enabled for replication alone NOTIFYs (the property's statement trigger, which
  NOTIFYs there, does not fire for rows replication applies).

The slot is made before the subscription (so a group database on the same server as the
property works too), named after the property.
"""

from __future__ import annotations

from typing import Any

from psycopg import sql

from ledger.core.errors import WrongState
from ledger.infrastructure.database import EVENTS_TABLE


def slot_name(property_code: str) -> str:
    return f"ledger_{property_code}"


def publish(conn: Any, property_code: str) -> str:
    """The property's publication of its events (made once); its name."""
    level = conn.execute("SHOW wal_level").fetchone()[0]
    if level != "logical":
        raise WrongState(f"this server's wal_level is {level}: set wal_level = logical (in "
                         "Patroni's DCS postgresql.parameters) and restart it to publish.")
    name = slot_name(property_code)
    if not conn.execute("SELECT 1 FROM pg_publication WHERE pubname = %s", (name,)).fetchone():
        conn.execute(sql.SQL("CREATE PUBLICATION {} FOR TABLE {} WITH (publish = 'insert', "
                             "publish_via_partition_root = true)"
                             ).format(sql.Identifier(name), sql.Identifier(EVENTS_TABLE)))
    return name


ARRIVED_FUNCTION = """
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NOTIFY {channel};  -- once a transaction, however many rows it applies
    RETURN NULL;
END
$$
"""


def prepare_replica(conn: Any) -> None:
    """The events table of a replica schema: no chain computed here (it arrives with each row),
    and a NOTIFY for each applied transaction, so a projection runner there hears of new
    events as it does on a property (the property's statement trigger does not fire for rows
    that replication applies; this row trigger is enabled for replication alone)."""
    table = sql.Identifier(EVENTS_TABLE)
    for trigger in (f"{EVENTS_TABLE}_chain", f"{EVENTS_TABLE}_assigned_position"):
        conn.execute(sql.SQL("ALTER TABLE {} DISABLE TRIGGER {}").format(
            table, sql.Identifier(trigger)))
    arrived = sql.Identifier(f"{EVENTS_TABLE}_arrived")
    conn.execute(sql.SQL(ARRIVED_FUNCTION).format(
        function=arrived, channel=sql.Identifier(EVENTS_TABLE.replace(".", "_"))))
    conn.execute(sql.SQL("CREATE OR REPLACE TRIGGER {trigger} AFTER INSERT ON {table} "
                         "FOR EACH ROW EXECUTE FUNCTION {trigger}()").format(
        trigger=arrived, table=table))
    conn.execute(sql.SQL("ALTER TABLE {} ENABLE REPLICA TRIGGER {}").format(table, arrived))


def subscribe(conn: Any, publisher: Any, property_code: str, publisher_url: str) -> bool:
    """Subscribe the group database (`conn`, autocommit) to the property's publication, over
    `publisher` (a connection to the property's database); False if it already was."""
    name = slot_name(property_code)
    if conn.execute("SELECT 1 FROM pg_subscription WHERE subname = %s", (name,)).fetchone():
        return False
    if not publisher.execute("SELECT 1 FROM pg_replication_slots WHERE slot_name = %s",
                             (name,)).fetchone():
        publisher.execute("SELECT pg_create_logical_replication_slot(%s, 'pgoutput')", (name,))
    conn.execute(sql.SQL("CREATE SUBSCRIPTION {} CONNECTION {} PUBLICATION {} WITH "
                         "(create_slot = false, slot_name = {})").format(
        sql.Identifier(name), sql.Literal(publisher_url), sql.Identifier(name),
        sql.Literal(name)))
    return True


def replicated_properties(conn: Any) -> list[str]:
    """The properties this group database subscribes to (their schemas), in order."""
    rows = conn.execute("SELECT subname FROM pg_subscription WHERE subdbid = (SELECT oid FROM "
                        "pg_database WHERE datname = current_database()) ORDER BY subname")
    return [row[0].removeprefix("ledger_") for row in rows.fetchall()]
