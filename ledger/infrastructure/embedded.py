"""The embedded PostgreSQL: a real server (from the `pgserver` package) living in a folder.

`pgserver` counts the processes using a data folder (their pids, in its `.handle_pids.json`)
and stops the server when the last one exits, so several `ledger` commands (or a command and a
test run) share one server safely. It takes a process off the list as the interpreter exits
(`atexit`), which a process killed by a signal's default action never does: so a process that
joins the server turns SIGTERM and SIGHUP into a normal exit (exit code 128 + the signal), and
is taken off the list however it ends, short of SIGKILL.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import warnings
from pathlib import Path
from types import FrameType
from typing import Any

from ledger.core.errors import DatabaseUnavailable
from ledger.infrastructure.server_account import adopt, as_root, made_for_server


def embedded_server_url(data_dir: Path, database: str = "postgres") -> str:
    """Start the server in `data_dir` (or join the one already running there); its URL."""
    data_dir = data_dir.expanduser().resolve()
    exit_normally_on_signals()  # before joining: pgserver lists this process as it starts
    try:
        url = str(embedded_server(data_dir, cleanup_mode="stop").get_uri(database))
    except Exception as error:  # noqa: BLE001 - pgserver raises bare subprocess and OS errors
        raise DatabaseUnavailable(
            f"the embedded PostgreSQL in {data_dir} could not start ({error}); "
            f"see {data_dir / 'log'}"
        ) from None
    return url


def embedded_server(data_dir: Path, cleanup_mode: str) -> Any:
    """pgserver's handle on the server in `data_dir`, started (or joined): as root, from
    programs and folders made for the server's user (`server_account`)."""
    data_dir = data_dir.expanduser().resolve()
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        import pgserver  # imported here: it is only needed when no server is named

        logging.getLogger("pgserver").setLevel(logging.WARNING)
        adopt(pgserver)
        if as_root():
            made_for_server(data_dir.parent)
        else:
            data_dir.parent.mkdir(parents=True, exist_ok=True)
        forget_gone_users(data_dir)
        return pgserver.get_server(  # type: ignore[attr-defined]  # pgserver imports it, never re-exports it
            data_dir, cleanup_mode=cleanup_mode)


def forget_gone_users(data_dir: Path) -> None:
    """Take off pgserver's list of the server's users any process that no longer runs (one
    killed with SIGKILL, or by a power cut, before it could take itself off): the server then
    stops when the last process still running leaves, not never."""
    from pgserver.postgres_server import PostgresServer
    from pgserver.utils import DiskList

    listed = DiskList(data_dir / USERS_FILE)
    with PostgresServer._lock:  # pgserver's own lock on its list, across processes
        try:
            users = listed.get()
        except (OSError, ValueError):
            return  # pgserver's own reading says what is wrong with it
        running = [pid for pid in users if isinstance(pid, int) and _runs(pid)]
        if running != users:
            listed.put(running)


def _runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: only whether the process is there
    except ProcessLookupError:
        return False
    except PermissionError:  # there, another user's
        return True
    return True


USERS_FILE = ".handle_pids.json"
"""pgserver's list of the pids of the processes using the server in a data folder."""
RELEASING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def exit_normally_on_signals() -> None:
    """SIGTERM and SIGHUP end this process as `SystemExit` does (context managers closed,
    `atexit` run, so pgserver is told this process is done), where their default action would
    end it at once. Only a signal left to its default is taken, and only from the main thread
    (where Python runs signal handlers); a handler of the process's own (`ledger serve`'s web
    server, a worker's stop) runs instead while it is set, and gives the signal back here."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in RELEASING_SIGNALS:
        if signal.getsignal(sig) is signal.SIG_DFL:
            signal.signal(sig, _exit)


def _exit(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)
