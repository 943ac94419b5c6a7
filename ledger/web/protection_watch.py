"""The floor's game-protection alerts: the gaming day's signals (`ledger.audit.protection`)
that chance alone would seldom show, each with its chance, in words.

A signal is about a day's play, not the last coup, and reading a day's rounds takes a while: the
floor reads them again when the gaming day changes and at most every `EVERY` of the ledger's
clock, and shows the sentences it read last in between.
"""

from __future__ import annotations

import threading
from datetime import date, datetime, timedelta
from typing import Any

from psycopg import Connection

from ledger.audit.protection.report import floor_alerts
from ledger.core.errors import LedgerError
from ledger.domain.shift_schedule import ShiftSchedule

EVERY = timedelta(minutes=5)
PREFIX = "game protection: "


class ProtectionWatch:
    """The gaming day's protection alerts, kept between reads."""

    def __init__(self) -> None:
        self._read: tuple[date, datetime] | None = None
        self._said: list[str] = []
        self._lock = threading.Lock()

    def of(self, conn: Connection[Any], schedule: ShiftSchedule, now: datetime) -> list[str]:
        day = schedule.locate(now).gaming_day
        with self._lock:
            if self._read is None or self._read[0] != day or now - self._read[1] >= EVERY:
                self._said = said(conn, schedule, now)
                self._read = (day, now)
            return list(self._said)


def said(conn: Connection[Any], schedule: ShiftSchedule, now: datetime) -> list[str]:
    """The sentences now; a day the signals cannot read is said so, never hidden."""
    try:
        return [PREFIX + alert.text for alert in floor_alerts(conn, schedule, now)]
    except LedgerError as error:
        return [(f"{PREFIX}the gaming day's rounds could not be read ({error}); run `ledger "
                "report protection --period day` to see why")]
