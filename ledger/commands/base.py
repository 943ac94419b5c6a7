"""What every command carries: an idempotency key and the time; who and where come from the door.

A terminal sends the command's body signed (`ledger.identity`); the door verifies the
signatures against the registry and only then fills `actor` (the staff member, in the role
the registry gives them) and `terminal`. A body that names its own actor or terminal is refused.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from functools import cached_property
from typing import Annotated, Any
from uuid import UUID, uuid4

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
)

from ledger.core import clock
from ledger.core.errors import InvalidInput, NotAllowed
from ledger.domain.base import Actor, KeepsDerived, Provenance
from ledger.domain.grammar import (
    WORD_MAX,
    check_amount,
    check_offset,
    clean_text,
    normal_identifier,
    shown,
)


def _money(value: Any) -> Decimal:
    if isinstance(value, bool | int | float):  # money-safe: refuses a JSON number
        raise InvalidInput(f"money is sent as a string of patacas such as \"100.00\", not as "
                           f"the number {shown(repr(value))}: a JSON number can lose avos.")
    if isinstance(value, str):
        try:
            value = Decimal(value.strip())
        except ArithmeticError:
            raise InvalidInput(f"'{shown(value)}' is not an amount of patacas.") from None
    if not isinstance(value, Decimal):
        raise InvalidInput(f"an amount is a string of patacas, not {type(value).__name__}.")
    exponent = value.as_tuple().exponent
    if isinstance(exponent, int) and exponent > 0:  # "1e5" read by the CLI as 1E+5
        raise InvalidInput(f"an amount is written in plain figures, such as 100000.00, not in "
                           f"scientific notation ({shown(str(value))}).")
    return check_amount(value)


Money = Annotated[Decimal, BeforeValidator(_money)]
"""An amount in patacas: sent as a string ("100.00"), at most two decimal places and
999,999,999.99 either way (`ledger.domain.grammar`), always kept with exactly two."""

Identifier = Annotated[str, BeforeValidator(lambda value: normal_identifier(value))]
"""A table, pool, pit, staff member, terminal, player or dispute reference, in normal form."""
Text = Annotated[str, BeforeValidator(lambda value: clean_text(value))]
"""One line a person typed (a reason, a note, a name): at most 500 printable characters."""
OptionalText = Annotated[str, BeforeValidator(lambda value: clean_text(value, required=False))]
Word = Annotated[str, BeforeValidator(lambda value: clean_text(value, "a word", limit=WORD_MAX))]
"""A short word the game knows (a spot, a decision, a card, a kind): at most 40 characters."""
Instant = Annotated[AwareDatetime, AfterValidator(check_offset)]
"""A time with its UTC offset, one a place uses: a time without one could be any of 38 zones."""


def _setting(value: Any) -> bool | int | str:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > 10**12:
            raise InvalidInput(f"a setting of {shown(str(value))} is out of range.")
        return value
    if isinstance(value, str):
        return clean_text(value, "a setting's value", limit=WORD_MAX)
    raise InvalidInput(f"a setting is a word, a whole number or true/false, not "
                       f"{shown(repr(value))} (amounts and rates are strings: \"0.5\").")


Settings = Annotated[
    dict[Word, Annotated[bool | int | str, PlainValidator(_setting)]], Field(max_length=40)]
"""A game's or pool's house settings: at most 40, each a word and a number, true/false or a
short text such as "100000.00" (never a JSON fraction: amounts are strings)."""


def utc_now() -> datetime:
    return clock.now()


class Credentials(BaseModel):
    """The key fingerprints the door checked for a command (see `Provenance`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    staff_key: str | None = None
    terminal_key: str | None = None
    vouched: str | None = None


class Command(KeepsDerived):
    """A command's validator is built when the command is first used (`defer_build`): a
    `ledger` command meets one of an area's commands."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    command_id: UUID = Field(default_factory=uuid4, description="idempotency key")
    at: Instant = Field(default_factory=utc_now,
                        description="when the terminal says it happened, with its UTC offset")
    actor: Actor | None = Field(
        default=None, description="set by the ledger from the verified signature; never sent")
    terminal: Identifier | None = Field(
        default=None, description="set by the ledger from the verified signature; never sent")
    credentials: Credentials | None = Field(
        default=None, exclude=True, description="the keys the door verified (set by the door)")

    @cached_property
    def provenance(self) -> Provenance:
        """Made once per command (its receipt and each event it records carry it); a copy
        with changes makes its own."""
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
        return sent_body(self.model_dump(mode="json", exclude={"actor", "terminal",
                                                              "credentials"}))


def sent_body(dumped: dict[str, Any]) -> dict[str, Any]:
    """`Command.body` made from the command's JSON (a receipt's `command`): a new dict."""
    body = {k: v for k, v in dumped.items() if k not in ("actor", "terminal", "credentials")}
    if isinstance(body.get("supervisor"), dict):
        body["supervisor"] = body["supervisor"]["staff_id"]
    return body
