"""The embedded PostgreSQL stops when its last user exits, however that user ends: `ledger
serve` stopped by SIGTERM, refused a busy port, or a user killed outright long ago. A real
embedded server (pgserver) in a folder of the test's own, never the developer's."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.signing import credential_env

# its module fixture is built once: the file runs in one process when the run is spread
pytestmark = pytest.mark.xdist_group("embedded-lifetime")

LEDGER = str(Path(sys.executable).with_name("ledger"))
USERS = ".handle_pids.json"  # pgserver's list of the processes using the server
STOP_SECONDS = 20  # money-safe: seconds


@pytest.fixture(scope="module")
def embedded() -> Iterator[dict[str, str]]:
    """The environment of `ledger` on an initialised embedded server in a temporary folder,
    stopped (its last user gone) between commands. The folder is made here, under /tmp, open
    to be passed: as root the server runs as its own user, which must reach it."""
    folder = Path(tempfile.mkdtemp(prefix="ledger-embedded-"))
    folder.chmod(0o755)
    env = {key: value for key, value in os.environ.items()
           if key not in ("LEDGER_DATABASE_URL", "LEDGER_API_URL", "LEDGER_DB_ROLE_PREFIX")}
    env.update(credential_env(), LEDGER_DATA_DIR=str(folder / "postgres"),
               LEDGER_WITNESS_DIR=str(folder / "witness"))
    init = _run(env, "db", "init", "--practice", "--admin-name", "Test Administrator")
    assert init.returncode == 0, init.stdout + init.stderr
    yield env
    _stopped(Path(env["LEDGER_DATA_DIR"]))
    shutil.rmtree(folder, ignore_errors=True)


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LEDGER, *args], env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def _users(data: Path) -> list[int]:
    path = data / USERS
    return json.loads(path.read_text()) if path.exists() else []


def _stopped(data: Path) -> bool:
    """Whether the server in `data` stops within STOP_SECONDS (pgserver stops it when its
    last user leaves; a stopped server has no postmaster.pid)."""
    deadline = time.monotonic() + STOP_SECONDS
    while time.monotonic() < deadline:
        if not (data / "postmaster.pid").exists():
            return True
        time.sleep(0.2)
    return False


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_ledger_serve_stopped_by_sigterm_leaves_the_list_and_the_server_stops(embedded):
    data, port = Path(embedded["LEDGER_DATA_DIR"]), _free_port()
    server = subprocess.Popen([LEDGER, "serve", "--port", str(port)], env=embedded,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert server.poll() is None, "ledger serve exited before it served"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/v1/ledger", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        assert server.pid in _users(data)
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.pid not in _users(data), _users(data)
    assert _stopped(data), "the embedded server outlived its last user"


def test_ledger_serve_on_a_busy_port_is_refused_and_joins_no_server(embedded):
    data = Path(embedded["LEDGER_DATA_DIR"])
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = _run(embedded, "serve", "--port", str(port))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "serving" not in result.stdout
    assert result.stderr.strip() == (f"error: port {port} on 127.0.0.1 is in use: another "
                                     "process (another `ledger serve`?) listens there; choose "
                                     "another with --port.")
    assert _users(data) == [] and _stopped(data)


def test_a_user_killed_outright_long_ago_does_not_keep_the_server_running(embedded):
    """A pid left on the list by a process killed with SIGKILL (no chance to leave it) is taken
    off by the next user, so the server stops when that one exits."""
    data = Path(embedded["LEDGER_DATA_DIR"])
    gone = subprocess.Popen(["true"])
    gone.wait()
    (data / USERS).write_text(json.dumps([gone.pid]))
    status = _run(embedded, "db", "status")
    assert status.returncode == 0, status.stdout + status.stderr
    assert _users(data) == []
    assert _stopped(data), "the embedded server waits for a process that is gone"
