"""The Table stream on a real PostgreSQL: idempotent commands, races, refusals that record nothing."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest

from ledger.commands.table import CloseTable, SignInDealer, SignOutDealer
from ledger.core.errors import InvalidInput, NotFound, WrongState
from ledger.domain.table import Table, table_id
from tests.integration.helpers import PIT_BOSS, open_table
from tests.signing import event_count as table_events
from tests.signing import open_ledger


def _event_count(superuser) -> int:
    return table_events(superuser)


def test_a_table_opens_with_its_game_rule_set_and_limits(settings):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("SP-01", game="stud-poker", rule_set="stud-poker/2003"))
        table = rt.ledger.load(Table, table_id("SP-01"), "table")
    assert (table.game, table.rule_set, table.min_bet, table.is_open) == (
        "stud-poker", "stud-poker/2003", Decimal("100.00"), True,
    )


def test_a_table_without_a_rule_set_gets_its_games_latest_version(settings):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("SP-02", game="stud-poker"))
        assert rt.ledger.load(Table, table_id("SP-02"), "table").rule_set == "stud-poker/2004"


def test_the_same_command_sent_twice_records_once(settings, superuser):
    command = open_table("BAC-02")
    with open_ledger(settings) as rt:
        first = rt.ledger.execute(command)
        before = _event_count(superuser)
        second = rt.ledger.execute(command)
    assert not first.duplicate and second.duplicate
    assert _event_count(superuser) == before


def test_a_closed_table_reopens_for_a_new_gaming_day(settings):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("FE-01", game="fortune-8"))
        rt.ledger.execute(CloseTable(table="FE-01", actor=PIT_BOSS))
        rt.ledger.execute(open_table("FE-01", game="fortune-8", max_bet=Decimal("20000.00")))
        table = rt.ledger.load(Table, table_id("FE-01"), "table")
    assert table.is_open and table.max_bet == Decimal("20000.00") and table.version == 3


@pytest.mark.parametrize(
    ("command", "error", "sentence"),
    [
        (lambda: open_table("X-1", game="roulette"), InvalidInput, "unknown game 'roulette'"),
        (lambda: open_table("X-1", game="baccarat", rule_set="baccarat/1999"), InvalidInput,
         "baccarat/1999"),
        (lambda: open_table("X-1", min_bet=Decimal("500.00"), max_bet=Decimal("100.00")),
         InvalidInput, "minimum MOP 500.00 is above the table maximum MOP 100.00"),
        (lambda: CloseTable(table="NOPE-1", actor=PIT_BOSS), NotFound, "table NOPE-1 does not exist"),
        (lambda: SignOutDealer(table="BAC-09", dealer_id="D-9", actor=PIT_BOSS), WrongState,
         "dealer D-9 is not signed in at table BAC-09"),
    ],
)
def test_bad_input_is_refused_with_a_sentence_and_records_nothing(
    settings, superuser, command, error, sentence
):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-09"))
        before = _event_count(superuser)
        with pytest.raises(error, match=sentence):
            rt.ledger.execute(command())
    assert _event_count(superuser) == before


def test_closing_a_closed_table_is_refused(settings):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-03"))
        rt.ledger.execute(CloseTable(table="BAC-03", actor=PIT_BOSS))
        with pytest.raises(WrongState, match="table BAC-03 is not open"):
            rt.ledger.execute(CloseTable(table="BAC-03", actor=PIT_BOSS))


def test_closing_a_table_signs_its_dealer_out(settings):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-04"))
        rt.ledger.execute(SignInDealer(table="BAC-04", dealer_id="D-1", actor=PIT_BOSS))
        result = rt.ledger.execute(CloseTable(table="BAC-04", actor=PIT_BOSS))
        assert [kind for _, _, kind in result.events][:2] == ["Table.DealerSignedOut", "Table.Closed"]
        assert rt.ledger.load(Table, table_id("BAC-04"), "table").dealer is None


def test_two_terminals_signing_dealers_in_at_once_leave_exactly_one_signed_in(settings):
    """Both race for the table's next version; the loser is re-checked and refused."""
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-05"))
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def terminal(dealer: str) -> None:
        with open_ledger(settings) as rt:
            barrier.wait()
            try:
                rt.ledger.execute(SignInDealer(table="BAC-05", dealer_id=dealer, actor=PIT_BOSS))
                outcomes.append(f"in:{dealer}")
            except WrongState as refused:
                outcomes.append(f"refused:{refused}")

    threads = [threading.Thread(target=terminal, args=(d,)) for d in ("D-1", "D-2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(o.split(":")[0] for o in outcomes) == ["in", "refused"]
    assert any("still signed in" in o for o in outcomes)
