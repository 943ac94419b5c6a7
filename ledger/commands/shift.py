"""A table's shift: inventories, fill and credit slips, the drop.

Every shift command names its shift: the table, the gaming day and the shift's name. Amounts
of chips are never typed: a slip or an inventory gives its chips by denomination and the
ledger adds them up.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field, model_validator

from ledger.commands.base import Command, Identifier, Money, Text, Word
from ledger.core.errors import InvalidInput
from ledger.domain.base import Actor

StaffId = Identifier
Reason = Annotated[Text, Field(min_length=3)]
ChipCount = Annotated[int, Field(ge=0, le=1_000_000)]
Chips = Annotated[
    dict[Money, ChipCount],
    Field(min_length=1, description="chips by denomination: {\"100\": 40, \"500\": 20}"),
]
SlipNumber = Annotated[int, Field(ge=1, le=999_999_999, description="the slip's printed number")]
Amount = Annotated[Money, Field(ge=0)]


SignedBy = Actor | StaffId
"""The supervisor who signs with the sender: a staff id on the wire. They must sign the command
too (or send it); the door puts them here as an `Actor` in the role the registry gives them."""


class ShiftCommand(Command):
    table: Identifier
    gaming_day: date
    shift: Word = Field( description="a shift of the schedule, e.g. day")


class OpenShift(ShiftCommand):
    """The opening inventory, counted by denomination, signed by dealer and supervisor."""

    command: Literal["open_shift"] = "open_shift"
    chips: Chips
    dealer_id: StaffId
    supervisor: SignedBy


class RecordFill(ShiftCommand):
    """Chips from the cage to the table, on a numbered fill slip."""

    command: Literal["record_fill"] = "record_fill"
    slip: SlipNumber
    chips: Chips
    runner_id: StaffId = Field(description="the runner or cashier who signed the slip")
    supervisor: SignedBy


class RecordCredit(ShiftCommand):
    """Chips from the table back to the cage, on a numbered credit slip."""

    command: Literal["record_credit"] = "record_credit"
    slip: SlipNumber
    chips: Chips
    runner_id: StaffId = Field(description="the runner or cashier who signed the slip")
    supervisor: SignedBy


class VoidSlip(ShiftCommand):
    """A supervisor voids a fill or credit slip; it keeps its number and no longer counts."""

    command: Literal["void_slip"] = "void_slip"
    slip: SlipNumber
    reason: Reason


class EnterDrop(ShiftCommand):
    """The drop box as counted: cash and markers, and who counted."""

    command: Literal["enter_drop"] = "enter_drop"
    cash: Amount
    markers: Amount
    counted_by: tuple[StaffId, ...] = Field(min_length=1, max_length=10)


class AdjustDrop(ShiftCommand):
    """A supervisor corrects the drop: the new figures and why."""

    command: Literal["adjust_drop"] = "adjust_drop"
    cash: Amount
    markers: Amount
    reason: Reason


class CloseShift(ShiftCommand):
    """The closing inventory, counted by denomination, signed by dealer and supervisor."""

    command: Literal["close_shift"] = "close_shift"
    chips: Chips
    dealer_id: StaffId
    supervisor: SignedBy


class CloseGamingDay(Command):
    """The gaming day is closed once every shift of it has closed its count: the day is locked
    (only a late drop and a supervisor's adjustment are recorded for it after)."""

    command: Literal["close_gaming_day"] = "close_gaming_day"
    gaming_day: date


class NoteInvestigation(Command):
    """What an investigation of a flagged figure found: the period it looked at (gaming days,
    first to last), its scope (`table SP-01`, `game baccarat`, `pit P1`, `dealer D-7`,
    `floor`), the flag looked into and the finding. Kept like every record, shown on every
    statistics report of a period it overlaps."""

    command: Literal["note_investigation"] = "note_investigation"
    first_day: date
    last_day: date
    scope: Text
    subject: Text
    finding: Text

    @model_validator(mode="after")
    def _period_in_order(self) -> NoteInvestigation:
        if self.first_day > self.last_day:
            raise InvalidInput(f"the period's first day {self.first_day} is after its last day "
                               f"{self.last_day}.")
        return self


SHIFT_COMMANDS = (
    OpenShift, RecordFill, RecordCredit, VoidSlip, EnterDrop, AdjustDrop, CloseShift,
    CloseGamingDay, NoteInvestigation,
)
