"""The database's group roles, made by `ledger db init`: owner, writer, reader.

- **owner** (`<prefix>_owner`) owns the ledger's tables, views and functions: schema changes,
  and the only role besides a superuser that could alter or disable the triggers.
- **writer** (`<prefix>_writer`) is what the application needs: read everything, insert events
  (INSERT and SELECT only: no UPDATE, DELETE or TRUNCATE on them; appends are ordered by the
  events table's advisory-lock trigger, which needs no privilege), write the projections'
  tables.
- **reader** (`<prefix>_reader`) reads: reports, replay, recall, verify, surveillance. It may make
  temporary tables (verify rebuilds projections in its own session to compare them).

Neither writer nor reader owns a table, so neither can alter or disable a trigger. Roles are
NOLOGIN groups: grant them to login roles (`GRANT ledger_writer TO app_login`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg import Connection, errors, sql
from psycopg.rows import tuple_row

from ledger.errors import first_line

EVENT_TABLES = ("ledger_events",)
UNREAD = ("ledger_snapshots",)  # kept by ledgers made before snapshots were switched off
SEAL_RECORDS = ("ledger_seal_leaves", "ledger_seal_checkpoints", "ledger_seal_keys")  # insert only


@dataclass(frozen=True)
class GroupRoles:
    owner: str
    writer: str
    reader: str

    @classmethod
    def named(cls, prefix: str) -> GroupRoles:
        return cls(f"{prefix}_owner", f"{prefix}_writer", f"{prefix}_reader")

    @property
    def all(self) -> tuple[str, str, str]:
        return self.owner, self.writer, self.reader


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
    owner, writer, reader = (sql.Identifier(r) for r in roles.all)
    database = sql.Identifier(conn.info.dbname)
    schema = sql.Identifier(str(conn.execute("SELECT current_schema()").fetchone()[0]))  # type: ignore[index]
    run = conn.execute
    run(sql.SQL("GRANT CONNECT, TEMPORARY ON DATABASE {} TO {}, {}, {}").format(
        database, owner, writer, reader))
    run(sql.SQL("GRANT USAGE ON SCHEMA {} TO {}, {}").format(schema, writer, reader))
    run(sql.SQL("GRANT USAGE, CREATE ON SCHEMA {} TO {}").format(schema, owner))
    tables = [row[0] for row in run(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'v', 'p')").fetchall()]
    for table in tables:
        ident = sql.Identifier(table)
        run(sql.SQL("ALTER TABLE {} OWNER TO {}").format(ident, owner))
        run(sql.SQL("REVOKE ALL ON {} FROM {}, {}").format(ident, writer, reader))
        run(sql.SQL("GRANT SELECT ON {} TO {}, {}").format(ident, writer, reader))
        if table in EVENT_TABLES:
            run(sql.SQL("GRANT INSERT ON {} TO {}").format(ident, writer))
        elif table in SEAL_RECORDS:
            run(sql.SQL("GRANT INSERT ON {} TO {}").format(ident, writer))
        elif table not in UNREAD:
            run(sql.SQL("GRANT INSERT, UPDATE, DELETE, TRUNCATE ON {} TO {}").format(
                ident, writer))
    run(sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {} TO {}").format(schema, writer))
    functions = run(
        "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n "
        "ON n.oid = p.pronamespace WHERE n.nspname = current_schema() "
        "AND p.proname LIKE 'ledger%%'").fetchall()
    for (signature,) in functions:
        run(sql.SQL("ALTER FUNCTION {} OWNER TO {}").format(sql.SQL(signature), owner))


def missing_insert_privileges(conn: Connection[Any], table: str) -> list[str]:
    """What this login lacks to record into `table` (INSERT: nothing else is needed)."""
    with conn.cursor(row_factory=tuple_row) as cursor:
        return [privilege for privilege in ("INSERT",) if not cursor.execute(
            "SELECT has_table_privilege(%s, %s)", (table, privilege)).fetchone()[0]]
