"""Signed notes, checkpoints and cosignatures as C2SP writes them (signed-note, tlog-checkpoint,
tlog-cosignature), so that a witness anyone runs can cosign the seal and any verifier that
speaks those formats can check it.

A **checkpoint** is the note text

    round-ledger/<ledger id>
    <size>
    <base64 of the RFC 6962 root>

signed by the sealing key under the key name that is its origin. A **note** is that text, an
empty line, and one signature line per signer:

    — <key name> base64(key ID (4 bytes) || signature)

The key ID is the first four bytes of SHA-256(key name || "\\n" || type || public key); the type
is 0x01 for a plain Ed25519 note signature and 0x04 for a witness's timestamped cosignature,
whose signature covers "cosignature/v1\\ntime <unix seconds>\\n" followed by the checkpoint text,
and whose value carries the time: base64(key ID || time (8 bytes, big-endian) || signature).

A public key travels as a **vkey**, `<name>+<hex key ID>+base64(type || public key)`.

The standard library and `cryptography` only, so that a regulator's script can import it alone.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl.exceptions import BadSignatureError, CryptoError
from nacl.signing import VerifyKey

ED25519 = 0x01
COSIGNATURE_V1 = 0x04
DASH = "\N{EM DASH}"
MAX_SIGNATURES = 64


class NoteError(ValueError):
    """A note, checkpoint, signature line or vkey that is not well formed."""


def origin_of(ledger_id: str) -> str:
    """The origin line (and the sealing key's name) of a ledger's checkpoints."""
    return f"round-ledger/{ledger_id}"


def checkpoint_body(origin: str, size: int, root: bytes) -> str:
    """The checkpoint's note text: origin, size and root, each on its own line."""
    _check_name(origin, "an origin")
    if size < 0:
        raise NoteError(f"a tree cannot have {size} leaves")
    return f"{origin}\n{size}\n{base64.b64encode(root).decode('ascii')}\n"


@dataclass(frozen=True)
class TreeHead:
    """What a checkpoint's text says: the log, how many leaves, their root."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    @property
    def body(self) -> str:
        return checkpoint_body(self.origin, self.size, self.root) + "".join(
            line + "\n" for line in self.extensions)


def parse_checkpoint(text: str) -> TreeHead:
    """A checkpoint's note text (without its signatures) as a `TreeHead`."""
    if not text.endswith("\n"):
        raise NoteError("a checkpoint ends with a newline")
    lines = text[:-1].split("\n")
    if len(lines) < 3 or any(not line for line in lines):
        raise NoteError("a checkpoint is an origin, a size and a root hash, one a line")
    origin, size_text, root_text = lines[:3]
    if not size_text.isdigit() or not size_text.isascii() or (
            size_text != "0" and size_text.startswith("0")):
        raise NoteError(f"'{size_text}' is not a tree size")
    root = _b64(root_text, "the root hash")
    if len(root) != 32:
        raise NoteError("the root hash is not 32 bytes")
    return TreeHead(origin, int(size_text), root, tuple(lines[3:]))


def key_id(name: str, public_key: bytes, kind: int = ED25519) -> bytes:
    """The 4 bytes that name a key in a signature line."""
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public_key).digest()[:4]


@dataclass(frozen=True)
class Signature:
    """One signature line: the key's name, its ID and the rest of the value."""

    name: str
    key_id: bytes
    value: bytes  # after the key ID: the signature (a cosignature: time, then signature)

    @property
    def line(self) -> str:
        value = base64.b64encode(self.key_id + self.value).decode("ascii")
        return f"{DASH} {self.name} {value}\n"


@dataclass(frozen=True)
class Note:
    text: str  # ends with a newline; the signatures cover it
    signatures: tuple[Signature, ...]

    def __str__(self) -> str:
        return self.text + "\n" + "".join(signature.line for signature in self.signatures)

    def with_signatures(self, *more: Signature) -> Note:
        return Note(self.text, self.signatures + more)


def parse_note(data: str) -> Note:
    """Text, the last empty line, and signature lines (signed-note)."""
    if any(ord(c) < 0x20 and c != "\n" for c in data):
        raise NoteError("a note holds no control characters but newlines")
    if not data.endswith("\n"):
        raise NoteError("a note ends with a newline")
    text, separator, block = data.rpartition("\n\n")
    if not separator:
        raise NoteError("a note has no signatures (no empty line before them)")
    lines = block[:-1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise NoteError(f"a note of more than {MAX_SIGNATURES} signatures is refused")
    return Note(text + "\n", tuple(_parse_line(line) for line in lines))


def parse_signature_lines(data: str) -> tuple[Signature, ...]:
    """Signature lines alone, as a witness answers them."""
    if not data.endswith("\n"):
        raise NoteError("signature lines end with a newline")
    return tuple(_parse_line(line) for line in data[:-1].split("\n"))


def _parse_line(line: str) -> Signature:
    dash, _, rest = line.partition(" ")
    name, _, value = rest.partition(" ")
    if dash != DASH or not name or not value or " " in value:
        raise NoteError(f"'{line[:80]}' is not a signature line")
    raw = _b64(value, f"the signature of {name}")
    if len(raw) < 5:
        raise NoteError(f"the signature of {name} is too short")
    return Signature(name, raw[:4], raw[4:])


def sign(text: str, name: str, private_key: Ed25519PrivateKey) -> Signature:
    """An Ed25519 note signature (type 0x01) over the text."""
    _check_name(name, "a key name")
    public = private_key.public_key().public_bytes_raw()
    return Signature(name, key_id(name, public), private_key.sign(text.encode()))


def sign_note(text: str, name: str, private_key: Ed25519PrivateKey) -> Note:
    return Note(text, (sign(text, name, private_key),))


def verifies(note: Note, name: str, public_key: bytes) -> bool:
    """True if the note carries a signature line of this key (name and ID) and every one of
    them verifies; a line of another key is ignored, as signed-note says."""
    wanted = key_id(name, public_key)
    mine = [s for s in note.signatures if s.name == name and s.key_id == wanted]
    return bool(mine) and all(_ed25519(public_key, s.value, note.text.encode()) for s in mine)


def cosignature_message(body: str, timestamp: int) -> bytes:
    return f"cosignature/v1\ntime {timestamp}\n{body}".encode()


def cosign(body: str, name: str, private_key: Ed25519PrivateKey, timestamp: int) -> Signature:
    """A witness's cosignature/v1 over a checkpoint's text, at `timestamp` (Unix seconds)."""
    _check_name(name, "a witness name")
    if not 0 < timestamp < 2**63:
        raise NoteError(f"{timestamp} is not a cosignature time")
    public = private_key.public_key().public_bytes_raw()
    signature = private_key.sign(cosignature_message(body, timestamp))
    return Signature(name, key_id(name, public, COSIGNATURE_V1),
                     struct.pack(">Q", timestamp) + signature)


def cosigned_at(note: Note, name: str, public_key: bytes) -> int | None:
    """The time of this witness's cosignature on the note, if it carries one that verifies
    (and none of its that does not); None otherwise."""
    wanted = key_id(name, public_key, COSIGNATURE_V1)
    mine = [s for s in note.signatures if s.name == name and s.key_id == wanted]
    times = []
    for signature in mine:
        if len(signature.value) != 72:
            return None
        (timestamp,) = struct.unpack(">Q", signature.value[:8])
        if not _ed25519(public_key, signature.value[8:],
                        cosignature_message(note.text, timestamp)):
            return None
        times.append(timestamp)
    return max(times) if times else None


@dataclass(frozen=True)
class VerifierKey:
    """A public key with its name and signature type, as a vkey shares it."""

    name: str
    public_key: bytes
    kind: int = ED25519

    @property
    def key_id(self) -> bytes:
        return key_id(self.name, self.public_key, self.kind)

    def __str__(self) -> str:
        material = base64.b64encode(bytes([self.kind]) + self.public_key).decode("ascii")
        return f"{self.name}+{self.key_id.hex()}+{material}"


def parse_vkey(text: str) -> VerifierKey:
    """`<name>+<hex key ID>+<base64(type || key)>`, its ID checked against the rest."""
    parts = text.strip().split("+", 2)
    if len(parts) != 3:
        raise NoteError(f"'{text[:80]}' is not a vkey: name+keyid+key")
    name, hex_id, material_text = parts
    _check_name(name, "a vkey's name")
    material = _b64(material_text, "the vkey's key")
    if len(material) != 33 or material[0] not in (ED25519, COSIGNATURE_V1):
        raise NoteError("the vkey is not an Ed25519 key (type 0x01 or 0x04, 32 bytes)")
    key = VerifierKey(name, material[1:], material[0])
    if hex_id.lower() != key.key_id.hex():
        raise NoteError(f"the vkey's key ID {hex_id} is not its key's")
    return key


def _check_name(name: str, what: str) -> None:
    if not name or any(c.isspace() or c == "+" for c in name):
        raise NoteError(f"'{name}' is not {what}: non-empty, with no spaces and no '+'")


def _b64(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise NoteError(f"{what} is not base64") from None


def _ed25519(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """libsodium's strict check, as the door's: a key of small order verifies nothing."""
    try:
        VerifyKey(public_key).verify(message, signature)
    except (BadSignatureError, CryptoError, ValueError, TypeError):
        return False
    return True
