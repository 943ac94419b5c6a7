"""What every ledger connection carries, so that no server fault can hold a terminal for good.

- **On the server**: `statement_timeout`, `lock_timeout` and
  `idle_in_transaction_session_timeout`, set in the connection's startup packet (no extra round
  trip): a runaway statement, a lock queue or a client that vanished mid-transaction is ended
  by the server, and the events table's lock is released.
- **On the wire**: TCP keepalives and `tcp_user_timeout`, so a server whose host or network
  died is noticed in seconds, not after the kernel's two hours.
- **In the pool**: a connection is checked (one empty query) before use only when it has not
  heard from the server for `IDLE_CHECK_SECONDS`: after a restart or a network cut every pooled
  connection has been quiet that long, while on a busy floor none is, so commands send no
  check at all. A connection that failed is closed, never returned to use.
- **In the client**: a frozen server (SIGSTOP, a hung VM) still acknowledges TCP, and enforces
  none of its own timeouts; `GuardedConnection` gives up waiting a few seconds after the
  statement timeout would have fired, closes the connection and raises `OperationalError`, so
  the caller fails cleanly and the pool opens a fresh connection next time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import psycopg
import psycopg_pool
from psycopg import errors
from psycopg.rows import DictRow

CLIENT_MARGIN_SECONDS = 5
IDLE_CHECK_SECONDS = 2  # money-safe: seconds a pooled connection may be quiet unchecked


@dataclass(frozen=True)
class SessionLimits:
    statement_timeout: int = 30
    """Seconds a statement may run (0: none, for verify's and a rebuild's long reads)."""
    lock_timeout: int = 5
    idle_in_transaction_timeout: int = 30
    schema: str | None = None
    """The property's schema (`LEDGER_PROPERTY`): the session's search_path, so every table
    the ledger names is the property's own. None: the login's default (public)."""

    def kwargs(self) -> dict[str, Any]:
        options = " ".join([
            f"-c statement_timeout={self.statement_timeout * 1000}",
            f"-c lock_timeout={self.lock_timeout * 1000}",
            f"-c idle_in_transaction_session_timeout={self.idle_in_transaction_timeout * 1000}",
            *([f"-c search_path={self.schema}"] if self.schema else []),
        ])
        return {"options": options, "keepalives": 1, "keepalives_idle": 10,
                "keepalives_interval": 5, "keepalives_count": 3, "tcp_user_timeout": 30_000}

    @property
    def client_timeout(self) -> int | None:
        """Whole seconds the client waits for any answer (None: as long as it takes)."""
        if not self.statement_timeout:
            return None
        return max(self.statement_timeout, self.lock_timeout) + CLIENT_MARGIN_SECONDS


class GuardedConnection(psycopg.Connection[DictRow]):
    """A connection that stops waiting for a server that stopped answering."""

    client_timeout: int | None = None  # seconds; set per connection class by `guarded`
    round_trips = 0
    """Times any ledger connection went to the server and waited (each statement, pipeline
    sync, COMMIT or check; not a COMMIT psycopg skips in autocommit), for the benchmarks'
    count per command; exact on one thread."""
    last_answer = 0.0  # money-safe: time.monotonic() of the server's last answer

    def wait(self, gen: Any, interval: float = 0.1,  # money-safe: seconds
             timeout: float | None = None) -> Any:  # money-safe: seconds (psycopg's signature)
        watched = timeout is None and self.client_timeout is not None
        try:
            answer = super().wait(_counted(gen), interval,
                                  self.client_timeout if watched else timeout)
        except errors._WaitTimeout:
            if not watched:
                raise
            self.pgconn.finish()  # the server is gone or frozen: this connection is not reused
            raise ServerSilent(
                f"the database did not answer within {self.client_timeout} s (frozen or "
                "unreachable); nothing was confirmed") from None
        self.last_answer = time.monotonic()
        return answer


def _counted(gen: Any) -> Any:
    """psycopg's I/O generator, counting one round trip if it goes to the server at all."""
    try:
        step = next(gen)
    except StopIteration as done:
        return done.value  # nothing to send or wait for
    GuardedConnection.round_trips += 1
    while True:
        try:
            answer = yield step
        except BaseException as error:  # noqa: BLE001 - a timeout or cancel the waiting loop throws in
            try:
                step = gen.throw(error)
            except StopIteration as done:
                return done.value
            continue
        try:
            step = gen.send(answer)
        except StopIteration as done:
            return done.value


class ServerSilent(psycopg.OperationalError):
    """The server took the request and answered nothing within the client timeout (frozen)."""


def idle_check(pool: psycopg_pool.ConnectionPool[Any]) -> Callable[[Any], None]:
    """The pool's check before lending a connection: a no-op for one that heard from the
    server within `IDLE_CHECK_SECONDS`; otherwise an empty query. When that fails at once (a
    restarted server, a cut connection) the pool's other idle connections are as dead: they
    are all checked now and the dead replaced, rather than met one by one, each failure
    doubling the pool's wait. A silent (frozen) server is not asked again."""
    def check(conn: psycopg.Connection[Any]) -> None:
        if time.monotonic() - getattr(conn, "last_answer", 0.0) < IDLE_CHECK_SECONDS:
            return
        try:
            psycopg_pool.ConnectionPool.check_connection(conn)
        except ServerSilent:
            raise
        except Exception:
            pool.check()
            raise

    return check


TRANSIENT_STATES = ("08", "57P01", "57P02", "57P03", "53300", "25006", "55P03")
"""Server states a command waits out: connection failures, a server shutting down, restarting
or full, a read-only server (a failover in progress), a lock timeout on a busy floor."""


def is_lost(error: BaseException) -> bool:
    """Whether `error` (or what it wraps) means the database could not be reached or did not
    answer, so the command may be sent again, rather than that the server refused it."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, errors.PipelineAborted):
            return False  # an earlier statement of the pipeline failed: that is the answer
        if isinstance(seen, psycopg_pool.PoolTimeout | psycopg.InterfaceError):
            return True
        if isinstance(seen, psycopg.OperationalError):
            state = seen.sqlstate
            return state is None or state.startswith(TRANSIENT_STATES)
        if isinstance(seen, psycopg.Error) and seen.sqlstate:  # 25006 is an InternalError
            return seen.sqlstate.startswith(TRANSIENT_STATES)
        seen = seen.__cause__
    return False


def is_aborted(error: BaseException) -> bool:
    """Whether `error` is a pipeline aborted by an earlier statement's failure (which the
    library's insert reports in its place): nothing was committed; sent again, the statement
    that failed says why."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, errors.PipelineAborted):
            return True
        seen = seen.__cause__
    return False


@cache
def guarded(limits: SessionLimits) -> type[GuardedConnection]:
    """A connection class with these limits' client-side timeout."""
    return type("Guarded", (GuardedConnection,), {"client_timeout": limits.client_timeout})
