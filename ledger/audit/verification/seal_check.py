"""Verify the events against the seal: the tree recomputed from the events themselves must give
the root of every signed checkpoint, in the database and in the witness.

Trust comes from outside the database: the sealing public key the verifier is given
(`LEDGER_SEAL_PUBLIC_KEY`, or derived from `LEDGER_SEAL_KEY`) and the witness directory. A
key, a checkpoint row, a leaf or an event an insider rewrote in the database therefore cannot
pass: the signature or the recomputed root gives it away.

Where a checkpoint's root disagrees, the leaves the sealer stored are checked against that
signed root; when they hold, they say exactly what was sealed, and the first position where
the events part from them is named: missing, extra, changed or moved.
"""

from __future__ import annotations

import base64
from collections.abc import Generator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

from psycopg import Connection, sql

from ledger.audit.log.formats import Checkpoint, Witness, event_leaf
from ledger.audit.log.merkle import Frontier, root_of
from ledger.audit.log.tile_store import stored_tiles
from ledger.audit.log.tiles import TILE_HEIGHT, Tile, TileBuilder
from ledger.audit.log.trust import TrustFile
from ledger.audit.seal.sealer import ledger_id
from ledger.audit.verification.record import Reached, WitnessSaw
from ledger.audit.witnesses.quorum import Memories, Memory, cosignatures, cosigners, refusal
from ledger.core import clock, formatting
from ledger.identity.keys import fingerprint
from ledger.infrastructure.database import EVENTS_TABLE

WITNESS_GRACE_SECONDS = 600  # money-safe: how long a new checkpoint may wait for its quorum


@dataclass(frozen=True)
class Leaf:
    position: int
    stream_id: UUID
    version: int
    leaf: bytes

    @property
    def where(self) -> str:
        return f"position {self.position} (stream {self.stream_id} version {self.version})"


@dataclass
class SealReport:
    problems: list[str] = field(default_factory=list)
    checkpoints: int = 0
    sealed: int = 0  # events covered by the last good checkpoint
    unsealed: int = 0  # events after it
    notes: list[str] = field(default_factory=list)
    witnessed: int | None = None  # events under a checkpoint its quorum cosigned (with trust)
    witnesses: int = 0  # witnesses whose memory was compared
    reached: Reached | None = None  # the newest checkpoint that holds, and the tree's frontier
    held: dict[str, WitnessSaw] = field(default_factory=dict)  # what each witness holds
    since: int = 0  # the checkpoint a verification that held had reached (incremental)
    forked: set[str] = field(default_factory=set)  # witnesses whose memory the events part from


def _events(conn: Connection[Any], cursor_name: str,
            after: int | None = None) -> Generator[Leaf, None, None]:
    """The events in position order, after `after`; None: every one, at whatever position
    (one at 0 or below is read, to part from the seal, not passed over)."""
    where = "" if after is None else "WHERE notification_id > %s "
    query = sql.SQL("SELECT notification_id, originator_id, originator_version, topic, state "
                    "FROM {} " + where + "ORDER BY notification_id"
                    ).format(sql.Identifier(EVENTS_TABLE))
    with conn.transaction(), conn.cursor(name=cursor_name, binary=True) as cursor:
        cursor.itersize = 5000
        cursor.execute(query, () if after is None else (after,))
        for position, stream_id, version, topic, state in cursor:
            yield Leaf(position, stream_id, version,
                       event_leaf(position, stream_id, version, topic, bytes(state)))


def _stored_leaves(conn: Connection[Any], size: int) -> list[Leaf]:
    rows = conn.execute("SELECT position, stream_id, version, leaf FROM ledger_seal_leaves "
                        "WHERE leaf_index < %s ORDER BY leaf_index", (size,)).fetchall()
    return [Leaf(p, s, v, bytes(leaf)) for p, s, v, leaf in rows]


def _database_checkpoints(conn: Connection[Any], report: SealReport,
                          since: int = 0) -> dict[int, Checkpoint]:
    found = {}
    rows = conn.execute("SELECT size, position, root, statement, signature "
                        "FROM ledger_seal_checkpoints WHERE size >= %s ORDER BY size",
                        (since,)).fetchall()
    for size, position, root, statement, signature in rows:
        try:
            checkpoint = Checkpoint.from_statement(bytes(statement), bytes(signature))
        except ValueError as error:
            report.problems.append(f"checkpoint row at {size} events: {error}")
            continue
        if (checkpoint.size, checkpoint.position, checkpoint.root) != (
                size, position, bytes(root)):
            report.problems.append(
                f"checkpoint row at {size} events: its columns (position {position}, root "
                f"{bytes(root).hex()[:16]}…) differ from the statement it signed (position "
                f"{checkpoint.position}, root {checkpoint.root.hex()[:16]}…): row edited")
        found[size] = checkpoint
    return found


def _trusted(checkpoints: dict[int, Checkpoint], public_keys: list[str], ledger: str,
             where: str, report: SealReport) -> dict[int, Checkpoint]:
    good = {}
    for size, checkpoint in checkpoints.items():
        key = next((k for k in public_keys if fingerprint(k) == checkpoint.key), None)
        if checkpoint.ledger != ledger:
            report.problems.append(f"{where} checkpoint at {size} events seals ledger "
                                   f"{checkpoint.ledger}, not this one ({ledger})")
        elif key is None:
            report.problems.append(f"{where} checkpoint at {size} events is signed by "
                                   f"{checkpoint.key}, not by a trusted sealing key")
        elif not checkpoint.verifies(key):
            report.problems.append(f"{where} checkpoint at {size} events: the signature does "
                                   "not verify: the statement was altered after signing")
        else:
            good[size] = checkpoint
    return good


def check_seal(conn: Connection[Any], trusted_keys: list[str], witness_root: Path | None,
               *, trust: TrustFile | None = None, memories: Memories | None = None,
               grace: float = WITNESS_GRACE_SECONDS,  # money-safe: seconds
               since: Reached | None = None,
               witnesses_saw: dict[str, WitnessSaw] | None = None) -> SealReport:
    """Every check against the seal; `witness_root` holds one folder per ledger id. With a
    trust file, the ledger is the one it names (never the database's word), and every
    witness's memory must be a checkpoint of these events.

    `since`: the checkpoint a verification that held reached, and its frontier: only the
    events after it are read, extending that tree, so every newer checkpoint's root is proven
    to extend the one verified (`witnesses_saw`: what each witness held then)."""
    report = SealReport(since=since.size if since else 0)
    memories = memories or Memories()
    report.problems.extend(memories.problems)
    report.notes.extend(memories.notes)
    report.witnesses = len({m.witness for m in memories.held})
    report.held = {m.witness: WitnessSaw(size=m.size, root=base64.b64encode(m.root).decode())
                   for m in memories.held}
    found = conn.execute("SELECT to_regclass('ledger_seal_state')").fetchone()
    if not found or not found[0]:
        report.notes.append("no seal: this database has no seal tables (run `ledger db init`)")
        return report
    ledger = str(trust.ledger) if trust is not None else ledger_id(conn)
    witness = Witness(witness_root / ledger) if witness_root is not None else None
    stored_keys = [k for (k,) in conn.execute("SELECT public_key FROM ledger_seal_keys")]
    if trusted_keys:
        for key in stored_keys:
            if key not in trusted_keys:
                report.problems.append(
                    f"the database holds sealing key {fingerprint(key)}, which is not the "
                    "trusted one (LEDGER_SEAL_PUBLIC_KEY): replaced or added behind the sealer")
    else:
        trusted_keys = stored_keys
        report.notes.append("no sealing public key configured: checkpoints are checked against "
                            "the key the database holds (set LEDGER_SEAL_PUBLIC_KEY)")
    floor = since.size if since else 0
    in_database = _trusted(_database_checkpoints(conn, report, floor), trusted_keys, ledger,
                           "database", report)
    in_witness: dict[int, Checkpoint] = {}
    if witness is not None:
        readable = {}
        for size, item in witness.all(floor).items():
            if isinstance(item, ValueError):
                report.problems.append(f"the witness folder: {item}")
            else:
                readable[size] = item
        in_witness = _trusted(readable, trusted_keys, ledger, "the witness folder's", report)
        _compare_copies(in_database, in_witness, readable, witness, report)
    checkpoints = {**in_database, **in_witness}
    report.checkpoints = len(checkpoints)
    (signed_up_to,) = conn.execute("SELECT checkpointed_size FROM ledger_seal_state"
                                   ).fetchone() or (0,)
    if signed_up_to > max(checkpoints, default=0):
        report.problems.append(f"the sealer signed a checkpoint at {signed_up_to} events, which "
                               "neither the database nor the witness folder holds: deleted")
    held = list(memories.held)
    if since is not None:
        held = _since(since, checkpoints, held, witnesses_saw or {}, report)
    _recompute(conn, checkpoints, report, held, since)
    for memory in held:
        if memory.size and memory.size not in checkpoints:
            report.problems.append(
                f"witness {memory.witness} cosigned a checkpoint at {memory.size:,} events "
                f"({memory.source}) that the database does not hold: deleted, or the seal "
                "was reset")
    if trust is not None:
        _quorum(conn, trust, checkpoints, report, grace, memories.held)
    return report


def _quorum(conn: Connection[Any], trust: TrustFile, checkpoints: dict[int, Checkpoint],
            report: SealReport, grace: float,  # money-safe: seconds
            held: Sequence[Memory] = ()) -> None:
    """Which checkpoints the witnesses' quorum cosigned; the newest must have it once it is
    older than the grace a witness's round trip and a short outage need. Only a witness that
    has not answered is waited for: one whose memory the newest checkpoint does not extend
    will never cosign it, and is named at once."""
    if not trust.witnesses:
        report.notes.append("the trust file names no witnesses: the seal is the sealing "
                            "key's word alone")
        report.witnessed = report.sealed
        return
    lines = cosignatures(conn)
    witnessed = 0
    for size in sorted(checkpoints):
        checkpoint = checkpoints[size]
        names = cosigners(trust, trust.origin, size, checkpoint.root, lines.get(size, []))
        if len(names) >= trust.quorum:
            witnessed = size
    report.witnessed = min(witnessed, report.sealed) if report.sealed else witnessed
    if not checkpoints:
        return
    newest = checkpoints[max(checkpoints)]
    if newest.size > witnessed:
        names = cosigners(trust, trust.origin, newest.size, newest.root,
                          lines.get(newest.size, []))
        age = clock.now().timestamp() - newest.when.timestamp()
        said = (f"the newest checkpoint ({newest.size:,} events, sealed {formatting.when(newest.when)}) "
                f"has {len(names)} of the {trust.quorum} cosignature{'s' * (trust.quorum != 1)} its quorum needs")
        refusing = [refusal(memory, newest, report.forked) for memory in held
                    if memory.witness not in names]
        if any(refusing):
            report.problems.append(f"{said}: {'; '.join(r for r in refusing if r)}")
        elif age > grace:
            report.problems.append(f"{said}: not witnessed {age / 60:.0f} min after sealing")
        else:
            report.notes.append(f"{said}: awaiting its witnesses")


def _compare_copies(in_database: dict[int, Checkpoint], in_witness: dict[int, Checkpoint],
                    readable: dict[int, Checkpoint], witness: Witness,
                    report: SealReport) -> None:
    for size in sorted(in_database.keys() - readable.keys()):
        report.problems.append(f"checkpoint at {size} events is missing from the witness folder "
                               f"({witness.path(size)}): deleted?")
    for size in sorted(in_witness.keys() - in_database.keys()):
        report.problems.append(f"the witness folder holds checkpoint at {size} events, which the "
                               "database does not: its row was deleted")
    for size in sorted(in_database.keys() & in_witness.keys()):
        if in_database[size] != in_witness[size]:
            report.problems.append(f"checkpoint at {size} events differs between the database "
                                   "and the witness folder")


def _since(since: Reached, checkpoints: dict[int, Checkpoint], held: list[Memory],
           saw: dict[str, WitnessSaw], report: SealReport) -> list[Memory]:
    """The checkpoint the last verification reached must still be the database's, and no
    witness may now hold less than it did then; the memories at or below that size are
    settled here, the rest left for the recomputation."""
    reached = checkpoints.get(since.size)
    if reached is None:
        report.problems.append(
            f"the checkpoint at {since.size:,} events, which the last verification reached, is "
            "no longer held (database or witness folder): deleted, or the seal was reset")
    elif reached.root != base64.b64decode(since.root) or reached.position != since.position:
        report.problems.append(
            f"the checkpoint at {since.size:,} events is not the one the last verification "
            "reached (another root or position): the seal was reset or forked")
    later = []
    for memory in held:
        before = saw.get(memory.witness)
        if before is not None and memory.size < before.size:
            report.problems.append(
                f"witness {memory.witness} now holds {memory.size:,} events ({memory.source}); "
                f"at the last verification it held {before.size:,}: its memory was rolled back")
        elif before is not None and memory.size == before.size and \
                memory.root != base64.b64decode(before.root):
            report.problems.append(
                f"witness {memory.witness} holds another root at {memory.size:,} events than at "
                "the last verification: its memory was replaced")
        elif memory.size == since.size and memory.root != base64.b64decode(since.root):
            report.problems.append(
                f"witness {memory.witness} cosigned {memory.size:,} events with root "
                f"{memory.root.hex()[:16]}…; the last verification reached that size with "
                "another root: the history was rewritten or forked")
        elif memory.size > since.size:
            later.append(memory)
        elif memory.size < since.size and before is None:
            report.notes.append(
                f"witness {memory.witness} holds {memory.size:,} events, fewer than the "
                f"{since.size:,} verified before, and the last verification did not consult it: "
                "`ledger verify --full` compares it")
    return later


def _recompute(conn: Connection[Any], checkpoints: dict[int, Checkpoint],
               report: SealReport, held: Sequence[Memory] = (),
               since: Reached | None = None) -> None:
    sizes = sorted(size for size in checkpoints if since is None or size > since.size)
    remembered = sorted(held, key=lambda memory: memory.size)
    frontier = since.restore() if since is not None else Frontier()
    last: Leaf | None = None
    parted: Checkpoint | None = None
    if since is not None:
        report.sealed = since.size
        report.reached = since
    while remembered and remembered[0].size == 0:
        remembered.pop(0)
    builder, built = TileBuilder(), {}
    after = since.position if since is not None else None
    with closing(_events(conn, "ledger_seal_recompute", after)) as events:
        for leaf in events:
            frontier.append(leaf.leaf)
            last = leaf
            if since is None:  # tiles are built from the first leaf
                for level, index, blob in builder.append(leaf.leaf):
                    built[(level, index)] = blob
            while remembered and remembered[0].size == frontier.size:
                memory = remembered.pop(0)
                if frontier.root() != memory.root:
                    report.forked.add(memory.witness)
                    report.problems.append(
                        f"witness {memory.witness} cosigned {memory.size:,} events with root "
                        f"{memory.root.hex()[:16]}… ({memory.source}); the events give "
                        f"{frontier.root().hex()[:16]}… at that size: the history was "
                        "rewritten or forked")
            while sizes and sizes[0] == frontier.size:
                checkpoint = checkpoints[sizes.pop(0)]
                if not _holds(checkpoint, frontier, last):
                    parted = checkpoint
                    break
                report.sealed = checkpoint.size
                report.reached = Reached.of(frontier, checkpoint.position)
            if parted is not None:
                break
    if since is None:
        _check_tiles(conn, built, report)
    for memory in remembered if parted is None else ():  # the events stop short of it
        report.problems.append(
            f"witness {memory.witness} cosigned a checkpoint at {memory.size:,} events "
            f"({memory.source}); the database holds {frontier.size:,}: truncated, or reset")
    if parted is None and sizes:  # the events stop short of a checkpoint: some were deleted
        parted = checkpoints[sizes[0]]
    if parted is not None:
        report.problems.append(
            f"the events part from the checkpoint at {parted.size:,} events (position "
            f"{parted.position:,}, sealed {formatting.when(parted.when)}): {_first_difference(conn, parted)}")
        return
    report.unsealed = frontier.size - report.sealed


def _check_tiles(conn: Connection[Any], built: dict[Tile, bytes], report: SealReport) -> None:
    """Each stored tile under the last good checkpoint is the one the events give (past it,
    events that part from the seal are named already). A full verification's: an incremental
    one reads only the events after the checkpoint it resumes from, and proves what it reads
    against the signed roots, tiles or none."""
    for (level, index), blob in sorted(stored_tiles(conn).items()):
        if (index + 1) << (TILE_HEIGHT * (level + 1)) <= report.sealed and built.get(
                (level, index)) != blob:
            report.problems.append(
                f"stored tile level {level} index {index} does not match the events: proofs "
                "read past it to the leaves (`ledger seal repair` names it)")


def _holds(checkpoint: Checkpoint, frontier: Frontier, last: Leaf | None) -> bool:
    position = last.position if last else 0
    return (frontier.size == checkpoint.size and frontier.root() == checkpoint.root
            and position == checkpoint.position)


def _first_difference(conn: Connection[Any], checkpoint: Checkpoint) -> str:
    sealed = _stored_leaves(conn, checkpoint.size)
    if len(sealed) != checkpoint.size or root_of([s.leaf for s in sealed]) != checkpoint.root:
        return ("the sealer's stored leaves do not match the signed root either (altered too), "
                f"so the damage is somewhere at or before position {checkpoint.position}")
    sealed_at = {(s.stream_id, s.version): s for s in sealed}
    positions = {s.position for s in sealed}
    now = [leaf for leaf in _events(conn, "ledger_seal_diagnose")
           if leaf.position <= checkpoint.position]
    now_keys = {(n.stream_id, n.version) for n in now}
    now_positions = {n.position for n in now}
    for index in range(max(len(sealed), len(now))):
        was = sealed[index] if index < len(sealed) else None
        is_ = now[index] if index < len(now) else None
        if was is not None and is_ is not None and was == is_:
            continue
        if is_ is None or (was is not None and was.position not in now_positions
                           and (was.stream_id, was.version) not in now_keys):
            assert was is not None
            return f"missing: {was.where} is gone"
        if is_.position not in positions and (is_.stream_id, is_.version) not in sealed_at:
            return f"extra: {is_.where} was not there when sealed"
        moved_from = sealed_at.get((is_.stream_id, is_.version))
        if moved_from is not None and moved_from.position != is_.position:
            return (f"moved: position {is_.position} holds stream {is_.stream_id} version "
                    f"{is_.version}, sealed at position {moved_from.position}")
        return f"changed: {is_.where} differs from what was sealed"
    return "the events after the checkpoint's position were renumbered into it"
