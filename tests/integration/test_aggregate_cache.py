"""The aggregate cache on a real PostgreSQL: what a command changes and does not save never
reaches the cache, and terminals racing on one coup leave every cached stream equal to its
events."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from decimal import Decimal
from uuid import uuid4

import pytest
from eventsourcing.persistence import IntegrityError

from ledger.commands.round import OpenRound
from ledger.core.cards import Card
from ledger.domain.base import Provenance
from ledger.domain.round import Round, round_id
from ledger.domain.table import table_id
from tests.integration.helpers import DEALER
from tests.integration.round_helpers import Terminal, baccarat_table
from tests.signing import open_ledger

BY = Provenance(command_id=uuid4(), actor=DEALER, terminal="t",
                at=datetime(2026, 11, 22, tzinfo=UTC))


def test_a_stream_changed_and_not_saved_leaves_the_cached_stream_as_it_was(settings):
    with open_ledger(settings) as rt:
        table = baccarat_table(rt.ledger)
        table.send(OpenRound)
        table.bet(1, "banker", "500.00")
        round_, shoe = table.round(), table.shoe()
        round_.place_bet(box=2, spot="player", amount=Decimal("900.00"), player=None, by=BY)
        shoe.draw(position=shoe.position, card=Card.parse("AS"), round_id=round_.id, by=BY)
        assert len(table.round().bets) == 1  # the changes were never saved
        fresh = table.shoe()
        assert (fresh.position, len(fresh.drawn), sum(fresh.counts.values())) == (8, 0, 0)


def test_a_save_that_loses_a_race_leaves_the_cached_stream_equal_to_its_events(settings):
    with open_ledger(settings) as rt:
        table = baccarat_table(rt.ledger)
        table.send(OpenRound)
        first, second = table.round(), table.round()  # two terminals read version n
        first.place_bet(box=1, spot="banker", amount=Decimal("100.00"), player=None, by=BY)
        second.place_bet(box=2, spot="player", amount=Decimal("200.00"), player=None, by=BY)
        rt.ledger.app.save(first)
        with pytest.raises(IntegrityError):
            rt.ledger.app.save(second)
        repository = rt.ledger.app.repository
        cached = repository.get(first.id)
        assert vars(cached) == vars(repository.get(first.id, version=cached.version))
        assert [(bet.box, bet.spot) for bet in cached.bets] == [(1, "banker")]


def test_terminals_racing_on_one_coup_leave_every_cached_stream_equal_to_its_events(settings):
    """Seven terminals bet on one coup at once: most lose races on the round's stream, their
    changed copies are thrown away and the command is run again on the fresh state."""
    with open_ledger(settings) as rt:
        table = baccarat_table(rt.ledger)
        table.send(OpenRound)
        start = threading.Barrier(7)
        errors: list[str] = []

        def terminal(box: int) -> None:
            mine = Terminal(rt.ledger, table.table, DEALER, f"box-{box}")
            start.wait()
            for n in range(3):
                try:
                    mine.bet(box, ("banker", "player", "tie")[n], f"{100 * box}.00")
                except Exception as error:  # noqa: BLE001 - reported below
                    errors.append(f"{type(error).__name__}: {error}")

        threads = [threading.Thread(target=terminal, args=(box,)) for box in range(1, 8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors, errors
        repository = rt.ledger.app.repository
        coup = round_id(table_id(table.table), 1)
        assert len(rt.ledger.load(Round, coup, "the coup").bets) == 21
        with rt.database.connect() as conn:
            streams = conn.execute(
                "SELECT stream_id, max(version) FROM ledger_event_log GROUP BY 1").fetchall()
        for stream, version in streams:
            cached = repository.get(stream)
            rebuilt = repository.get(stream, version=version)  # from the events, no cache
            assert vars(cached) == vars(rebuilt), stream
