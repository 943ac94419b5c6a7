"""The gaming day split into shifts, and which gaming day and shift a moment falls in.

A schedule is written `day=06:00,swing=14:00,graveyard=22:00` (`LEDGER_SHIFT_SCHEDULE`): the
shifts in the order they run, each from its start to the next one's, the last until the first
starts again. The gaming day starts with the first shift and is named after the calendar day
it starts on, so 03:00 on 23 November is the graveyard shift of gaming day 22 November.
Times are Macau time (UTC+8, no daylight saving); a naive datetime is taken as Macau time.

Pure: no database, no settings. The settings hold a `ShiftSchedule`; pydantic reads it from
its text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from ledger.core.errors import InvalidInput
from ledger.core.formatting import MACAU, macau

DEFAULT_SCHEDULE = "day=06:00,swing=14:00,graveyard=22:00"
SHIFT_NAME = re.compile(r"[a-z][a-z0-9-]{0,23}")
START = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)")
DAY = timedelta(days=1)


def check_shift_name(name: str) -> str:
    if not SHIFT_NAME.fullmatch(name):
        raise InvalidInput(
            f"'{name}' is not a shift name: lower-case letters, digits and '-', e.g. day."
        )
    return name


def parse_gaming_day(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InvalidInput(
            f"'{text}' is not a gaming day: write it YYYY-MM-DD, e.g. 2026-11-22."
        ) from None


@dataclass(frozen=True, slots=True)
class ShiftSlot:
    """One shift of one gaming day, with the moments it starts and ends (Macau time)."""

    gaming_day: date
    shift: str
    starts_at: datetime
    ends_at: datetime

    def __contains__(self, moment: datetime) -> bool:
        return self.starts_at <= macau(moment) < self.ends_at


class ShiftSchedule:
    """The shifts of a gaming day, each with the time it starts. A value: compare, hash, print."""

    __slots__ = ("starts",)

    def __init__(self, starts: Iterable[tuple[str, time]]) -> None:
        self.starts: tuple[tuple[str, time], ...] = tuple(starts)
        if not self.starts:
            raise InvalidInput(
                f"a shift schedule names at least one shift, e.g. {DEFAULT_SCHEDULE}."
            )
        previous: tuple[str, timedelta] | None = None
        for name, start in self.starts:
            check_shift_name(name)
            if [n for n, _ in self.starts].count(name) > 1:
                raise InvalidInput(f"shift '{name}' appears twice in the shift schedule.")
            offset = self._offset(start)
            if previous is not None and offset <= previous[1]:
                raise InvalidInput(
                    f"shift '{name}' ({start:%H:%M}) does not start after '{previous[0]}': "
                    "list the shifts in the order they run through the gaming day."
                )
            previous = (name, offset)

    @classmethod
    def parse(cls, text: str) -> ShiftSchedule:
        starts = []
        for item in (part.strip() for part in text.split(",") if part.strip()):
            name, _, start = (piece.strip() for piece in item.partition("="))
            match = START.fullmatch(start)
            if not match:
                raise InvalidInput(
                    f"'{item}' is not name=HH:MM in the shift schedule '{text}', e.g. day=06:00."
                )
            starts.append((name, time(int(match[1]), int(match[2]))))
        return cls(starts)

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        def coerce(value: Any) -> ShiftSchedule:
            if isinstance(value, ShiftSchedule):
                return value
            if isinstance(value, str):
                return cls.parse(value)
            raise ValueError(f"a shift schedule is text such as {DEFAULT_SCHEDULE}")

        return core_schema.no_info_plain_validator_function(
            coerce, serialization=core_schema.plain_serializer_function_ser_schema(str)
        )

    def __str__(self) -> str:
        return ",".join(f"{name}={start:%H:%M}" for name, start in self.starts)

    def __repr__(self) -> str:
        return f"ShiftSchedule.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ShiftSchedule) and self.starts == other.starts

    def __hash__(self) -> int:
        return hash(self.starts)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.starts)

    @property
    def day_starts(self) -> timedelta:
        """How long after midnight (Macau time) a gaming day starts: its first shift's start."""
        first = self.starts[0][1]
        return timedelta(hours=first.hour, minutes=first.minute)

    def _offset(self, start: time) -> timedelta:
        """How long after the gaming day starts a shift starts."""
        first = self.starts[0][1]
        minutes = (start.hour - first.hour) * 60 + start.minute - first.minute
        return timedelta(minutes=minutes % (24 * 60))

    def check_name(self, name: str) -> str:
        cleaned = name.strip().lower()
        if cleaned not in self.names:
            listing = ", ".join(f"{n} (from {start:%H:%M})" for n, start in self.starts)
            raise InvalidInput(f"there is no '{name}' shift: the shifts are {listing}.")
        return cleaned

    def slot(self, gaming_day: date, name: str) -> ShiftSlot:
        """When a shift of a gaming day starts and ends."""
        name = self.check_name(name)
        day_starts = datetime.combine(gaming_day, self.starts[0][1], tzinfo=MACAU)
        index = self.names.index(name)
        starts_at = day_starts + self._offset(self.starts[index][1])
        following = self.starts[index + 1][1] if index + 1 < len(self.starts) else None
        ends_at = day_starts + (self._offset(following) if following else DAY)
        return ShiftSlot(gaming_day, name, starts_at, ends_at)

    def locate(self, moment: datetime) -> ShiftSlot:
        """The gaming day and shift a moment falls in."""
        local = macau(moment)
        gaming_day = local.date()
        if local < datetime.combine(gaming_day, self.starts[0][1], tzinfo=MACAU):
            gaming_day -= DAY
        # the shifts of a gaming day cover it end to end, so exactly one holds the moment
        slots = (self.slot(gaming_day, name) for name in self.names)
        return next(slot for slot in slots if local in slot)
