"""Outages ridden out, on a PostgreSQL server each test starts (and stops, kills, freezes) itself:
no acknowledged command lost, no traceback, no hang past the deadline, and the projection
runner resumes by itself."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from uuid import UUID

import psycopg
import pytest

from ledger.application.config import LedgerSettings
from ledger.commands.table import OpenTable
from ledger.core.errors import DatabaseUnavailable
from ledger.domain.receipt import receipt_id
from ledger.infrastructure.database import Database
from ledger.infrastructure.session import IDLE_CHECK_SECONDS
from ledger.runtime.bootstrap import init_database
from projections.registry import PROJECTIONS
from tests.e2e.conftest import LEDGER
from tests.integration.helpers import PIT_BOSS
from tests.own_server import OwnServer
from tests.signing import (
    DEFAULT_TERMINAL,
    E2E_PIT_BOSS,
    E2E_WORKSTATION,
    KEYRING,
    acting_env,
    bootstrap,
    enrol_e2e_defaults,
    open_ledger,
)

DEADLINE = 8  # seconds a command waits for the database in these tests
STATEMENT = 2  # seconds a statement may run; the client gives up 5 s after that


@pytest.fixture
def own() -> Iterator[OwnServer]:
    server = OwnServer()
    server.start()
    try:
        settings = LedgerSettings(database_url=server.url)
        init_database(settings, Database(server.url), practice=True)  # a test's play
        with open_ledger(settings) as rt:
            bootstrap(rt.ledger)
            enrol_e2e_defaults(rt.ledger)
        yield server
    finally:
        server.remove()


def _env(server: OwnServer, **extra: str) -> dict[str, str]:
    return {**os.environ, "LEDGER_DATABASE_URL": server.url, "COLUMNS": "200",
            "LEDGER_COMMAND_DEADLINE_SECONDS": str(DEADLINE),
            "LEDGER_STATEMENT_TIMEOUT_SECONDS": str(STATEMENT),
            **acting_env(E2E_PIT_BOSS, E2E_WORKSTATION), **extra}


def _ledger(server: OwnServer, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([LEDGER, *args], env=_env(server), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _open(code: str) -> tuple[str, ...]:
    return ("table", "open", code, "--game", "baccarat", "--min", "100", "--max", "1000")


def _tables(server: OwnServer) -> int:
    with psycopg.connect(server.url) as conn:
        return int(conn.execute("SELECT count(*) FROM ledger_event_log "
                                "WHERE event_type = 'Table.Opened'").fetchone()[0])


def test_a_command_waits_for_a_server_that_is_down_then_fails_in_one_line_at_its_deadline(own):
    own.stop()
    started = time.monotonic()
    done = _ledger(own, *_open("BAC-01"))
    out, err = done.communicate(timeout=DEADLINE + 30)
    took = time.monotonic() - started
    assert done.returncode == 1, out + err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines[0].startswith("waiting: ") and f"waiting up to {DEADLINE} s" in lines[0]
    assert lines[-1].startswith("error: ") and f"waited {DEADLINE} s" in lines[-1], err
    assert DEADLINE <= took < DEADLINE + 10  # it waited, and not past the deadline
    own.start()
    assert _tables(own) == 0  # nothing recorded


def test_a_command_sent_while_the_server_restarts_is_recorded_once_when_it_returns(own):
    own.stop()
    waiting = _ledger(own, *_open("BAC-01"))
    said = waiting.stderr.readline()  # it says it is waiting before the server comes back
    own.start()
    out, err = waiting.communicate(timeout=DEADLINE + 30)
    err = said + err
    assert waiting.returncode == 0, err
    assert err.startswith("waiting: ") and "Traceback" not in err
    assert "recorded" in out
    assert _tables(own) == 1


@dataclass
class Terminal:
    """A terminal thread sending commands through the Python API, keeping what was
    acknowledged, what failed (and how long each call took)."""

    settings: LedgerSettings
    stop: threading.Event = field(default_factory=threading.Event)
    acknowledged: list[UUID] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    longest: float = 0.0  # money-safe: seconds
    crashed: list[BaseException] = field(default_factory=list)
    recording: threading.Event = field(default_factory=threading.Event)  # one acknowledged

    def run(self) -> None:
        try:
            with open_ledger(self.settings) as rt:
                rt.ledger.sign(_open_table(0))  # enrols the pit boss and the terminal, once
                signed = iter([KEYRING.sign(  # signed ahead, with no database, as a terminal keeps them
                    _open_table(number), staff=PIT_BOSS.staff_id, terminal=DEFAULT_TERMINAL,
                    ledger=rt.ledger.ledger_id)
                    for number in range(1, 2000)])
                while not self.stop.is_set():
                    command = next(signed)
                    started = time.monotonic()
                    try:
                        rt.ledger.inner.execute(command)
                        self.acknowledged.append(UUID(command.command["command_id"]))
                        self.recording.set()
                    except DatabaseUnavailable as error:
                        self.failures.append(str(error))
                    self.longest = max(self.longest, time.monotonic() - started)
                    time.sleep(0.05)
        except BaseException as error:  # noqa: BLE001 - reported: the thread must not die
            self.crashed.append(error)


def _open_table(number: int) -> OpenTable:
    return OpenTable(table=f"T-{number:05d}", game="baccarat", min_bet=Decimal(100),
                     max_bet=Decimal(1000), actor=PIT_BOSS)


def _receipts(server: OwnServer, ids: list[UUID]) -> int:
    with psycopg.connect(server.url) as conn:
        return int(conn.execute("SELECT count(DISTINCT originator_id) FROM ledger_events "
                                "WHERE originator_id = ANY(%s)",
                                ([receipt_id(i) for i in ids],)).fetchone()[0])


def _caught_up(server: OwnServer, timeout: float = 60) -> bool:  # money-safe: seconds
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with psycopg.connect(server.url) as conn:
            head = conn.execute("SELECT max(notification_id) FROM ledger_events").fetchone()[0]
            rows = conn.execute("SELECT position FROM ledger_tracking WHERE projection = ANY(%s)",
                                ([p.name for p in PROJECTIONS],)).fetchall()
        if len(rows) == len(PROJECTIONS) and all(position == head for (position,) in rows):
            return True
        time.sleep(0.5)
    return False


def _caught_up_or_say_why(server: OwnServer, runner: subprocess.Popen[str]) -> None:
    if not _caught_up(server):
        runner.kill()
        out, err = runner.communicate(timeout=30)
        pytest.fail(f"the projection runner did not catch up: {out[-2000:]} {err[-2000:]}")


def _stop(runner: subprocess.Popen[str]) -> tuple[str, str]:
    runner.send_signal(signal.SIGTERM)
    out, err = runner.communicate(timeout=60)
    assert runner.returncode == 0, out + err
    assert "Traceback" not in out + err
    return out, err


def test_a_server_frozen_for_two_minutes_fails_commands_cleanly_and_nothing_acknowledged_is_lost(
        own):
    settings = LedgerSettings(database_url=own.url, command_deadline_seconds=DEADLINE,
                              statement_timeout_seconds=STATEMENT)
    runner = _ledger(own, "projections", "run", "--poll", "0.2")
    terminal = Terminal(settings)
    thread = threading.Thread(target=terminal.run)
    thread.start()
    assert terminal.recording.wait(timeout=120), terminal.crashed  # it records before the freeze
    time.sleep(1)
    before = len(terminal.acknowledged)
    own.freeze()
    time.sleep(120)
    own.thaw()
    during = len(terminal.failures)
    time.sleep(5)
    terminal.stop.set()
    thread.join(timeout=DEADLINE + 30)
    assert not thread.is_alive() and not terminal.crashed, terminal.crashed
    assert before > 0 and len(terminal.acknowledged) > before  # it records again after the thaw
    assert during >= 1 and all("waited" in failure for failure in terminal.failures)
    assert terminal.longest < DEADLINE + STATEMENT + 10  # no call hung past its deadline
    assert _receipts(own, terminal.acknowledged) == len(terminal.acknowledged)
    _caught_up_or_say_why(own, runner)  # it lived through the freeze and caught up by itself
    _stop(runner)


def test_a_warm_ledger_replaces_the_connections_a_restarted_server_dropped_before_using_them(
        own):
    settings = LedgerSettings(database_url=own.url, command_deadline_seconds=DEADLINE,
                              statement_timeout_seconds=STATEMENT)
    waits: list[str] = []
    with open_ledger(settings) as rt:
        rt.ledger.inner.on_wait = waits.append
        rt.ledger.execute(_open_table(1))
        own.stop()
        own.start()
        time.sleep(IDLE_CHECK_SECONDS)  # the pooled connections are quiet now, and dead
        recorded = rt.ledger.execute(_open_table(2))
    assert not recorded.duplicate and waits == []  # no failed attempt, no wait
    assert _tables(own) == 2


def test_the_projection_runner_resumes_by_itself_after_the_server_is_killed_and_restarted(own):
    runner = _ledger(own, "projections", "run", "--poll", "0.2")
    for code in ("BAC-01", "BAC-02"):
        assert subprocess.run([LEDGER, *_open(code)], env=_env(own), check=False,
                              capture_output=True).returncode == 0
    _caught_up_or_say_why(own, runner)
    own.kill()
    time.sleep(2)
    own.start()
    for code in ("BAC-03", "BAC-04"):
        assert subprocess.run([LEDGER, *_open(code)], env=_env(own), check=False,
                              capture_output=True).returncode == 0
    _caught_up_or_say_why(own, runner)
    assert runner.poll() is None  # still following
    _, err = _stop(runner)
    assert "lost the database" in err and "reconnecting" in err
    assert _tables(own) == 4
