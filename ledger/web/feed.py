"""The floor's live feed: one thread for the whole server, whatever the number of viewers.

It LISTENs on the channel the events table NOTIFYs on each insert (on a hot standby, which
refuses LISTEN, it reads every second instead), brings the floor's
projections up to date (unless another process runs them: `ledger serve --no-follow`), reads
the floor, renders each part, and hands the parts that changed to every connected page as
server-sent events. A page that cannot keep up (a slow client) is sent only the newest state of
each part, never a backlog, and never waited for; a vanished one is forgotten when its
connection closes, and a browser that reconnects is sent the whole floor again. Recording
never waits for a viewer: the feed only reads, after the fact. A lost database is waited for,
and the feed resumes where the projections stand.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ledger.audit.log.trust import TrustFile
from ledger.core.clock import THE_CLOCK, Clock
from ledger.core.errors import DatabaseUnavailable
from ledger.domain.shift_schedule import ShiftSchedule
from ledger.infrastructure.database import Database
from ledger.infrastructure.event_log import listen
from ledger.infrastructure.standby import standby
from ledger.pages.floor import fragments, whole_floor
from ledger.web.floor import FloorView, floor_view
from ledger.web.happenings import Happenings
from ledger.web.protection_watch import ProtectionWatch
from projections.engine.runner import CHANNEL, LOST_CONNECTION, ProjectionRunner
from projections.queries import table_states

log = logging.getLogger("ledger.web.feed")
POLL_SECONDS = 1.0
"""How often the floor is read without news (the shift changes, a projection lags)."""
READ_GAP_SECONDS = 0.3
"""The most time between the end of one read of the floor and the next; under it the feed waits
`READ_WAIT_FACTOR` times as long as its last read took. On a quiet floor a read takes a few
milliseconds, and so does the wait: a screen shows a command within tens of milliseconds. On a
saturated floor inserts come faster than a person can read a screen, a read waits for the
interpreter behind the commands, and every read goes out to every viewer: there the feed reads
and writes to its viewers about six times a second (a fifth of its time while a read takes
under 75 ms, the cap's quarter), and the commands keep the rest. Against a wait of twice the read up to 0.1 s, in five pairs of runs of
64 saturated tables watched by 50 viewers: the HTTP floor at 0.70x to 0.76x the in-process
floor against 0.59x to 0.65x, 0.8-0.9 ms of the server's CPU a command against 1.0, event to
screen p99 about 0.5 s against 0.35-0.4 s."""
READ_WAIT_FACTOR = 4
WHOLE_SECONDS = 10.0
"""How often every table is read again; in between, only the tables an event changed since
the last read (a busy floor's read of every table, 64 of them made into models at each insert,
was most of the server's CPU). The whole read catches what no position says: a projection
rebuilt and swapped in."""


@dataclass(frozen=True)
class Message:
    event: str
    data: str

    @cached_property  # made once, sent to every viewer
    def encoded(self) -> bytes:
        lines = "".join(f"data: {line}\n" for line in self.data.split("\n"))
        return f"event: {self.event}\n{lines}\n".encode()


class Viewer:
    """One connected page: the latest part for each event name not yet sent to it. A page that
    reads slowly skips the states it had no time for and gets the newest (a screen shows the
    present, not a backlog), so no viewer can make the feed or the ledger wait."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: dict[str, Message | None] = {}
        self.wake = asyncio.Event()

    def offer(self, message: Message | None) -> None:  # on the viewer's loop
        if message is None:
            self.pending[""] = None  # the server stops: the stream ends
        else:
            self.pending.pop(message.event, None)  # the newest goes last, in order
            self.pending[message.event] = message
        self.wake.set()

    async def next(self, timeout: float) -> list[Message | None]:  # money-safe: seconds
        """What is pending (a `None` in it: the stream ends); [] after `timeout` of quiet."""
        try:
            await asyncio.wait_for(self.wake.wait(), timeout)
        except TimeoutError:
            return []
        self.wake.clear()
        taken, self.pending = list(self.pending.values()), {}
        return taken


class FloorFeed:
    def __init__(self, database: Database, schedule: ShiftSchedule, *, follow: bool = True,
                 projections: list[type[Any]] | None = None,
                 trust: TrustFile | None = None, clock: Clock = THE_CLOCK) -> None:
        self.database = database
        self.schedule = schedule
        self.clock = clock  # the ledger's: the shift in force is the one its clock is in
        self._happenings = Happenings()  # the shifts' irregularities and voids, in words
        self.protection = ProtectionWatch()  # the gaming day's game-protection signals
        self.trust = trust  # names the witnesses whose cosignatures the seal waits for
        self.follow = follow
        self.projections = projections or []
        self.parts: dict[str, str] = {}
        self.shown: dict[str, Any] = {}  # dom id -> the table its part was rendered from
        self._made: dict[str, Any] = {}  # code -> the table as `floor_view` last made it
        self.tables: tuple[str, ...] = ()
        self.view: FloorView | None = None
        self._states: dict[str, Any] = {}  # code -> the table's state, as last read
        self._whole_at = 0.0  # money-safe: time.monotonic() of the last read of every table
        self.published = 0  # times a change went out (for the benchmark and the tests)
        self.reads = 0  # times the floor was read
        self._viewers: set[Viewer] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ledger-floor-feed", daemon=True)

    # -- viewers (called on the server's event loop) -----------------------------------------
    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        with self._lock:
            viewers = list(self._viewers)
        for viewer in viewers:
            viewer.loop.call_soon_threadsafe(viewer.offer, None)

    def subscribe(self, loop: asyncio.AbstractEventLoop) -> Viewer:
        """A new page: it is sent the whole floor first, then what changes."""
        viewer = Viewer(loop)
        with self._lock:
            self._viewers.add(viewer)
            if self.view is not None:
                viewer.offer(Message("floor", whole_floor(self.view)))
                for event in ("pools", "alerts"):
                    viewer.offer(Message(event, self.parts[event]))
        return viewer

    def unsubscribe(self, viewer: Viewer) -> None:
        with self._lock:
            self._viewers.discard(viewer)

    @property
    def viewers(self) -> int:
        with self._lock:
            return len(self._viewers)

    def wait_ready(self, timeout: float) -> bool:  # money-safe: seconds
        return self._ready.wait(timeout)

    # -- the feed's thread --------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._follow()
            except (*LOST_CONNECTION, DatabaseUnavailable) as error:
                log.warning("the floor feed lost the database (%s); waiting", error)
                self._stop.wait(1.0)
            except Exception:  # never let the feed die: the floor would freeze unnoticed
                log.exception("the floor feed failed; starting again")
                self._stop.wait(1.0)

    def _follow(self) -> None:
        following = (ProjectionRunner(self.database, self.projections, on_rebuild=log.info)
                     if self.follow else nullcontext(None))
        with self.database.connect() as listener, following as runner:
            polling = standby(listener) is not None  # a hot standby refuses LISTEN
            if not polling:
                listen(listener, CHANNEL)
            next_read = 0.0
            while not self._stop.is_set():
                if runner is not None:  # a batch of each between the floor's reads, a rebuild's too
                    runner.catch_up(self._stop, until_rebuilt=False, one_pass=True)
                gap = next_read - time.monotonic()
                if gap > 0:  # read a moment ago: once the gap is over, catch up and read
                    self._stop.wait(gap)
                    continue
                started = time.monotonic()
                self._read(listener)
                done = time.monotonic()
                next_read = done + min(READ_GAP_SECONDS, READ_WAIT_FACTOR * (done - started))
                self._ready.set()
                if runner is not None and (runner.building or runner.behind):
                    continue
                if polling:
                    self._stop.wait(POLL_SECONDS)
                else:
                    _wait(listener, self._stop, POLL_SECONDS)

    def _read(self, conn: Any) -> None:
        """The floor on `conn` (the feed's own connection): the tables changed since the last
        read, or every table now and then (`WHOLE_SECONDS`)."""
        self.reads += 1
        if time.monotonic() - self._whole_at >= WHOLE_SECONDS or not self._states:
            self._whole_at = time.monotonic()
            self._states = {state.code: state for state in table_states(conn)}
        else:
            since = max(state.updated_position for state in self._states.values())
            self._states.update((state.code, state) for state in table_states(conn, since))
        view = floor_view(conn, self.schedule, self.clock.now(), states=[
            self._states[code] for code in sorted(self._states)], known=self._made,
            trust=self.trust, happenings=self._happenings, protection=self.protection)
        shown = {table.dom_id: table for table in view.tables}
        changed = [table for table in view.tables if self.shown.get(table.dom_id) is not table]
        parts = {**{event: data for event, data in self.parts.items() if event in shown},
                 **fragments(view, changed)}  # only the tables made again are rendered again
        self.shown = shown
        tables = tuple(table.dom_id for table in view.tables)
        with self._lock:
            if tables != self.tables:
                messages = [Message("floor", whole_floor(view))] + [
                    Message(event, parts[event]) for event in ("pools", "alerts")]
            else:
                messages = [Message(event, data) for event, data in parts.items()
                            if self.parts.get(event) != data]
            self.view, self.parts, self.tables = view, parts, tables
            viewers = list(self._viewers)
        if messages:
            self.published += 1
            for viewer in viewers:
                viewer.loop.call_soon_threadsafe(_offer_all, viewer, messages)


def _offer_all(viewer: Viewer, messages: list[Message]) -> None:
    for message in messages:
        viewer.offer(message)


def _wait(listener: Any, stop: threading.Event, seconds: float) -> None:  # money-safe
    """Until a NOTIFY (an insert), `seconds`, or `stop`."""
    deadline = time.monotonic() + seconds
    while not stop.is_set():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        if any(True for _ in listener.notifies(timeout=min(remaining, 0.5), stop_after=1)):
            return

