"""Every event the ledger records is, for each projection, either handled (by its handler, and
by its fold where it has one: a fold stands only beside its handler) or named here as ignored:
an event type added to the domain fails this test until each projection says which it is, and
`tests/integration/test_projection_folds.py` then compares the two paths on it."""

from __future__ import annotations

import pytest

from ledger.domain.base import Aggregate, DomainEvent, build_event_classes
from ledger.domain.gaming_day import GamingDay
from ledger.domain.investigation import Investigation
from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.receipt import CommandReceipt
from ledger.domain.registry import Registry, StaffMember, TerminalDevice
from ledger.domain.round import Round
from ledger.domain.shift import Shift
from ledger.domain.shoe import Shoe
from ledger.domain.table import Table
from projections.engine.base import Projection, literals
from projections.jackpot_pools import JackpotPools
from projections.registry import PROJECTIONS
from projections.shifts.report import ShiftReport
from projections.tables.state import TableState

NOBODYS = (CommandReceipt, Registry, StaffMember, TerminalDevice, GamingDay)
"""Streams no projection reads: receipts, the registry, the gaming days' own stream."""


def every(*streams: type) -> set[type[DomainEvent]]:
    return {value for stream in streams for value in vars(stream).values()
            if isinstance(value, type) and issubclass(value, DomainEvent)
            and value.__qualname__.startswith(f"{stream.__name__}.")}


IGNORED: dict[type[Projection], set[type[DomainEvent]]] = {
    TableState: every(*NOBODYS, JackpotPool, Shift, Investigation) | {
        Round.BetSettled, Round.BettingClosed, Round.DealModeAnnounced,
        Round.IrregularityRecorded, Shoe.Closed, Shoe.CutCardReached, Shoe.CutMade},
    ShiftReport: every(*NOBODYS, Shoe) | {
        JackpotPool.Adjusted, JackpotPool.Created, JackpotPool.JackpotHit,
        JackpotPool.JackpotReduced, JackpotPool.ResetToSeed, JackpotPool.TableLinked,
        Round.BetPlaced, Round.BettingClosed, Round.CardDealt, Round.DealModeAnnounced,
        Round.DealerRevealed, Round.DecisionMade, Shift.SlipRecorded,
        Table.Closed, Table.DealerSignedOut, Table.JackpotBetsCarried, Table.PoolLinked,
        Table.RoundFinished, Table.RoundStarted, Table.SettingsChanged, Table.ShiftClosed,
        Table.ShiftOpened, Table.ShoeStarted},
    JackpotPools: every(*NOBODYS, Table, Shoe, Round, Shift, Investigation),
}


def test_each_projection_handles_or_names_as_ignored_every_event_of_the_domain():
    build_event_classes()
    domain = every(Table, Shoe, Round, Shift, JackpotPool, Investigation, *NOBODYS)
    assert {Round.Settled, Shift.SlipRecorded, Registry.Bootstrapped} <= domain
    assert set(IGNORED) == set(PROJECTIONS)
    for projection, ignored in IGNORED.items():
        handled = {kind for kind in domain if kind.event_type in projection.handlers}
        assert handled & ignored == set(), projection.name
        assert sorted(k.event_type for k in domain - handled - ignored) == [], projection.name


def test_a_fold_waits_only_for_events_its_projection_handles():
    """A deferred fold is applied early before an event of a type it waits for; an event the
    projection ignores is passed over, so waiting for one would never apply it."""
    waited = [(projection.name, kind) for projection in PROJECTIONS
              for waits in projection.deferred.values() for kind in waits]
    assert (TableState.name, Round.CardExposed.event_type) in waited
    assert [(name, kind) for name, kind in waited
            if kind not in next(p for p in PROJECTIONS if p.name == name).handlers] == []


def test_a_statement_names_only_an_event_type_that_needs_no_quoting():
    class Odd(Aggregate.Event):  # defined in a function: its type is `test_….<locals>.Odd`
        pass

    assert literals(Round.Settled, Round.Voided) == "'Round.Settled', 'Round.Voided'"
    with pytest.raises(ValueError, match="not an event type a statement may name"):
        literals(Odd)
