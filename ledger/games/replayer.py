"""A round's facts replayed into a game engine's value, remembering the values replayed last.

The rules check a round at every command, each time from its first fact, so a round of n facts
cost n steps per command and n²/2 over the round. The engines' round values are frozen, so the
values replayed last can be shared: a round one fact longer than a value kept costs one step.
Values are kept by the facts themselves (the equipment or settings they start from and every
fact in order), never by a round's id, so a copy changed by a refused command can never be
taken for the round as recorded.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from ledger.games.facts import RoundFacts

Value = TypeVar("Value")
KEPT = 1024  # about sixteen values per table of a 64-table floor


class Replayer(Generic[Value]):
    """`replay(facts)`: `start(facts)`, then `step(value, kind, fact)` for each fact logged."""

    def __init__(self, start: Callable[[RoundFacts], Value],
                 step: Callable[[Value, str, Any], Value], kept: int = KEPT) -> None:
        self._start, self._step, self._most = start, step, kept
        self._kept: dict[Hashable, Value] = {}
        self._lock = threading.Lock()

    def __call__(self, facts: RoundFacts) -> Value:
        log = facts.log
        key = (facts.dealing, facts.settings, log)
        try:
            value = self._kept.get(key)
        except TypeError:  # settings holding something unhashable: replayed in full
            return self._replay(facts)
        if value is not None:
            return value
        before = self._kept.get((facts.dealing, facts.settings, log[:-1])) if log else None
        value = self._step(before, *log[-1]) if before is not None else self._replay(facts)
        with self._lock:
            if len(self._kept) >= self._most:
                del self._kept[next(iter(self._kept))]  # the oldest kept
            self._kept[key] = value
        return value

    def _replay(self, facts: RoundFacts) -> Value:
        value = self._start(facts)
        for kind, fact in facts.log:
            value = self._step(value, kind, fact)
        return value
