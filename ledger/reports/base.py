"""The periods a statistics report covers, and the base its win-to-drop is compared with.

COMAR 36.05.03.25(B)(2) has a facility investigate, at a 95% confidence interval, fluctuations
of table games' win-to-drop from the facility's win-to-drop of the previous business year, or,
in the initial year of operations, of the previous month. The ledger's business year is the
calendar year (as its year-to-date is); its initial year of operations is the business year of
its first gaming day. So the base of a report ending on gaming day D is:

- the whole business year before D's, when the ledger has a gaming day in it;
- else, in the initial year, the calendar month before D's, when the ledger has a gaming day
  in it;
- else none: the ledger's first month has nothing before it to compare with.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from pydantic import BaseModel

from ledger.core.errors import InvalidInput
from projections.shifts import statistics as read

PREVIOUS_YEAR = "previous business year"
PREVIOUS_MONTH = "previous month (initial year of operations)"


def period_of(kind: str, through: date) -> tuple[date, date]:
    """The gaming days of a period ending on `through`: that day, its month so far, or its
    year so far."""
    if kind == "day":
        return through, through
    if kind == "month":
        return through.replace(day=1), through
    if kind == "ytd":
        return through.replace(month=1, day=1), through
    raise InvalidInput(f"unknown period '{kind}': give day, month or ytd.")


class Base(BaseModel):
    """The period a report's win-to-drop is compared with."""

    label: str  # PREVIOUS_YEAR or PREVIOUS_MONTH
    first_day: date
    last_day: date


def previous_year(day: date) -> Base:
    return Base(label=PREVIOUS_YEAR, first_day=date(day.year - 1, 1, 1),
                last_day=date(day.year - 1, 12, 31))


def previous_month(day: date) -> Base:
    last = day.replace(day=1) - timedelta(days=1)
    return Base(label=PREVIOUS_MONTH, first_day=last.replace(day=1), last_day=last)


def choose_base(through: date, first_gaming_day: date | None) -> Base | None:
    """The base of a report ending on `through`, for a ledger whose first gaming day is
    `first_gaming_day` (None: no shift at all).

    >>> choose_base(date(2026, 3, 10), date(2025, 11, 3)).label
    'previous business year'
    >>> choose_base(date(2026, 3, 10), date(2026, 1, 5)).first_day
    datetime.date(2026, 2, 1)
    >>> choose_base(date(2026, 1, 20), date(2026, 1, 5)) is None
    True
    """
    if first_gaming_day is None:
        return None
    if first_gaming_day.year < through.year:
        return previous_year(through)
    month = previous_month(through)
    return month if first_gaming_day <= month.last_day else None


def base_period(cursor: Any, through: date) -> Base | None:
    """The base of a report ending on `through`, as the ledger's shifts say."""
    return choose_base(through, read.first_gaming_day(cursor))
