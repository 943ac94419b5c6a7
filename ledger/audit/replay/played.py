"""A round folded from its recorded events: the state the replay and the recall start from.

Folding never crashes on damage: an event that does not apply to the versions before it (two
swapped, one removed mid-stream) is a `DamagedStream`, a DISCREPANCY naming the stream, the
version and what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID

from psycopg import Connection

from ledger.audit.replay.check import Difference
from ledger.audit.replay.store import RecordedEvent, read_stream
from ledger.core.errors import DamagedStream, NotFound
from ledger.domain.base import DomainEvent, event_types
from ledger.domain.round import Round
from ledger.games.facts import RoundFacts

SETTLEMENT = frozenset(event_types(Round.BetSettled, Round.JackpotPrizeAwarded, Round.Settled,
                                   Round.Voided))

E = TypeVar("E", bound=DomainEvent)


@dataclass
class Played:
    """The round folded from its events, and its facts as they stood when settlement began."""

    round_: Round
    facts: RoundFacts
    settlement: RecordedEvent | None
    events: list[RecordedEvent]
    gaps: list[Difference] = field(default_factory=list)

    def last(self, kind: type[E]) -> E | None:
        """The round's last event of this class, if any."""
        return next((e.event for e in reversed(self.events) if isinstance(e.event, kind)), None)

    def finished_at(self) -> datetime | None:
        """When the round was settled or voided, as the terminal said."""
        for recorded in reversed(self.events):
            if isinstance(recorded.event, Round.Settled | Round.Voided) and recorded.by:
                return recorded.by.at
        return None


def play(events: list[RecordedEvent]) -> Played:
    round_: Any = None
    facts, settlement, gaps = None, None, []
    for recorded in events:
        if recorded.event_type in SETTLEMENT and settlement is None:
            facts, settlement = round_.facts(), recorded
        if round_ is not None and recorded.version != round_.version + 1:
            gaps.append(Difference(subject="round stream", field="version",
                                   recorded=f"{recorded.version}",
                                   recomputed=f"{round_.version + 1} (missing)"))
            round_.version = recorded.version - 1
        try:
            round_ = recorded.event.mutate(round_)
        except Exception as error:  # noqa: BLE001 - any failure to apply is damage to name, not a crash
            raise DamagedStream(
                f"DISCREPANCY: round stream {recorded.stream_id} version {recorded.version} "
                f"({recorded.event_type}, position {recorded.position}) does not apply to the "
                f"versions before it: {type(error).__name__}: {error}".rstrip(": ")
                + ". The stream was altered: run `ledger verify`.") from None
    return Played(round_, facts or round_.facts(), settlement, events, gaps)


def load_round(conn: Connection[Any], rid: UUID) -> Played:
    events = read_stream(conn, rid)
    if not events:
        raise NotFound(f"round {rid} is not in the ledger.")
    if events[0].event_type != Round.Opened.event_type:
        raise NotFound(f"stream {rid} is not a round: it begins with {events[0].event_type}.")
    return play(events)
