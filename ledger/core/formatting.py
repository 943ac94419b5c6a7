"""How the ledger shows money and time to people: one place for the terminal, the pages, the
reports and the sentences of its errors.

- **Money** is the pataca, two places, thousands separated: `money` gives `MOP 1,000.00` (and
  `MOP -5,910.00`) for sentences; `amount` gives `1,000.00` for a table cell or a column whose
  heading names the currency (`heading("win")` is `win (MOP)`). Both take the `Decimal` as it
  is recorded: no float, no rounding but the display's two places.
- **Time** shown to people is Macau time (Asia/Macau, UTC+08:00, no daylight saving) to the
  second, labelled: `when` gives `2026-11-24 14:03:05 Macau time` for sentences; `clock` gives
  `2026-11-24 14:03:05` under a heading that says `Macau time`.
- **Machine-readable** output (CSV, JSON) keeps exact values: `decimal_text` is the decimal's own
  digits (`1000.00`), `iso` the moment in Macau time with its offset and its full precision
  (`2026-11-24T14:03:05.123456+08:00`).

A library such as Babel would add a locale database for one currency and one language; the
format is `format(value, ",.2f")`, exact for a `Decimal`, and is kept here instead.

Pure: no settings, no I/O; the domain's sentences use it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from enum import Enum
from typing import Any
from uuid import UUID

CURRENCY = "MOP"
MACAU = timezone(timedelta(hours=8), "Asia/Macau")
TIME_LABEL = "Macau time"
PRACTICE_MARK = "PRACTICE LEDGER, simulated play, not a record of any property"
"""What a practice ledger (`ledger db init --practice`) prints before its property's name on
every page, report, export, bundle and replay."""
NOTHING = "-"


def amount(value: Decimal | int | str | None) -> str:
    """`1,000.00`; `-` for no amount."""
    if value is None:
        return NOTHING
    return format(Decimal(value), ",.2f")


def money(value: Decimal | int | str | None) -> str:
    """`MOP 1,000.00`; `-` for no amount."""
    return NOTHING if value is None else f"{CURRENCY} {amount(value)}"


def heading(name: str) -> str:
    """A money column's heading: `win (MOP)`."""
    return f"{name} ({CURRENCY})"


def decimal_text(value: Decimal | int | str | None) -> str | None:
    """An exact decimal string for CSV and JSON (`1000.00`), `None` kept."""
    return None if value is None else str(Decimal(value))


def macau(moment: datetime) -> datetime:
    """The moment on Macau's clock; a naive moment is taken to be Macau time already."""
    return moment.replace(tzinfo=MACAU) if moment.tzinfo is None else moment.astimezone(MACAU)


def clock(moment: datetime | None) -> str:
    """`2026-11-24 14:03:05`, Macau time (say so in the heading); `-` for no moment."""
    return NOTHING if moment is None else f"{macau(moment):%Y-%m-%d %H:%M:%S}"


def when(moment: datetime | None) -> str:
    """`2026-11-24 14:03:05 Macau time`; `-` for no moment."""
    return NOTHING if moment is None else f"{clock(moment)} {TIME_LABEL}"


def minute(moment: datetime) -> str:
    """`2026-11-24 14:03 Macau time`, where seconds would be noise (a shift's opening)."""
    return f"{macau(moment):%Y-%m-%d %H:%M} {TIME_LABEL}"


def iso(moment: datetime | None) -> str | None:
    """The moment for CSV and JSON: Macau time with its offset, full precision."""
    return None if moment is None else macau(moment).isoformat()


def probability_text(probability: float) -> str:  # money-safe: a probability
    """A probability for CSV and JSON: a string of six decimals (`0.012345`), never a float."""
    return f"{probability:.6f}"


def exact_json(value: Any) -> Any:
    """A report's values as its JSON writes them, one convention for every report: times in
    ISO 8601 in Macau time with their offset (`iso`), money and other decimals as exact
    strings (`decimal_text`), a probability (the only float) as `probability_text`, a day as
    `2026-11-24`; counts stay numbers. Give it a model's `model_dump()` (Python values).

    >>> from datetime import UTC
    >>> exact_json({"at": datetime(2026, 11, 24, 6, 3, 5, tzinfo=UTC), "win": Decimal("5.50"),
    ...             "probability": 0.5, "rounds": [3], "on": date(2026, 11, 24)})
    {'at': '2026-11-24T14:03:05+08:00', 'win': '5.50', 'probability': '0.500000', 'rounds': [3], 'on': '2026-11-24'}
    """
    if isinstance(value, Mapping):
        return {str(key): exact_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [exact_json(item) for item in value]
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return decimal_text(value)
    if isinstance(value, float):  # money-safe: floats are probabilities here, never money
        return probability_text(value)
    if isinstance(value, Enum):
        return exact_json(value.value)
    if isinstance(value, UUID):
        return str(value)
    return value


RARE = 0.05  # money-safe: a probability
"""Below this a chance is read as `once in N times` (N of 20 or more); from it up, as a share."""


def chance(probability: float) -> str:  # money-safe: a probability
    """A probability as people read it, by one rule: a rare one (below 1 in 20) as `once in N
    times`, any other as a percentage, never rounded up to a certainty.

    >>> chance(0.0008), chance(0.049), chance(0.05), chance(0.5)
    ('once in 1,250 times', 'once in 20 times', '5% of the time', '50% of the time')
    >>> chance(1.0)
    'more than 99% of the time'
    """
    if probability <= 0:
        return "practically never"
    if probability < RARE:
        return f"once in {round(1 / probability):,} times"
    if probability > 0.99:
        return "more than 99% of the time"
    return f"{probability:.0%} of the time"


def count(number: int | None) -> str:
    """`5,804`: a count with its thousands separated; `-` for none."""
    return "-" if number is None else f"{number:,}"


def counted(number: int, one: str, many: str | None = None) -> str:
    """`1 pool`, `5,804 commands`: a count with its noun in number."""
    return f"{count(number)} {one if number == 1 else many or one + 's'}"
