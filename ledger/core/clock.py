"""The ledger's one clock: where every part of it reads "now".

The composition root (`ledger.runtime.bootstrap.open_ledger`) is given one `Clock`, hands it
to the door and makes it the process's clock (`now()`, `THE_CLOCK`) while the ledger is open,
so that every other reading of the time (an event's timestamp, a checkpoint's, a sign-in
challenge's, a page's "generated at") is the same clock's. Production reads the system's
clock; a practice ledger's may start at another moment (`LEDGER_CLOCK_AT`, a `RunningClock`);
a test sets a fixed, running or offset clock instead of waiting for a time to come. Nothing
turns the clock off: a command's time is always checked against it.

>>> from datetime import UTC, datetime, timedelta
>>> FixedClock(datetime(2026, 11, 29, 6, 0, tzinfo=UTC)).now().isoformat()
'2026-11-29T06:00:00+00:00'
>>> start = datetime(2026, 11, 29, 6, 0, tzinfo=UTC)
>>> OffsetClock(timedelta(hours=-1), base=FixedClock(start)).now().hour
5
>>> RunningClock(start).now() >= start
True
>>> with running(FixedClock(start)):
...     now().isoformat()
'2026-11-29T06:00:00+00:00'
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Gives the time now, timezone-aware."""

    def now(self) -> datetime: ...


class SystemClock:
    """The host's clock (kept synchronised by NTP on a property's servers)."""

    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass(frozen=True)
class FixedClock:
    """Always the same moment: a test's "now"."""

    at: datetime

    def now(self) -> datetime:
        return self.at


@dataclass(frozen=True)
class RunningClock:
    """Starts at `start` when made and runs on at the host's pace (its monotonic clock, which
    says how long, never what time it is): a practice ledger's rehearsal of another day, or a
    test run's clock."""

    start: datetime
    origin: float = field(default_factory=time.monotonic)  # money-safe: seconds

    def now(self) -> datetime:
        return self.start + timedelta(seconds=time.monotonic() - self.origin)


SYSTEM_CLOCK = SystemClock()
_process: list[Clock] = [SYSTEM_CLOCK]


def now() -> datetime:
    """The time on the process's clock (the open ledger's, else the host's), in UTC."""
    return _process[-1].now().astimezone(UTC)


class ProcessClock:
    """The process's clock as a `Clock` (whichever is running when it is read), in UTC."""

    def now(self) -> datetime:
        return now()


THE_CLOCK = ProcessClock()


def current() -> Clock:
    """The clock the process runs on now (not the proxy)."""
    return _process[-1]


@dataclass(frozen=True)
class OffsetClock:
    """Another clock (the one running when it is made, unless given) moved by `offset`: a test
    that plays an hour ago, or tomorrow."""

    offset: timedelta
    base: Clock = field(default_factory=lambda: current())

    def now(self) -> datetime:
        return self.base.now() + self.offset


@contextmanager
def running(clock: Clock) -> Iterator[Clock]:
    """Makes `clock` the process's clock until the block ends (the composition root's while a
    ledger is open; a test's for its run)."""
    _process.append(clock)
    try:
        yield clock
    finally:
        del _process[len(_process) - 1 - _process[::-1].index(clock)]


_started: dict[datetime, RunningClock] = {}


def started_at(start: datetime) -> RunningClock:
    """The running clock that started at `start` in this process (one per moment, so that the
    CLI's clock and the ledger it opens are the same)."""
    return _started.setdefault(start, RunningClock(start))


def set_process_clock(clock: Clock) -> None:
    """Makes `clock` the process's clock for the rest of its life (a CLI process told its
    practice ledger's time, a test run)."""
    _process[0] = clock
