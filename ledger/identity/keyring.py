"""A floor's keys in one place: the simulator's, the demo's and the tests' terminals and staff.

A real floor keeps each key on its own device or badge. A simulated floor holds them all, in
memory or in a folder of credential files (`<kind>-<id>.key`, readable by the owner alone), and
enrols what it needs through the administrator's own signed commands, as a real administrator
would.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ledger.application import Ledger, Recorded
from ledger.commands.registry import (
    ChangeStaffRoles,
    EnrolStaff,
    RegisterTerminal,
    ReplaceStaffKey,
)
from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind
from ledger.errors import WrongState
from ledger.identity.envelope import SignedCommand, sign
from ledger.identity.keys import Credential, Kind


class Keyring:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder.expanduser() if folder else None
        self._keys: dict[tuple[str, str], Credential] = {}
        self._lock = threading.Lock()

    def credential(self, kind: Kind, id: str) -> Credential:
        """The key of this staff member or terminal, made (and kept) on first use."""
        with self._lock:
            key = self._keys.get((kind, id))
            if key is None:
                key = self._load_or_make(kind, id)
                self._keys[(kind, id)] = key
            return key

    def add(self, credential: Credential) -> None:
        with self._lock:
            self._keys[(credential.kind, credential.id)] = credential

    def _load_or_make(self, kind: Kind, id: str) -> Credential:
        path = self.folder / f"{kind}-{id}.key" if self.folder else None
        if path is not None and path.exists():
            return Credential.load(path, kind)
        key = Credential.generate(kind, id)
        if path is not None:
            key.save(path)
        return key

    def sign(self, command: Any, *, staff: str, terminal: str, ledger: str,
             cosigners: Iterable[str] = ()) -> SignedCommand:
        """Signed by `staff` at `terminal` for the ledger whose id is `ledger`."""
        return sign(command, self.credential("terminal", terminal),
                    self.credential("staff", staff),
                    [self.credential("staff", c) for c in cosigners], ledger=ledger)


class Administrator:
    """Enrols a floor's staff and terminals as an administrator at their console would."""

    def __init__(self, ledger: Ledger, keyring: Keyring, staff_id: str, console: str) -> None:
        self.ledger, self.keyring = ledger, keyring
        self.staff_id, self.console = staff_id, console

    def send(self, command: Any) -> Recorded | None:
        """Record a registry change; one another administrator made meanwhile is left be."""
        try:
            return self.ledger.execute(
                self.keyring.sign(command, staff=self.staff_id, terminal=self.console,
                                  ledger=self.ledger.ledger_id))
        except WrongState:  # enrolled or registered by a concurrent setup: the same end
            return None

    def ensure_staff(self, staff_id: str, name: str, roles: Iterable[Role]) -> None:
        """Enrolled, holding at least these roles, with the keyring's key."""
        wanted = list(roles)
        key = self.keyring.credential("staff", staff_id).public_key
        member = self.ledger.staff(staff_id)
        if member is None:
            self.send(EnrolStaff(staff_id=staff_id, name=name, roles=wanted, public_key=key))
            return
        missing = [role for role in wanted if role not in member.roles]
        if missing:
            self.send(ChangeStaffRoles(staff_id=staff_id, roles=[*member.roles, *missing]))
        if member.public_key != key:
            self.send(ReplaceStaffKey(staff_id=staff_id, public_key=key))

    def ensure_terminal(self, terminal_id: str, kind: TerminalKind, location: str) -> None:
        if self.ledger.terminal(terminal_id) is None:
            key = self.keyring.credential("terminal", terminal_id).public_key
            self.send(RegisterTerminal(terminal_id=terminal_id, kind=kind, location=location,
                                       public_key=key))
