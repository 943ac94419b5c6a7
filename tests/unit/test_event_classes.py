"""Each event class is defined once, as written, and a method marked `@applies` records its event
and replays from it (the event store library's copies of every event class were two
thirds of the classes a command's start defined)."""

from __future__ import annotations

from eventsourcing.domain import event

from ledger.domain.base import Aggregate, DomainEvent, applies, build_event_classes
from ledger.domain.round import Round
from ledger.domain.table import Table


class Tally(Aggregate):
    class Started(Aggregate.Created):
        name: str

    @event(Started)
    def __init__(self, name: str) -> None:
        self.name, self.total, self.note = name, 0, ""

    class Added(Aggregate.Event):
        amount: int
        note: str = "the event's default"

    @applies(Added)
    def add(self, amount: int, note: str = "the method's default", unused: int = 0) -> None:
        self.total += amount
        self.note = note


def _every_event_class() -> list[type]:
    found, pending = [], [DomainEvent]
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending.extend(cls.__subclasses__())
    return found


def test_each_event_class_is_defined_once_not_copied_for_its_stream():
    build_event_classes()
    names = [(cls.__module__, cls.__qualname__) for cls in _every_event_class()]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    assert Round.BetPlaced.__bases__ == (Aggregate.Event,)
    assert Table.Event is Round.Event is Aggregate.Event


def test_a_method_marked_applies_records_its_event_with_the_methods_defaults():
    tally = Tally(name="box 3")
    tally.add(5)
    tally.add(2, "given by position")
    tally.add(amount=1, note="given by name", unused=7)
    events = tally.collect_events()
    assert [type(e) for e in events[1:]] == [Tally.Added] * 3
    assert [(e.amount, e.note) for e in events[1:]] == [
        (5, "the method's default"), (2, "given by position"), (1, "given by name")]
    assert (tally.total, tally.note, tally.version) == (8, "given by name", 4)


def test_replaying_the_recorded_events_rebuilds_the_same_state():
    tally = Tally(name="box 3")
    tally.add(5)
    tally.add(3, "second")
    replayed = None
    for recorded in tally.collect_events():
        replayed = recorded.mutate(replayed)
    assert replayed is not None
    assert (replayed.name, replayed.total, replayed.note, replayed.version) == (
        "box 3", 8, "second", 2 + 1)


def test_each_event_class_names_the_type_the_store_keeps_it_under():
    from eventsourcing.utils import get_topic

    build_event_classes()
    for cls in _every_event_class()[1:]:
        assert cls.event_type == get_topic(cls).split(":")[1], cls  # `split_part(topic, ':', 2)`
    assert Round.BetPlaced.event_type == "Round.BetPlaced"


def test_the_offline_verifier_spells_the_key_events_as_their_classes_name_them():
    from ledger.audit.bundle_verify import KEY_EVENTS
    from ledger.domain.base import event_types
    from ledger.domain.registry import StaffMember

    assert KEY_EVENTS == event_types(StaffMember.Enrolled, StaffMember.KeyReplaced)
