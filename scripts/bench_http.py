"""The floor through the HTTP API while the floor page is watched: the simulator's 64 tables send
their signed commands to `ledger serve` (each table a terminal thread with its own keep-alive
connection of the standard library's client, `POST /v1/commands`), alone and while 50
signed-in viewers, in a process of their own, hold the floor page's event stream open (the
server renders each change once and writes it to every viewer: `--viewers 0 50`, a run for
each, shows what the watching costs). Printed, from one run on
one database server: events/s through HTTP against the same floor through the Python API
(`Ledger.execute`, group commit) and against plain psycopg INSERT + COMMIT at 16 writers (the
raw append, before and after the floors), p50/p99 per command as a terminal waits for it, and event-to-
screen latency: from the moment a terminal's command is answered to the moment each viewer
receives the part of the floor showing it (the table's fragment carries the position of the
last event it shows; the command's are looked up afterwards, those the table's part shows: its
receipt, the last of its events, moves no table's position), p50 and p99 over every viewer and
command. Also the CPU the server's processes spent a command, and the terminals' and viewers'
beside it; `--workers 1 2` a run for each; `--realistic` then the realistic floor (64 tables, a
command every 2-5 s at each) in process and over HTTP.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from contextlib import ExitStack
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import httpx
from bench_append import raw_path
from bench_floor import PacedLedger, measure_floor, measure_realistic, settled
from benchlib import (
    console,
    cpu_seconds,
    installed,
    process_family,
    signer,
    throwaway_database,
)
from rich.table import Table

from ledger.application.ledger import Recorded
from ledger.core.errors import LedgerError
from ledger.domain.registry import TerminalKind
from ledger.identity.envelope import sign
from ledger.runtime.bootstrap import open_ledger
from ledger.simulation.floor import floor_plan, run_floor
from ledger.web.app import FLOOR_PROJECTIONS
from projections.tables.state import TableState

LEDGER = str(Path(sys.executable).with_name("ledger"))
POSITION = re.compile(r'data-position="(\d+)"')
SCREEN = "BENCH-SCREEN"
SHOWN = frozenset(TableState.handled_types())
HEADERS = {"Content-Type": "application/json"}


class HttpLedger:
    """The ledger as the simulator's tables reach it: `execute` over HTTP, one connection per
    table thread; reads (which the simulator makes to pick its next move) in process."""

    def __init__(self, inner: Any, url: str) -> None:
        self.inner, self.url = inner, url
        self.host, _, port = url.removeprefix("http://").partition(":")
        self.port = int(port)
        self.local = threading.local()
        self.acks: list[tuple[str, float, list[tuple[UUID, int]]]] = []  # table, when, events
        self.latencies: list[float] = []  # money-safe: seconds
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def execute(self, signed: Any) -> Recorded:
        connection = getattr(self.local, "connection", None)
        if connection is None:  # a terminal's keep-alive connection (the standard library's
            # client: a terminal is another machine, and httpx's Python would be the bench's)
            connection = self.local.connection = http.client.HTTPConnection(self.host, self.port,
                                                                             timeout=120)
        payload = signed.model_dump_json().encode()
        started = time.perf_counter()
        connection.request("POST", "/v1/commands", body=payload, headers=HEADERS)
        answer = connection.getresponse()
        raw = answer.read()
        done = time.perf_counter()
        body = json.loads(raw)
        if answer.status >= 400:
            raise LedgerError(body["error"]["message"])
        # what the table's part of the floor shows: the events the table-state projection
        # applies (a receipt, or a pool's event, moves no table's position)
        events = [(UUID(e["stream"]), e["version"]) for e in body["events"]
                  if e["type"] in SHOWN]
        with self._lock:
            if threading.current_thread() is not threading.main_thread():
                self.latencies.append(done - started)  # the tables' commands, not the set-up
            self.acks.append((threading.current_thread().name, done, events))
        return Recorded(UUID(body["command_id"]), body["status"] != "recorded",
                        tuple((UUID(e["stream"]), e["version"], e["type"])
                              for e in body["events"]), details=tuple(body["details"]))


class Viewer(threading.Thread):
    """One floor page: its event stream, each table part kept with when it arrived."""

    def __init__(self, url: str, token: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.url, self.token, self.stop = url, token, stop
        self.seen: dict[str, list[tuple[int, float]]] = defaultdict(list)  # table: (pos, when)
        self.connected = threading.Event()

    def run(self) -> None:
        event = None
        with httpx.Client(base_url=self.url, timeout=None,
                          cookies={"ledger_session": self.token}) as client, \
                client.stream("GET", "/floor/events") as stream:
            self.connected.set()
            for line in stream.iter_lines():
                if self.stop.is_set():
                    return
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event and event.startswith("table-"):
                    found = POSITION.search(line)
                    if found:
                        self.seen[event[6:]].append((int(found[1]), time.perf_counter()))
                        event = None


def watch(url: str, tokens: list[str], connected: Any, stop: Any, seen: Any) -> None:
    """The viewers, in a process of their own (their screens are other machines: their Python
    must not queue the terminals' for the interpreter); each viewer's parts, with when they
    arrived (the machine's monotonic clock, the terminals' too), put on `seen` at the end."""
    halt = threading.Event()
    viewers = [Viewer(url, token, halt) for token in tokens]
    for viewer in viewers:
        viewer.start()
    for viewer in viewers:
        viewer.connected.wait(30)
    connected.set()
    stop.wait()
    halt.set()
    seen.put([dict(viewer.seen) for viewer in viewers])


def sign_in(url: str, keyring: Any, staff_id: str) -> str:
    challenge = httpx.post(f"{url}/v1/sessions/challenge").json()["challenge"]
    body = {"command": "sign_in", "command_id": str(uuid4()), "at": datetime.now(UTC).isoformat(),
            "challenge": challenge}
    signed = sign(body, keyring.credential("terminal", SCREEN), keyring.credential("staff", staff_id),
                  ledger=httpx.get(f"{url}/v1/ledger").json()["ledger"])
    answer = httpx.post(f"{url}/v1/sessions", content=signed.model_dump_json(),
                        headers={"Content-Type": "application/json"})
    if answer.status_code != 201:
        raise SystemExit(f"sign-in refused: {answer.text}")
    return str(answer.json()["token"])


def measure_http(settings: Any, tables: int, rounds: int, seed: int, viewers: int,
                 port: int, apart: bool = False, workers: int = 1,
                 paced: tuple[float, float] | None = None,
                 ledger: str = LEDGER) -> dict[str, Any]:
    """The floor over HTTP; `paced` (low, high): each table's next command after a pause
    drawn between them (the realistic floor, one round a table); `ledger`: the server's
    command (another commit's, installed apart: `--against`)."""
    url = f"http://127.0.0.1:{port}"
    with open_ledger(settings) as rt:
        plan = (floor_plan(tables, ("baccarat", "q-poker", "fortune-8")) if paced
                else floor_plan(tables))
        staff = signer(rt).floor_staff()
        staff.enrol(plan, 1 if paced else rounds)
        staff.administrator.ensure_terminal(SCREEN, TerminalKind.PIT_WORKSTATION, "bench screen")
        env = {**os.environ, "LEDGER_DATABASE_URL": settings.database_url,
               "LEDGER_GROUP_COMMIT": "true", "LEDGER_POOL_SIZE": str(settings.pool_size),
               "LEDGER_CLOCK_PAST_MINUTES": str(settings.clock_past_minutes),
               "LEDGER_DB_ROLE_PREFIX": settings.db_role_prefix,
               # the screen's key: the workers make the sign-in challenges' secret from it
               "LEDGER_TERMINAL_KEY": staff.keyring.credential("terminal", SCREEN).to_json()}
        server = subprocess.Popen([ledger, "serve", "--port", str(port), "--workers",
                                   str(workers), *(["--no-follow"] if apart else [])], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        runner = subprocess.Popen([ledger, "projections", "run", *FLOOR_PROJECTIONS], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                                  ) if apart else None
        spawn = multiprocessing.get_context("spawn")
        connected, stop, seen = spawn.Event(), spawn.Event(), spawn.Queue()
        try:
            _wait_up(url, server)
            while len(process_family(server.pid)) < (1 if workers == 1 else workers + 1):  # all up
                time.sleep(0.2)
            for _ in range(4 * workers):  # and answering
                httpx.get(f"{url}/openapi.json", timeout=30)
            watcher = spawn.Process(target=watch, daemon=True, args=(
                url, [sign_in(url, staff.keyring, "S-FLOOR") for _ in range(viewers)],
                connected, stop, seen))
            watcher.start()
            connected.wait(60)
            http = HttpLedger(rt.ledger, url)
            floor: Any = PacedLedger(http, *paced) if paced else http
            ledger_processes = [*process_family(server.pid), *([runner.pid] if runner else [])]
            settled()  # the terminals' process, as the ledger's in process
            cpu_before = sum(cpu_seconds(pid) for pid in ledger_processes)
            clients_before = cpu_seconds(os.getpid()), cpu_seconds(watcher.pid)
            started = time.perf_counter()
            result = run_floor(floor, staff, plan, rounds=1 if paced else rounds, seed=seed,
                               day=date(2026, 11, 22))
            elapsed = time.perf_counter() - started
            time.sleep(3)  # the last parts reach the viewers
            cpu = sum(cpu_seconds(pid) for pid in ledger_processes) - cpu_before
            terminals_cpu = cpu_seconds(os.getpid()) - clients_before[0]
            viewers_cpu = cpu_seconds(watcher.pid) - clients_before[1]
            stop.set()
            watching = seen.get(timeout=60)
            watcher.join(timeout=30)
        finally:
            stop.set()
            for process in (server, runner):
                if process is not None:
                    process.terminate()
                    process.wait(timeout=30)
        if result.errors:
            raise SystemExit(f"the floor through HTTP failed: {result.errors[0]}")
        with rt.database.connect() as conn:
            positions = {(row[0], row[1]): row[2] for row in conn.execute(
                "SELECT originator_id, originator_version, notification_id FROM ledger_events")}
    to_screen = []
    for table, acked, events in http.acks:
        if table == "MainThread":
            continue
        if not events:
            continue
        needed = max(positions[event] for event in events)
        for viewer_seen in watching:
            arrived = next((when for position, when in viewer_seen.get(table, ())
                            if position >= needed), None)
            if arrived is not None:
                to_screen.append(max(arrived - acked, 0.0))
    events = sum(t.events for t in result.tables.values())
    latencies = sorted(http.latencies)
    to_screen.sort()
    return {"events": events, "seconds": elapsed, "commands": len(latencies),
            "cpu_ms": cpu * 1000 / len(latencies),
            "clients_ms": (terminals_cpu * 1000 / len(latencies),
                           viewers_cpu * 1000 / len(latencies)),
            "p50": statistics.median(latencies) * 1000,
            "p99": latencies[int(0.99 * (len(latencies) - 1))] * 1000,
            "max": latencies[-1] * 1000,
            **({"screen_p50": statistics.median(to_screen) * 1000,
                "screen_p99": to_screen[int(0.99 * (len(to_screen) - 1))] * 1000}
               if to_screen else {}), "seen": len(to_screen),
            "expected": sum(1 for t, _, e in http.acks if t != "MainThread" and e) * viewers}


def _wait_up(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("ledger serve exited")
        try:
            if httpx.get(f"{url}/openapi.json", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("ledger serve did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per table")
    parser.add_argument("--viewers", type=int, nargs="+", default=[0, 50],
                        help="signed-in viewers holding the floor's event stream open, a run "
                             "for each count (0: the floor and its projections alone)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, nargs="+", default=[1],
                        help="`ledger serve --workers N`, a run for each N")
    parser.add_argument("--realistic", action="store_true",
                        help="then the realistic floor (64 tables, a command every 2-5 s at "
                             "each) in process and over HTTP: latencies a dealer would feel")
    parser.add_argument("--projections-apart", action="store_true",
                        help="serve with --no-follow and run `ledger projections run` beside it")
    parser.add_argument("--against", metavar="REF",
                        help="also serve the code of this git commit (installed in a virtual "
                             "environment of its own, with its own dependencies), in the same "
                             "run")
    args = parser.parse_args()
    with ExitStack() as stack:
        servers = [("", LEDGER)]
        if args.against:
            servers.append((f" ({args.against})", stack.enter_context(installed(args.against))))
        _run(args, servers)


def _run(args: Any, servers: list[tuple[str, str]]) -> None:
    with throwaway_database("ledger_bench_api") as (settings, database):
        raw = [raw_path(database, 16, 500).rate]  # plain INSERT + COMMIT, 16 writers
        python = measure_floor(settings, args.tables, args.rounds, args.seed, True)
    console.print("[dim]the Python API floor done[/]")
    runs: list[tuple[str, dict[str, Any]]] = [("Python API (group commit)", python)]
    for workers in args.workers:
        for viewers in args.viewers:
            for which, ledger in servers:
                with throwaway_database("ledger_bench_http") as (settings, _):
                    runs.append(((f"HTTP, {workers} worker{'s' if workers > 1 else ''}, "
                                 f"{viewers} viewers{which}"),
                                 measure_http(settings, args.tables, args.rounds, args.seed,
                                              viewers, args.port, args.projections_apart,
                                              workers, ledger=ledger)))
    with throwaway_database("ledger_bench_raw") as (_, database):
        raw.append(raw_path(database, 16, 500).rate)  # again: the machine's speed drifts
    table = Table(title=f"{args.tables} tables, {args.rounds} rounds each")
    for column in ("path", "events", "ev/s", "cmds", "p50 ms", "p99 ms", "vs raw", "vs Python API",
                   "to screen p50 / p99 ms", "ledger CPU ms a command",
                   "terminals / viewers CPU ms a command"):
        table.add_column(column, justify="right")
    base = python["events"] / python["seconds"]
    for name, run in runs:
        rate = run["events"] / run["seconds"]
        screen = (f"{run['screen_p50']:,.0f} / {run['screen_p99']:,.0f}"
                  if "screen_p50" in run else "")
        table.add_row(name, f"{run['events']:,}", f"{rate:,.0f}", f"{run['commands']:,}",
                      f"{run['p50']:.1f}", f"{run['p99']:.1f}",
                      f"{rate / statistics.mean(raw):.2f}x", f"{rate / base:.2f}x", screen,
                      f"{run['cpu_ms']:.2f}" if "cpu_ms" in run else "", _clients(run))
    console.print(table)
    if args.realistic:
        _realistic(args, servers)
    runner = ", the projection runner" if args.projections_apart else ""
    console.print(f"raw: plain psycopg INSERT + COMMIT, one event-like row each, 16 writers, same "
                  f"server, before and after the floors: {raw[0]:,.0f} and {raw[1]:,.0f} events/s "
                  f"(the ratio is to their mean).")
    console.print(f"to screen: from a command's answer to a viewer's receipt of the table's "
                  f"part, over every (viewer, command) pair. Ledger CPU: the server's processes "
                  f"(its workers{runner}), not the terminals or the viewers.")


def _realistic(args: Any, servers: list[tuple[str, str]]) -> None:
    with throwaway_database("ledger_bench_paced") as (settings, _):
        runs: list[tuple[str, dict[str, Any]]] = [
            ("in process (group commit)", measure_realistic(settings, 64, 2.0, 5.0, args.seed))]
    for workers in args.workers:
        for which, ledger in servers:
            with throwaway_database("ledger_bench_paced_http") as (settings, _):
                runs.append((f"HTTP, {workers} worker{'s' if workers > 1 else ''}{which}",
                             measure_http(settings, 64, 1, args.seed, max(args.viewers), args.port,
                                          args.projections_apart, workers, paced=(2.0, 5.0),
                                          ledger=ledger)))
    table = Table(title="the realistic floor: 64 tables, a command every 2-5 s at each")
    for column in ("path", "commands", "p50 ms", "p99 ms", "max ms", "to screen p50 / p99 ms",
                   "ledger CPU ms a command", "terminals / viewers CPU ms a command"):
        table.add_column(column, justify="right")
    for name, run in runs:
        table.add_row(name, f"{run['commands']:,}", f"{run['p50']:.1f}", f"{run['p99']:.1f}",
                      f"{run['max']:.1f}",
                      f"{run['screen_p50']:,.0f} / {run['screen_p99']:,.0f}"
                      if "screen_p50" in run else "",
                      f"{run['cpu_ms']:.2f}" if "cpu_ms" in run else "", _clients(run))
    console.print(table)


def _clients(run: dict[str, Any]) -> str:
    """The CPU the bench's terminals (the simulator's tables, in this process) and viewers (a
    process of their own) spent a command: the machine's cores they take from the ledger."""
    if "clients_ms" not in run:
        return ""
    terminals, viewers = run["clients_ms"]
    return f"{terminals:.2f} / {viewers:.2f}"


if __name__ == "__main__":
    main()
