"""What every command carries: an idempotency key and the time; who and where come from the door.

A terminal sends the command's body signed (`ledger.identity`); the door verifies the
signatures against the registry and only then fills `actor` (the staff member, in the role
the registry gives them) and `terminal`. A body that names its own actor or terminal is refused.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Annotated, Any
from uuid import UUID, uuid4

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ledger.domain.base import Actor, Provenance
from ledger.errors import NotAllowed
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
    at: datetime = Field(default_factory=utc_now, description="when the terminal says it happened")
    actor: Actor | None = Field(
        default=None, description="set by the ledger from the verified signature; never sent")
    terminal: str | None = Field(
        default=None, description="set by the ledger from the verified signature; never sent")
    credentials: Credentials | None = Field(
        default=None, exclude=True, description="the keys the door verified (set by the door)")

    @property
    def provenance(self) -> Provenance:
        if self.actor is None or self.terminal is None:
            raise NotAllowed(f"{type(self).__name__} was not admitted by the ledger's door: "
                             "nothing is recorded without verified credentials.")
        keys = self.credentials or Credentials()
        return Provenance(
            command_id=self.command_id, actor=self.actor, terminal=self.terminal, at=self.at,
            staff_key=keys.staff_key, terminal_key=keys.terminal_key, vouched=keys.vouched,
        )

    def body(self) -> dict[str, Any]:
        """The command as a terminal sends it: without who and where, which the door sets, and
        a co-signing supervisor by staff id alone (the registry gives the role)."""
        body = self.model_dump(mode="json", exclude={"actor", "terminal", "credentials"})
        if isinstance(body.get("supervisor"), dict):
            body["supervisor"] = body["supervisor"]["staff_id"]
        return body


class Credentials(BaseModel):
    """The key fingerprints the door checked for a command (see `Provenance`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    staff_key: str | None = None
    terminal_key: str | None = None
    vouched: str | None = None


Command.model_rebuild()
