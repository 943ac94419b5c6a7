"""What the witnesses remember, and whether the database's checkpoints carry their quorum.

A witness (`ledger witness serve`) keeps, for each ledger's origin, the newest checkpoint it
cosigned, and cosigns a newer one only with a consistency proof from it: it never forgets and
never goes back. `ledger verify --trust FILE` asks each witness the trust file names (live, at
its address, or from a file its operator exported with `ledger witness export`) for that
memory, checks the witness's cosignature under the key the trust file gives, and hands the
(size, root) pairs to the seal check, which recomputes the tree from the events: a database
whose history does not extend every witness's newest checkpoint was reset, truncated,
rewritten or forked, and is named.

Each checkpoint the sealer signed keeps the witnesses' cosignatures it collected
(`ledger_seal_cosignatures`); a checkpoint counts as witnessed when `quorum` of the trusted
witnesses cosigned it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from psycopg import Connection

from ledger.audit.log.note import (
    Note,
    NoteError,
    checkpoint_body,
    cosigned_at,
    parse_checkpoint,
    parse_note,
    parse_signature_lines,
)
from ledger.audit.log.trust import TrustedWitness, TrustFile

if TYPE_CHECKING:
    from ledger.audit.log.formats import Checkpoint


@dataclass(frozen=True)
class Memory:
    """The newest checkpoint one witness cosigned for this ledger."""

    witness: str
    size: int
    root: bytes
    cosigned_at: int  # Unix seconds, as the witness signed it
    source: str  # "live at <url>" or the exported file


@dataclass
class Memories:
    held: list[Memory] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def read_memory(witness: TrustedWitness, text: str, origin: str, source: str) -> Memory:
    """A witness's answer (the cosigned checkpoint note) checked under its trusted key."""
    note = parse_note(text)
    head = parse_checkpoint(note.text)
    if head.origin != origin:
        raise NoteError(f"it answers for origin {head.origin}, not {origin}")
    when = cosigned_at(note, witness.name, witness.public_key)
    if when is None:
        raise NoteError(f"it carries no cosignature of {witness.name} that verifies under the "
                        "trusted key")
    return Memory(witness.name, head.size, head.root, when, source)


def gather(trust: TrustFile, exported: list[Path], *, live: bool = True,
           timeout: float = 5.0) -> Memories:  # money-safe: seconds
    """Every trusted witness's memory of this ledger: from the exported files given, else
    asked live at its address."""
    from ledger.audit.witnesses import client as witness_client

    found = Memories()
    files = {}
    for path in exported:
        try:
            files.update(_exported(path))
        except (OSError, ValueError) as error:
            found.problems.append(f"witness state {path} cannot be read: {error}")
    origin = trust.origin
    for witness in trust.witnesses:
        text, source = files.get((witness.name, origin)), "exported"
        if text is None and live and witness.url:
            source = f"live at {witness.url}"
            try:
                text = witness_client.latest(witness.url, origin, timeout=timeout)
            except witness_client.WitnessUnreachable as error:
                found.notes.append(
                    f"witness {witness.name} could not be reached at {error.url} "
                    f"({error.reason}): its memory was not compared; start it, or give its "
                    "exported memory (`ledger witness export`) with --witness-state FILE")
                continue
            except witness_client.WitnessError as error:
                found.notes.append(f"witness {witness.name} did not answer ({error}): its "
                                   "memory was not compared")
                continue
            if text is None:
                found.notes.append(f"witness {witness.name} holds no checkpoint of this ledger")
                continue
        if text is None:
            found.notes.append(f"witness {witness.name}: no exported state and no address: "
                               "its memory was not compared")
            continue
        try:
            found.held.append(read_memory(witness, text, origin, source))
        except NoteError as error:
            found.problems.append(f"witness {witness.name}'s answer ({source}) is not a "
                                  f"checkpoint it cosigned: {error}")
    consulted = {memory.witness for memory in found.held}
    if len(consulted) < max(trust.quorum, 1 if trust.witnesses else 0):
        found.problems.append(
            f"{len(consulted)} of the {len(trust.witnesses)} trusted witnesses were consulted "
            f"and the quorum is {trust.quorum}: the history cannot be proven against memory "
            "kept outside the database")
    return found


def _exported(path: Path) -> dict[tuple[str, str], str]:
    """`ledger witness export`'s file: {"witness": name, "checkpoints": {origin: note}}."""
    data: Any = json.loads(path.expanduser().read_text(encoding="utf-8"))
    name = str(data["witness"])
    return {(name, str(origin)): str(text) for origin, text in data["checkpoints"].items()}


def cosignatures(conn: Connection[Any]) -> dict[int, list[str]]:
    """Each checkpoint's cosignature lines as the sealer collected them."""
    found = conn.execute("SELECT to_regclass('ledger_seal_cosignatures')").fetchone()
    if not found or not found[0]:
        return {}
    rows = conn.execute("SELECT size, cosignature FROM ledger_seal_cosignatures "
                        "ORDER BY size, witness").fetchall()
    lines: dict[int, list[str]] = {}
    for size, line in rows:
        lines.setdefault(int(size), []).append(str(line))
    return lines


def cosigners(trust: TrustFile, origin: str, size: int, root: bytes,
              lines: list[str]) -> list[str]:
    """The trusted witnesses whose cosignature of this checkpoint verifies."""
    body = checkpoint_body(origin, size, root)
    try:
        signatures = parse_signature_lines("".join(line.rstrip("\n") + "\n" for line in lines))
    except NoteError:
        return []
    note = Note(body, signatures)
    return [w.name for w in trust.witnesses
            if cosigned_at(note, w.name, w.public_key) is not None]


def refusal(memory: Memory, newest: Checkpoint, forked: set[str]) -> str:
    """Why a witness that answered will never cosign the newest checkpoint ("" when it may
    yet): it holds another root at its size, more events than it, or a checkpoint the events
    part from (`forked`)."""
    if memory.size == newest.size and memory.root != newest.root:
        return (f"witness {memory.witness} holds another root at {memory.size:,} events "
                f"({memory.source}) and will not cosign it: a fork")
    if memory.size > newest.size:
        return (f"witness {memory.witness} holds {memory.size:,} events ({memory.source}), "
                "more than it, and will not cosign it: truncated, reset or forked")
    if memory.witness in forked:
        return (f"witness {memory.witness} holds a checkpoint at {memory.size:,} events "
                f"({memory.source}) that the events part from, and will not cosign it: a fork")
    return ""
