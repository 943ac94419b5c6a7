"""Ed25519 credentials: what a terminal or a member of staff signs with.

A credential file is a small JSON object, readable by any language:
`{"kind": "staff", "id": "D-101", "private_key": "<base64 of the 32-byte seed>"}`. Only its
public half ever reaches the ledger (base64 of the 32 raw bytes, as `ledger key new` prints
it); the registry records that and nothing else. A key is named by its fingerprint,
`ed25519:` and the first 16 hex digits of the SHA-256 of the public key.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Literal

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl.exceptions import BadSignatureError, CryptoError
from nacl.signing import VerifyKey

from ledger.core.errors import InvalidInput
from ledger.domain.grammar import normal_identifier

Kind = Literal["staff", "terminal", "seal", "witness", "verifier"]


def canonical_json(value: Any) -> bytes:
    """The bytes a signature covers: keys sorted, no spaces, UTF-8 (RFC 8785's shape for the
    strings, integers and objects commands are made of; amounts travel as strings)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


@lru_cache(maxsize=4096)  # the door names the registered keys of every command it admits
def fingerprint(public_key: str) -> str:
    return "ed25519:" + hashlib.sha256(base64.b64decode(public_key)).hexdigest()[:16]


@lru_cache(maxsize=1024)
def verify(public_key: str, signature: str, message: bytes) -> bool:
    """True if `signature` is this key's over these bytes. A pure function, so its last answers
    are kept: under group commit the caller's thread verifies an envelope ahead (Ed25519 runs
    without the interpreter lock, beside the writer) and the writer's door finds it done.
    Checked by libsodium (PyNaCl) in a little over half the time OpenSSL takes, and strictly: a
    key of small order, a key or point not in canonical form and a signature whose scalar is
    not reduced are refused. Keys are made and commands signed with `cryptography`."""
    try:
        VerifyKey(base64.b64decode(public_key, validate=True)).verify(
            message, base64.b64decode(signature, validate=True))
    except (BadSignatureError, CryptoError, ValueError, TypeError):
        return False
    return True


@dataclass(frozen=True)
class Credential:
    """A private key and whose it is. Keep it out of the database and out of version control."""

    kind: Kind
    id: str
    private_key: Ed25519PrivateKey

    def __post_init__(self) -> None:
        if self.kind in ("staff", "terminal"):  # ids the registry holds, in their normal form
            object.__setattr__(self, "id", normal_identifier(self.id, f"a {self.kind} id"))

    @classmethod
    def generate(cls, kind: Kind, id: str) -> Credential:
        return cls(kind, id, Ed25519PrivateKey.generate())

    @cached_property  # the key never changes: a terminal names it in every signature
    def public_key(self) -> str:
        # the raw 32 bytes (not through the serialization module: its import loads every
        # cipher and the SSH key formats: several milliseconds of every command's start)
        raw = self.private_key.public_key().public_bytes_raw()
        return base64.b64encode(raw).decode("ascii")

    @cached_property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def sign(self, message: bytes) -> str:
        return base64.b64encode(self.private_key.sign(message)).decode("ascii")

    def to_json(self) -> str:
        seed = self.private_key.private_bytes_raw()
        return json.dumps({"kind": self.kind, "id": self.id,
                           "private_key": base64.b64encode(seed).decode("ascii")})

    @classmethod
    def from_json(cls, text: str, where: str) -> Credential:
        try:
            data = json.loads(text)
            seed = base64.b64decode(data["private_key"], validate=True)
            key = Ed25519PrivateKey.from_private_bytes(seed)
            kind, id = data["kind"], str(data["id"])
        except (ValueError, KeyError, TypeError):
            raise InvalidInput(f"{where} is not a ledger credential: expected JSON with kind, "
                               "id and private_key (see `ledger key new`).") from None
        if kind not in ("staff", "terminal", "seal", "witness", "verifier"):
            raise InvalidInput(f"{where} is a credential of kind '{kind}': staff, terminal, "
                               "seal, witness or verifier.")
        return cls(kind, id, key)

    @classmethod
    def load(cls, path: Path, kind: Kind) -> Credential:
        try:
            text = path.expanduser().read_text(encoding="utf-8")
        except OSError as error:
            raise InvalidInput(f"cannot read the {kind} credential {path}: "
                               f"{error.strerror or error}.") from None
        credential = cls.from_json(text, str(path))
        if credential.kind != kind:
            raise InvalidInput(f"{path} is a {credential.kind} credential, not a {kind} one.")
        return credential

    def save(self, path: Path) -> None:
        """Write the credential readable by its owner alone; never overwrite another key."""
        path = path.expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise InvalidInput(f"{path} exists already: a key is never overwritten.") from None
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(self.to_json() + "\n")
