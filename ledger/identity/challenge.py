"""The server's challenge a sign-in answers: so that a signed sign-in is used once, and soon.

A reader asks for a challenge (`POST /v1/sessions/challenge`; the sign-in page has one in it)
and signs a `sign_in` whose body carries it (`"challenge": "<nonce>"`). The server accepts a
challenge once, before it expires (`LEDGER_SIGN_IN_WINDOW_SECONDS` after it was issued), and
a sign-in whose `at` is further than that from its clock not at all: a signed sign-in that is
seen (a proxy's log, a shoulder) cannot be posted again for a second session, nor one made
yesterday for a session today.

The nonce carries its own proof, so that issuing one stores nothing:

    <expiry, Unix seconds>.<16 random bytes>.<HMAC-SHA256 of the first two under the secret>

and any worker that holds the server's secret can check it without asking the one that made
it. The secret is derived from the server's terminal key (its Ed25519 signature, which is
deterministic, of a fixed label: the workers of one `ledger serve` share it without a file of
their own), or drawn at random when the server has none. What cannot be stateless is "once":
the nonces answered are written where every worker looks (`spend`: the database's
`ledger_sign_in_nonces`, `ledger.infrastructure.sign_ins`), or, for a server that cannot write
there (on a hot standby), kept in its memory until they expire. A nonce is redeemed only
after the sign-in's signatures verify, so no one can spend another's challenge by guessing,
and at most the sign-ins of one window are kept.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ledger.core import clock
from ledger.core.errors import CredentialRefused

LABEL = b"round-ledger/sign-in-challenge/1"
"""What the server's terminal key signs to make the challenges' secret."""


@dataclass(frozen=True)
class Challenge:
    nonce: str
    expires: datetime


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


class Challenges:
    """Issues challenges and redeems each once, within `window` seconds of its issue."""

    def __init__(self, secret: bytes, window: float,  # money-safe: seconds
                 spend: Callable[[str, int, float], bool] | None = None) -> None:
        """`spend(nonce, expires, now)` records a nonce answered, True the first time it is
        (every worker's store), forgetting those expired by `now` (the ledger's clock, which
        dated their expiry); None keeps them in this process's memory."""
        self._secret = hashlib.sha256(LABEL + secret).digest()
        self.window = window
        self._spend = spend
        self._redeemed: dict[str, float] = {}  # money-safe: nonce -> its expiry, Unix seconds
        self._lock = threading.Lock()

    @classmethod
    def random(cls, window: float,  # money-safe: seconds
               spend: Callable[[str, int, float], bool] | None = None) -> Challenges:
        """For a server without a terminal key: its workers do not share the secret."""
        return cls(secrets.token_bytes(32), window, spend)

    def issue(self, now: float | None = None) -> Challenge:  # money-safe: Unix seconds
        expires = int((clock.now().timestamp() if now is None else now) + self.window)
        body = f"{expires}.{_b64(secrets.token_bytes(16))}"
        return Challenge(f"{body}.{self._mac(body)}", datetime.fromtimestamp(expires, UTC))

    def redeem(self, nonce: object, now: float | None = None) -> None:  # money-safe: seconds
        """Accept `nonce` once, unexpired; refuse it in a sentence otherwise."""
        now = clock.now().timestamp() if now is None else now
        if not isinstance(nonce, str) or not nonce:
            raise CredentialRefused("the sign-in answers no challenge: ask for one (POST "
                                    "/v1/sessions/challenge) and sign it in the sign_in's "
                                    "'challenge'; no session opened.")
        body, _, mac = nonce.rpartition(".")
        expiry = body.partition(".")[0]
        if not expiry.isdigit() or not hmac.compare_digest(mac, self._mac(body)):
            raise CredentialRefused("the sign-in's challenge is not one this server issued: "
                                    "ask for a new one; no session opened.")
        if int(expiry) < now:
            raise CredentialRefused(
                f"the sign-in's challenge expired {_ago(now - int(expiry))} ago (a challenge "
                f"lasts {self.window:.0f} s): ask for a new one; no session opened.")
        first = (self._spend(nonce, int(expiry), now) if self._spend
                 else self._spend_here(nonce, int(expiry), now))
        if not first:
            raise CredentialRefused("this sign-in's challenge was used already: a signed "
                                    "sign-in opens one session; no session opened.")

    def _spend_here(self, nonce: str, expires: int, now: float) -> bool:  # money-safe: s
        with self._lock:
            for old in [n for n, e in self._redeemed.items() if e < now]:
                del self._redeemed[old]
            if nonce in self._redeemed:
                return False
            self._redeemed[nonce] = expires
            return True

    def check_time(self, at: datetime, now: datetime | None = None) -> None:
        """A sign-in's own time within the window of the server's clock, either way."""
        now = now or clock.now()
        if abs(at - now) > timedelta(seconds=self.window):
            raise CredentialRefused(
                f"the sign-in is dated {at.isoformat()}, more than {self.window:.0f} s from the "
                f"server's clock ({now.isoformat(timespec='seconds')}): sign in afresh, and "
                "check the terminal's clock; no session opened.")

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self._secret, body.encode("utf-8"), hashlib.sha256).digest())


def _ago(seconds: float) -> str:  # money-safe: seconds
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"
