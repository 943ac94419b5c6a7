"""A witness, as C2SP's tlog-witness describes one: it cosigns a log's checkpoint only after
checking that the log signed it and that it extends, by appending only, the newest checkpoint
of that log it cosigned before; so a log that rewrites its history, or shows one history to
one verifier and another to the next, cannot get both cosigned by the same witness.

    POST /add-checkpoint                  "old <N>\\n", consistency proof lines (base64), an
                                          empty line, the signed checkpoint; answers the
                                          witness's cosignature line
    GET  /latest/<origin>                 the newest cosigned checkpoint of a log, with the
    GET  /<hex SHA-256 of origin>/checkpoint   log's signature and the witness's cosignature

Answers, as the specification gives them: 400 a malformed request (or an old size above the
new one: a log going backwards); 404 a log this witness does not witness; 403 no valid
signature of the log's key; 409 an old size that is not the one the witness holds, or another
root at the size it holds (the body is the size it holds, `text/x.tlog.size`, either way: a
log that sent the size the witness holds and is answered 409 was refused for its root); 422 a
consistency proof that fails, or a proof where none is due.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi import FastAPI, Request
from fastapi.responses import PlainTextResponse
from starlette.concurrency import run_in_threadpool

from ledger.audit.log.merkle import EMPTY_ROOT, verify_consistency
from ledger.audit.log.note import (
    COSIGNATURE_V1,
    ED25519,
    Note,
    NoteError,
    TreeHead,
    VerifierKey,
    checkpoint_body,
    cosign,
    key_id,
    parse_checkpoint,
    parse_note,
    parse_vkey,
    verifies,
)
from ledger.audit.witnesses.store import Witnessed, WitnessStore
from ledger.core import clock

MAX_BODY = 64 * 1024
MAX_PROOF = 63
SIZE_TYPE = "text/x.tlog.size"


class Refused(Exception):
    """A submission the witness does not cosign: the HTTP status and the body to answer."""

    def __init__(self, status: int, message: str,
                 content_type: str = "text/plain; charset=utf-8") -> None:
        super().__init__(message)
        self.status, self.message, self.content_type = status, message, content_type


@dataclass(frozen=True)
class Submission:
    old_size: int
    proof: tuple[bytes, ...]
    note_text: str


def parse_submission(body: bytes) -> Submission:
    """The add-checkpoint body: old size line, proof lines, empty line, the checkpoint."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, "the request is not UTF-8") from None
    head, separator, note_text = text.partition("\n\n")
    lines = head.split("\n")
    if not separator or not lines[0].startswith("old "):
        raise Refused(400, "expected 'old <size>', the proof's lines, an empty line, the note")
    size_text = lines[0].removeprefix("old ")
    if not (size_text.isascii() and size_text.isdigit()) or (
            size_text != "0" and size_text.startswith("0")):
        raise Refused(400, f"'{size_text}' is not a tree size")
    if len(lines) - 1 > MAX_PROOF:
        raise Refused(400, f"a consistency proof of more than {MAX_PROOF} hashes")
    proof = []
    for line in lines[1:]:
        try:
            digest = base64.b64decode(line, validate=True)
        except (binascii.Error, ValueError):
            raise Refused(400, "a proof line is not base64") from None
        if len(digest) != 32:
            raise Refused(400, "a proof line is not a 32-byte hash")
        proof.append(digest)
    return Submission(int(size_text), tuple(proof), note_text)


@dataclass
class Witness:
    """The witness's name and key, the logs it witnesses (origin: the log's raw Ed25519 public
    key), and its memory."""

    name: str
    private_key: Ed25519PrivateKey
    logs: Mapping[str, bytes]
    store: WitnessStore
    clock: Callable[[], float] = field(default=lambda: clock.now().timestamp())  # money-safe: seconds

    @property
    def public_key(self) -> bytes:
        return self.private_key.public_key().public_bytes_raw()

    @property
    def vkey(self) -> VerifierKey:
        return VerifierKey(self.name, self.public_key, COSIGNATURE_V1)

    def add_checkpoint(self, body: bytes) -> str:
        """Check a submission, remember it, and answer the cosignature line; or `Refused`."""
        if len(body) > MAX_BODY:
            raise Refused(400, f"a submission of more than {MAX_BODY} bytes")
        submission = parse_submission(body)
        note, head, log_lines = self._signed_by_the_log(submission.note_text)
        if submission.old_size > head.size:
            raise Refused(400, f"old size {submission.old_size} is above the checkpoint's "
                               f"{head.size}: a log never shrinks")
        if head.size == 0 and head.root != EMPTY_ROOT:
            raise Refused(422, "a checkpoint of an empty tree must have the empty tree's root")
        answer: list[str] = []

        def decide(held: Witnessed | None) -> Witnessed:
            self._check_extends(held, submission, head)
            now = int(self.clock())
            answer.append(cosign(note.text, self.name, self.private_key, now).line)
            return Witnessed(head.origin, head.size, head.root,
                             note.text + "\n" + log_lines + answer[0], now)

        self.store.advance(head.origin, decide)
        return answer[0]

    def _signed_by_the_log(self, text: str) -> tuple[Note, TreeHead, str]:
        """The note, what it says, and the signature lines of the log's own key (the rest,
        other witnesses' among them, are not the witness's to repeat)."""
        try:
            note = parse_note(text)
            head = parse_checkpoint(note.text)
        except NoteError as error:
            raise Refused(400, f"not a signed checkpoint: {error}") from None
        log_key = self.logs.get(head.origin)
        if log_key is None:
            raise Refused(404, f"this witness does not witness the log {head.origin}")
        if not verifies(note, head.origin, log_key):
            raise Refused(403, f"the checkpoint carries no valid signature of {head.origin}'s "
                               "key")
        log_id = key_id(head.origin, log_key)
        lines = "".join(s.line for s in note.signatures
                        if s.name == head.origin and s.key_id == log_id)
        return note, head, lines

    @staticmethod
    def _check_extends(held: Witnessed | None, submission: Submission, head: TreeHead) -> None:
        held_size = held.size if held else 0
        if submission.old_size != held_size:
            raise Refused(409, f"{held_size}\n", SIZE_TYPE)
        if held is None or submission.old_size == 0:
            if submission.proof:
                raise Refused(422, "a proof from the empty tree must be empty")
            return
        if head.size == held.size and head.root != held.root:
            raise Refused(409, f"{held_size}\n", SIZE_TYPE)  # another root at the size held
        if not verify_consistency(held.size, head.size, held.root, head.root, submission.proof):
            raise Refused(422, f"the checkpoint at {head.size} is not consistent with the one "
                               f"cosigned at {held.size}")

    def latest(self, origin: str) -> str | None:
        held = self.store.latest(origin)
        return None if held is None else held.note

    def latest_by_hash(self, origin_hash: str) -> str | None:
        for origin in self.logs:
            if hashlib.sha256(origin.encode()).hexdigest() == origin_hash.lower():
                return self.latest(origin)
        return None


def create_app(witness: Witness) -> FastAPI:
    """The witness's HTTP interface."""
    app = FastAPI(title=f"witness {witness.name}", description=__doc__)

    @app.post("/add-checkpoint", response_class=PlainTextResponse)
    async def add_checkpoint(request: Request) -> PlainTextResponse:
        body = await request.body()
        try:
            line = await run_in_threadpool(witness.add_checkpoint, body)
        except Refused as refused:
            text = refused.message if refused.message.endswith("\n") else refused.message + "\n"
            # the type given as a header, so that it goes out exactly (no charset added)
            return PlainTextResponse(text, refused.status,
                                     headers={"Content-Type": refused.content_type})
        return PlainTextResponse(line)

    def answer(note: str | None, what: str) -> PlainTextResponse:
        if note is None:
            return PlainTextResponse(f"this witness has cosigned no checkpoint of {what}\n", 404)
        return PlainTextResponse(note)

    @app.get("/latest/{origin:path}", response_class=PlainTextResponse)
    def latest(origin: str) -> PlainTextResponse:
        return answer(witness.latest(origin), origin)

    @app.get("/{origin_hash}/checkpoint", response_class=PlainTextResponse)
    def checkpoint(origin_hash: str) -> PlainTextResponse:
        return answer(witness.latest_by_hash(origin_hash), origin_hash)

    @app.get("/vkey", response_class=PlainTextResponse)
    def vkey() -> PlainTextResponse:
        return PlainTextResponse(str(witness.vkey) + "\n")

    return app


def parse_log(text: str) -> tuple[str, bytes]:
    """A log the witness witnesses, as `ORIGIN=<base64 Ed25519 public key>` (as `ledger key new
    seal` prints it) or as the log's vkey; (origin, raw public key)."""
    text = text.strip()
    left, equals, right = text.partition("=")
    if "+" in left:  # a vkey: name+keyid+base64, whose base64 may end in '='
        vkey = parse_vkey(text)
        if vkey.kind != ED25519:
            raise NoteError(f"the vkey of {vkey.name} is not a log's (type 0x01) key")
        return vkey.name, vkey.public_key
    if not equals:
        raise NoteError(f"'{text[:80]}' is neither ORIGIN=PUBLIC_KEY nor a vkey")
    try:
        public_key = base64.b64decode(right, validate=True)
    except (binascii.Error, ValueError):
        raise NoteError(f"the public key of {left} is not base64") from None
    if len(public_key) != 32:
        raise NoteError(f"the public key of {left} is not 32 bytes (an Ed25519 key)")
    checkpoint_body(left, 0, EMPTY_ROOT)  # the origin must be one a checkpoint can carry
    return left, public_key
