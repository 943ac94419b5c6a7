"""The seal's formats: what a leaf covers, what a checkpoint says and signs, and the witness.

A **leaf** is one event, in the global order, as these bytes (hashed as an RFC 6962 leaf):

    position (int8) || stream id (16 bytes) || version (int8)
    || length of topic (int4) || topic (UTF-8) || state (the event's JSON body)

so moving, changing, adding or removing an event changes the leaves, and so every root after it.

A **checkpoint** is a signed statement, canonical JSON (keys sorted, no spaces):

    {"protocol": "round-ledger/checkpoint/1", "ledger": "<the ledger's id>",
     "size": 1234, "position": 1240,
     "root": "<hex of the tree root over the first `size` leaves>",
     "sealed_at": "2026-11-22T13:05:00Z", "key": "ed25519:<fingerprint>"}

signed with Ed25519 by the sealing key, whose private half never enters the database.

The ledger's id is a random UUID `ledger db init` draws once, so a checkpoint of one ledger
never passes for another's. The **witness** is an append-only directory outside the database,
one folder per ledger id and in it one file per checkpoint, `checkpoint-000000001234.json`,
holding `{"statement": {...}, "signature": "<base64>"}`.
Files are created exclusively and never rewritten, so an operator can rsync them to a
regulator or another site, and anyone holding the public key can check them with nothing but
the standard library and `cryptography`.
"""

from __future__ import annotations

import base64
import json
import os
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from psycopg import Connection

from ledger.audit.bundle_verify import leaf_hash
from ledger.core.errors import WrongState
from ledger.identity.keys import canonical_json, fingerprint, verify

PROTOCOL = "round-ledger/checkpoint/1"
WITNESS_PREFIX = "checkpoint-"


def event_leaf(position: int, stream_id: uuid.UUID, version: int, topic: str,
               state: bytes) -> bytes:
    """The event's leaf hash, by the standalone verifier's own function (one definition)."""
    return leaf_hash(position, str(stream_id), version, topic, state)


@dataclass(frozen=True)
class Checkpoint:
    """One signed tree head."""

    ledger: str
    size: int
    position: int
    root: bytes
    sealed_at: str  # ISO 8601, UTC, as signed
    key: str  # the sealing key's fingerprint
    signature: str  # base64

    @property
    def statement(self) -> dict[str, Any]:
        return {"protocol": PROTOCOL, "ledger": self.ledger, "size": self.size,
                "position": self.position, "root": self.root.hex(),
                "sealed_at": self.sealed_at, "key": self.key}

    @property
    def signed_bytes(self) -> bytes:
        return canonical_json(self.statement)

    def verifies(self, public_key: str) -> bool:
        return fingerprint(public_key) == self.key and verify(
            public_key, self.signature, self.signed_bytes)

    @property
    def when(self) -> datetime:
        return datetime.fromisoformat(self.sealed_at)

    def to_json(self) -> str:
        return json.dumps({"statement": self.statement, "signature": self.signature},
                          sort_keys=True, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str) -> Checkpoint:
        try:
            data = json.loads(text)
            statement, signature = data["statement"], data["signature"]
            if statement["protocol"] != PROTOCOL:
                raise ValueError(statement["protocol"])
            return cls(str(statement["ledger"]), int(statement["size"]), int(statement["position"]),
                       bytes.fromhex(statement["root"]), str(statement["sealed_at"]),
                       str(statement["key"]), str(signature))
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{where} is not a {PROTOCOL} checkpoint ({error})") from None

    @classmethod
    def from_statement(cls, statement_bytes: bytes, signature: bytes) -> Checkpoint:
        """From what the database keeps: the exact signed bytes and the raw signature."""
        text = json.dumps({"statement": json.loads(statement_bytes),
                           "signature": base64.b64encode(signature).decode("ascii")})
        return cls.from_json(text, "a checkpoint row")


class Witness:
    """The append-only directory of checkpoint files."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory.expanduser()

    def path(self, size: int) -> Path:
        return self.directory / f"{WITNESS_PREFIX}{size:012d}.json"

    def write(self, checkpoint: Checkpoint) -> None:
        """Create the checkpoint's file; one that exists already must say the same."""
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.path(checkpoint.size)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            if self.read(checkpoint.size) != checkpoint:
                raise WrongState(f"the witness folder holds another checkpoint at "
                                 f"{checkpoint.size} events ({path}): a checkpoint file is never "
                                 "rewritten, so this history is not the one sealed before")
            return
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(checkpoint.to_json())
            file.flush()
            os.fsync(file.fileno())
        directory_fd = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(directory_fd)
        finally:
            os.close(directory_fd)

    def read(self, size: int) -> Checkpoint | None:
        path = self.path(size)
        if not path.exists():
            return None
        return Checkpoint.from_json(path.read_text(encoding="utf-8"), str(path))

    def sizes(self) -> list[int]:
        if not self.directory.is_dir():
            return []
        found = []
        for path in self.directory.glob(f"{WITNESS_PREFIX}*.json"):
            digits = path.stem.removeprefix(WITNESS_PREFIX)
            if digits.isdigit():
                found.append(int(digits))
        return sorted(found)

    def all(self, since: int = 0) -> dict[int, Checkpoint | ValueError]:
        """Every file (of `since` events or more), or why it cannot be read."""
        result: dict[int, Checkpoint | ValueError] = {}
        for size in self.sizes():
            if size < since:
                continue
            try:
                read = self.read(size)
            except ValueError as error:
                result[size] = error
                continue
            result[size] = read if read is not None else ValueError(
                f"{self.path(size)} was removed while it was being read")
        return result


def recorded_ledger_id(conn: Connection[Any]) -> str | None:
    """The ledger's id as the database holds it, or None where `db init` made no seal."""
    found = conn.execute("SELECT to_regclass('ledger_seal_state')").fetchone()
    if not found or not found[0]:
        return None
    row = conn.execute("SELECT ledger_id FROM ledger_seal_state").fetchone()
    return str(row[0]) if row else None
