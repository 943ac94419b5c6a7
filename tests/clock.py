"""The test run's clock: the ledger's time is given, never read from the host.

Every process of a run (each xdist worker) sets its clock running from `RUN_STARTS`, 07:00 Macau
time on a Monday, an hour into the day shift: a whole run is over long before the swing shift
begins at 14:00, so no test meets a shift or gaming-day change it did not ask for, whatever the
hour the run starts. A test that needs another moment (a gaming day's close, a late feed, a
sign-in window) sets it: `open_ledger(settings, clock=FixedClock(...))` or an `OffsetClock` in
process, `clock_after(day)` or its own `LEDGER_CLOCK_AT` for a `ledger` it starts.

Reading the host's clock in a test's process fails the test (`SystemClock.now` raises
`RealTimeRead`), and `tests/unit/test_no_real_time.py` finds any reading of the time of day in
the product or the tests outside `ledger/core/clock.py`.
"""

from __future__ import annotations

import os
from datetime import datetime

from ledger.core import clock
from ledger.core.clock import RunningClock, SystemClock
from ledger.core.formatting import MACAU

RUN_STARTS = datetime(2026, 11, 23, 7, 0, tzinfo=MACAU)
RUN_CLOCK = RunningClock(RUN_STARTS)
ENV = "LEDGER_CLOCK_AT"


class RealTimeRead(AssertionError):
    """A test read the host's clock: the ledger's time must be given."""


def _refuse(_: SystemClock) -> datetime:
    raise RealTimeRead("a test read the host's clock (SystemClock.now): give the ledger its "
                       "clock instead (tests/clock.py says how)")


def start() -> None:
    """This process's clock runs from `RUN_STARTS`; the host's clock refuses to be read."""
    clock.set_process_clock(RUN_CLOCK)
    SystemClock.now = _refuse  # type: ignore[method-assign]  # reason: the guard itself


def stamp() -> str:
    """The run's time now as `LEDGER_CLOCK_AT`: a `ledger` process started with it runs on from
    there, and a practice ledger opened in this process under it runs on the run's clock
    itself (the same moment maps to the same clock)."""
    now = RUN_CLOCK.now()
    clock._started[now] = RUN_CLOCK
    return now.isoformat()


def refresh_env() -> None:
    """Every process a test starts inherits the run's time at the test's start."""
    os.environ[ENV] = stamp()
