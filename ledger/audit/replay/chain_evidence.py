"""The hash-chain evidence of the events a replay used: each event's stored hash, the hash it
chains to, and whether the link holds (the appendix of a replay)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import Connection
from pydantic import Field

from ledger.audit.replay.chain import GENESIS
from ledger.audit.replay.check import Difference, Frozen
from ledger.audit.replay.store import RecordedEvent, previous_hash


class Evidence(Frozen):
    """The hash chain around one event: its stored hash and the one it chains to."""

    stream: str
    stream_id: UUID
    version: int
    position: int
    event: str
    chain_hash: str | None
    previous_hash: str | None
    holds: bool = Field(description="the stored hash is what the row and previous hash give")


def broken_links(evidence: list[Evidence]) -> list[Difference]:
    return [Difference(subject=f"{e.stream} event v{e.version} ({e.event})", field="chain hash",
                       recorded=e.chain_hash, recomputed="a hash matching the row")
            for e in evidence if not e.holds]


def chain_evidence(conn: Connection[Any], events: list[RecordedEvent],
                   streams: dict[UUID, str]) -> list[Evidence]:
    """Each event's stored hash, the hash it chains to, and whether the link holds."""
    known = {(e.stream_id, e.version): e.stored_hash for e in events}
    evidence = []
    for recorded in sorted({(e.stream_id, e.version): e for e in events}.values(),
                           key=lambda e: e.position):
        key = (recorded.stream_id, recorded.version - 1)
        previous = (GENESIS if recorded.version == 1 else known[key] if key in known
                    else previous_hash(conn, recorded))
        evidence.append(Evidence(
            stream=streams.get(recorded.stream_id, "?"), stream_id=recorded.stream_id,
            version=recorded.version, position=recorded.position, event=recorded.event_type,
            chain_hash=recorded.stored_hash.hex() if recorded.stored_hash else None,
            previous_hash=previous.hex() if previous else None,
            holds=recorded.chain_holds(previous)))
    return evidence
