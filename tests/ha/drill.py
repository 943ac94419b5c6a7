"""The failover drill: a simulated floor recording through the cluster's multi-host URL, the
primary killed (SIGKILL) once the floor is busy, and what the terminals were told compared with
what the new primary holds. Used by the failover test and by `scripts/ha`."""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar
from uuid import UUID

import psycopg

from ledger.application.config import LedgerSettings
from ledger.application.ledger import LOST_DATABASE, Ledger
from ledger.domain.base import Aggregate
from ledger.infrastructure.database import Database
from ledger.infrastructure.session import is_lost
from ledger.runtime.bootstrap import init_database, open_ledger
from ledger.simulation.floor import floor_plan, run_floor
from tests.ha.cluster import Cluster
from tests.signing import floor_staff

DAY = date(2026, 11, 22)  # the simulator plays a fixed gaming day
READ_DEADLINE = 60.0  # money-safe: seconds, as the commands' deadline
K = TypeVar("K", bound=Aggregate)


class Acknowledged:
    """The ledger as the floor's terminals reach it, noting every event each was told was
    recorded, and when."""

    def __init__(self, inner: Ledger) -> None:
        self.inner = inner
        self.acks: list[tuple[float, list[tuple[Any, int]]]] = []  # money-safe: when, events
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def load(self, kind: type[K], aggregate_id: UUID, what: str) -> K:
        """The simulator reads a round to choose its next move (a real terminal knows its own
        table and does not): that read is retried through the failover, as `execute` is."""
        started = time.monotonic()
        while True:
            try:
                return self.inner.load(kind, aggregate_id, what)
            except LOST_DATABASE as error:
                if not is_lost(error) or time.monotonic() - started > READ_DEADLINE:
                    raise
                time.sleep(0.5)

    def execute(self, signed: Any) -> Any:
        recorded = self.inner.execute(signed)
        with self._lock:
            self.acks.append((time.monotonic(), [(s, v) for s, v, _ in recorded.events]))
        return recorded


@dataclass
class Drill:
    killed: str
    promoted: str
    acknowledged: int
    on_new_primary: int
    missing: list[tuple[Any, int]]
    after_kill: int  # commands acknowledged after the kill
    stall: float  # money-safe: seconds, the longest time no command was acknowledged
    waits: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def settings_for(cluster: Cluster, dbname: str = "ledger") -> LedgerSettings:
    return LedgerSettings(database_url=cluster.url(dbname), pool_size=8,
                          clock_past_minutes=366 * 24 * 60, db_role_prefix="ha_ledger")


def failover_drill(cluster: Cluster, *, tables: int = 4, rounds: int = 6,
                   kill_after: int = 150, dbname: str = "ledger") -> Drill:
    """Create `dbname`, play the floor, kill the primary after `kill_after` commands."""
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    settings = settings_for(cluster, dbname)
    init_database(settings, Database(settings.database_url), practice=True)  # a test's play
    killed: dict[str, Any] = {}
    waits: list[str] = []
    with open_ledger(settings) as rt:
        floor = Acknowledged(rt.ledger)
        rt.ledger.on_wait = waits.append
        staff = floor_staff(rt.ledger)

        def kill_when_busy() -> None:
            while len(floor.acks) < kill_after and "done" not in killed:
                time.sleep(0.05)
            if "done" not in killed:
                killed["at"] = time.monotonic()
                killed["node"] = cluster.kill_leader().name

        killer = threading.Thread(target=kill_when_busy, daemon=True)
        killer.start()
        result = run_floor(floor, staff, floor_plan(tables), rounds=rounds, seed=11, day=DAY)
        killed["done"] = True
        killer.join(timeout=5)
    if "at" not in killed:
        raise RuntimeError(f"the floor finished before {kill_after} commands: play more rounds")
    cluster.wait(lambda: cluster.leader() is not None, "a new leader")
    new = cluster.leader()
    assert new is not None
    with psycopg.connect(cluster.node_url(new, dbname)) as conn:
        stored = {(row[0], row[1]) for row in conn.execute(
            "SELECT originator_id, originator_version FROM ledger_events")}
    acknowledged = {event for _, events in floor.acks for event in events}
    times = [when for when, _ in floor.acks]
    return Drill(
        killed=killed["node"], promoted=new.name, acknowledged=len(acknowledged),
        on_new_primary=len(acknowledged & stored), missing=sorted(acknowledged - stored),
        after_kill=sum(1 for when in times if when > killed["at"]),
        stall=max((b - a for a, b in itertools.pairwise(times)), default=0.0),
        waits=waits, errors=result.errors)


def property_ledger(cluster: Cluster, code: str, seed: int, tables: int = 2,
                    rounds: int = 3) -> LedgerSettings:
    """A property's own ledger (its database, its schema), a floor played on it."""
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{code}_ledger"')
    settings = settings_for(cluster, f"{code}_ledger").model_copy(
        update={"property_code": code})
    init_database(settings, Database(settings.database_url).with_schema(code), practice=True)
    with open_ledger(settings) as rt:
        result = run_floor(rt.ledger, floor_staff(rt.ledger), floor_plan(tables),
                           rounds=rounds, seed=seed, day=DAY)
    if result.errors:
        raise RuntimeError(f"the {code} floor failed: {result.errors[0]}")
    return settings


def group_drill(cluster: Cluster, codes: tuple[str, ...] = ("east", "west")) -> Any:
    """Properties with the same table codes, published and replicated into one group
    database, and the group's gaming day once every event has arrived."""
    from ledger.infrastructure.replication import prepare_replica, publish, subscribe
    from ledger.reports.group import group_day

    sources = {code: property_ledger(cluster, code, seed)
               for seed, code in enumerate(codes, start=3)}
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute('CREATE DATABASE "group_ledger"')
    group = Database(cluster.url("group_ledger"))
    for code, settings in sources.items():
        source = Database(settings.database_url).with_schema(code)
        replica = group.with_schema(code)
        with source.connect() as conn:
            publish(conn, code)
        init_database(settings.model_copy(update={"database_url": group.url}), replica,
                      practice=True)
        with replica.connect() as conn, source.connect() as publisher:
            prepare_replica(conn)
            subscribe(conn, publisher, code, settings.database_url)
        cluster.wait(lambda replica=replica, source=source: _count(replica) >= _count(source),
                     f"{code}'s events replicated")
    return group_day(group, DAY, settings_for(cluster).shift_schedule)


def _count(database: Database) -> int:
    with database.connect() as conn:
        return int(conn.execute("SELECT count(*) FROM ledger_events").fetchone()[0])
