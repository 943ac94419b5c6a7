"""What `ledger db init` adds to the library's tables: a hash chain and append-only triggers.

The chain hash is computed by a BEFORE INSERT trigger, inside the database, so no application
code path (ours, the library's, or a psql session) can store an event without it:

    chain_hash(v) = SHA-256( chain_hash(v-1)            -- 32 zero bytes for version 1
                             || uuid bytes of the stream (16)
                             || version as int8, big-endian
                             || length of topic as int4 || topic (UTF-8)
                             || state )                 -- the event's JSON body

`ledger.audit.verify` recomputes the same formula in Python.
"""

from __future__ import annotations

from psycopg import Connection
from psycopg import sql

APPEND_ONLY_FUNCTION = """
CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % is not allowed on recorded events',
        TG_TABLE_NAME, TG_OP
        USING HINT = 'Record a correcting event instead.';
END
$$
"""

CHAIN_FUNCTION = """
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    previous bytea;
    topic_bytes bytea := convert_to(NEW.topic, 'UTF8');
BEGIN
    IF NEW.originator_version = 1 THEN
        previous := '\\x0000000000000000000000000000000000000000000000000000000000000000';
    ELSE
        SELECT chain_hash INTO previous FROM {table}
         WHERE originator_id = NEW.originator_id
           AND originator_version = NEW.originator_version - 1;
        IF previous IS NULL THEN
            RAISE EXCEPTION 'stream % has no version % to chain version % to',
                NEW.originator_id, NEW.originator_version - 1, NEW.originator_version;
        END IF;
    END IF;
    NEW.chain_hash := sha256(
        previous || uuid_send(NEW.originator_id) || int8send(NEW.originator_version)
        || int4send(octet_length(topic_bytes)) || topic_bytes || NEW.state);
    RETURN NEW;
END
$$
"""

READABLE_VIEW = """
CREATE OR REPLACE VIEW {view} AS
SELECT notification_id AS position,
       originator_id AS stream_id,
       originator_version AS version,
       split_part(topic, ':', 2) AS event_type,
       (convert_from(state, 'UTF8')::jsonb ->> 'timestamp')::timestamptz AS recorded_at,
       convert_from(state, 'UTF8')::jsonb AS body,
       encode(chain_hash, 'hex') AS chain_hash
  FROM {table}
"""


def install(conn: Connection, events_table: str, snapshots_table: str | None) -> None:
    """Idempotent: safe to run on every `ledger db init`."""
    conn.execute(APPEND_ONLY_FUNCTION)
    _install_chain(conn, events_table)
    for table in filter(None, (events_table, snapshots_table)):
        found = conn.execute("SELECT to_regclass(%s)", (table,)).fetchone()
        if found and found[0]:  # a ledger made before snapshots were switched off keeps its own
            install_append_only(conn, table)
    conn.execute(
        sql.SQL(READABLE_VIEW).format(
            view=sql.Identifier("ledger_event_log"), table=sql.Identifier(events_table)
        )
    )


def _install_chain(conn: Connection, table: str) -> None:
    ident = sql.Identifier(table)
    function = sql.Identifier(f"{table}_chain")
    conn.execute(sql.SQL("ALTER TABLE {} ADD COLUMN IF NOT EXISTS chain_hash bytea").format(ident))
    conn.execute(sql.SQL(CHAIN_FUNCTION).format(function=function, table=ident))
    conn.execute(
        sql.SQL(
            "CREATE OR REPLACE TRIGGER {trigger} BEFORE INSERT ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION {function}()"
        ).format(trigger=sql.Identifier(f"{table}_chain"), table=ident, function=function)
    )
    # ALWAYS: the trigger fires even with session_replication_role = replica.
    conn.execute(
        sql.SQL("ALTER TABLE {} ENABLE ALWAYS TRIGGER {}").format(
            ident, sql.Identifier(f"{table}_chain")
        )
    )


def install_append_only(conn: Connection, table: str) -> None:
    ident = sql.Identifier(table)
    for name, timing in (
        (f"{table}_no_update_delete", "BEFORE UPDATE OR DELETE ON {table} FOR EACH ROW"),
        (f"{table}_no_truncate", "BEFORE TRUNCATE ON {table} FOR EACH STATEMENT"),
    ):
        trigger = sql.Identifier(name)
        conn.execute(
            sql.SQL(
                "CREATE OR REPLACE TRIGGER {trigger} " + timing
                + " EXECUTE FUNCTION ledger_refuse_change()"
            ).format(trigger=trigger, table=ident)
        )
        conn.execute(sql.SQL("ALTER TABLE {} ENABLE ALWAYS TRIGGER {}").format(ident, trigger))
