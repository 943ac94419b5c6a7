"""A stream's stored events folded into its aggregate, and a stream whose events do not fold
refused in one sentence (never a traceback): `Ledger.found` reads every aggregate through it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from eventsourcing.domain import OriginatorIDError, OriginatorVersionError
from pydantic import ValidationError

from ledger.core.errors import DamagedStream, describe_validation_error
from ledger.domain.base import Aggregate


def project(aggregate: Aggregate | None, events: Iterable[Any]) -> Aggregate | None:
    """The event store library's projector without its assert that each event meets a runtime
    protocol: `isinstance` against a typing `Protocol` scans the class's attributes, and was
    most of rebuilding a stream's Python. The ledger's events are its own classes, each
    a mutator by its base (`ledger.domain.base.Aggregate.Event`)."""
    for event in events:
        try:
            aggregate = event.mutate(aggregate)
        except (AssertionError, OriginatorVersionError, OriginatorIDError):
            raise _unfolded(aggregate, event) from None
    return aggregate


def _unfolded(aggregate: Any, event: Any) -> DamagedStream:
    """A stream whose stored events do not apply in order (a second creation, a version out
    of turn), refused in the one sentence the chain trigger's refusal has."""
    kind = type(event).__qualname__.split(".")[0]
    before = getattr(aggregate, "version", 0)
    return DamagedStream(
        f"{kind} {event.originator_id} is refused: its stored history does not chain (version "
        f"{event.originator_version} does not follow version {before}), so nothing was "
        "recorded on it; run `ledger verify` to name the damage")


def unreadable(stream_id: Any, error: Exception) -> DamagedStream:
    """A stream one of whose stored events cannot be read (not its event's fields, or a topic
    no class has), refused in one sentence naming it, as a stream that does not chain is."""
    said = describe_validation_error(error) if isinstance(error, ValidationError) else str(error)
    return DamagedStream(
        f"stream {stream_id} is refused: one of its stored events cannot be read ({said}), so "
        "nothing was recorded on it; run `ledger verify` to name the damage")
