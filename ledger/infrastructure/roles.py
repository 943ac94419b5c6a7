"""The database's group roles, made by `ledger db init`: owner, writer, reader, sealer.

- **owner** (`<prefix>_owner`) owns the ledger's tables, views and functions: schema changes,
  and the only role besides a superuser that could alter or disable the triggers.
- **writer** (`<prefix>_writer`) is what the application needs: read everything, insert events
  (INSERT and SELECT only: no UPDATE, DELETE or TRUNCATE on them; positions drawn from their
  sequence, never set: no UPDATE on it, so no `setval`), take the append turn
  (UPDATE on `ledger_append_turn`, whose row the events table's trigger locks: only a role
  that may write can hold appends back), write the projections' tables. It only reads the
  seal's tables.
- **reader** (`<prefix>_reader`) reads: reports, replay, recall, verify, surveillance. It may make
  temporary tables (verify rebuilds projections in its own session to compare them). It has no
  privilege on the append turn, so it cannot lock it.
- **sealer** (`<prefix>_sealer`) reads everything and is the only role that writes the seal:
  INSERT on its append-only tables (leaves, tiles, checkpoints, keys, cosignatures) and UPDATE on
  `ledger_seal_state`, which holds the sealer's position. `ledger seal run` runs as a login
  granted it.

No role but the owner owns a table, so none can alter or disable a trigger. Roles are NOLOGIN
groups: grant them to login roles (`GRANT ledger_writer TO app_login`). `ledger db init` grants
afresh every time, after revoking each role's table privileges, so run again on a ledger made
by an older version it takes back what that version granted (the writer's UPDATE on the events
table, its INSERT on the seal's tables).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg import Connection, errors, sql
from psycopg.rows import tuple_row

from ledger.core.errors import first_line
from ledger.infrastructure.sign_ins import SIGN_IN_TABLES

EVENT_TABLES = ("ledger_events",)
UNREAD = ("ledger_snapshots",)  # kept by ledgers made before snapshots were switched off
SEAL_RECORDS = ("ledger_seal_leaves", "ledger_seal_tiles", "ledger_seal_checkpoints",
                "ledger_seal_keys", "ledger_seal_cosignatures",
                "ledger_seal_alarms")  # the sealer's, insert only
SEAL_STATE = "ledger_seal_state"  # the sealer's, updated in place
APPEND_TURN = "ledger_append_turn"  # locked by the writer's inserts; nobody else's
PRACTICE = "ledger_practice"  # the practice mark, made by `ledger db init`: read only


@dataclass(frozen=True)
class GroupRoles:
    owner: str
    writer: str
    reader: str
    sealer: str

    @classmethod
    def named(cls, prefix: str) -> GroupRoles:
        return cls(f"{prefix}_owner", f"{prefix}_writer", f"{prefix}_reader", f"{prefix}_sealer")

    @property
    def all(self) -> tuple[str, str, str, str]:
        return self.owner, self.writer, self.reader, self.sealer


def install_roles(conn: Connection[Any], roles: GroupRoles) -> str | None:
    """Create the roles (once per server) and grant them on this database (every time).
    Returns why it could not, when the initialising login may not create roles."""
    try:
        with conn.transaction():
            for name in roles.all:
                _create_role(conn, name)
            _grant(conn, roles)
    except errors.InsufficientPrivilege as error:
        return (f"the database roles were not made ({first_line(error)}): "
                "run `ledger db init` once as a login that may create roles.")
    return None


def _create_role(conn: Connection[Any], name: str) -> None:
    exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).fetchone()
    if exists:
        return
    try:
        with conn.transaction():
            conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(name)))
    except (errors.DuplicateObject, errors.UniqueViolation):
        pass  # made by a concurrent `db init` on another database of the server


def _grant(conn: Connection[Any], roles: GroupRoles) -> None:
    owner, writer, reader, sealer = (sql.Identifier(r) for r in roles.all)
    database = sql.Identifier(conn.info.dbname)
    row = conn.execute("SELECT current_schema()").fetchone()
    assert row is not None  # a SELECT without FROM returns exactly one row
    schema = sql.Identifier(str(row[0]))
    run = conn.execute
    run(sql.SQL("GRANT CONNECT, TEMPORARY ON DATABASE {} TO {}, {}, {}, {}").format(
        database, owner, writer, reader, sealer))
    run(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}, {}, {}").format(schema, writer, reader, sealer))
    run(sql.SQL("GRANT USAGE, CREATE ON SCHEMA {} TO {}").format(schema, owner))
    tables = run(
        "SELECT c.relname, c.relkind = 'v' FROM pg_class c JOIN pg_namespace n "
        "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() "
        "AND c.relkind IN ('r', 'v', 'p', 'f') AND NOT (c.relispartition AND EXISTS ("
        "SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid "
        "AND i.inhparent = ANY(%s::regclass[])))", (list(EVENT_TABLES),)).fetchall()
    # the events' partitions are reached through their parent only: the owner's alone
    for (partition,) in run(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = ANY(%s::regclass[])", (list(EVENT_TABLES),)).fetchall():
        ident = sql.Identifier(partition)
        run(sql.SQL("ALTER TABLE {} OWNER TO {}").format(ident, owner))
        run(sql.SQL("REVOKE ALL ON {} FROM {}, {}, {}").format(ident, writer, reader, sealer))
    for table, is_view in tables:
        ident = sql.Identifier(table)
        run(sql.SQL("ALTER TABLE {} OWNER TO {}").format(ident, owner))
        run(sql.SQL("REVOKE ALL ON {} FROM {}, {}, {}").format(ident, writer, reader, sealer))
        for role, privileges in _privileges(table, is_view):
            run(sql.SQL("GRANT {} ON {} TO {}").format(
                sql.SQL(", ").join(map(sql.SQL, privileges)), ident, sql.Identifier(
                    getattr(roles, role))))
    # the writer draws positions (the default's nextval), never sets one: `setval` needs
    # UPDATE, the owner's; the reader and the sealer read the newest given (`ledger verify`)
    run(sql.SQL("REVOKE UPDATE ON ALL SEQUENCES IN SCHEMA {} FROM {}, {}, {}").format(
        schema, writer, reader, sealer))
    run(sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {} TO {}").format(schema, writer))
    for table in EVENT_TABLES:
        run(sql.SQL("GRANT SELECT ON SEQUENCE {} TO {}, {}").format(
            sql.Identifier(f"{table}_notification_id_seq"), reader, sealer))
    functions = run(
        "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n "
        "ON n.oid = p.pronamespace WHERE n.nspname = current_schema() "
        "AND p.proname LIKE 'ledger%%'").fetchall()
    for (signature,) in functions:
        run(sql.SQL("ALTER FUNCTION {} OWNER TO {}").format(sql.SQL(signature), owner))


def _privileges(table: str, is_view: bool) -> list[tuple[str, tuple[str, ...]]]:
    """Which group role holds what on `table` (besides the owner, who owns it). A view is
    read only: a write through it would be checked against its owner's privileges."""
    if table == APPEND_TURN:  # row-locking needs UPDATE (and SELECT); the reader gets nothing
        return [("writer", ("SELECT", "UPDATE"))]
    readers: list[tuple[str, tuple[str, ...]]] = [
        (role, ("SELECT",)) for role in ("writer", "reader", "sealer")]
    if table in EVENT_TABLES:
        return [*readers, ("writer", ("INSERT",))]
    if table in SEAL_RECORDS:
        return [*readers, ("sealer", ("INSERT",))]
    if table == SEAL_STATE:
        return [*readers, ("sealer", ("UPDATE",))]
    if table in UNREAD or table == PRACTICE or is_view:
        return readers
    if table in SIGN_IN_TABLES:  # a server of the pages alone signs its readers in too
        return [*readers, *((role, ("INSERT", "DELETE")) for role in ("writer", "reader"))]
    return [*readers, ("writer", ("INSERT", "UPDATE", "DELETE", "TRUNCATE"))]


def missing_insert_privileges(conn: Connection[Any], table: str) -> list[str]:
    """What this login lacks to record into `table` (INSERT: nothing else is needed)."""
    with conn.cursor(row_factory=tuple_row) as cursor:
        row = cursor.execute("SELECT has_table_privilege(%s, 'INSERT')", (table,)).fetchone()
        return [] if row and row[0] else ["INSERT"]
