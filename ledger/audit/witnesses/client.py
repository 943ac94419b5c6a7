"""Asking a witness to cosign a checkpoint (tlog-witness's add-checkpoint), and asking it what
it last cosigned: the standard library's HTTP client only, so the sealer needs nothing more.

    lines = submit("http://witness.example:7380", old_size, proof, note)

answers the cosignature lines, or raises: `WitnessConflict` when the witness holds another
size for the log (resubmit from `known_size`, with a proof from there), `WitnessRefused` when
it will not cosign (the HTTP status and its sentence), `WitnessUnreachable` when it does not
answer.
"""

from __future__ import annotations

import base64
import hashlib
import urllib.error
import urllib.request
from collections.abc import Sequence

from ledger.audit.log.note import Note, NoteError, parse_signature_lines
from ledger.core.errors import LedgerError

SIZE_TYPE = "text/x.tlog.size"


class WitnessError(LedgerError):
    """A witness did not cosign."""


class WitnessConflict(WitnessError):
    """The witness holds another size for this log than the old size sent."""

    def __init__(self, url: str, known_size: int) -> None:
        super().__init__(f"the witness {url} holds the log at {known_size} entries, not the "
                         "old size sent")
        self.known_size = known_size


class WitnessRefused(WitnessError):
    """The witness answered and would not cosign (its status and its reason)."""

    def __init__(self, url: str, status: int, reason: str) -> None:
        super().__init__(f"the witness {url} refused the checkpoint ({status}): {reason}")
        self.status = status
        self.reason = reason


class WitnessUnreachable(WitnessError):
    """No answer from the witness at `url`, and why in words (`connection refused`)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"the witness {url} does not answer: {reason}")
        self.url, self.reason = url, reason


def _why(error: BaseException) -> str:
    """Why a witness did not answer, in words: `connection refused`, never `[Errno 111]`."""
    reason = getattr(error, "reason", error)
    if isinstance(reason, TimeoutError) or "timed out" in str(reason):
        return "no answer in time"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror[:1].lower() + reason.strerror[1:]
    return str(reason)


def add_checkpoint_body(old_size: int, proof: Sequence[bytes], note: str | Note) -> bytes:
    lines = [f"old {old_size}"] + [base64.b64encode(digest).decode("ascii") for digest in proof]
    return ("\n".join(lines) + "\n\n" + str(note)).encode("utf-8")


def submit(url: str, old_size: int, proof: Sequence[bytes], note: str | Note,
           timeout: float = 10.0) -> list[str]:  # money-safe: seconds
    """POST the checkpoint to `<url>/add-checkpoint`; the witness's signature lines, each
    ending in a newline, to append to the note."""
    request = urllib.request.Request(
        url.rstrip("/") + "/add-checkpoint", data=add_checkpoint_body(old_size, proof, note),
        method="POST", headers={"Content-Type": "text/plain; charset=utf-8"})
    text = _exchange(url, request, timeout)
    try:
        return [signature.line for signature in parse_signature_lines(text)]
    except NoteError as error:
        raise WitnessRefused(url, 200, f"its answer is not signature lines ({error})") from None


def latest(url: str, origin: str,
           timeout: float = 10.0) -> str | None:  # money-safe: seconds
    """The newest checkpoint the witness cosigned for `origin` (a note carrying the log's
    signature and the witness's cosignature), or None if it cosigned none."""
    origin_hash = hashlib.sha256(origin.encode()).hexdigest()
    request = urllib.request.Request(f"{url.rstrip('/')}/{origin_hash}/checkpoint")
    try:
        return _exchange(url, request, timeout)
    except WitnessRefused as refused:
        if refused.status == 404:
            return None
        raise


def _exchange(url: str, request: urllib.request.Request,
              timeout: float) -> str:  # money-safe: seconds
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return str(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        body = error.read().decode("utf-8", "replace")
        content_type = (error.headers.get("Content-Type") or "").split(";")[0].strip()
        if error.code == 409 and content_type == SIZE_TYPE and body.strip().isdigit():
            raise WitnessConflict(url, int(body.strip())) from None
        raise WitnessRefused(url, error.code, body.strip() or str(error.reason)) from None
    except (urllib.error.URLError, OSError, TimeoutError) as error:
        raise WitnessUnreachable(url, _why(error)) from None
