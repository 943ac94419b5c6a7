"""The projection runner: catch up from each projection's position in batches, then follow.

One batch is one transaction, in this order:

1. lock the projection's row in `ledger_tracking` (`SELECT ... FOR UPDATE`) and read its
   position there, never from memory;
2. read the next events after that position, in `notification_id` order;
3. apply them (`projections.engine.folding`): runs of the types a projection folds set-based inside
   the database, the others one by one through their handlers, all pipelined: no round trip
   per event;
4. write the position of the last event read, handled or not, and commit.

So a projection's rows and its position are committed together or not at all: a crash (even a
SIGKILL) mid-batch loses the whole batch, and the next run applies it again from the committed
position; nothing is counted twice and nothing is skipped. Two runners of the same projection
take turns on the tracking row; so does the swap at the end of a rebuild
(`projections.engine.rebuild`), which also locks that row first, so the three never deadlock.

Reading by `notification_id` never skips an event committed later with a smaller id: every
insert into `ledger_events` first takes the append turn (the row of `ledger_append_turn`,
locked by the table's statement trigger, `ledger.infrastructure.schema`) and holds it to the
end of its transaction, so ids are committed in the order they are drawn. Gaps left by
rolled-back inserts are never filled and are simply passed over.

Why our own runner and not `eventsourcing.projection.ProjectionRunner`:

- the library commits one transaction per event (`process_event` + `insert_tracking`); a
  catch-up over a million events would be a million commits. Here a batch of events and its
  position share one transaction;
- its tracking recorder keeps its own table keyed by the upstream application's name, while
  the ledger keeps `ledger_tracking` (projection -> position), which `ledger db status` reads
  and whose row lock is how live runners and a rebuild's swap take turns;
- it has nothing for a rebuild into shadow tables swapped in when complete;
- it turns every notification into a domain event through the mapper (each body validated by
  its pydantic class, resolved from its topic); a read model needs only the stored JSON, and
  bodies of types a projection ignores are not even fetched here;
- it runs a subscription, a listener and a processing thread per projection; this runner is one
  loop that stops between batches on SIGINT or SIGTERM.

A projection whose live tables another version of the code built (its recorded version is not
the code's, `projections.engine.versions`) is not followed with the code's handlers: the runner
rebuilds it from the first event in shadow tables beside the live ones, a batch in turn with
the other projections' batches, and swaps it in once caught up (`projections.engine.shadow`), saying
so through `on_rebuild`; or, with `rebuild=False` (the pages' and the API's reads), leaves it as
it stands for a runner to rebuild.

What it keeps from the library: the channel `ledger_events`, which the follower LISTENs to;
the table's trigger NOTIFYs it on every insert, whoever makes it; a short poll backs it up.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self

import psycopg
from psycopg import Connection, sql

from ledger.core.errors import DatabaseUnavailable, ProjectionStalled, WrongState, first_line
from ledger.infrastructure.database import EVENTS_TABLE, Database
from ledger.infrastructure.standby import Standby, standby
from projections.engine.base import Projection, StoredEvent
from projections.engine.folding import apply_batch, read_batch, read_events
from projections.engine.shadow import ShadowBuild, claim, release
from projections.engine.tracking import create_tracking_table, lock_position
from projections.engine.versions import Version, code_version, difference, lock_tracking, stale

CHANNEL = EVENTS_TABLE.replace(".", "_")  # where the events table's trigger NOTIFYs
# A catch-up's batch; a follower's are as small as what arrives. A fold writes each table's row
# once a batch however many of its events the batch holds, so larger batches cost less an event
# (`bench-projections` shows 10,000 against 5,000 and 1,000); a batch is one transaction, which
# at 10,000 events holds the projection's tracking row for about a tenth of a second.
DEFAULT_BATCH_SIZE = 10_000
STOP_CHECK_SECONDS = 0.25  # how soon a follower waiting for events notices it must stop

HEAD = sql.SQL("SELECT coalesce(max(notification_id), 0) FROM {}").format(
    sql.Identifier(EVENTS_TABLE)
)


@dataclass(frozen=True)
class Batch:
    """What one transaction did for one projection."""

    projection: str
    events: int
    position: int
    other_version: bool = False
    """Nothing applied: another version of the code built the live tables (found under the
    tracking row's lock, so a swap by another session is never written over)."""


OnBatch = Callable[[Batch], None]


# -- the building blocks, shared with the rebuild --------------------------------------------
def head(conn: Connection[Any]) -> int:
    """The last position in the store (0 when it is empty)."""
    row = conn.execute(HEAD).fetchone()
    return int(row[0]) if row else 0


def session(conn: Connection[Any], name: str) -> None:
    """Name the session, and let its commits return before the WAL reaches the disk: what a
    projection writes is derived from the events and its position is in the same transaction,
    so a crash that loses its last commits loses rows and position together, and the next run
    applies those events again. The events themselves are never written this way."""
    conn.execute("SELECT set_config('application_name', %s, false), "
                  "set_config('synchronous_commit', 'off', false)", (name,))


def ensure_tracked(conn: Connection[Any], projection: Projection) -> None:
    """The projection's live tables and its tracking row exist: a new row at position 0, built
    by this version of the code."""
    with conn.transaction():
        create_tracking_table(conn)
        projection.create_tables(conn)
        conn.execute(
            "INSERT INTO ledger_tracking (projection, position, version) VALUES (%s, 0, %s) "
            "ON CONFLICT (projection) DO NOTHING",
            (projection.name, code_version(type(projection)).stored),
        )


def record_position(name: str, position: int) -> Callable[[Any], None]:
    def record(cursor: Any) -> None:
        cursor.execute(
            "UPDATE ledger_tracking SET position = %s, updated_at = now(), stalled = NULL "
            "WHERE projection = %s",
            (position, name),
        )

    return record


def process_batch(conn: Connection[Any], projection: Projection, limit: int,
                  version: Version | None = None) -> Batch:
    """One transaction: the next events after the committed position, and the new position.
    An event the projection cannot apply stops it there (`ProjectionStalled`, recorded in
    `ledger_tracking.stalled`), after committing the events before it. With `version`, nothing
    is applied to live tables another version built."""
    try:
        with conn.transaction():
            position, built_by = lock_tracking(conn, projection.name)
            if version is not None and built_by != version:
                return Batch(projection.name, 0, position, other_version=True)
            events, read = read_batch(conn, projection, position, limit)
            if events:
                position = events[-1].position
                apply_batch(conn, projection, events, record_position(projection.name, position))
    except LOST_CONNECTION:
        raise
    except Exception:  # noqa: BLE001 - an event it cannot apply: find which, keep what comes before it
        applied, position = _stall(conn, projection, limit)
        return Batch(projection.name, applied, position)
    return Batch(projection.name, read, position)


LOST_CONNECTION = (psycopg.OperationalError, psycopg.InterfaceError)


def _stall(conn: Connection[Any], projection: Projection, limit: int) -> tuple[int, int]:
    """Apply the batch one event at a time (through the handlers, folds aside) up to the one
    that fails; commit those before it;
    record why the projection stopped, and raise it as one line. If every event applies this
    time (the failure did not come back), how many were read and the new position."""
    poison: StoredEvent | None = None
    reason, applied = "", 0
    with conn.transaction():
        position = lock_position(conn, projection.name)
        projection.begin()
        with conn.cursor() as cursor:
            for event in read_events(conn, position, limit, projection.handled_types()):
                try:
                    with conn.transaction():  # a savepoint: the failed event leaves no trace
                        projection.handle(event, cursor)
                        projection.finish(cursor)  # what it deferred, inside its savepoint
                except LOST_CONNECTION:
                    raise
                except Exception as error:  # noqa: BLE001 - every failure stops it, named
                    projection.begin()  # nor in what it deferred
                    poison = event
                    reason = first_line(error, type(error).__name__)
                    break
                position, applied = event.position, applied + 1
            record_position(projection.name, position)(cursor)
    if poison is None:
        return applied, position
    message = (f"projection {projection.name.replace('_', '-')} stopped at event {poison.position} "
               f"({poison.event_type}, stream {poison.stream_id} v{poison.version}): "
               f"{reason[:200]}; its rows stand at position {position}")
    conn.execute("UPDATE ledger_tracking SET stalled = %s WHERE projection = %s",
                 (message, projection.name))
    raise ProjectionStalled(message + ".")


def _shown(name: str) -> str:
    return name.replace("_", "-")


# -- the runner ------------------------------------------------------------------------------
class ProjectionRunner:
    """Keeps some projections up to date: `catch_up()` once, or `follow()` until stopped."""

    def __init__(
        self,
        database: Database,
        projections: Sequence[type[Projection]],
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        poll_seconds: float = 1.0,  # money-safe: a wait
        on_batch: OnBatch | None = None,
        rebuild: bool = True,
        on_rebuild: Callable[[str], None] | None = None,
    ) -> None:
        self.database = database
        self.projections = [projection() for projection in projections]
        self.batch_size = batch_size
        self.poll_seconds = poll_seconds
        self.on_batch = on_batch
        self.rebuild, self.on_rebuild = rebuild, on_rebuild
        self._conn: Connection[Any] | None = None
        self.standby: Standby | None = None
        self.stale: dict[str, tuple[Version, Version | None]] = {}
        """Projections whose live tables another version built: (the code's, the live one's)."""
        self.behind = False  # after `catch_up(one_pass=True)`: more events are waiting
        self.building: dict[str, ShadowBuild] = {}
        self._waiting: set[str] = set()  # left to another session or version: said once

    def __enter__(self) -> Self:
        self._conn = self.database.connect()
        session(self._conn, "ledger projections")
        self.standby = standby(self._conn)
        if self.standby is None:  # on a standby the primary's read models are read as they are
            for projection in self.projections:
                ensure_tracked(self._conn, projection)
            # a lost connection took its builds' locks with it: they start again
            self.stale = stale(self._conn, [type(p) for p in self.projections])
            self.building, self._waiting = {}, set()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    @property
    def conn(self) -> Connection[Any]:
        if self._conn is None:
            raise RuntimeError("use the runner as a context manager: `with ProjectionRunner(...)`")
        return self._conn

    def positions(self) -> dict[str, int]:
        rows = self.conn.execute(
            "SELECT projection, position FROM ledger_tracking WHERE projection = ANY(%s)",
            ([projection.name for projection in self.projections],),
        ).fetchall()
        return {name: int(position) for name, position in rows}

    def refuse_on_standby(self) -> None:
        """For a runner that is to write: a standby's read models are the primary's."""
        if self.standby is not None:
            raise WrongState(f"{self.database.describe()} is a hot standby (read-only): the "
                             "projections are kept on the primary and reach it by "
                             "replication; run `ledger projections run` against the primary "
                             "(a multi-host URL with target_session_attrs=read-write finds it).")

    def catch_up(self, stop: threading.Event | None = None, *, until_rebuilt: bool = True,
                 one_pass: bool = False) -> int:
        """Apply every event recorded so far to every projection, a batch of each in turn, and
        swap in every rebuild this runner carries once it is caught up; how many events the
        live projections read (none on a hot standby: its read models are the primary's).
        `until_rebuilt=False` returns once the live projections are caught up, a rebuild one
        batch further on; `one_pass` after a batch of each (the floor's feed reads the floor
        between passes), `behind` then saying whether a batch was full."""
        self.behind = False
        if self.standby is not None:
            return 0
        read, moved = 0, True
        while moved and not (stop and stop.is_set()):
            if one_pass and read:
                break
            moved = False
            for projection in self.projections:
                if stop and stop.is_set():
                    break
                if projection.name in self.stale:  # left as they stand unless rebuilt here
                    if self.rebuild and self._rebuild_step(type(projection)):
                        moved = moved or until_rebuilt
                    continue
                batch = process_batch(self.conn, projection, self.batch_size,
                                      code_version(type(projection)))
                if batch.other_version:  # swapped in by another version since we looked
                    self.stale.update(stale(self.conn, [type(projection)]))
                    moved = True
                    continue
                if batch.events:
                    read, moved = read + batch.events, True
                    self.behind = self.behind or batch.events >= self.batch_size
                    if self.on_batch is not None:
                        self.on_batch(batch)
        return read

    def _rebuild_step(self, projection: type[Projection]) -> bool:
        """One batch of the projection's rebuild beside its live tables (claimed and started
        first), or its swap once caught up; False while another session builds it. Its live
        tables stand still meanwhile: the code's handlers may not fit their shape."""
        name = projection.name
        build = self.building.get(name)
        code, live = self.stale[name]
        if build is None and live is not None and live.number > code.number:
            self._say_once(name, f"{_shown(name)}: its live tables were built by a newer "
                                 f"version of the code ({difference(code, live)}): left as "
                                 "they stand here")
            return False
        if build is None:
            claimed = claim(self.conn, name)
            if name not in stale(self.conn, [projection]):  # swapped in by whoever built it
                if claimed:
                    release(self.conn, name)
                del self.stale[name]
                return True
            if not claimed:
                self._say_once(name, f"{_shown(name)}: being rebuilt by another session; "
                                     "followed here once it is swapped in")
                return False
            self._say(f"rebuilding {_shown(name)}: {difference(code, live)}; beside the live "
                      "tables, which readers keep until it is swapped in")
            build = self.building[name] = ShadowBuild.start(self.conn, projection)
        if build.step(self.conn, self.batch_size):
            return True
        position = build.swap_in(self.conn, self.batch_size)
        release(self.conn, name)
        del self.building[name], self.stale[name]
        self._say(f"{_shown(name)}: rebuilt from the first event ({build.events:,} events), "
                  f"swapped in at position {position:,}")
        return True

    def _say_once(self, name: str, line: str) -> None:
        if name not in self._waiting:
            self._waiting.add(name)
            self._say(line)

    def _say(self, line: str) -> None:
        if self.on_rebuild is not None:
            self.on_rebuild(line)

    def follow(self, stop: threading.Event,
               on_lost: Callable[[str], None] | None = None) -> None:
        """Catch up, then apply new events as they are recorded, until `stop` is set. A lost
        database (restarted, failed over, frozen past the timeouts) is waited for and the
        runner resumes from the committed positions; `on_lost` is told each time."""
        self.refuse_on_standby()
        while not stop.is_set():
            try:
                with self.database.connect() as listener:
                    # LISTEN before the first catch-up: a NOTIFY in between waits for us.
                    listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
                    while not stop.is_set():
                        self.catch_up(stop)
                        self._wait_for_news(listener, stop)
            except (*LOST_CONNECTION, DatabaseUnavailable) as error:
                if on_lost is not None:
                    on_lost(first_line(error))
                self._reconnect(stop)

    def _reconnect(self, stop: threading.Event) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        wait = 0.5  # money-safe: seconds, doubling up to 5
        while not stop.is_set():
            try:
                self.__enter__()
                return
            except (*LOST_CONNECTION, DatabaseUnavailable):
                if self._conn is not None:
                    self._conn.close()
                    self._conn = None
                stop.wait(wait)
                wait = min(wait * 2, 5.0)

    def _wait_for_news(self, listener: Connection[Any], stop: threading.Event) -> None:
        """Until a NOTIFY, the poll interval, or `stop`, whichever comes first."""
        deadline = time.monotonic() + self.poll_seconds
        while not stop.is_set():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            timeout = min(remaining, STOP_CHECK_SECONDS)
            if any(True for _ in listener.notifies(timeout=timeout, stop_after=1)):
                return
