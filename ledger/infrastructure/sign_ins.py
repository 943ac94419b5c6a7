"""The web's sign-ins in the database, so that every worker of `ledger serve` (and a server
restarted) knows them: the sessions open (`ledger_web_sessions`) and the sign-in challenges
already answered (`ledger_sign_in_nonces`).

Neither is evidence: they say who may read, not what happened, and a login that may write
them may read the ledger already. Tokens and nonces are kept as their SHA-256 only, so reading
these tables does not sign anyone in. Times are the database's clock (`now()`), the one clock
every worker shares; expired rows are removed as new ones are written.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

import psycopg
from psycopg import Connection

from ledger.infrastructure.database import Database

SESSIONS_TABLE = "ledger_web_sessions"
NONCES_TABLE = "ledger_sign_in_nonces"
SIGN_IN_TABLES = (SESSIONS_TABLE, NONCES_TABLE)

DDL = (
    (f"CREATE TABLE IF NOT EXISTS {SESSIONS_TABLE} (token_sha256 bytea PRIMARY KEY, "
     "staff_id text NOT NULL, expires timestamptz NOT NULL)"),
    (f"CREATE TABLE IF NOT EXISTS {NONCES_TABLE} (nonce_sha256 bytea PRIMARY KEY, "
     "expires timestamptz NOT NULL)"),
)


def create_sign_in_tables(conn: Connection[Any]) -> None:
    for statement in DDL:
        conn.execute(statement)


def installed(conn: Connection[Any]) -> bool:
    """Whether `ledger db init` made the tables (a ledger initialised by an earlier release
    has not until it is run again)."""
    row = conn.execute("SELECT to_regclass(%s) IS NOT NULL AND to_regclass(%s) IS NOT NULL",
                       SIGN_IN_TABLES).fetchone()
    return bool(row and row[0])


def _sha(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


class SignInStore:
    """Sessions and answered challenges on one connection of its own (each statement is one
    short autocommit round trip), made again if the database was lost meanwhile."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._conn: Connection[Any] | None = None
        self._lock = threading.Lock()

    def _run(self, query: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            for attempt in (1, 2):
                if self._conn is None or self._conn.closed:
                    self._conn = self.database.connect()
                try:
                    cursor = self._conn.execute(query, params)
                    return cursor.fetchall() if cursor.description else []
                except (psycopg.OperationalError, psycopg.InterfaceError):
                    self._conn.close()
                    self._conn = None
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")  # pragma: no cover

    def open(self, token: str, staff_id: str, seconds: float) -> None:  # money-safe: seconds
        self._run(f"WITH gone AS (DELETE FROM {SESSIONS_TABLE} WHERE expires < now()) "
                  f"INSERT INTO {SESSIONS_TABLE} VALUES (%s, %s, now() + make_interval("
                  "secs => %s))", (_sha(token), staff_id, seconds))

    def staff_of(self, token: str) -> str | None:
        """The member of staff the unexpired session `token` names, if any."""
        found = self._run(f"SELECT staff_id FROM {SESSIONS_TABLE} WHERE token_sha256 = %s "
                          "AND expires >= now()", (_sha(token),))
        return str(found[0][0]) if found else None

    def close(self, token: str) -> None:
        self._run(f"DELETE FROM {SESSIONS_TABLE} WHERE token_sha256 = %s", (_sha(token),))

    def spend(self, nonce: str, expires: int, now: float) -> bool:  # money-safe: seconds
        """Record the challenge `nonce` (good until `expires`, Unix seconds) as answered: True
        the first time, False if it was answered already, by any worker. The nonces expired
        by `now` are forgotten: the ledger's clock, which dated their expiry, never the
        database's (a practice ledger's clock may stand days away from it)."""
        found = self._run(
            f"WITH gone AS (DELETE FROM {NONCES_TABLE} WHERE expires < to_timestamp(%s)) "
            f"INSERT INTO {NONCES_TABLE} VALUES (%s, to_timestamp(%s)) "
            "ON CONFLICT (nonce_sha256) DO NOTHING RETURNING 1", (now, _sha(nonce), expires))
        return bool(found)

    def shut(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def unshared(database: Database) -> str | None:
    """Why sign-ins cannot be kept in this database (None: they can): a hot standby is read
    only; a ledger an earlier release initialised lacks the tables until `ledger db init`."""
    from ledger.infrastructure.standby import standby

    with database.connect() as conn:
        if standby(conn) is not None:
            return "the database is a hot standby, which is read only"
        if not installed(conn):
            return "the database lacks the sign-in tables: run `ledger db init`"
        row = conn.execute("SELECT has_table_privilege(%s, 'INSERT') AND "
                           "has_table_privilege(%s, 'INSERT')", SIGN_IN_TABLES).fetchone()
        if not (row and row[0]):
            return "this login may not write the sign-in tables: run `ledger db init`"
    return None
