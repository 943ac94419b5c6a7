"""The registry as the door reads it under group commit: kept in memory, checked at the insert.

Every command names its terminal and its sender, and often a co-signer, a supervisor or a
dealer: reading each from the database is two or more round trips and a rebuilt aggregate per
command, most of the door's cost on a busy floor. With the group writer the door reads them
here instead, and each lookup is noted with the version it saw (`Reads`). The writer's insert
records the batch only if those versions are still the database's (`ledger.application.group_commit`): a
registry stream that moved (a suspension, a revoked terminal, a new key) is dropped
from memory, and the command is admitted again on the fresh registry, so a revocation takes
effect exactly as it does without the cache. Nothing that was refused is kept: an unknown id
is asked again the next time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from uuid import UUID

from ledger.domain.base import Aggregate, of_kind
from ledger.domain.registry import (
    StaffMember,
    TerminalDevice,
    staff_stream_id,
    terminal_stream_id,
)

MAX_ENTRIES = 10_000


class RegistryMoved(Exception):
    """A registry stream the door read from memory has moved on in the database: the command
    is admitted again (never shown to anyone)."""


class RegistryCache:
    """Staff members and terminals by stream id, at the version last read; least recently used
    dropped first."""

    def __init__(self, load: Callable[[UUID], Aggregate | None],
                 size: int = MAX_ENTRIES) -> None:
        self._load = load
        self._size = size
        self._entries: OrderedDict[UUID, Aggregate] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, stream_id: UUID) -> Aggregate | None:
        with self._lock:
            found = self._entries.get(stream_id)
            if found is not None:
                self._entries.move_to_end(stream_id)
                return found
        found = self._load(stream_id)
        if found is not None:
            with self._lock:
                self._entries[stream_id] = found
                while len(self._entries) > self._size:
                    self._entries.popitem(last=False)
        return found

    def held(self, stream_id: UUID) -> Aggregate | None:
        """The entry if it is in memory, without reading the database."""
        with self._lock:
            return self._entries.get(stream_id)

    def forget(self, stream_ids: Iterable[UUID]) -> None:
        with self._lock:
            for stream_id in stream_ids:
                self._entries.pop(stream_id, None)

    def reads(self) -> Reads:
        return Reads(self)


class Reads:
    """One admission's lookups: the door's `staff_of` and `terminal_of`, noting each stream and
    the version it was read at, for the writer to check."""

    def __init__(self, cache: RegistryCache) -> None:
        self.cache = cache
        self.versions: dict[UUID, int] = {}

    def staff(self, staff_id: str) -> StaffMember | None:
        stream = staff_stream_id(staff_id)
        return of_kind(StaffMember, self._read(stream), stream)

    def terminal(self, terminal_id: str) -> TerminalDevice | None:
        stream = terminal_stream_id(terminal_id)
        return of_kind(TerminalDevice, self._read(stream), stream)

    def _read(self, stream_id: UUID) -> Aggregate | None:
        found = self.cache.get(stream_id)
        if found is not None:
            self.versions[stream_id] = found.version
        return found
