"""Small builders the integration tests share."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from ledger.commands.shift import CloseShift, OpenShift
from ledger.commands.table import OpenTable
from ledger.domain.base import Actor, Role
from tests.signing import GAMING_DAY

PIT_BOSS = Actor(staff_id="PB-7", role=Role.PIT_BOSS)
DEALER = Actor(staff_id="D-101", role=Role.DEALER)


def open_table(code: str = "BAC-01", game: str = "baccarat", **overrides: object) -> OpenTable:
    fields: dict[str, object] = {
        "table": code, "game": game, "min_bet": Decimal("100.00"),
        "max_bet": Decimal("50000.00"), "actor": PIT_BOSS, "terminal": "pit-1",
    }
    fields.update(overrides)
    return OpenTable(**fields)  # type: ignore[arg-type]


OPENING_CHIPS = {"5000": 20, "1000": 80, "100": 150}


def open_shift(code: str = "BAC-01", shift: str = "day", **overrides: object) -> OpenShift:
    """Today's shift at the table, its opening inventory signed by dealer D-101 and the pit
    boss: no round opens outside the books."""
    fields: dict[str, object] = {
        "table": code, "gaming_day": GAMING_DAY, "shift": shift, "chips": OPENING_CHIPS,
        "dealer_id": DEALER.staff_id, "supervisor": PIT_BOSS, "actor": PIT_BOSS,
        "terminal": "pit-1",
    }
    fields.update(overrides)
    return OpenShift(**fields)  # type: ignore[arg-type]


def next_day(ledger: Any, code: str, at: datetime) -> None:
    """Today's shift at the table closed with its opening chips and the next gaming day's
    opened at `at` (house settings follow the gaming day the table's shift records)."""
    ledger.execute(CloseShift(table=code, gaming_day=GAMING_DAY, shift="day",
                              chips=OPENING_CHIPS, dealer_id=DEALER.staff_id,
                              supervisor=PIT_BOSS, actor=PIT_BOSS, terminal="pit-1", at=at))
    ledger.execute(open_shift(code, gaming_day=GAMING_DAY + timedelta(days=1), at=at))
