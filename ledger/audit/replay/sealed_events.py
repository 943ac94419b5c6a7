"""Whether the events a replay used are the events the seal signed.

A superuser can rewrite an event and recompute its stream's hash chain, so the chain alone
proves nothing against the database's keeper. The seal (`ledger.audit.seal.sealer`) signed, with a
key that never enters the database, the root of an RFC 6962 tree over every event in global
order. `sealed_events` takes the newest checkpoint a trusted sealing key signed, recomputes
each event's leaf from the row as stored now, and proves it at its place in the signed tree
with an inclusion proof built from the seal's stored tiles and leaves
(`ledger.audit.log.tile_store`), whose root must be the signed one: a stored leaf altered is named as such, an event changed after sealing is
named by stream, version and position, and events after the checkpoint are not yet sealed
(named, not a discrepancy). The checkpoint's witness cosignatures are counted against the
trust file's witnesses when one is given.

A replay that reads signs nothing, so the signature and hashing modules (and `cryptography`)
are imported only when a checkpoint is checked.

Cost: a stored tile or two per level of the tree and the hashes after the last full tile of
each level, whatever the log's length; every stored leaf is read only when the path of a
stored leaf fails, to tell a damaged tile (named in the sentence, the events then proven from
the leaves) from stored leaves altered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any
from uuid import UUID

from psycopg import Connection
from pydantic import Field

from ledger.audit.log.trust import TrustFile
from ledger.audit.replay.check import Frozen
from ledger.audit.replay.store import RecordedEvent
from ledger.core.formatting import minute

if TYPE_CHECKING:
    from ledger.audit.log.formats import Checkpoint


@dataclass(frozen=True)
class SealTrust:
    """What the replay is given from outside the database: the sealing public keys whose
    checkpoints count, and the trust file (its witnesses and quorum), if any."""

    keys: tuple[str, ...] = ()
    trust: TrustFile | None = None

    @classmethod
    def of(cls, trust: TrustFile | None, keys: Sequence[str]) -> SealTrust:
        """The trust file's sealing key when a file is given, else the keys from settings."""
        return cls((trust.seal_public_key,) if trust else tuple(keys), trust)


class SealStatus(StrEnum):
    SEALED = "sealed"  # every event proven under the checkpoint
    PARTLY_SEALED = "partly sealed"  # the rest came after it: not yet sealed
    NOT_YET_SEALED = "not yet sealed"  # all came after the newest checkpoint
    DIFFERS = "differs"  # an event, or the stored leaves, differ from what was signed
    NO_CHECKPOINT = "no checkpoint"  # none signed by a trusted key
    NO_TRUSTED_KEY = "no trusted key"  # nothing to check against


class SealProblem(Frozen):
    """An event, or the seal's stored leaves, not as signed."""

    stream: str = Field(description="round, shoe, pool, or seal for the stored leaves")
    stream_id: UUID | None
    version: int | None
    position: int | None
    event: str | None
    field: str = Field(description="sealed leaf, stored leaves or ledger")
    recorded: str
    recomputed: str


class SealedCheckpoint(Frozen):
    size: int = Field(description="events in the signed tree")
    position: int = Field(description="the global position of its last event")
    root: str = Field(description="hex of the signed root")
    signed_at: datetime
    key: str = Field(description="fingerprint of the sealing key that signed it")
    cosigned_by: list[str] | None = Field(
        description="trusted witnesses whose cosignature verifies (None: no trust file)")
    witnesses: int | None
    quorum: int | None


class SealCheck(Frozen):
    status: SealStatus
    sentence: str = Field(description="what a surveillance officer reads")
    checkpoint: SealedCheckpoint | None
    checked: int = Field(description="events the replay used")
    sealed: int = Field(description="of them, proven in the signed tree")
    not_yet_sealed: list[int] = Field(description="positions after the checkpoint")
    problems: list[SealProblem]
    notes: list[str] = Field(
        default_factory=list,
        description="stored tiles a proof read past to the leaves: the events are proven, "
                    "the seal's stored tiles were altered")
    streams: list[str] = Field(
        default_factory=list,
        description="whose events were checked: round, shoe, pool (a bundle carries the same)")


STREAMS = ("round", "shoe", "pool")


def events_of(count: int, streams: Sequence[str]) -> str:
    """`127 events of the round and its shoe`: how many events a replay used, and whose (the
    replay's check, its seal line and an evidence bundle count the same ones)."""
    whose = [f"its {stream}" for stream in STREAMS[1:] if stream in streams]
    said = "the round" + ("" if not whose else f" and {whose[0]}" if len(whose) == 1 else
                          f", {', '.join(whose[:-1])} and {whose[-1]}")
    return f"{count:,} event{'' if count == 1 else 's'} of {said}"


def sealed_events(conn: Connection[Any], events: Sequence[RecordedEvent],
                  streams: dict[UUID, str], given: SealTrust) -> SealCheck:
    """Each event proven, from the row as stored now, in the newest tree a trusted key signed."""
    unique = sorted({(e.stream_id, e.version): e for e in events}.values(),
                    key=lambda e: e.position)
    whose = [stream for stream in STREAMS
             if stream in {streams.get(e.stream_id) for e in unique}]
    if not given.keys:
        return SealCheck(status=SealStatus.NO_TRUSTED_KEY, checkpoint=None, checked=len(unique),
                         sealed=0, not_yet_sealed=[], problems=[], streams=whose, sentence=(
                             "seal not checked: no trusted sealing key was given (--trust, "
                             "LEDGER_TRUST_FILE, LEDGER_SEAL_PUBLIC_KEY or LEDGER_SEAL_KEY)"))
    checkpoint = newest_signed(conn, given.keys)
    if checkpoint is None:
        return SealCheck(status=SealStatus.NO_CHECKPOINT, checkpoint=None, checked=len(unique),
                         sealed=0, not_yet_sealed=[e.position for e in unique], problems=[],
                         streams=whose,
                         sentence="not yet sealed: no checkpoint signed by a trusted sealing "
                                  "key (run `ledger seal run`)")
    view = _view(conn, checkpoint, given.trust)
    covered = [e for e in unique if e.position <= checkpoint.position]
    later = [e.position for e in unique if e.position > checkpoint.position]
    problems = _ledger_problems(checkpoint, given.trust)
    notes: list[str] = []
    if covered:
        proven_problems, notes = _prove(conn, checkpoint, covered, streams)
        problems += proven_problems
    if later:
        problems += _moved_out(conn, checkpoint, [e for e in unique if e.position in later],
                               streams)
    named = {problem.position for problem in problems}
    later = [position for position in later if position not in named]
    proven = ([] if any(p.field in ("stored leaves", "ledger") for p in problems)
              else [e for e in covered if e.position not in named])
    status = (SealStatus.DIFFERS if problems else SealStatus.NOT_YET_SEALED if not covered
              else SealStatus.PARTLY_SEALED if later else SealStatus.SEALED)
    check = SealCheck(status=status, checkpoint=view, checked=len(unique), sealed=len(proven),
                      not_yet_sealed=later, problems=problems, notes=notes, streams=whose,
                      sentence="")
    return check.model_copy(update={"sentence": sentence(check)})


def newest_signed(conn: Connection[Any], keys: Sequence[str]) -> Checkpoint | None:
    """The newest checkpoint row whose statement one of `keys` signed; rows no trusted key
    signed (forged, or of a key since replaced) are passed over."""
    from ledger.audit.log.formats import Checkpoint

    found = conn.execute("SELECT to_regclass('ledger_seal_checkpoints')").fetchone()
    if not found or not found[0]:
        return None  # a ledger made before the seal: nothing was ever sealed
    rows = conn.execute("SELECT statement, signature FROM ledger_seal_checkpoints "
                        "ORDER BY size DESC")
    for statement, signature in rows:
        try:
            checkpoint = Checkpoint.from_statement(bytes(statement), bytes(signature))
        except ValueError:
            continue
        if any(checkpoint.verifies(key) for key in keys):
            return checkpoint
    return None


def _view(conn: Connection[Any], checkpoint: Checkpoint,
          trust: TrustFile | None) -> SealedCheckpoint:
    from ledger.audit.witnesses.quorum import cosigners

    signed_by: list[str] | None = None
    if trust is not None:
        lines = [str(line) for (line,) in conn.execute(
            "SELECT cosignature FROM ledger_seal_cosignatures WHERE size = %s ORDER BY witness",
            (checkpoint.size,))]
        signed_by = cosigners(trust, trust.origin, checkpoint.size, checkpoint.root, lines)
    return SealedCheckpoint(
        size=checkpoint.size, position=checkpoint.position, root=checkpoint.root.hex(),
        signed_at=checkpoint.when, key=checkpoint.key, cosigned_by=signed_by,
        witnesses=len(trust.witnesses) if trust else None,
        quorum=trust.quorum if trust else None)


def _ledger_problems(checkpoint: Checkpoint, trust: TrustFile | None) -> list[SealProblem]:
    from ledger.audit.log.note import origin_of

    if trust is None or checkpoint.ledger == str(trust.ledger):
        return []
    return [SealProblem(stream="seal", stream_id=None, version=None, position=None, event=None,
                        field="ledger",
                        recorded=f"checkpoint of ledger {checkpoint.ledger}",
                        recomputed=f"the trust file names ledger {trust.ledger} "
                                   f"({origin_of(str(trust.ledger))})")]


def _prove(conn: Connection[Any], checkpoint: Checkpoint, covered: list[RecordedEvent],
           streams: dict[UUID, str]) -> tuple[list[SealProblem], list[str]]:
    """Each covered event's leaf, recomputed, proven at its index under the signed root; and
    the stored tiles named that a proof had to read past (`ledger.audit.log.tile_store`).

    The paths come from the stored tiles, each checked with its stored leaf against the signed
    root; an event whose recomputed leaf is not the stored one that reaches the root was
    changed after sealing. Only when a stored leaf's path fails are every stored leaf read,
    to tell a damaged tile (named, the proofs then made from the leaves) from stored leaves
    altered (then nothing can be proven from them)."""
    from ledger.audit.log.formats import event_leaf
    from ledger.audit.log.merkle import verify_inclusion
    from ledger.audit.log.tile_store import audit_paths

    indices = dict(conn.execute(
        "SELECT position, leaf_index FROM ledger_seal_leaves WHERE position = ANY(%s) "
        "AND leaf_index < %s", ([e.position for e in covered], checkpoint.size)).fetchall())
    found = audit_paths(conn, checkpoint.size, checkpoint.root, list(indices.values()))
    if found.altered is not None:
        return [_leaves_altered(checkpoint, *found.altered)], []
    problems = []
    for event in covered:
        leaf = event_leaf(event.position, event.stream_id, event.version, event.topic,
                          event.state)
        index = indices.get(event.position)
        if index is not None and verify_inclusion(leaf, index, checkpoint.size,
                                                  found.paths[index], checkpoint.root):
            continue
        problems.append(SealProblem(
            stream=streams.get(event.stream_id, "?"), stream_id=event.stream_id,
            version=event.version, position=event.position, event=event.event_type,
            field="sealed leaf",
            recorded=(f"leaf {found.stored[index].hex()[:16]} sealed at index {index:,}"
                      if index is not None else
                      f"no leaf sealed at position {event.position}"),
            recomputed=(f"{leaf.hex()[:16]} from the event as stored: it differs from what was "
                        f"sealed under checkpoint {checkpoint.size:,} events (changed after "
                        "sealing)" if index is not None else
                        f"the event is at a position the seal never saw under checkpoint "
                        f"{checkpoint.size:,} events (inserted or moved after sealing)")))
    return problems, found.damaged_tiles


def _leaves_altered(checkpoint: Checkpoint, count: int, root: bytes) -> SealProblem:
    return SealProblem(
        stream="seal", stream_id=None, version=None, position=None, event=None,
        field="stored leaves",
        recorded=f"root {root.hex()[:16]} over the {count:,} stored leaves",
        recomputed=f"root {checkpoint.root.hex()[:16]} signed at checkpoint "
                   f"{checkpoint.size:,} events: the seal's stored leaves were altered, so no "
                   "event of this round can be proven from them (run `ledger verify`)")


def _moved_out(conn: Connection[Any], checkpoint: Checkpoint, later: list[RecordedEvent],
               streams: dict[UUID, str]) -> list[SealProblem]:
    """Events past the checkpoint that the stored leaves say were sealed under it, elsewhere:
    moved out of the sealed history to pass for not yet sealed."""
    rows = conn.execute(
        "SELECT stream_id, version, position FROM ledger_seal_leaves WHERE leaf_index < %s "
        "AND stream_id = ANY(%s)", (checkpoint.size, list({e.stream_id for e in later}))
    ).fetchall()
    sealed_at = {(stream_id, version): position for stream_id, version, position in rows}
    problems = []
    for event in later:
        was = sealed_at.get((event.stream_id, event.version))
        if was is None:
            continue
        problems.append(SealProblem(
            stream=streams.get(event.stream_id, "?"), stream_id=event.stream_id,
            version=event.version, position=event.position, event=event.event_type,
            field="sealed position", recorded=f"sealed at position {was}",
            recomputed=f"now at position {event.position}, after checkpoint "
                       f"{checkpoint.size:,} events: moved after sealing"))
    return problems


def witnessed(view: SealedCheckpoint) -> str:
    """`cosigned by 2 of 2 witnesses (quorum 2)`, or that they were not checked."""
    if view.cosigned_by is None:
        return "witnesses not checked (no trust file)"
    quorum = view.quorum or 0
    text = (f"cosigned by {len(view.cosigned_by)} of {view.witnesses} witnesses "
            f"(quorum {quorum})")
    return text if len(view.cosigned_by) >= quorum else f"{text}: not yet witnessed"


def sentence(check: SealCheck) -> str:
    """The seal's line, in the words a surveillance officer reads; a damaged stored tile,
    which proves nothing either way, is named after it."""
    said = _verdict(check)
    if check.notes:
        said += (f" (proven from the stored leaves: {'; '.join(check.notes)}; run "
                 "`ledger seal repair`)")
    return said


def _verdict(check: SealCheck) -> str:
    view = check.checkpoint
    if view is None:
        return check.sentence
    under = (f"checkpoint {view.size:,} events, signed {minute(view.signed_at)}, "
             f"{witnessed(view)}")
    if check.status is SealStatus.DIFFERS:
        return (f"NOT as sealed under {under}: "
                + "; ".join(describe(p) for p in check.problems))
    if check.status is SealStatus.NOT_YET_SEALED:
        return (f"not yet sealed: all {check.checked} events (positions "
                f"{_positions(check.not_yet_sealed)}) came after the newest checkpoint "
                f"({view.size:,} events, signed {minute(view.signed_at)})")
    if check.status is SealStatus.PARTLY_SEALED:
        return (f"{check.sealed} of {events_of(check.checked, check.streams)} sealed under "
                f"the newest checkpoint a trusted key signed, {under}; "
                f"{len(check.not_yet_sealed)} not yet sealed (positions "
                f"{_positions(check.not_yet_sealed)})")
    return (f"sealed under {under}: all {events_of(check.checked, check.streams)} proven in "
            "the signed tree of the newest checkpoint a trusted key signed")


def describe(problem: SealProblem) -> str:
    if problem.stream_id is None:
        return f"{problem.recorded}, but {problem.recomputed}"
    what = (f"was {problem.recorded} and has moved" if problem.field == "sealed position"
            else "is not the sealed event")
    return (f"{problem.stream} stream {problem.stream_id} version {problem.version} (position "
            f"{problem.position}, {problem.event}) {what}")


def _positions(positions: list[int]) -> str:
    shown = ", ".join(str(p) for p in positions[:8])
    return shown + (f" and {len(positions) - 8} more" if len(positions) > 8 else "")
