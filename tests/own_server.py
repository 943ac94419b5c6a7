"""A PostgreSQL server of the test's own, to stop, kill, freeze and restart.

The fault tests cannot do that to the shared server (or the embedded one other tests use), so
each starts its own from the binaries the `pgserver` package ships, on a free TCP port, in a
temporary folder of its own, and removes it afterwards. As root (CI) the server runs as the
`pgserver` system user, as the embedded server does, from the ledger's copy of the binaries
made for that user, in a folder it owns: no folder above the checkout or the temporary folder
is opened to it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psutil
from pgserver._commands import POSTGRES_BIN_PATH
from pgserver.utils import ensure_user_exists

from ledger.infrastructure.server_account import SERVER_USER as USER
from ledger.infrastructure.server_account import as_root, binaries


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class OwnServer:
    def __init__(self) -> None:
        self.root = root = Path(tempfile.mkdtemp(prefix="ledger-own-pg-"))  # under /tmp
        self.pgdata = root / "pgdata"
        self.port = _free_port()
        self.as_root = as_root()
        self.programs = POSTGRES_BIN_PATH
        if self.as_root:
            ensure_user_exists(USER)
            account = pwd.getpwnam(USER)
            os.chown(root, account.pw_uid, account.pw_gid)  # its own; /tmp lets every user pass
            self.programs = binaries(POSTGRES_BIN_PATH.parent)
        self._run("initdb", "-D", str(self.pgdata), "--auth=trust", "-U", "postgres",
                  "--encoding=utf8")

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.programs / program), *args]
        who = {"user": USER, "group": USER, "extra_groups": []} if self.as_root else {}
        subprocess.run(command, check=True, capture_output=True, timeout=60, **who)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.pgdata), "-w", "-t", "30", "-l",
                  str(self.root / "log"), "-o",
                  f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root}", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.pgdata), "-w", "-m", "fast", "stop")

    def processes(self) -> list[psutil.Process]:
        """The postmaster and every server process under it."""
        pid_file = self.pgdata / "postmaster.pid"
        if not pid_file.exists():
            return []
        try:
            postmaster = psutil.Process(int(pid_file.read_text().splitlines()[0]))
            return [postmaster, *postmaster.children(recursive=True)]
        except (psutil.NoSuchProcess, ValueError):
            return []

    def kill(self) -> None:
        """SIGKILL the postmaster and every backend: a crash, not a shutdown."""
        self._signal(signal.SIGKILL)
        deadline = time.monotonic() + 30
        while any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE
                  for p in self.processes()) and time.monotonic() < deadline:
            time.sleep(0.1)
        (self.pgdata / "postmaster.pid").unlink(missing_ok=True)
        for leftover in (f".s.PGSQL.{self.port}", f".s.PGSQL.{self.port}.lock"):
            (self.root / leftover).unlink(missing_ok=True)

    def freeze(self) -> None:
        """SIGSTOP every server process: the host hangs; TCP is still acknowledged."""
        self._signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self._signal(signal.SIGCONT)

    def _signal(self, signum: int) -> None:
        """Every server process, skipping one that ended since it was listed (a backend whose
        client went away)."""
        for process in self.processes():
            try:
                process.send_signal(signum)
            except psutil.NoSuchProcess:
                pass

    def remove(self) -> None:
        self.thaw()
        try:
            self.stop()
        except subprocess.CalledProcessError:
            self.kill()
        shutil.rmtree(self.root, ignore_errors=True)
