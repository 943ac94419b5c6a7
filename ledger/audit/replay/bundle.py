"""`ledger export round`: the one file a surveillance officer hands over in a dispute.

It holds the round's replay (JSON and the HTML page), every event the replay read (the
round's, its shoe's, its pool's: the events its check and its seal line count), each with its
RFC 6962 audit path to the checkpoint the replay proved them under (the newest a trusted
sealing key signed, so the bundle and `ledger replay` name one checkpoint; with no trusted key,
the first that covers them), the checkpoint, the witnesses' cosignature lines of that checkpoint as the sealer collected them,
the sealing public key, and the exporter's own sealed registry events (and, from a practice
ledger, its mark); the whole content signed by the exporter. `ledger.audit.bundle_verify` checks it with no database.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any
from uuid import UUID

from psycopg import Connection

from ledger.audit.bundle_verify import FORMAT
from ledger.audit.log.formats import Checkpoint, event_leaf
from ledger.audit.log.tile_store import audit_paths
from ledger.audit.replay.round import RoundReplay, replay_round
from ledger.audit.replay.sealed_events import SealTrust
from ledger.core.errors import DamagedStream, NotAllowed, WrongState
from ledger.core.formatting import PRACTICE_MARK
from ledger.domain.registry import StaffMember, staff_stream_id
from ledger.identity.keys import Credential, canonical_json
from ledger.infrastructure.practice import is_practice

KEY_EVENTS = (StaffMember.Enrolled.event_type, StaffMember.KeyReplaced.event_type)


def _exporter_positions(conn: Connection[Any], exporter: Credential) -> tuple[UUID, list[int]]:
    stream = staff_stream_id(exporter.id)
    rows = conn.execute(
        "SELECT position, event_type, body ->> 'public_key' FROM ledger_event_log "
        "WHERE stream_id = %s ORDER BY version", (stream,)).fetchall()
    keyed = [(position, key) for position, kind, key in rows if kind in KEY_EVENTS]
    if not keyed:
        raise NotAllowed(f"{exporter.id} is not enrolled: only enrolled staff export evidence.")
    if keyed[-1][1] != exporter.public_key:
        raise NotAllowed(f"the key in LEDGER_STAFF_CREDENTIAL ({exporter.fingerprint}) is not "
                         f"the one the registry holds for {exporter.id}.")
    return stream, [position for position, _ in keyed]


def _checkpoint_covering(conn: Connection[Any], position: int) -> Checkpoint:
    row = conn.execute("SELECT statement, signature FROM ledger_seal_checkpoints "
                       "WHERE position >= %s ORDER BY size LIMIT 1", (position,)).fetchone()
    if row is None:
        raise WrongState(f"the events up to position {position} are not sealed under a "
                         "checkpoint yet: run `ledger seal run --once`, then export.")
    return Checkpoint.from_statement(bytes(row[0]), bytes(row[1]))


def _checkpoint_of(conn: Connection[Any], replay: RoundReplay, position: int) -> Checkpoint:
    """The checkpoint the replay proved its events under, where it covers `position` (the
    exporter's key events too); else the first that covers `position`."""
    proved = replay.seal.checkpoint if replay.seal is not None else None
    if proved is not None and proved.position >= position:
        row = conn.execute("SELECT statement, signature FROM ledger_seal_checkpoints "
                           "WHERE size = %s", (proved.size,)).fetchone()
        if row is not None:
            return Checkpoint.from_statement(bytes(row[0]), bytes(row[1]))
    return _checkpoint_covering(conn, position)


def _cosignatures(conn: Connection[Any], size: int) -> list[str]:
    """The witnesses' cosignature lines of the checkpoint at `size` events, by witness."""
    return [str(line).rstrip("\n") for (line,) in conn.execute(
        "SELECT cosignature FROM ledger_seal_cosignatures WHERE size = %s ORDER BY witness",
        (size,))]


def export_round(conn: Connection[Any], rid: UUID, exporter: Credential,
                 page: Callable[[RoundReplay], str],
                 seal: SealTrust | None = None,
                 warn: Callable[[str], None] = lambda line: None) -> dict[str, Any]:
    """The bundle; each event's audit path from the seal's stored tiles, checked against the
    signed root (`warn` is told of a stored tile that had to be read past)."""
    replay = replay_round(conn, rid, seal)
    stream, key_positions = _exporter_positions(conn, exporter)
    used = {evidence.position for evidence in replay.evidence}  # every step's event among them
    positions = sorted(used | set(key_positions))
    checkpoint = _checkpoint_of(conn, replay, positions[-1])
    (seal_public_key,) = conn.execute("SELECT public_key FROM ledger_seal_keys WHERE "
                                      "fingerprint = %s", (checkpoint.key,)).fetchone() or ("",)
    rows = conn.execute(
        "SELECT e.notification_id, e.originator_id, e.originator_version, e.topic, e.state, "
        "l.leaf_index, l.leaf FROM ledger_events e JOIN ledger_seal_leaves l "
        "ON l.position = e.notification_id WHERE e.notification_id = ANY(%s) "
        "ORDER BY e.notification_id", (positions,)).fetchall()
    if len(rows) != len(positions):
        raise DamagedStream("some events the replay read are not in the seal: run "
                            "`ledger verify`.")
    found = audit_paths(conn, checkpoint.size, checkpoint.root, [row[5] for row in rows])
    if found.altered is not None or any(row[5] not in found.paths for row in rows):
        raise DamagedStream(f"the seal's stored leaves do not give the root of the checkpoint "
                            f"at {checkpoint.size} events: run `ledger verify`.")
    for line in found.damaged_tiles:
        warn(f"{line}: the proofs were made from the stored leaves (run `ledger seal repair`)")
    events = []
    for position, stream_id, version, topic, state, index, stored in rows:
        if event_leaf(position, stream_id, version, topic, bytes(state)) != bytes(stored):
            raise DamagedStream(f"the event at position {position} differs from what was "
                                "sealed: run `ledger verify`.")
        events.append({"position": position, "stream_id": str(stream_id), "version": version,
                       "topic": topic, "state": base64.b64encode(bytes(state)).decode("ascii"),
                       "leaf_index": index, "proof": [h.hex() for h in found.paths[index]]})
    content = {
        "round": {"id": str(rid), "table": replay.table, "number": replay.number},
        "checkpoint": {"statement": checkpoint.statement, "signature": checkpoint.signature},
        "cosignatures": _cosignatures(conn, checkpoint.size),
        "seal_public_key": seal_public_key,
        "exporter": {"staff_id": exporter.id, "stream_id": str(stream)},
        "events": events,
        "replay": replay.model_dump(mode="json"),
        "replay_html": page(replay),
    }
    if is_practice(conn):
        content["practice"] = PRACTICE_MARK
    return {"format": FORMAT, "content": content,
            "signature": {"key": exporter.fingerprint,
                          "value": exporter.sign(canonical_json(content))}}
