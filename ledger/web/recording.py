"""One signed command recorded from the server's event loop.

Under group commit a command does not take a thread to wait in: it is handed to the group
writer from the event loop (`Ledger.hand`), and the writer's thread wakes the loop when it is
answered. A thread of its own hopped there and back (two hand-overs of the interpreter a
command, each waiting its turn behind the loop, the writer and every other waiting thread).
What needs to block still does, in the command threads (`ledger.web.app.COMMAND_THREADS`): a
server without a group writer, and a command that met a lost database, which `Ledger.execute`
rides out with what this call had done so far (`Sent`: a lost reply is confirmed by its
receipt, so a command is never recorded twice).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor

from ledger.application.ledger import LOST_DATABASE, Ledger, Recorded, Sent
from ledger.identity.envelope import SignedCommand
from ledger.identity.registry_cache import RegistryMoved


async def record(ledger: Ledger, signed: SignedCommand, threads: Executor) -> Recorded:
    """Record `signed` as `Ledger.execute` does, waiting on the event loop, not in a thread."""
    loop = asyncio.get_running_loop()
    sent = Sent()
    while True:
        woken: asyncio.Future[None] = loop.create_future()
        handed = ledger.hand(signed, sent, _waker(loop, woken))
        if handed is None:  # no group writer: the command records itself, in a thread
            break
        await woken
        try:
            return handed.outcome()
        except RegistryMoved:  # a registry stream it was admitted on moved: admitted again
            continue
        except LOST_DATABASE:  # waited out (or explained) in a thread, as every caller's is
            break
    return await loop.run_in_executor(threads, ledger.execute, signed, sent)


def _waker(loop: asyncio.AbstractEventLoop, woken: asyncio.Future[None]) -> Callable[[], None]:
    """What the writer's thread calls once the command is answered."""
    def wake() -> None:
        try:
            loop.call_soon_threadsafe(_settle, woken)
        except RuntimeError:  # the loop has closed (the server stopped): no one is waiting
            pass
    return wake


def _settle(woken: asyncio.Future[None]) -> None:
    if not woken.done():  # a request given up (its client gone) is not woken
        woken.set_result(None)
