"""What a person types for each option and argument, as `--help` shows it: `--day YYYY-MM-DD`,
`--table TABLE`, `--out FILE`, nothing after a flag; never the bare type Typer would show
(`<str>`, `<int>`, `<path>`). An option that names its own metavar keeps it."""

from __future__ import annotations

import re
from typing import Any

from typer.core import TyperArgument

DATE = "YYYY-MM-DD"
BY_NAME = {
    "day": DATE, "first_day": DATE, "last_day": DATE, "through": DATE, "gaming_day": DATE,
    "table": "TABLE", "shift": "SHIFT", "shift_name": "SHIFT",
    "number": "ROUND", "round_": "ROUND", "round_number": "ROUND", "box": "BOX",
    "card": "CARD", "cards": "CARDS", "dealer": "STAFF-ID", "supervisor": "STAFF-ID",
    "by_whom": "STAFF-ID", "counted_by": "STAFF-ID", "admin_name": "STAFF-ID",
    "output": "FOLDER", "logs": "FILE", "store": "FILE", "html": "FILE", "out": "FILE",
    "chips": "DENOMINATION=COUNT,...", "cash": "AMOUNT", "markers": "AMOUNT",
    "rate": "RATE", "reserve_rate": "RATE", "confidence": "LEVEL", "host": "HOST",
    "port": "PORT", "public_key": "KEY", "seal_public_key": "KEY", "game": "GAME",
    "games": "GAME,...", "ref": "ROUND-ID | TABLE ROUND", "setting": "NAME=VALUE",
    "id": "ID", "stream": "STREAM-ID | TABLE", "to": "HAND",
    "dispute": "REFERENCE",
}
"""A parameter's name to what is typed for it, where its name alone does not say it."""
BY_TYPE = {"Decimal": "AMOUNT", "path": "FILE", "file": "FILE", "Path": "FILE"}
BARE = re.compile(r"<(?:list\[)?(str|int|float|bool|Decimal|path|file|Path|datetime|UUID)"
                  r"(?: range)?\]?>")
"""Typer's display of a plain type: `<str>`, `<int range>`, `<list[Path]>`."""


def what_to_type(param: Any, ctx: Any) -> str | None:
    """What `--help` shows after the parameter: None to keep Typer's own display (a list of
    choices, a metavar of its own)."""
    if getattr(param, "is_flag", False):
        return ""
    if param.metavar is not None:
        return param.metavar if isinstance(param, TyperArgument) else None
    bare = BARE.fullmatch(param.display_type(ctx) if hasattr(param, "display_type") else "")
    if bare is None:
        return None
    if bare[1] == "bool":
        return ""
    name = param.name or ""
    return BY_NAME.get(name) or BY_TYPE.get(bare[1]) or name.upper().replace("_", "-")


class NamedArgument(TyperArgument):
    """An argument named by what is typed for it, and no type beside that name."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return ""


def name_what_to_type(command: Any) -> Any:
    """`command` and every command under it, each parameter shown by what is typed for it."""
    ctx = type(command).context_class(command)
    help_option = command.get_help_option(ctx)
    for param in (*command.params, *((help_option,) if help_option else ())):
        said = what_to_type(param, ctx)
        if said is None:
            continue
        param.metavar = said
        if isinstance(param, TyperArgument):
            param.__class__ = NamedArgument  # the same argument, shown by what is typed
    for sub in getattr(command, "commands", {}).values():
        name_what_to_type(sub)
    return command
