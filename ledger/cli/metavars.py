"""What a person types for each option and argument, as `--help` shows it: `--day YYYY-MM-DD`,
`--table TABLE`, `--out FILE`, nothing after a flag; never the bare type Typer would show
(`<str>`, `<int>`, `<path>`). An option that names its own metavar keeps it."""

from __future__ import annotations

import inspect
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


LISTED = re.compile(r"\s|[-*•]\s|\d+[.)]\s|\x08")
"""A help line that starts a list's item, or is indented or unwrapped on purpose: kept."""


def reflowed(text: str) -> str:
    r"""A docstring's paragraphs each as one line, so `--help` wraps them at the terminal's
    width rather than breaking where the source did; a list's items stay apart.

    >>> reflowed("Also the witnesses. With a trust file\nand the key.\n\n- one\n- two")
    'Also the witnesses. With a trust file and the key.\n\n- one\n- two'
    """
    lines = inspect.cleandoc(text).split("\n")
    joined = lines[:1]
    for line in lines[1:]:
        if line and joined[-1] and not LISTED.match(line) and not joined[-1].startswith("\b"):
            joined[-1] += " " + line
        else:
            joined.append(line)
    return "\n".join(joined)


def environment_said(command: Any) -> None:
    """The environment variables a command reads, each named whole in a line under its options
    (`LEDGER_VERIFIER_KEY for --key`), not in the options' narrow help column, where a long
    name would be cut at 80 columns."""
    read = [param for param in command.params
            if getattr(param, "envvar", None) and getattr(param, "show_envvar", False)]
    for param in read:
        param.show_envvar = False
    if read:
        said = ", ".join(f"{param.envvar} for {param.opts[0]}" for param in read
                         if isinstance(param.envvar, str))
        command.epilog = "\n\n".join(filter(None, [command.epilog,
                                                    f"Environment variables: {said}."]))


def name_what_to_type(command: Any) -> Any:
    """`command` and every command under it, each parameter shown by what is typed for it, its
    environment variable named whole under the options, its help reflowed."""
    if command.help:
        command.help = reflowed(command.help)
    environment_said(command)
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
