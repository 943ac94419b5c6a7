"""`ledger serve` in its own process on a free port, against a test's database, and an HTTP
client that talks to it as a terminal would."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.clock import ENV, stamp

LEDGER = str(Path(sys.executable).with_name("ledger"))

STARTUP_SECONDS = 60  # money-safe: seconds; a cold start on a loaded two-core machine


@dataclass
class Served:
    url: str
    client: httpx.Client

    def post(self, path: str, content: str, token: str | None = None) -> httpx.Response:
        return self.client.post(path, content=content, headers=_headers(token))

    def get(self, path: str, token: str | None = None, **params: Any) -> httpx.Response:
        return self.client.get(path, params=params, headers=_headers(token))

    def delete(self, path: str, token: str | None = None) -> httpx.Response:
        return self.client.delete(path, headers=_headers(token))


def _headers(token: str | None) -> dict[str, str]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return headers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(database_url: str, port: int) -> subprocess.Popen[bytes]:
    return start_with({**os.environ, "LEDGER_DATABASE_URL": database_url}, port)


def start_with(env: dict[str, str], port: int, *args: str) -> subprocess.Popen[bytes]:
    """The server's output goes to a file (a pipe nobody reads would fill and stop it). Its
    clock starts at the run's time now, unless the test set another (`tests/clock.py`)."""
    if env.get(ENV) == os.environ.get(ENV):
        env = {**env, ENV: stamp()}
    log = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the server runs
    process = subprocess.Popen([LEDGER, "serve", "--port", str(port), *args], env=env,
                               stdout=log, stderr=subprocess.STDOUT)
    process.log = log  # type: ignore[attr-defined]
    return process


def output(process: subprocess.Popen[bytes]) -> str:
    log = process.log  # type: ignore[attr-defined]
    log.seek(0)
    return log.read().decode(errors="replace")


def wait_until_up(process: subprocess.Popen[bytes], url: str) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"ledger serve exited ({process.returncode}): "
                                 f"{output(process)}")
        try:
            if httpx.get(f"{url}/openapi.json", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"ledger serve did not answer at {url} within {STARTUP_SECONDS} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    process.log.close()  # type: ignore[attr-defined]


@pytest.fixture
def served(database):
    yield from _served({**os.environ, "LEDGER_DATABASE_URL": database.url})


@pytest.fixture
def served_floor(database, settings):
    """`ledger serve` as the pit's screen: terminal FLOOR-1 (a pit workstation), whose key
    co-signs the sign-ins made in its browser."""
    from ledger.domain.registry import TerminalKind
    from tests.signing import KEYS, open_ledger

    with open_ledger(settings) as rt:
        rt.ledger.admin.ensure_terminal("FLOOR-1", TerminalKind.PIT_WORKSTATION, "pit podium")
    yield from _served({**os.environ, "LEDGER_DATABASE_URL": database.url,
                        "LEDGER_TERMINAL_CREDENTIAL": str(KEYS / "terminal-FLOOR-1.key")})


def _served(env: dict[str, str], *args: str) -> Iterator[Served]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = start_with(env, port, *args)
    try:
        wait_until_up(process, url)
        with httpx.Client(base_url=url, timeout=60.0) as client:
            yield Served(url, client)
    finally:
        stop(process)
