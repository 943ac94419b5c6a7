"""What every sub-app shares: the console, the actor from options, the error edge."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console

from ledger.bootstrap import Runtime, open_ledger
from ledger.commands import Command
from ledger.domain.base import Actor, Role

console = Console()
err_console = Console(stderr=True)

StaffOption = Annotated[
    str,
    typer.Option("--staff", envvar="LEDGER_STAFF_ID", help="Your staff id (recorded with the event)."),
]
RoleOption = Annotated[
    Role,
    typer.Option("--role", envvar="LEDGER_ROLE", help="Your role: a void needs a supervisor."),
]
TerminalOption = Annotated[
    str,
    typer.Option("--terminal", envvar="LEDGER_TERMINAL", help="The terminal or device recorded."),
]


def default_terminal() -> str:
    return os.environ.get("LEDGER_TERMINAL") or f"cli@{socket.gethostname()}"


def actor(staff: str, role: Role) -> Actor:
    return Actor(staff_id=staff, role=role)


@contextmanager
def runtime() -> Iterator[Runtime]:
    with open_ledger() as rt:
        yield rt


def send(command: Command) -> None:
    """Execute one command on the configured ledger and print what it recorded."""
    with runtime() as rt:
        console.print(rt.ledger.execute(command).summary(), highlight=False)
