"""The table protocol: every action is a command, whatever terminal or device it comes from.

A command is imperative (`OpenTable`), carries an idempotency key (`command_id`), the actor,
the terminal and the time. The same models arrive from the Python API, the CLI and
`ledger ingest` (one JSON object per line, told apart by its `command` field).
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Annotated, Literal, Union
from uuid import UUID, uuid4

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

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


class OpenTable(Command):
    command: Literal["open_table"] = "open_table"
    table: str
    game: str
    rule_set: str | None = Field(default=None, description="e.g. stud-poker/2004; default latest")
    min_bet: Money
    max_bet: Money
    pit: str = "main"


class CloseTable(Command):
    command: Literal["close_table"] = "close_table"
    table: str


class SignInDealer(Command):
    command: Literal["sign_in_dealer"] = "sign_in_dealer"
    table: str
    dealer_id: str = Field(min_length=1)


class SignOutDealer(Command):
    command: Literal["sign_out_dealer"] = "sign_out_dealer"
    table: str
    dealer_id: str = Field(min_length=1)


TABLE_COMMANDS = (OpenTable, CloseTable, SignInDealer, SignOutDealer)
ALL_COMMANDS: tuple[type[Command], ...] = TABLE_COMMANDS

AnyCommand = Annotated[Union[*ALL_COMMANDS], Field(discriminator="command")]  # type: ignore[valid-type]
COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(AnyCommand)
