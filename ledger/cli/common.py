"""What every sub-app shares: the console, signing under the configured credential, the edge.

Nothing here names a person or a role: who sends a command is the staff credential the
settings name, where from is the terminal credential, and the registry says what they may do.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from ledger.bootstrap import Runtime, open_ledger
from ledger.commands import Command
from ledger.identity.credentials import acting
from ledger.identity.envelope import SignedCommand, sign
from ledger.identity.keys import Credential
from ledger.cli.console import JsonOption, console, err_console, print_json  # noqa: F401 - shared
from ledger.render import safe

CosignerOption = Annotated[
    list[Path] | None,
    typer.Option("--cosigner", help="Key file of the supervisor named, when it is not you: "
                 "they sign the slip or inventory with you."),
]


@contextmanager
def runtime() -> Iterator[Runtime]:
    with open_ledger(on_wait=say_waiting) as rt:
        yield rt


def say_waiting(message: str) -> None:
    err_console.print(f"[yellow]waiting:[/] {safe(message)}", highlight=False, soft_wrap=True)


def signed(rt: Runtime, command: Command, cosigners: list[Path] | None = None) -> SignedCommand:
    """The command signed by this terminal and this person (and any co-signer)."""
    staff, terminal = acting(rt.settings)
    return sign(command, terminal, staff,
                [Credential.load(path, "staff") for path in cosigners or ()])


def send(command: Command, cosigners: list[Path] | None = None) -> None:
    """Sign and execute one command on the configured ledger; print what it recorded."""
    with runtime() as rt:
        console.print(rt.ledger.execute(signed(rt, command, cosigners)).summary(),
                      highlight=False)


@contextmanager
def stop_on_signals() -> Iterator[threading.Event]:
    """SIGINT and SIGTERM finish the batch in hand, then stop."""
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set())
                for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
