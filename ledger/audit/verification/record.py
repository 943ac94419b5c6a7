"""The verifier's own record of how far the ledger was verified, kept outside the database.

`ledger verify` writes it after a verification that found nothing wrong, signed with the
verifier's own key (`ledger key new verifier V-1 --out verifier.key`), beside the trust file:
the next verification trusts what it says and checks only what came after, as a Certificate
Transparency monitor checks each new tree head against the last one it checked. It names:

- the ledger (the trust file's id) and the signed checkpoint the verification reached: its
  size, position and root, and the tree's frontier at that size (the hashes of its perfect
  subtrees), so the new events' leaves extend exactly the tree that was verified and the
  newest checkpoint's root, recomputed from them, is a consistency proof of its own;
- where the next verification resumes reading (the end of the last command wholly under
  the checkpoint: a command's events and receipt are one insert, and the sealer's batches may
  part them), and the state of the streams at that point (every stream a later command may
  act on, each pool's running balance, the rounds still open and each table's latest shift),
  so a command after the boundary is executed again on the streams as they stood;
- what each witness said it held, so a witness that later says less (its memory rolled
  back) is named;
- the code that made it: a record made by other code is not used (its carried state is that
  code's), and the verification runs in full.

The state is a pickle, compressed: the signature is checked before it is read, and only a
record signed by the key the verifier holds is read at all. Nothing in the database can
change it; an insider who can write the verifier's files holds the verifier's key too.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pickle
import zlib
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ledger.audit.log.merkle import Frontier
from ledger.core import clock
from ledger.core.errors import InvalidInput
from ledger.identity.keys import Credential, canonical_json, fingerprint, verify

PROTOCOL: Literal["round-ledger/verification/1"] = "round-ledger/verification/1"


class Reached(BaseModel):
    """The signed checkpoint a verification reached, and the tree's frontier at its size."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    size: int = Field(ge=0)
    position: int = Field(ge=0, description="the checkpoint's last event's position")
    root: str = Field(description="base64 of the tree's root at this size")
    frontier: list[str] = Field(description="base64 of each perfect subtree's hash, tallest first")

    def restore(self) -> Frontier:
        return Frontier.restore(self.size, [base64.b64decode(h) for h in self.frontier])

    @classmethod
    def of(cls, frontier: Frontier, position: int) -> Reached:
        return cls(size=frontier.size, position=position,
                   root=base64.b64encode(frontier.root()).decode("ascii"),
                   frontier=[base64.b64encode(h).decode("ascii") for h in frontier.hashes()])


class WitnessSaw(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    size: int
    root: str


class VerificationRecord(BaseModel):
    """One verification that held, signed by the verifier (module docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    protocol: Literal["round-ledger/verification/1"] = PROTOCOL
    ledger: str
    reached: Reached
    resume_after: int = Field(ge=0, description="the position after which the next "
                                                "verification reads the log")
    events: int = Field(ge=0, description="events verified, over every verification")
    witnesses: dict[str, WitnessSaw] = {}
    code: str = Field(description="a digest of the code that made the record")
    verified_at: str
    full_at: str = Field(description="when the ledger was last verified in full")
    state: str = Field(description="the carried state: base64 of a compressed pickle")
    key: str = ""
    signature: str = ""

    def statement(self) -> bytes:
        return canonical_json(self.model_dump(exclude={"signature"}))

    def signed(self, verifier: Credential) -> VerificationRecord:
        unsigned = self.model_copy(update={"key": verifier.public_key})
        return unsigned.model_copy(update={"signature": verifier.sign(unsigned.statement())})

    def carried(self) -> Any:
        return pickle.loads(zlib.decompress(base64.b64decode(self.state)))

    @staticmethod
    def pack(state: Any) -> str:
        return base64.b64encode(zlib.compress(pickle.dumps(state, protocol=5), 6)).decode("ascii")

    @property
    def when(self) -> datetime:
        return datetime.fromisoformat(self.verified_at)


def now() -> str:
    return clock.now().isoformat(timespec="seconds")


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the ledger's own source: the carried state is that code's objects."""
    import ledger
    import projections

    digest = hashlib.sha256()
    for package in (ledger, projections):
        root = Path(str(package.__file__)).parent
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:32]


def default_path(trust_path: Path) -> Path:
    """Beside the trust file: `trust.json` gives `trust.verified.json`."""
    return trust_path.with_name(trust_path.stem + ".verified.json")


class Unusable(Exception):
    """Why a record on file is not used (the verification then runs in full)."""


def load_record(path: Path, verifier: Credential, ledger: str) -> VerificationRecord | None:
    """The record at `path`, or None when there is none yet. `Unusable` names a record that
    is there but cannot be trusted or used: not signed by this verifier, another ledger's,
    or made by other code."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as error:
        raise InvalidInput(f"cannot read the verification record {path}: "
                           f"{error.strerror or error}.") from None
    try:
        record = VerificationRecord.model_validate(json.loads(text))
    except (ValueError, ValidationError):
        raise Unusable(f"{path} is not a verification record") from None
    if record.key != verifier.public_key:
        signer = fingerprint(record.key) if record.key else "no one"
        raise Unusable(f"{path} is signed by {signer}, not by this verifier's key "
                       f"({verifier.fingerprint})")
    if not verify(record.key, record.signature, record.statement()):
        raise Unusable(f"{path} does not verify under this verifier's key: altered after "
                       "signing")
    if record.ledger != ledger:
        raise Unusable(f"{path} is the record of ledger {record.ledger}, not {ledger}")
    if record.code != code_digest():
        raise Unusable(f"{path} was made by another version of the ledger's code (its carried "
                       "state is that code's)")
    return record


def save_record(path: Path, record: VerificationRecord) -> None:
    """Written whole to a temporary file, fsynced, then renamed over the last one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(record.model_dump_json(indent=1) + "\n")
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)
