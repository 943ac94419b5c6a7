"""The ledger's one clock: where every part of it reads "now".

The composition root (`ledger.runtime.bootstrap.open_ledger`) is given one `Clock` and hands
it to the door and to whatever else must know the time (the simulated floor). Production reads
the system's clock; a test sets a fixed or an offset clock instead of waiting for a time to
come. Nothing turns the clock off: a command's time is always checked against it.

>>> from datetime import UTC, datetime, timedelta
>>> FixedClock(datetime(2026, 11, 29, 6, 0, tzinfo=UTC)).now().isoformat()
'2026-11-29T06:00:00+00:00'
>>> start = datetime(2026, 11, 29, 6, 0, tzinfo=UTC)
>>> OffsetClock(timedelta(hours=-1), base=FixedClock(start)).now().hour
5
"""

from __future__ import annotations

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
class OffsetClock:
    """Another clock moved by `offset`: a test that plays an hour ago, or tomorrow."""

    offset: timedelta
    base: Clock = field(default_factory=SystemClock)

    def now(self) -> datetime:
        return self.base.now() + self.offset


SYSTEM_CLOCK = SystemClock()
