"""Signed-in readers: a token for each sign-in (`ledger.identity.sign_in`), kept in the
server's memory for a shift's length. The token names a member of staff; the registry is asked
again on every request, so a suspension, or a change of roles, takes effect at once. A server
restart signs everyone out. A sign-in answers one of `challenges`, once
(`ledger.identity.challenge`)."""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass

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
    expires: float  # money-safe: time.monotonic() seconds


class Sessions:
    def __init__(self, ledger: Ledger, challenges: Challenges,
                 lifetime: float = LIFETIME_SECONDS) -> None:  # money-safe
        self.ledger = ledger
        self.challenges = challenges
        self.lifetime = lifetime
        self._open: dict[str, Session] = {}
        self._lock = threading.Lock()

    def sign_in(self, signed: SignedCommand) -> tuple[Session, StaffMember]:
        member = admit_reader(signed, self.ledger.staff, self.ledger.terminal,
                              self.ledger.ledger_id, self.challenges)
        session = Session(secrets.token_urlsafe(32), member.staff_id,
                          time.monotonic() + self.lifetime)
        with self._lock:
            self._drop_expired()
            self._open[session.token] = session
        return session, member

    def sign_out(self, token: str) -> None:
        with self._lock:
            self._open.pop(token, None)

    def reader(self, token: str | None, what: str) -> StaffMember:
        """The signed-in member of staff behind `token`, if they may read `what`."""
        with self._lock:
            session = self._open.get(token or "")
        if session is None or session.expires < time.monotonic():
            raise CredentialRefused("not signed in, or the sign-in has expired: sign in again "
                                    "(POST /v1/sessions).")
        member = self.ledger.staff(session.staff_id)
        if member is None or not member.active:
            self.sign_out(session.token)
            raise CredentialRefused(f"{session.staff_id} is suspended or no longer enrolled: "
                                    "signed out.")
        check_may_read(member, what)
        return member

    def _drop_expired(self) -> None:
        now = time.monotonic()
        for token in [t for t, s in self._open.items() if s.expires < now]:
            del self._open[token]
