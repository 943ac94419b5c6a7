"""Small builders the integration tests share."""

from __future__ import annotations

from decimal import Decimal

from ledger.commands import OpenTable
from ledger.domain.base import Actor, Role

PIT_BOSS = Actor(staff_id="PB-7", role=Role.PIT_BOSS)
DEALER = Actor(staff_id="D-101", role=Role.DEALER)


def open_table(code: str = "BAC-01", game: str = "baccarat", **overrides: object) -> OpenTable:
    fields: dict[str, object] = dict(
        table=code, game=game, min_bet=Decimal("100.00"), max_bet=Decimal("50000.00"),
        actor=PIT_BOSS, terminal="pit-1",
    )
    fields.update(overrides)
    return OpenTable(**fields)  # type: ignore[arg-type]
