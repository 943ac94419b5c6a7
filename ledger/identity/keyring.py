"""A floor's keys in one place: the simulator's, the demo's and the tests' terminals and staff.

A real floor keeps each key on its own device or badge. A simulated floor holds them all, in
memory or in a folder of credential files (`<kind>-<id>.key`, readable by the owner alone);
`ledger.application.administration.Administrator` enrols what it needs through the administrator's own
signed commands, as a real administrator would.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

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
