"""Where the database is, how to reach it, and how the library is told about it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from ledger.core.errors import DatabaseUnavailable, InvalidInput, first_line
from ledger.infrastructure.recorder import CONNINFO_KEY, FACTORY_TOPIC, limits_env
from ledger.infrastructure.recorder import TOPIC as RECORDER_TOPIC
from ledger.infrastructure.session import SessionLimits, guarded

EVENTS_TABLE = "ledger_events"
SNAPSHOTS_TABLE = "ledger_snapshots"
TRACKING_TABLE = "ledger_tracking"


@dataclass(frozen=True)
class Database:
    url: str
    embedded_dir: Path | None = None
    connect_timeout: int = 5
    limits: SessionLimits = field(default_factory=SessionLimits)

    @property
    def params(self) -> dict[str, Any]:
        try:
            return conninfo_to_dict(self.url)
        except psycopg.ProgrammingError as error:
            raise InvalidInput(f"LEDGER_DATABASE_URL is not a PostgreSQL URL: {error}") from None

    def describe(self) -> str:
        """Where the data lives, without the password (every host of a multi-host URL)."""
        params = self.params
        hosts = str(params.get("host") or "localhost").split(",")
        ports = str(params.get("port") or "5432").split(",")
        servers = ",".join(f"{host}:{ports[min(i, len(ports) - 1)]}"
                           for i, host in enumerate(hosts))
        where = f"{params.get('user', '')}@{servers}/{params.get('dbname')}"
        named = f"property {self.limits.schema}" if self.limits.schema else ""
        if self.embedded_dir is not None:
            return (f"embedded PostgreSQL in {self.embedded_dir} ({params.get('dbname')}"
                    f"{', ' + named if named else ''})")
        return f"postgresql://{where}" + (f" ({named})" if named else "")

    def connect(self, *, autocommit: bool = True, long: bool = False) -> psycopg.Connection[Any]:
        """A connection with the session limits (`long`: no statement timeout, for verify's and
        a rebuild's whole-ledger reads; the other limits and keepalives still hold)."""
        limits = replace(self.limits, statement_timeout=0) if long else self.limits
        try:
            return guarded(limits).connect(
                self.url, autocommit=autocommit, connect_timeout=self.connect_timeout,
                **limits.kwargs(),
            )
        except psycopg.OperationalError as error:
            reason = first_line(error)
            missing = self.params.get("dbname")
            if missing and f'database "{missing}" does not exist' in str(error):
                raise DatabaseUnavailable(  # the server answered: only the database is missing
                    f"the server at {self.describe()} has no database {missing}: make it "
                    f"(`createdb {missing}`, or CREATE DATABASE as its owner), then run again"
                ) from None
            raise DatabaseUnavailable(
                f"cannot reach the database at {self.describe()}: {reason}"
            ) from None

    def with_schema(self, schema: str) -> Database:
        """The same server and database, a property's schema (`LEDGER_PROPERTY`)."""
        return replace(self, limits=replace(self.limits, schema=schema))

    def with_dbname(self, dbname: str) -> Database:
        params = self.params
        params["dbname"] = dbname
        return replace(self, url=make_conninfo("", **params))

    def library_env(self, *, pool_size: int, lock_timeout: int) -> dict[str, str]:
        """The eventsourcing library's settings for this database."""
        params = self.params
        return {
            # The library's PostgreSQL factory and recorder, with the ledger's session limits
            # on every pooled connection and its own policy for a lost connection.
            "PERSISTENCE_MODULE": FACTORY_TOPIC,
            "APPLICATION_RECORDER_TOPIC": RECORDER_TOPIC,
            **limits_env(self.limits),
            # The library names its tables with their schema: the property's, if one is set.
            "POSTGRES_SCHEMA": self.limits.schema or "public",
            "POSTGRES_DBNAME": str(params.get("dbname", "postgres")),
            # The library's settings hold one host and port; the whole URL (every host,
            # target_session_attrs, TLS, application_name: all libpq reads) is given to the
            # pool by `LedgerFactory`, overriding these.
            CONNINFO_KEY: self.url,
            "POSTGRES_HOST": str(params.get("host") or "localhost").split(",")[0],
            "POSTGRES_PORT": str(params.get("port") or "5432").split(",")[0],
            "POSTGRES_USER": str(params.get("user", "postgres")),
            "POSTGRES_PASSWORD": str(params.get("password", "")),
            "POSTGRES_CONNECT_TIMEOUT": str(self.connect_timeout),
            "POSTGRES_POOL_SIZE": str(pool_size),
            "POSTGRES_MAX_OVERFLOW": str(pool_size),
            "POSTGRES_LOCK_TIMEOUT": str(lock_timeout),
            # The library sets this on each pooled connection after it connects: the same
            # value as the startup packet's, or it would override it.
            "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT": str(
                self.limits.idle_in_transaction_timeout),
            # Off: the library would check every connection on every use. `LedgerFactory`
            # checks only a connection that has been quiet (see ledger.infrastructure.session).
            "POSTGRES_PRE_PING": "n",
            # Off on purpose: with it, two applications sharing a schema write into the
            # wrong table, and tracking records are dropped.
            "POSTGRES_ENABLE_DB_FUNCTIONS": "n",
            # Off on purpose: the library's snapshots are unchained rows it would trust on
            # every cold load, so one inserted row could change a pool's value. Streams are
            # folded from their events alone; the aggregate cache below keeps that fast.
            "IS_SNAPSHOTTING_ENABLED": "n",
            # Streams stay in memory and are fast-forwarded with only their new events, so a
            # command on a long stream (a shoe of 416 cards) does not re-read it whole.
            "AGGREGATE_CACHE_MAXSIZE": "5000",
            "AGGREGATE_CACHE_FASTFORWARD": "y",
            "CREATE_TABLE": "n",
        }
