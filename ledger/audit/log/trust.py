"""The trust file: what `ledger verify` is given from outside the database.

Written once at deployment (`ledger trust init`), while the database is still known good,
and kept by the operator and the regulator off the database host. It names:

- the ledger: its id (drawn by `ledger db init`) and its origin (the name its checkpoints
  and its envelopes carry), so a reset that draws a new id, or another ledger, is named;
- the sealing public key: the only key whose checkpoints count;
- the first administrator and their public key: the registry is proven back to them;
- the witnesses (name, public key as a C2SP vkey, address) and the quorum: how many of them
  must have cosigned a checkpoint for it to count as witnessed;
- whether it is a practice ledger (`ledger db init --practice`), which may hold simulated
  play: `ledger verify` names a database that says otherwise.

Nothing in it is secret: it holds public keys only. It is JSON, readable by hand:

    {"protocol": "round-ledger/trust/1", "ledger": "<uuid>", "origin": "round-ledger/<uuid>",
     "seal_public_key": "<base64>", "administrator": "ADM-1",
     "administrator_public_key": "<base64>",
     "witnesses": [{"name": "W-1", "vkey": "W-1+...+...", "url": "http://w1:8090"}],
     "quorum": 1, "written_at": "2026-11-26T10:00:00Z", "practice": false}
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal
from uuid import UUID

from psycopg import Connection
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ledger.core import clock
from ledger.core.errors import InvalidInput, WrongState, describe_validation_error
from ledger.core.formatting import PRACTICE_MARK
from ledger.infrastructure.practice import is_practice

PROTOCOL = "round-ledger/trust/1"


class TrustedWitness(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=100)
    vkey: str = Field(description="the witness's public key as a C2SP vkey")
    url: str | None = Field(default=None, description="where the witness answers, if asked live")

    @field_validator("vkey")
    @classmethod
    def _vkey(cls, value: str) -> str:
        from ledger.audit.log.note import NoteError, parse_vkey

        try:
            parse_vkey(value)
        except NoteError as error:
            raise ValueError(str(error)) from None
        return value

    @model_validator(mode="after")
    def _named_as_its_vkey(self) -> TrustedWitness:
        from ledger.audit.log.note import parse_vkey

        named = parse_vkey(self.vkey).name
        if named != self.name:
            raise ValueError(f"the witness {self.name} is given {named}'s vkey: a witness "
                             "cosigns under the name its vkey carries")
        return self

    @property
    def public_key(self) -> bytes:
        from ledger.audit.log.note import parse_vkey

        return parse_vkey(self.vkey).public_key


class TrustFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    protocol: Literal["round-ledger/trust/1"] = "round-ledger/trust/1"
    ledger: UUID
    origin: str
    seal_public_key: str = Field(min_length=40, max_length=60)
    administrator: str
    administrator_public_key: str = Field(min_length=40, max_length=60)
    witnesses: list[TrustedWitness] = Field(default_factory=list)
    quorum: int = Field(ge=0)
    written_at: str
    practice: bool | None = Field(
        default=None, description="a practice ledger (`ledger db init --practice`), which may "
        "hold simulated play: " + PRACTICE_MARK + "; absent from a trust file written before "
        "ledgers were marked")

    @model_validator(mode="after")
    def _quorum(self) -> TrustFile:
        if self.quorum > len(self.witnesses):
            raise ValueError(f"a quorum of {self.quorum} needs at least {self.quorum} "
                             f"witnesses, and the file names {len(self.witnesses)}")
        names = [w.name for w in self.witnesses]
        if len(set(names)) != len(names):
            raise ValueError("each witness is named once")
        return self

    def to_json(self) -> str:
        return json.dumps(self.model_dump(mode="json"), indent=1, sort_keys=True) + "\n"


def trust_of(conn: Connection[Any], seal_public_key: str, witnesses: list[TrustedWitness],
             quorum: int | None = None) -> TrustFile:
    """The trust file of the ledger this database holds, read at deployment while the database
    is known good: its id and origin, and the first administrator the registry's bootstrap
    enrolled. The quorum is every witness unless given."""
    from ledger.audit.log.formats import recorded_ledger_id
    from ledger.audit.log.note import origin_of
    from ledger.domain.registry import StaffMember

    ledger = recorded_ledger_id(conn)
    admin = conn.execute(
        "SELECT body ->> 'staff_id', body ->> 'public_key' FROM ledger_event_log "
        "WHERE event_type = %s ORDER BY position LIMIT 1",
        (StaffMember.Enrolled.event_type,)).fetchone()
    if ledger is None or admin is None:
        raise WrongState("the ledger is not initialised: run `ledger db init` first.")
    return TrustFile(ledger=UUID(ledger), origin=origin_of(ledger),
                     seal_public_key=seal_public_key, administrator=admin[0],
                     administrator_public_key=admin[1], witnesses=witnesses,
                     quorum=len(witnesses) if quorum is None else quorum,
                     practice=is_practice(conn), written_at=clock.now().strftime("%Y-%m-%dT%H:%M:%SZ"))


def load_trust(path: Path) -> TrustFile:
    try:
        text = path.expanduser().read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidInput(f"cannot read the trust file {path}: {error.strerror}.") from None
    try:
        return TrustFile.model_validate_json(text)
    except ValidationError as error:
        raise InvalidInput(f"{path} is not a trust file ({PROTOCOL}): "
                           f"{describe_validation_error(error)}.") from None


def write_trust(path: Path, trust: TrustFile) -> None:
    """Created, never overwritten: a trust file changes only by the operator's own hand."""
    path = path.expanduser()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise InvalidInput(f"{path} exists: a trust file is never overwritten; write another "
                           "or remove it yourself.") from None
    except OSError as error:
        raise InvalidInput(f"cannot write the trust file {path}: {error.strerror}.") from None
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(trust.to_json())
        file.flush()
        os.fsync(file.fileno())
