"""Two terminals on one round, on a real PostgreSQL: one is recorded, the other is told why,
nothing is half-written.

Each terminal is a thread with its own `open_ledger(settings)` (its own connection pool), held
at a barrier so both send at the same moment.
"""

from __future__ import annotations

import threading
from decimal import Decimal
from typing import Any

import pytest

from ledger.application.ledger import Recorded
from ledger.commands import Command
from ledger.commands.round import DealCard, OpenRound, PlaceBet
from ledger.core.errors import ConcurrencyConflict, LedgerError, RuleViolation
from ledger.domain.base import Actor
from tests.integration.helpers import DEALER
from tests.integration.round_helpers import (
    Terminal,
    baccarat_table,
    event_bodies,
    event_count,
    q_poker_table,
)
from tests.signing import open_ledger

D = Decimal


def race(settings, *commands: Command) -> list[Recorded | LedgerError]:
    """Each command sent by its own terminal, all at once; what each terminal got back."""
    barrier = threading.Barrier(len(commands))
    outcomes: list[Any] = [None] * len(commands)

    def terminal(index: int, command: Command) -> None:
        with open_ledger(settings) as rt:
            barrier.wait()
            try:
                outcomes[index] = rt.ledger.execute(command)
            except LedgerError as error:
                outcomes[index] = error

    threads = [threading.Thread(target=terminal, args=pair) for pair in enumerate(commands)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def bet(table: str, box: int, spot: str, amount: str, terminal: str, **fields: Any) -> PlaceBet:
    return PlaceBet(table=table, box=box, spot=spot, amount=D(amount), actor=DEALER,
                    terminal=terminal, **fields)


def card(table: str, to: str, code: str, terminal: str, actor: Actor = DEALER,
         **fields: Any) -> DealCard:
    return DealCard(table=table, to=to, card=code, actor=actor, terminal=terminal, **fields)


@pytest.mark.parametrize("attempt", range(3))
def test_two_terminals_betting_on_the_version_they_read_one_is_recorded_one_conflicts(
    settings, superuser, attempt
):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        seen = bac.round().version
    before = event_count(superuser)

    outcomes = race(
        settings,
        bet("BAC-01", 1, "banker", "1000.00", "BAC-01-box-1", expected_version=seen),
        bet("BAC-01", 2, "player", "2000.00", "BAC-01-box-2", expected_version=seen),
    )

    recorded = [o for o in outcomes if isinstance(o, Recorded)]
    conflicts = [o for o in outcomes if isinstance(o, ConcurrencyConflict)]
    assert len(recorded) == 1 and len(conflicts) == 1, outcomes
    assert str(conflicts[0]) == (
        f"BAC-01 round 1 changed since this terminal read it (version {seen}, now {seen + 1}): "
        "nothing was recorded; refresh and send again."
    )
    assert event_count(superuser) == before + 2  # BetPlaced and the winner's receipt
    with open_ledger(settings) as rt:
        bets = Terminal(rt.ledger, "BAC-01").round().bets
    assert len(bets) == 1


def test_two_terminals_dealing_the_same_card_slot_leave_one_card_in_the_round_and_the_shoe(
    settings, superuser
):
    with open_ledger(settings) as rt:
        qp = q_poker_table(rt.ledger)
        qp.bet(1, "play", "200.00")
        seen = qp.round().version
    before = event_count(superuser)

    outcomes = race(
        settings,
        card("QP-01", "box:1", "AS", "QP-01-shoe", expected_version=seen),
        card("QP-01", "box:1", "KS", "QP-01-dealer", expected_version=seen),
    )

    assert sorted(type(o).__name__ for o in outcomes) == ["ConcurrencyConflict", "Recorded"]
    assert event_count(superuser) == before + 3  # CardDealt, CardDrawn, the receipt
    with open_ledger(settings) as rt:
        qp = Terminal(rt.ledger, "QP-01")
        round_, shoe = qp.round(), qp.shoe()
    assert len(round_.cards) == 1 and len(shoe.drawn) == 1 and shoe.position == 1
    assert round_.cards[0].card == shoe.drawn[0][1]
    assert len(event_bodies(superuser, "Shoe.CardDrawn")) == 1


def test_a_terminal_that_loses_a_race_without_a_version_is_rechecked_and_refused_by_the_tableau(
    settings, superuser
):
    """Both deal the coup's first card to the player: the second is re-checked on the fresh
    round, where the next card goes to the banker, and is refused with that reason."""
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        bac.bet(1, "player", "100.00")
    before = event_count(superuser)

    outcomes = race(settings, card("BAC-01", "player", "4S", "BAC-01-shoe"),
                    card("BAC-01", "player", "9D", "BAC-01-dealer"))

    refusals = [o for o in outcomes if isinstance(o, RuleViolation)]
    assert len(refusals) == 1 and sum(isinstance(o, Recorded) for o in outcomes) == 1, outcomes
    assert "the next card goes to the banker" in str(refusals[0])
    assert event_count(superuser) == before + 3


def test_bets_from_two_terminals_on_different_boxes_are_both_recorded_after_a_safe_retry(
    settings, superuser
):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
    outcomes = race(settings, *(bet("BAC-01", box, "banker", "100.00", f"BAC-01-box-{box}")
                                for box in (1, 2, 3, 4)))
    assert all(isinstance(o, Recorded) and not o.duplicate for o in outcomes), outcomes
    with open_ledger(settings) as rt:
        round_ = Terminal(rt.ledger, "BAC-01").round()
    assert sorted(b.box for b in round_.bets) == [1, 2, 3, 4]
    assert round_.version == 1 + 4


def test_the_same_command_sent_twice_records_once(settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        command = bet("BAC-01", 1, "banker", "500.00", "BAC-01-box-1")
        first = rt.ledger.execute(command)
        after_first = event_count(superuser)
        second = rt.ledger.execute(command)
        assert not first.duplicate and second.duplicate
        assert second.summary() == f"command {command.command_id} was already recorded: nothing new"
        assert event_count(superuser) == after_first
        assert len(Terminal(rt.ledger, "BAC-01").round().bets) == 1


@pytest.mark.parametrize("attempt", range(5))
def test_the_same_command_from_two_terminals_at_once_records_once(settings, superuser, attempt):
    """Whichever way the two interleave (the second may even be checked against the round the
    first already changed), the command is recorded once and both are told so."""
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        bac.bet(1, "player", "100.00")
    command = card("BAC-01", "player", "4S", "BAC-01-shoe")
    before = event_count(superuser)

    outcomes = race(settings, command, command)

    assert all(isinstance(o, Recorded) for o in outcomes), outcomes
    assert sorted(o.duplicate for o in outcomes if isinstance(o, Recorded)) == [False, True]
    assert event_count(superuser) == before + 3
    with open_ledger(settings) as rt:
        assert len(Terminal(rt.ledger, "BAC-01").round().cards) == 1


def test_a_command_recorded_by_another_terminal_while_it_was_checked_is_not_refused(
    settings, superuser
):
    """The interleaving the race above may hit: terminal B finds no receipt, terminal A records
    the very same command, then B checks it against the round A changed (where the player's
    card is no longer due). B is told the command is recorded, not that it breaks art. 7."""
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        bac.bet(1, "player", "100.00")
    command = card("BAC-01", "player", "4S", "BAC-01-shoe")
    alone = settings.model_copy(update={"group_commit": False})  # B checks its receipt first
    with open_ledger(settings) as a, open_ledger(alone) as b:
        receipt_lookups: list[object] = []
        unpatched = b.ledger.inner.is_recorded

        def a_records_it_just_after_b_looks(looked_up):  # type: ignore[no-untyped-def]
            found = unpatched(looked_up)
            if looked_up.command_id == command.command_id:
                receipt_lookups.append(looked_up.command_id)
                if len(receipt_lookups) == 1:
                    a.ledger.execute(command)
            return found

        b.ledger.inner.is_recorded = a_records_it_just_after_b_looks  # type: ignore[method-assign]
        before = event_count(superuser) + 3  # what A records
        outcome = b.ledger.execute(command)
    assert outcome.duplicate
    assert event_count(superuser) == before


def test_a_command_another_terminal_records_while_it_waits_in_a_batch_is_already_recorded(
    settings, superuser
):
    """The same interleaving through the group writer, which checks no receipt before the
    insert: A records the command after B's writer checked it and before B's insert. The
    insert meets A's receipt, and B is told the command is recorded, once."""
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        bac.bet(1, "player", "100.00")
    command = card("BAC-01", "player", "4S", "BAC-01-shoe")
    with open_ledger(settings) as a, open_ledger(settings) as b:
        assert b.ledger.inner.writer is not None
        store = b.ledger.inner.app.events  # where B's writer and B alone put events
        real_put, saves = store.put, []

        def a_records_it_first(events, **kwargs):  # type: ignore[no-untyped-def]
            saves.append(len(events))
            if len(saves) == 1:
                a.ledger.execute(command)
            return real_put(events, **kwargs)

        store.put = a_records_it_first  # type: ignore[method-assign]
        before = event_count(superuser) + 3  # what A records
        outcome = b.ledger.execute(command)
    assert outcome.duplicate and len(saves) == 1  # the batch's insert, refused whole
    assert event_count(superuser) == before


def test_a_command_for_a_round_no_longer_in_play_is_a_conflict(settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        before = event_count(superuser)
        with pytest.raises(ConcurrencyConflict, match="round 2 is not in play at table BAC-01: "
                           "round 1 is. Nothing was recorded."):
            bac.send(PlaceBet, box=1, spot="tie", amount=D("100.00"), round=2)
        assert event_count(superuser) == before
