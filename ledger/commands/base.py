"""What every command carries: an idempotency key, the actor, the terminal and the time."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Annotated
from uuid import UUID, uuid4

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ledger.domain.base import Actor, Provenance
from ledger.games.common import AVO

Money = Annotated[
    Decimal,
    Field(max_digits=14, decimal_places=2, allow_inf_nan=False),
    AfterValidator(lambda amount: amount.quantize(AVO)),
]
"""An amount in patacas: at most two decimal places, always stored with exactly two."""


def utc_now() -> datetime:
    return datetime.now(UTC)


class Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    command_id: UUID = Field(default_factory=uuid4, description="idempotency key")
    actor: Actor
    terminal: str = Field(default="admin-cli", min_length=1, description="where it came from")
    at: datetime = Field(default_factory=utc_now, description="when the terminal says it happened")

    @property
    def provenance(self) -> Provenance:
        return Provenance(
            command_id=self.command_id, actor=self.actor, terminal=self.terminal, at=self.at
        )
