"""Every stream's hash chain and version sequence, recomputed.

The formula is the one the database trigger applies (see `ledger.infrastructure.schema`).
A break is reported at the first version whose stored hash disagrees with what its contents
and its predecessor's stored hash give, so an altered row is named exactly, and a row whose
hash was forged to match is caught at the next version.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from psycopg import Connection, sql

from ledger.infrastructure.database import EVENTS_TABLE

GENESIS = bytes(32)


def chain_hash(previous: bytes, stream_id: UUID, version: int, topic: str, state: bytes) -> bytes:
    topic_bytes = topic.encode("utf-8")
    return hashlib.sha256(
        previous + stream_id.bytes + version.to_bytes(8, "big", signed=True)
        + len(topic_bytes).to_bytes(4, "big") + topic_bytes + state
    ).digest()


@dataclass(frozen=True)
class Break:
    stream_id: UUID
    label: str
    version: int
    reason: str

    def __str__(self) -> str:
        return f"stream {self.stream_id} ({self.label}) version {self.version}: {self.reason}"


@dataclass
class VerifyReport:
    streams: int = 0
    events: int = 0
    breaks: list[Break] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.breaks


def stream_label(topic: str, state: bytes) -> str:
    """`Table BAC-01`: the stream's kind and, when its first event names one, its code."""
    kind = topic.split(":")[-1].split(".")[0]
    try:
        body = json.loads(state)
    except ValueError:
        return kind
    for key in ("code", "table", "name", "pool"):
        if isinstance(body.get(key), str):
            return f"{kind} {body[key]}"
    return kind


class _StreamWalk:
    def __init__(self, stream_id: UUID) -> None:
        self.stream_id = stream_id
        self.label = "?"
        self.expected_version = 1
        self.previous_hash = GENESIS

    def step(self, version: int, topic: str, state: bytes, stored: bytes | None) -> list[Break]:
        breaks = []
        if version == 1:
            self.label = stream_label(topic, state)
        if version != self.expected_version:
            missing = f"{self.expected_version}" + (
                f"..{version - 1}" if version - 1 > self.expected_version else ""
            )
            breaks.append(self._break(version, f"version {missing} is missing"))
        if stored is None:
            breaks.append(self._break(version, "has no chain hash"))
        elif chain_hash(self.previous_hash, self.stream_id, version, topic, state) != stored:
            breaks.append(self._break(version, "hash does not match its contents: row altered"))
        self.previous_hash = stored or GENESIS
        self.expected_version = version + 1
        return breaks

    def _break(self, version: int, reason: str) -> Break:
        return Break(self.stream_id, self.label, version, reason)


def verify_chains(conn: Connection[Any], batch: int = 10_000, after: int = 0) -> VerifyReport:
    """Walk every stream in (stream, version) order with a server-side cursor. With `after`,
    only the events after that position (a verification that held reached it): each stream's
    walk starts from the stored hash of the version before its first new one, which must be
    there."""
    report = VerifyReport()
    walk: _StreamWalk | None = None
    columns = "originator_id, originator_version, topic, state, chain_hash"
    if after:
        query = sql.SQL(
            "WITH new AS (SELECT {columns}, true AS fresh FROM {table} "
            "WHERE notification_id > %(after)s), "
            "firsts AS (SELECT originator_id, min(originator_version) AS version FROM new "
            "GROUP BY originator_id) "
            "SELECT e.originator_id, e.originator_version, e.topic, e.state, e.chain_hash, "
            "false FROM {table} e JOIN firsts f ON e.originator_id = f.originator_id "
            "AND e.originator_version = f.version - 1 "
            "UNION ALL SELECT * FROM new ORDER BY 1, 2"
        ).format(columns=sql.SQL(columns), table=sql.Identifier(EVENTS_TABLE))
    else:
        query = sql.SQL("SELECT {columns}, true FROM {table} "
                        "ORDER BY originator_id, originator_version"
                        ).format(columns=sql.SQL(columns), table=sql.Identifier(EVENTS_TABLE))
    with conn.transaction(), conn.cursor(name="ledger_verify") as cursor:
        cursor.itersize = batch
        cursor.execute(query, {"after": after} if after else None)
        for stream_id, version, topic, state, stored, fresh in cursor:
            if walk is None or walk.stream_id != stream_id:
                walk = _StreamWalk(stream_id)
                report.streams += 1
                if not fresh:  # the stored version before the new ones: where the walk starts
                    walk.label = topic.split(":")[-1].split(".")[0]
                    walk.previous_hash = bytes(stored) if stored else GENESIS
                    walk.expected_version = version + 1
                    continue
                if after and version > 1:  # the version before the new ones is not there
                    walk.label = topic.split(":")[-1].split(".")[0]
                    walk.expected_version = version - 1
            report.events += 1
            report.breaks.extend(
                walk.step(version, topic, bytes(state), bytes(stored) if stored else None)
            )
    return report
