"""The table protocol: every action is a command, whatever terminal or device it comes from.

A command is imperative (`OpenTable`), carries an idempotency key (`command_id`), the actor,
the terminal and the time. The same models arrive from the Python API, the CLI and
`ledger ingest` (one JSON object per line, told apart by its `command` field). Each area's
commands live in their own module (`ledger.commands.table`, `.shoe`, `.round`, `.jackpot`,
`.shift`, `.registry`), imported by name where they are used; this package holds what they
share and, for the entry ways that take a command by its wire name, `command_class`, which
imports every area.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ledger.commands.base import Command, Money, utc_now
from ledger.core.errors import InvalidInput
from ledger.domain.base import build_deferred
from ledger.domain.grammar import shown


def wire_name(class_name: str) -> str:
    """A command's name on the wire (its `command` field): `PlaceBet` is `place_bet`."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in class_name).lstrip("_")


def unknown_command(name: str) -> InvalidInput:
    """The refusal of a command the protocol does not have, naming the nearest one it has and
    where every one is listed with its fields."""
    from difflib import get_close_matches

    nearest = get_close_matches(str(name), list(_by_wire_name()), n=1, cutoff=0.6)
    meant = f" (did you mean '{nearest[0]}'?)" if nearest else ""
    return InvalidInput(f"unknown command '{shown(name)}'{meant}: `ledger schema` lists every "
                        "command a terminal can send, with its fields.")


def commands_of_areas() -> dict[str, tuple[type[Command], ...]]:
    """Each area's commands, as its module lists them (every area imported)."""
    from ledger.commands.jackpot import POOL_COMMANDS
    from ledger.commands.registry import REGISTRY_COMMANDS
    from ledger.commands.round import ROUND_COMMANDS
    from ledger.commands.shift import SHIFT_COMMANDS
    from ledger.commands.shoe import SHOE_COMMANDS
    from ledger.commands.table import TABLE_COMMANDS

    return {"table": TABLE_COMMANDS, "shoe": SHOE_COMMANDS, "round": ROUND_COMMANDS,
            "jackpot": POOL_COMMANDS, "shift": SHIFT_COMMANDS, "registry": REGISTRY_COMMANDS}


@cache
def _by_wire_name() -> dict[str, type[Command]]:
    return {wire_name(cls.__name__): cls
            for commands in commands_of_areas().values() for cls in commands}


def command_class(name: str) -> type[Command]:
    """The command class of a wire name (`place_bet`); every area's module is imported."""
    found = _by_wire_name().get(name)
    if found is None:
        raise unknown_command(name)
    return found


def all_commands() -> tuple[type[Command], ...]:
    """Every command class, every area imported (the schema, the tests)."""
    return tuple(_by_wire_name().values())


SIGNED_FIELDS = ("command", "command_id", "at")
"""What every signed body carries: which command, its id and when it happened (the door fills
in nothing its signers did not sign)."""


def sent_schema(cls: type[Command]) -> dict[str, Any]:
    """The JSON Schema of the body a terminal signs and sends for `cls`: without who and where
    (the door sets them from the signatures), its `command`, `command_id` and `at` required."""
    schema = cls.model_json_schema()
    for name in ("actor", "terminal", "credentials"):
        schema["properties"].pop(name, None)
    schema["required"] = [*SIGNED_FIELDS, *(name for name in schema.get("required", ())
                                            if name not in SIGNED_FIELDS)]
    return schema


def build_command_classes() -> int:
    """Every command area imported and each command's validator built now, for a process that
    takes commands from many threads (its first commands wait for no build); returns how many
    classes were built."""
    all_commands()
    return build_deferred(Command)


__all__ = ["SIGNED_FIELDS", "Command", "Money", "all_commands", "command_class", "commands_of_areas",
           "sent_schema", "unknown_command", "utc_now", "wire_name"]
