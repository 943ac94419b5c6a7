"""`ledger serve`: the terminal API and the floor pages over HTTP, on the configured ledger.

The address is taken (bound) first, before the database is opened and before the server says
it is serving: a port in use, or an address not of this machine, is one line and exit code 1,
and the web server is handed the socket already bound (no other process can take the port
between the check and the serving)."""

from __future__ import annotations

import errno
import functools
import socket
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import typer

from ledger.cli.common import runtime
from ledger.cli.console import console
from ledger.core.errors import InvalidInput


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8080,
    follow: Annotated[bool, typer.Option(
        help="Keep the floor's projections up to date here (--no-follow: another process runs "
             "`ledger projections run`, as a reader login must).")] = True,
    certfile: Annotated[Path | None, typer.Option(
        "--ssl-certfile", help="TLS certificate (PEM): browsers sign in only over HTTPS, or on "
                               "this machine.")] = None,
    keyfile: Annotated[Path | None, typer.Option(
        "--ssl-keyfile", help="The certificate's private key (PEM).")] = None,
    workers: Annotated[int, typer.Option(
        min=1, max=64, help="Server processes on the one address, each with its own group "
                            "writer and LEDGER_POOL_SIZE connections (about one a core).")] = 1,
) -> None:
    """Serve the terminal API and the live floor pages over HTTP."""
    import uvicorn

    from ledger.application.bus import EVERY_AREA

    scheme = "https" if certfile else "http"
    served = (f"the floor at {scheme}://{host}:{port}/floor, the API at "
              f"{scheme}://{host}:{port}/v1 (OpenAPI at /docs)")
    with bound(host, port) as listening:
        if workers == 1:
            with runtime(serving=True, areas=EVERY_AREA) as rt:
                config = _config(app_of(rt, follow), host, port, certfile, keyfile)
                console.print(f"serving the ledger: {served}; Ctrl-C stops.", highlight=False)
                uvicorn.Server(config).run(sockets=[listening])
            return
        _check_shared()
        from uvicorn.supervisors import Multiprocess

        config = _config(functools.partial(worker_app, follow), host, port, certfile, keyfile,
                         workers=workers)
        console.print(f"serving the ledger with {workers} workers: {served}; Ctrl-C stops.",
                      highlight=False)
        Multiprocess(config, sockets=[listening]).run()


KEEP_ALIVE_SECONDS = 75
"""How long a terminal's idle connection is kept open: longer than a dealer's pause between two
commands, so that a command is not sent on a connection the server is closing (the web
server's default, 5 s, is shorter than a round's pauses)."""


def _config(app: Any, host: str, port: int, certfile: Path | None, keyfile: Path | None,
            workers: int = 1) -> Any:
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                          factory=workers > 1, workers=workers,
                          timeout_keep_alive=KEEP_ALIVE_SECONDS,
                          ssl_certfile=str(certfile) if certfile else None,
                          ssl_keyfile=str(keyfile) if keyfile else None)


def app_of(rt: Any, follow: bool, on_close: Callable[[], None] | None = None) -> Any:
    """The application on `rt`, and the serving process tuned for it: the objects made so far
    (the event and command classes, the registry) frozen out of the collector's scans, which
    otherwise walk them at every full collection, in the middle of a command; and the
    interpreter handed between threads each millisecond rather than each 5, so that a request
    waits less behind the floor feed's reads (measured: p99 a command 38 against 54 ms)."""
    import gc
    import sys

    from ledger.web.app import create_app

    app = create_app(rt, follow=follow, on_close=on_close)
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(0.001)
    return app


def worker_app(follow: bool) -> Any:
    """One worker's application, made in the worker's own process: its own ledger (the
    composition root's, with its group writer and pool), closed when the worker stops."""
    from ledger.application.bus import EVERY_AREA

    stack = ExitStack()
    rt = stack.enter_context(runtime(serving=True, areas=EVERY_AREA))
    return app_of(rt, follow, on_close=stack.close)


def _check_shared() -> None:
    """Several workers share what one keeps in memory: sign-ins through the database, the
    challenges' secret through the server's terminal key. Refused, in one line, without."""
    from ledger.core.errors import LedgerError
    from ledger.infrastructure.sign_ins import unshared
    from ledger.runtime.credentials import configured

    with runtime(areas=()) as rt:
        try:
            configured(rt.settings, "terminal")
        except LedgerError:
            raise InvalidInput("--workers above 1 needs the server's terminal key "
                               "(LEDGER_TERMINAL_CREDENTIAL or LEDGER_TERMINAL_KEY): the "
                               "workers make the sign-in challenges' secret from it; set it, "
                               "or serve with one worker.") from None
        reason = unshared(rt.database)
    if reason:
        raise InvalidInput(f"--workers above 1 keeps sign-ins in the database, and {reason}; "
                           "serve with one worker.")


def bound(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port) as the web server would bind it, or `InvalidInput`
    naming what is wrong. Closed when the `with` block it opens ends."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as error:
        raise InvalidInput(f"--host {host} is not an address of this machine "
                           f"({_reason(error)}): try 127.0.0.1, or 0.0.0.0 for every "
                           "interface.") from None
    listening = socket.socket(family, kind, proto)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise InvalidInput(f"port {port} on {host} is in use: another process (another "
                               "`ledger serve`?) listens there; choose another with "
                               "--port.") from None
        if error.errno == errno.EACCES:
            raise InvalidInput(f"port {port} on {host} may not be opened by this user "
                               f"({_reason(error)}); choose one above 1023 with --port.") from None
        raise InvalidInput(f"cannot listen on {host} port {port} ({_reason(error)}); "
                           "choose another --host or --port.") from None
    return listening


def _reason(error: OSError | UnicodeError) -> str:
    return str(getattr(error, "strerror", None) or error)
