"""What `ledger db init` adds to the library's tables: a hash chain, append-only triggers and
one order of appends.

The chain hash is computed by a BEFORE INSERT trigger, inside the database, so no application
code path (ours, the library's, or a psql session) can store an event without it:

    chain_hash(v) = SHA-256( chain_hash(v-1)            -- 32 zero bytes for version 1
                             || uuid bytes of the stream (16)
                             || version as int8, big-endian
                             || length of topic as int4 || topic (UTF-8)
                             || state )                 -- the event's JSON body

`ledger.audit.verification.verify` recomputes the same formula in Python.

Appends are serialised by a BEFORE INSERT statement trigger that locks the one row of
`ledger_append_turn` (`SELECT ... FOR UPDATE`), before any row of the statement draws its
`notification_id`, and holds it to commit or rollback. So a transaction that draws ids commits
(or rolls back) before the next one draws any: ids become visible in the order they were drawn,
and a follower reading `notification_id > its position` never passes over an id that a slower
transaction commits later. This replaces the library's `LOCK TABLE ... IN EXCLUSIVE MODE` on the
events table, which needs UPDATE privilege there. The turn is a row, not an advisory lock,
because an advisory lock needs no privilege at all: any login that may connect, a reader's
included, could take it and hold back every append until the commands' deadlines. Locking a
row needs UPDATE privilege on its table, which only the writer holds (`roles`): a reader is
refused. Because the trigger is in the database it orders every insert, the ledger's, a bulk
load's or a psql session's alike. The same trigger sends the NOTIFY the followers LISTEN to,
delivered at commit.
"""

from __future__ import annotations

from psycopg import Connection, sql

from ledger.infrastructure import partitions

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
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    previous bytea;
    newest bigint;
    topic_bytes bytea := convert_to(NEW.topic, 'UTF8');
BEGIN
    -- the stream's newest version from the one before this one on, on the primary's own
    -- partitions (positions from {hot_from}: the archived ones are older) ...
    SELECT originator_version, chain_hash INTO newest, previous FROM {table}
     WHERE originator_id = NEW.originator_id
       AND originator_version >= NEW.originator_version - 1
       AND notification_id >= {hot_from}
     ORDER BY originator_version DESC LIMIT 1;
    IF newest IS NULL AND {hot_from} > 1 THEN  -- ... or in the archive, the stream's past
        SELECT originator_version, chain_hash INTO newest, previous FROM {table}
         WHERE originator_id = NEW.originator_id
           AND originator_version >= NEW.originator_version - 1
         ORDER BY originator_version DESC LIMIT 1;
    END IF;
    IF newest >= NEW.originator_version THEN  -- under the append turn: no race
        RAISE EXCEPTION 'stream % already has version %', NEW.originator_id,
            NEW.originator_version USING ERRCODE = 'unique_violation';
    END IF;
    IF NEW.originator_version = 1 THEN
        previous := '\\x0000000000000000000000000000000000000000000000000000000000000000';
    ELSIF newest IS NULL THEN  -- its history is damaged (`ledger verify` names how)
        RAISE EXCEPTION 'stream % has no version % to chain version % to',
            NEW.originator_id, NEW.originator_version - 1, NEW.originator_version
            USING ERRCODE = 'data_corrupted', DETAIL = NEW.originator_id::text;
    END IF;
    NEW.chain_hash := sha256(
        previous || uuid_send(NEW.originator_id) || int8send(NEW.originator_version)
        || int4send(octet_length(topic_bytes)) || topic_bytes || NEW.state);
    RETURN NEW;
END
$$
"""

POSITION_FUNCTION = """
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    -- under the append turn nobody else draws: a position just drawn is the sequence's newest
    IF NEW.notification_id IS DISTINCT FROM pg_sequence_last_value({sequence}) THEN
        RAISE EXCEPTION 'position % was not drawn from % just now (its newest is %): '
            'an event takes the next position, never one chosen',
            NEW.notification_id, {sequence}, pg_sequence_last_value({sequence})
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'Insert without notification_id: the database draws it.';
    END IF;
    RETURN NEW;
END
$$
"""
"""Positions only the sequence gives. The column's default draws the next value under the
append turn (the statement trigger takes it before any row draws), so the value a row carries
must be the sequence's newest: a position chosen by the inserting login (0, negative, one
below the newest, one far above it) is refused, and none lands at or below one already given.
The sequence's state is not transactional, so no snapshot, however old, hides a newer draw.
The writer holds USAGE on the sequence (the default's `nextval` needs it), not UPDATE:
`setval` is the owner's. The function reads its functions and operators from `pg_catalog`
alone, whatever search path the inserting session sets."""

STREAM_VERSION_FUNCTION = """
CREATE OR REPLACE FUNCTION ledger_stream_version(stream uuid) RETURNS bigint
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
SELECT coalesce(
    (SELECT max(originator_version) FROM {table}
      WHERE originator_id = stream AND notification_id >= {hot_from}),
    (SELECT max(originator_version) FROM {table}
      WHERE originator_id = stream AND {hot_from} > 1),
    0)
$$
"""
"""A stream's newest version (0: none), read on the primary's own partitions first: the
group writer's check of the streams it read."""

APPEND_TURN = "ledger_append_turn"
APPEND_TURN_DDL = """
CREATE TABLE IF NOT EXISTS {table} (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row))
"""

SERIALISE_FUNCTION = """
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM {turn} FOR UPDATE;
    IF NOT FOUND THEN  -- no row, no turn: refuse rather than append out of order
        RAISE EXCEPTION '% has no row: appends cannot take their turn', '{turn_name}'
            USING HINT = 'Run `ledger db init`.';
    END IF;
    NOTIFY {channel};
    RETURN NULL;
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


def install(conn: Connection, events_table: str, snapshots_table: str | None,
            partition_size: int = partitions.DEFAULT_SIZE) -> None:
    """Idempotent: safe to run on every `ledger db init`. A ledger whose events table is not
    yet partitioned has it made the first partition of a partitioned one."""
    conn.execute(APPEND_ONLY_FUNCTION)
    turn = sql.Identifier(_current_schema(conn), APPEND_TURN)
    conn.execute(sql.SQL(APPEND_TURN_DDL).format(table=turn))
    conn.execute(sql.SQL("INSERT INTO {} DEFAULT VALUES ON CONFLICT DO NOTHING").format(turn))
    if not partitions.is_partitioned(conn, events_table):
        conn.execute(sql.SQL("SELECT 1 FROM {} FOR UPDATE").format(turn))
        partitions.convert(conn, events_table)
    install_chain(conn, events_table)
    install_positions(conn, events_table)
    _install_serialiser(conn, events_table)
    partitions.ensure(conn, events_table, partition_size)
    for part in partitions.partitions(conn, events_table):
        if not part.foreign:
            partitions.partition_triggers(conn, events_table, part.name)
    for table in filter(None, (events_table, snapshots_table)):
        found = conn.execute("SELECT to_regclass(%s)", (table,)).fetchone()
        if found and found[0]:  # a ledger made before snapshots were switched off keeps its own
            install_append_only(conn, table)
    conn.execute(
        sql.SQL(READABLE_VIEW).format(
            view=sql.Identifier("ledger_event_log"), table=sql.Identifier(events_table)
        )
    )


def install_chain(conn: Connection, table: str) -> None:
    """The chain trigger and the stream-version function, reading the primary's own partitions
    first: positions from the first one not archived. Both read the table by its schema's name
    with a search path of `pg_catalog` alone: a session's temporary table of the same name
    (the writer may make one) cannot stand in for the events the chain is hashed from."""
    ident = sql.Identifier(table)
    qualified = sql.Identifier(_current_schema(conn), table)
    hot_from = sql.Literal(partitions.hot_from(conn, table))
    function = sql.Identifier(f"{table}_chain")
    conn.execute(sql.SQL("ALTER TABLE {} ADD COLUMN IF NOT EXISTS chain_hash bytea").format(ident))
    conn.execute(sql.SQL(CHAIN_FUNCTION).format(function=function, table=qualified,
                                                hot_from=hot_from))
    conn.execute(sql.SQL(STREAM_VERSION_FUNCTION).format(table=qualified, hot_from=hot_from))
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


def position_trigger(table: str) -> str:
    return f"{table}_assigned_position"


def install_positions(conn: Connection, table: str) -> None:
    """The row trigger that refuses a position the sequence did not just give (named to fire
    before the chain's: triggers fire in name order, and a chosen position is refused before
    anything is read or hashed for it)."""
    ident = sql.Identifier(table)
    name = position_trigger(table)
    sequence = sql.Identifier(_current_schema(conn), f"{table}_notification_id_seq")
    conn.execute(sql.SQL(POSITION_FUNCTION).format(
        function=sql.Identifier(name), sequence=sql.Literal(sequence.as_string(conn))))
    conn.execute(sql.SQL("CREATE OR REPLACE TRIGGER {trigger} BEFORE INSERT ON {table} "
                         "FOR EACH ROW EXECUTE FUNCTION {trigger}()").format(
        trigger=sql.Identifier(name), table=ident))
    conn.execute(sql.SQL("ALTER TABLE {} ENABLE ALWAYS TRIGGER {}").format(
        ident, sql.Identifier(name)))


def _current_schema(conn: Connection) -> str:
    row = conn.execute("SELECT current_schema()").fetchone()
    assert row is not None  # a SELECT without FROM returns exactly one row
    return str(row[0])


def serialiser_trigger(table: str) -> str:
    return f"{table}_serialise"


def _install_serialiser(conn: Connection, table: str) -> None:
    ident = sql.Identifier(table)
    name = serialiser_trigger(table)
    function = sql.Identifier(name)
    channel = sql.Identifier(table.replace(".", "_"))  # the library's channel name
    # named with its schema: the trigger must find the turn whatever the session's search_path
    turn = sql.Identifier(_current_schema(conn), APPEND_TURN)
    conn.execute(sql.SQL(APPEND_TURN_DDL).format(table=turn))
    conn.execute(sql.SQL("INSERT INTO {} DEFAULT VALUES ON CONFLICT DO NOTHING").format(turn))
    install_append_only(conn, APPEND_TURN)  # its one row is locked, never changed
    conn.execute(sql.SQL(SERIALISE_FUNCTION).format(
        function=function, channel=channel, turn=turn, turn_name=sql.SQL(APPEND_TURN)))
    conn.execute(
        sql.SQL(
            "CREATE OR REPLACE TRIGGER {trigger} BEFORE INSERT ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
        ).format(trigger=function, table=ident, function=function)
    )
    conn.execute(sql.SQL("ALTER TABLE {} ENABLE ALWAYS TRIGGER {}").format(ident, function))


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


def open_schema(conn: Connection, name: str | None) -> None:
    """Check the server answers (a clear error now rather than a retry loop later) and make the
    property's own schema, when it has one."""
    conn.execute("SELECT 1")
    if name:
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(name)))


_PARTITIONED = "to_regprocedure('ledger_stream_version(uuid)') IS NOT NULL"
"""Made with the partitioned events table: a ledger without it is brought up to date by
`ledger db init`."""


def _chain_triggers(events_table: str) -> list[str]:
    return [f"{events_table}_chain", serialiser_trigger(events_table),
            position_trigger(events_table)]


def chain_installed(conn: Connection, events_table: str) -> bool:
    """Whether the events table has its hash chain and its serialiser (made by this version of
    `ledger db init`)."""
    triggers = _chain_triggers(events_table)
    row = conn.execute(
        "SELECT count(DISTINCT tgname), " + _PARTITIONED + " FROM pg_trigger t JOIN pg_class c "
        "ON c.oid = tgrelid WHERE tgname = ANY(%s) "
        "AND c.relnamespace = current_schema()::regnamespace", (triggers,)).fetchone()
    return bool(row and row[0] == len(triggers) and row[1])


def installed_ledger_id(conn: Connection, events_table: str) -> str | None:
    """The ledger's id (`ledger_seal_state`), or None when the database is not initialised by
    this version: one round trip for the triggers and the state table, one for the id."""
    triggers = _chain_triggers(events_table)
    row = conn.execute(
        "SELECT (SELECT count(DISTINCT tgname) FROM pg_trigger t JOIN pg_class c "
        "ON c.oid = tgrelid WHERE tgname = ANY(%s) "
        "AND c.relnamespace = current_schema()::regnamespace), "
        "to_regclass('ledger_seal_state') IS NOT NULL AND " + _PARTITIONED,
        (triggers,)).fetchone()
    if not row or row[0] != len(triggers) or not row[1]:
        return None
    found = conn.execute("SELECT ledger_id FROM ledger_seal_state").fetchone()
    return str(found[0]) if found else None
