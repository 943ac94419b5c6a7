"""Signed-in readers: a token for each sign-in (`ledger.identity.sign_in`), good for a shift's
length, kept where every worker of the server finds it: in the database
(`ledger.infrastructure.sign_ins`, a `SessionStore`), or, for a server that cannot write there
(a hot standby's), in its own memory (`MemorySessions`; a restart signs everyone out). The
token names a member of staff; the registry is asked again on every request, so a suspension,
or a change of roles, takes effect at once. A sign-in answers one of `challenges`, once
(`ledger.identity.challenge`)."""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass
from typing import Protocol

from ledger.application.ledger import Ledger
from ledger.core.errors import CredentialRefused
from ledger.domain.registry import StaffMember
from ledger.identity.challenge import Challenges
from ledger.identity.envelope import SignedCommand
from ledger.identity.sign_in import admit_reader, check_may_read

LIFETIME_SECONDS = 12 * 3600  # money-safe: seconds; a shift, with its handover
COOKIE = "ledger_session"
"""The pages' session cookie (HttpOnly, SameSite=Strict; Secure over HTTPS)."""


@dataclass(frozen=True)
class Session:
    token: str
    staff_id: str


class SessionStore(Protocol):
    def open(self, token: str, staff_id: str, seconds: float) -> None: ...  # money-safe
    def staff_of(self, token: str) -> str | None: ...
    def close(self, token: str) -> None: ...


class MemorySessions:
    """Sessions in this process's memory: one worker's alone."""

    def __init__(self) -> None:
        self._open: dict[str, tuple[str, float]] = {}  # money-safe: token -> staff, expiry
        self._lock = threading.Lock()

    def open(self, token: str, staff_id: str, seconds: float) -> None:  # money-safe
        now = time.monotonic()
        with self._lock:
            for old in [t for t, (_, e) in self._open.items() if e < now]:
                del self._open[old]
            self._open[token] = (staff_id, now + seconds)

    def staff_of(self, token: str) -> str | None:
        with self._lock:
            found = self._open.get(token)
        return found[0] if found and found[1] >= time.monotonic() else None

    def close(self, token: str) -> None:
        with self._lock:
            self._open.pop(token, None)


class Sessions:
    def __init__(self, ledger: Ledger, challenges: Challenges, store: SessionStore | None = None,
                 lifetime: float = LIFETIME_SECONDS) -> None:  # money-safe
        self.ledger = ledger
        self.challenges = challenges
        self.store = store or MemorySessions()
        self.lifetime = lifetime

    def sign_in(self, signed: SignedCommand) -> tuple[Session, StaffMember]:
        member = admit_reader(signed, self.ledger.staff, self.ledger.terminal,
                              self.ledger.ledger_id, self.challenges)
        session = Session(secrets.token_urlsafe(32), member.staff_id)
        self.store.open(session.token, session.staff_id, self.lifetime)
        return session, member

    def sign_out(self, token: str) -> None:
        self.store.close(token)

    def reader(self, token: str | None, what: str) -> StaffMember:
        """The signed-in member of staff behind `token`, if they may read `what`."""
        staff_id = self.store.staff_of(token) if token else None
        if staff_id is None:
            raise CredentialRefused("not signed in, or the sign-in has expired: sign in again "
                                    "(POST /v1/sessions).")
        member = self.ledger.staff(staff_id)
        if member is None or not member.active:
            self.sign_out(token or "")
            raise CredentialRefused(f"{staff_id} is suspended or no longer enrolled: "
                                    "signed out.")
        check_may_read(member, what)
        return member
