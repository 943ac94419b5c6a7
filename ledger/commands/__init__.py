"""The table protocol: every action is a command, whatever terminal or device it comes from.

A command is imperative (`OpenTable`), carries an idempotency key (`command_id`), the actor,
the terminal and the time. The same models arrive from the Python API, the CLI and
`ledger ingest` (one JSON object per line, told apart by its `command` field). Each area's
commands live in their own module; this package names them, and imports an area's module
the first time one of its commands is used.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ledger.commands.base import Command, Money, utc_now
from ledger.domain.base import build_deferred
from ledger.domain.grammar import shown
from ledger.errors import InvalidInput

AREAS: dict[str, tuple[str, ...]] = {
    "table": ("OpenTable", "CloseTable", "SignInDealer", "SignOutDealer", "ChangeTableSettings"),
    "shoe": ("ShuffleShoe", "CutShoe", "BurnCards", "CloseShoe"),
    "round": ("OpenRound", "PlaceBet", "CloseBetting", "AnnounceDealMode", "DealCard",
              "ExposeCard", "Decide", "RevealDealer", "RecordIrregularity", "SettleRound",
              "VoidRound", "AdjustRound"),
    "jackpot": ("CreatePool", "LinkTable", "AdjustPool"),
    "shift": ("OpenShift", "RecordFill", "RecordCredit", "VoidSlip", "EnterDrop", "AdjustDrop",
              "CloseShift", "CloseGamingDay"),
    "registry": ("EnrolStaff", "SuspendStaff", "ReinstateStaff", "ChangeStaffRoles",
                 "ReplaceStaffKey", "RegisterTerminal", "RevokeTerminal"),
}
"""Each area's module and the commands it defines, so that a command's module is imported only
when the command is used: a `ledger` command loads its own area, not every command's models
(each area's `*_COMMANDS` tuple is checked against this by a test)."""

AREA_OF: dict[str, str] = {name: area for area, names in AREAS.items() for name in names}


def wire_name(class_name: str) -> str:
    """A command's name on the wire (its `command` field): `PlaceBet` is `place_bet`."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in class_name).lstrip("_")


CLASS_OF_WIRE: dict[str, str] = {wire_name(name): name for name in AREA_OF}


def unknown_command(name: str) -> InvalidInput:
    return InvalidInput(f"unknown command '{shown(name)}' (the protocol's commands are listed "
                        "in the README, 'The table protocol').")


def command_class(name: str) -> type[Command]:
    """The command class of a wire name (`place_bet`), its area's module imported if need be."""
    class_name = CLASS_OF_WIRE.get(name)
    if class_name is None:
        raise unknown_command(name)
    return _imported(class_name)


def _imported(class_name: str) -> Any:
    return getattr(import_module(f"ledger.commands.{AREA_OF[class_name]}"), class_name)


def all_commands() -> tuple[type[Command], ...]:
    """Every command class, every area imported (the schema, the tests)."""
    return tuple(command_class(wire) for wire in CLASS_OF_WIRE)


def build_command_classes() -> int:
    """Every command area imported and each command's validator built now, for a process that
    takes commands from many threads (its first commands wait for no build); returns how many
    classes were built."""
    all_commands()
    return build_deferred(Command)


def __getattr__(name: str) -> Any:
    if name in AREA_OF:
        return _imported(name)
    if name == "ALL_COMMANDS":
        return all_commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    from ledger.commands.jackpot import AdjustPool, CreatePool, LinkTable
    from ledger.commands.registry import (
        ChangeStaffRoles,
        EnrolStaff,
        RegisterTerminal,
        ReinstateStaff,
        ReplaceStaffKey,
        RevokeTerminal,
        SuspendStaff,
    )
    from ledger.commands.round import (
        AdjustRound,
        AnnounceDealMode,
        CloseBetting,
        DealCard,
        Decide,
        ExposeCard,
        OpenRound,
        PlaceBet,
        RecordIrregularity,
        RevealDealer,
        SettleRound,
        VoidRound,
    )
    from ledger.commands.shift import (
        AdjustDrop,
        CloseGamingDay,
        CloseShift,
        EnterDrop,
        OpenShift,
        RecordCredit,
        RecordFill,
        VoidSlip,
    )
    from ledger.commands.shoe import BurnCards, CloseShoe, CutShoe, ShuffleShoe
    from ledger.commands.table import (
        ChangeTableSettings,
        CloseTable,
        OpenTable,
        SignInDealer,
        SignOutDealer,
    )

    ALL_COMMANDS: tuple[type[Command], ...]

__all__ = ["AREAS", "Command", "Money", "all_commands", "command_class", "utc_now",
           *AREA_OF]
