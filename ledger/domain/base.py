"""Pydantic events and the aggregate base every stream of the ledger uses.

Events are frozen pydantic models, so their stored bodies are plain JSON (Decimal as an exact
string, cards as `AS`), readable with psql. Every event says who did it, from which terminal,
for which command: `by`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from copy import copy
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from functools import cache, cached_property, wraps
from importlib import import_module
from inspect import Parameter, signature
from typing import Annotated, Any, ClassVar, Self, TypeVar, cast
from uuid import UUID

from eventsourcing.domain import Aggregate as LibraryAggregate
from eventsourcing.domain import CanInitAggregate, CanMutateAggregate
from pydantic import BaseModel, BeforeValidator, ConfigDict, PlainSerializer

from ledger.core import clock
from ledger.core.cards import Card
from ledger.core.errors import NotAllowed, NotFound, WrongKind

CardCode = Annotated[
    Card,
    BeforeValidator(lambda value: value if isinstance(value, Card) else Card.parse(value)),
    PlainSerializer(str, return_type=str),
]
"""A card inside an event or command: stored and shown as `AS`."""


class Role(StrEnum):
    """The roles the staff registry gives; what each may record is `ledger.identity.authority`."""

    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    PIT_BOSS = "pit_boss"
    SURVEILLANCE = "surveillance"
    COUNT_TEAM = "count_team"
    CASHIER = "cashier"
    AUDITOR = "auditor"
    ADMINISTRATOR = "administrator"


SUPERVISING_ROLES = frozenset({Role.SUPERVISOR, Role.PIT_BOSS})


class Actor(BaseModel):
    """A member of staff acting through the ledger, in the role the registry gives them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    staff_id: str
    role: Role

    def __str__(self) -> str:
        return f"{self.role.value} {self.staff_id}"


def require_supervisor(actor: Actor, action: str) -> None:
    """Voids, adjustments and setting changes are a supervisor's or a pit boss's to make."""
    if actor.role not in SUPERVISING_ROLES:
        raise NotAllowed(f"{action} needs a supervisor or pit boss: {actor} cannot.")


class Provenance(BaseModel):
    """Who recorded an event, from where, for which command, and when they said it happened.

    `actor` and `terminal` are what the ledger verified, never what the command said: the
    fingerprints name the keys whose signatures it checked (`vouched` says when a terminal
    signed on a line's behalf, as `ledger ingest` does for an unsigned line)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    command_id: UUID
    actor: Actor
    terminal: str
    at: datetime
    staff_key: str | None = None
    terminal_key: str | None = None
    vouched: str | None = None


class KeepsDerived(BaseModel):
    """A frozen model that keeps what it derives from its fields (its `cached_property`s): a
    copy with changes drops them and derives its own, so a changed copy never carries the
    first one's (a command's provenance, an envelope's signed bytes)."""

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> Self:
        copied = super().model_copy(update=update, deep=deep)
        for name in _derived(type(self)):
            copied.__dict__.pop(name, None)
        return copied


@cache
def _derived(cls: type) -> tuple[str, ...]:
    return tuple({name for klass in cls.__mro__ for name, value in vars(klass).items()
                  if isinstance(value, cached_property)})


class DomainEvent(BaseModel):
    """The fields every event has. pydantic builds an event class's validator when the class is
    first used (`defer_build`), not when it is defined: a command loads a handful of the
    ledger's 64 event classes, and building them all was a fifth of a command's start."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    class_version: ClassVar[int] = 1
    event_type: ClassVar[str] = "DomainEvent"
    """The name the store keeps the event under, its topic without the module: `Round.Settled`.
    Projections, the audit and the words name an event by its class (`Round.Settled.event_type`),
    never by a string, so "go to definition" and a rename follow it."""
    originator_id: UUID
    originator_version: int
    timestamp: datetime

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls.event_type = cls.__qualname__

    @staticmethod
    def create_timestamp() -> datetime:
        """When the event was made: by the ledger's clock, as every other time it records."""
        return clock.now()


def event_types(*event_classes: type[DomainEvent]) -> tuple[str, ...]:
    """The types the store keeps these events under: `('Round.Settled', 'Round.Voided')`."""
    return tuple(cls.event_type for cls in event_classes)


_IMMUTABLE = frozenset({str, int, bool, float, type(None), Decimal, UUID, datetime, date, tuple,
                        frozenset})
"""Values an aggregate's copy shares as they are (the most common kinds, checked first)."""


class Aggregate(LibraryAggregate):
    """Base of every stream. Subclasses raise `LedgerError`s in `check_*` before mutating.

    State is held in attributes and top-level lists, dicts and sets whose values are either
    immutable (frozen models and dataclasses, tuples, strings, decimals, UUIDs) or never
    changed in place once stored (the settings and adjustment dicts, a slip's chip counts):
    mutators only assign attributes or add to those containers. That is what makes
    `__deepcopy__` safe.
    """

    class Event(DomainEvent, CanMutateAggregate[UUID]):
        def apply(self, aggregate: Any) -> None:
            """Runs the body of the aggregate's method marked `@applies` for this event, with
            the event's fields: when it is recorded, and when the stream is replayed."""
            applier = _APPLIERS.get(type(self))
            if applier is not None:
                method, names = applier
                method(aggregate, **{name: getattr(self, name) for name in names})

    class Created(Event, CanInitAggregate[UUID]):
        originator_topic: str

    @classmethod
    def missing(cls, what: str) -> NotFound:
        """`what` has no stream: the sentence every command says it in (`table XYZ-99 does not
        exist: ...`); a kind adds where to see the ones that do."""
        return NotFound(f"{what} does not exist.")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Every stream shares these two event bases. Without them on the class, the event store
        # library defines a per-stream `Event`, then each nested event a second time as its
        # subclass (and its `@event` decorator a third): two of every three event classes a
        # command's start defined were copies.
        for name in ("Event", "Created"):
            if name not in cls.__dict__:
                setattr(cls, name, getattr(Aggregate, name))
        super().__init_subclass__(**kwargs)

    def __deepcopy__(self, memo: dict[int, Any]) -> Aggregate:
        """The library copies every stream it hands out of its cache, so that a command refused
        half-way leaves the cache untouched. Copying each top-level container gives the same
        protection (the values inside are never changed in place) for a fraction of a deep
        copy's cost."""
        copied = object.__new__(type(self))
        attributes = self.__dict__.copy()
        for name, value in attributes.items():  # replacing values, never keys: safe in the loop
            kind = type(value)
            if kind in _IMMUTABLE:
                continue
            if kind is list or kind is dict or kind is set or isinstance(value, dict):
                attributes[name] = value.copy()  # a Counter's copy is a Counter
            elif isinstance(value, list | set):
                attributes[name] = copy(value)
        copied.__dict__ = attributes
        return copied


K = TypeVar("K", bound=Aggregate)
"""A kind of stream: `of_kind(Round, ...)` is a `Round`."""


def of_kind(kind: type[K], found: Aggregate | None, aggregate_id: UUID,
            what: str | None = None) -> K | None:
    """`found` as the kind asked for (None stays None); a stream of another kind is refused
    with `WrongKind`, in a sentence naming both kinds. Every unit of work
    (`ledger.application.handlers.unit_of_work.ReadsByKind`) and the door's registry read through
    it."""
    if found is None or isinstance(found, kind):
        return found
    asked, held = _a(kind), _a(type(found))
    if what is None:
        raise WrongKind(f"stream {aggregate_id} holds {held}, not {asked}.")
    raise WrongKind(f"{what} cannot be read as {asked}: its stream {aggregate_id} holds {held}.")


def _a(kind: type[Aggregate]) -> str:
    """The kind in words, with its article: `JackpotPool` is 'a jackpot pool'."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", kind.__name__).lower()
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"


_APPLIERS: dict[type, tuple[Callable[..., None], tuple[str, ...]]] = {}
"""Each event class and the method that applies it, with the names of its fields the method
takes."""

Method = TypeVar("Method", bound=Callable[..., None])


def applies(event_class: type[Aggregate.Event]) -> Callable[[Method], Method]:
    """Marks an aggregate method as the one that applies `event_class`: calling the method
    records the event, its fields taken from the method's arguments (with the method's defaults
    for any not given), and applying the event, now or when the stream is replayed, runs the
    method's body. The event store library's `@event` does the same by defining a subclass of
    the event; this uses the class as written, so each event is defined once (and the
    `__init__` that creates a stream keeps the library's `@event`)."""
    fields = frozenset(event_class.model_fields)

    def decorate(method: Method) -> Method:
        parameters = [p for p in signature(method).parameters.values() if p.name != "self"]
        names = tuple(p.name for p in parameters)
        defaults = {p.name: p.default for p in parameters
                    if p.default is not Parameter.empty and p.name in fields}
        _APPLIERS[event_class] = (method, tuple(name for name in names if name in fields))

        @wraps(method)
        def record(self: Aggregate, *args: Any, **kwargs: Any) -> None:
            if len(args) > len(names):
                raise TypeError(f"{method.__qualname__}() takes {len(names)} arguments")
            given = defaults.copy()
            given.update(zip(names, args))
            given.update(kwargs)
            self.trigger_event(event_class, **{name: value for name, value in given.items()
                                               if name in fields})

        return cast(Method, record)  # `wraps` keeps the method's name and signature

    return decorate


EVENT_MODULES = ("ledger.domain.table", "ledger.domain.shoe", "ledger.domain.round",
                 "ledger.domain.shift", "ledger.domain.gaming_day", "ledger.domain.jackpot_pool",
                 "ledger.domain.registry", "ledger.domain.receipt", "ledger.domain.investigation")
"""Every module that defines the ledger's events."""


def build_event_classes() -> int:
    """Builds every event class's validator now rather than at its first use, for a process
    that will record from many threads (the server, the simulator): its first commands then
    wait for no build. Returns how many classes were built."""
    for name in EVENT_MODULES:
        import_module(name)
    return build_deferred(DomainEvent)


def build_deferred(root: type[BaseModel]) -> int:
    """Builds `root` and every subclass pydantic has not built yet (`defer_build`); returns how
    many it built."""
    built = 0
    pending: list[type[BaseModel]] = [root]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if not cls.__pydantic_complete__:
            cls.model_rebuild()
            built += 1
    return built


def event_body(event: Any) -> dict[str, Any]:
    """An event's body as JSON-ready data, without the envelope fields."""
    body: dict[str, Any] = event.model_dump(mode="json")
    for key in ("originator_id", "originator_version", "timestamp", "originator_topic"):
        body.pop(key, None)
    return body
