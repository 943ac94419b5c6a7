"""What every sub-app shares: the console, signing under the configured credential, the edge.

Nothing here names a person or a role: who sends a command is the staff credential the
settings name, where from is the terminal credential, and the registry says what they may do.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Protocol

import typer

from ledger.application.config import LedgerSettings
from ledger.cli.console import JsonOption, WideOption, console, err_console, print_json
from ledger.presentation.render import safe

if TYPE_CHECKING:
    # opened when a command needs the database, not when one is sent to the API
    from ledger.application.bus import Area

    # imported by a command that signs, not by one that only reads
    from ledger.commands import Command
    from ledger.identity.envelope import SignedCommand
    from ledger.runtime.bootstrap import Runtime

CosignerOption = Annotated[
    list[Path] | None,
    typer.Option("--cosigner", help="Key file of the supervisor named, when it is not you: "
                 "they sign the slip or inventory with you."),
]


@contextmanager
def runtime(*, writing: bool = False, settings: LedgerSettings | None = None,
            serving: bool = False, areas: Sequence[Area] = ()) -> Iterator[Runtime]:
    """The ledger, waiting for a database that is down; a command that only reads is told
    when it reads a hot standby (one that writes is refused there, and says so as it waits).
    `areas`: the command areas it records (`ledger.application.bus`), whose handlers alone it imports.
    `serving`: a process that records from many threads (every event class built first)."""
    from ledger.runtime.bootstrap import open_ledger

    with open_ledger(settings, on_wait=say_waiting, warm=serving, areas=areas) as rt:
        if not writing:
            say_if_standby(rt)
        yield rt


@contextmanager
def reading() -> Iterator[Runtime]:
    """The ledger for a command that only reads: no wait for a database that is down (a
    reader is told at once), and a line when it is a hot standby."""
    from ledger.runtime.bootstrap import open_ledger

    with open_ledger(warm=False, areas=()) as rt:
        say_if_standby(rt)
        yield rt


def say_practice(practice: bool) -> None:
    """A practice ledger's mark, one line above what a command prints of it."""
    if practice:
        from ledger.core.formatting import PRACTICE_MARK

        console.print(f"[bold red]{PRACTICE_MARK}[/]", highlight=False, soft_wrap=True)


def say_if_standby(rt: Runtime) -> None:
    """On a hot standby, one line saying so and how far behind the primary it is."""
    from ledger.infrastructure.standby import standby

    with rt.database.connect() as conn:
        replica = standby(conn)
    if replica is not None:
        err_console.print(f"[yellow]note:[/] {safe(replica.describe())}", highlight=False,
                          soft_wrap=True)


def say_waiting(message: str) -> None:
    err_console.print(f"[yellow]waiting:[/] {safe(message)}", highlight=False, soft_wrap=True)


def signed(rt: Runtime, command: Command, cosigners: list[Path] | None = None) -> SignedCommand:
    """The command signed by this terminal and this person (and any co-signer), for this
    ledger."""
    return signed_under(rt.settings, command, rt.ledger.ledger_id, cosigners)


def signed_under(settings: LedgerSettings, command: Command, ledger_id: str,
                 cosigners: list[Path] | None = None) -> SignedCommand:
    from ledger.identity.envelope import sign
    from ledger.identity.keys import Credential
    from ledger.runtime.credentials import acting

    staff, terminal = acting(settings)
    return sign(command, terminal, staff,
                [Credential.load(path, "staff") for path in cosigners or ()], ledger=ledger_id)


class Send(Protocol):
    def __call__(self, command: Command, cosigners: list[Path] | None = None) -> None: ...


def sender(*areas: Area) -> Send:
    """`send` for a sub-app whose commands are of `areas` (`send = sender(ROUND)`)."""

    def send_of_area(command: Command, cosigners: list[Path] | None = None) -> None:
        send(command, cosigners, areas=areas)

    return send_of_area


def send(command: Command, cosigners: list[Path] | None = None, *,
         areas: Sequence[Area]) -> None:
    """Sign and execute one command on the configured ledger, its bus built with `areas`'
    handlers; print what it recorded. With LEDGER_API_URL, the signed command is sent to the
    ledger's API instead of the database."""
    settings = LedgerSettings()
    if settings.api_url:
        from ledger.cli.remote import ledger_id_over_api, send_over_api

        ledger_id = ledger_id_over_api(settings, say_waiting)
        said = send_over_api(settings, signed_under(settings, command, ledger_id, cosigners),
                             say_waiting)
        console.print(said, highlight=False)
        return
    # one command: recorded by this thread, without the group writer's thread and queue
    with runtime(writing=True, settings=settings.model_copy(update={"group_commit": False}),
                 areas=areas) as rt:
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

__all__ = [  # the console helpers every sub-app takes from here
    "JsonOption", "WideOption", "console", "err_console", "print_json",
]
