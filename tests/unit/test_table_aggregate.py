"""The Table aggregate's checks, without a database."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from uuid import uuid4

import pytest

from ledger.core.errors import InvalidInput, WrongState
from ledger.domain.base import Actor, Provenance, Role
from ledger.domain.table import Table, check_limits, check_table_code, table_id

BY = Provenance(command_id=uuid4(), actor=Actor(staff_id="PB-1", role=Role.PIT_BOSS),
                terminal="t", at=datetime(2026, 11, 22, tzinfo=UTC))


def _table() -> Table:
    return Table(code="BAC-01", game="baccarat", rule_set="baccarat/2004",
                 min_bet=Decimal("100.00"), max_bet=Decimal("500.00"), pit="A", settings={}, by=BY)


def test_a_tables_stream_id_follows_from_its_code():
    assert _table().id == table_id("BAC-01") != table_id("BAC-02")


def test_a_table_code_is_upper_cased_and_checked():
    assert check_table_code(" bac-01 ") == "BAC-01"
    with pytest.raises(InvalidInput, match="is not a table code"):
        check_table_code("BAC 01; DROP")


def test_limits_must_be_positive_and_in_order():
    with pytest.raises(InvalidInput, match="above zero"):
        check_limits(Decimal(0), Decimal(10))
    with pytest.raises(InvalidInput, match="above the table maximum"):
        check_limits(Decimal(20), Decimal(10))


def test_one_dealer_at_a_time():
    table = _table()
    table.sign_in(dealer_id="D-1", by=BY)
    with pytest.raises(WrongState, match="dealer D-1 is still signed in"):
        table.check_can_sign_in("D-2")
    with pytest.raises(WrongState, match="already signed in"):
        table.check_can_sign_in("D-1")


def test_a_dealer_not_at_the_table_cannot_sign_out():
    with pytest.raises(WrongState, match=r"dealer D-9 is not signed in .*no dealer is"):
        _table().check_can_sign_out("D-9")


def test_a_closed_table_takes_no_dealer_and_cannot_close_again():
    table = _table()
    table.close(by=BY)
    with pytest.raises(WrongState, match="is closed"):
        table.check_can_sign_in("D-1")
    with pytest.raises(WrongState, match="is not open"):
        table.check_can_close()


def test_an_open_table_cannot_be_opened_again():
    with pytest.raises(WrongState, match="already open"):
        _table().check_can_reopen()


def test_events_are_json_with_exact_amounts_and_who_did_it():
    event = _table().collect_events()[0]
    body = event.model_dump(mode="json")
    assert body["max_bet"] == "500.00"
    assert body["by"]["actor"] == {"staff_id": "PB-1", "role": "pit_boss"}
    assert type(event).model_validate_json(event.model_dump_json()) == event
