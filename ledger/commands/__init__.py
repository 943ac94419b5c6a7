"""The table protocol: every action is a command, whatever terminal or device it comes from.

A command is imperative (`OpenTable`), carries an idempotency key (`command_id`), the actor,
the terminal and the time. The same models arrive from the Python API, the CLI and
`ledger ingest` (one JSON object per line, told apart by its `command` field). Each area's
commands live in their own module; this package collects them into one registry.
"""

from __future__ import annotations

from typing import Annotated, Union

from pydantic import Field, TypeAdapter

from ledger.commands.base import Command, Money, utc_now
from ledger.commands.jackpot import POOL_COMMANDS, AdjustPool, CreatePool, LinkTable
from ledger.commands.round import (
    ROUND_COMMANDS, AdjustRound, AnnounceDealMode, CloseBetting, Decide, DealCard, ExposeCard,
    OpenRound, PlaceBet, RecordIrregularity, RevealDealer, SettleRound, VoidRound,
)
from ledger.commands.shift import (
    SHIFT_COMMANDS, AdjustDrop, CloseGamingDay, CloseShift, EnterDrop, OpenShift, RecordCredit,
    RecordFill, VoidSlip,
)
from ledger.commands.registry import (
    REGISTRY_COMMANDS, ChangeStaffRoles, EnrolStaff, RegisterTerminal, ReinstateStaff,
    ReplaceStaffKey, RevokeTerminal, SuspendStaff,
)
from ledger.commands.shoe import SHOE_COMMANDS, BurnCards, CloseShoe, CutShoe, ShuffleShoe
from ledger.commands.table import (
    TABLE_COMMANDS, ChangeTableSettings, CloseTable, OpenTable, SignInDealer, SignOutDealer,
)

ALL_COMMANDS: tuple[type[Command], ...] = (
    *TABLE_COMMANDS, *SHOE_COMMANDS, *ROUND_COMMANDS, *POOL_COMMANDS, *SHIFT_COMMANDS,
    *REGISTRY_COMMANDS,
)

AnyCommand = Annotated[Union[*ALL_COMMANDS], Field(discriminator="command")]  # type: ignore[valid-type]
COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(AnyCommand)

__all__ = [
    "ALL_COMMANDS", "COMMAND_ADAPTER", "AdjustPool", "AdjustRound", "AnnounceDealMode",
    "BurnCards", "ChangeTableSettings", "CloseBetting", "CloseShoe", "CloseTable", "Command",
    "CreatePool", "CutShoe", "DealCard", "Decide", "ExposeCard", "LinkTable", "Money",
    "OpenRound", "OpenTable", "PlaceBet", "RecordIrregularity", "RevealDealer", "SettleRound",
    "ShuffleShoe", "SignInDealer", "SignOutDealer", "VoidRound", "utc_now",
    "AdjustDrop", "CloseGamingDay", "CloseShift", "EnterDrop", "OpenShift", "RecordCredit", "RecordFill",
    "VoidSlip", "ChangeStaffRoles", "EnrolStaff", "RegisterTerminal", "ReinstateStaff",
    "ReplaceStaffKey", "RevokeTerminal", "SuspendStaff",
]
