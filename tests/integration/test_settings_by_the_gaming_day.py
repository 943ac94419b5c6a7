"""House settings are looked up by the gaming day the table's shift records, not by the UTC
date of the command: a setting "effective 1 December" holds from that gaming day's start
(06:00 Macau), which is still 30 November in UTC until 08:00 Macau. Commands recorded under
the first edition of the rule (their receipts name none) are executed again under it, so
`ledger verify` proves both."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from ledger.audit.verification.authorship import check_authorship
from ledger.commands.round import OpenRound, PlaceBet
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import ChangeTableSettings, OpenTable, SignInDealer
from ledger.core import clock as ledger_clock
from ledger.core.errors import RuleViolation
from ledger.core.formatting import MACAU
from tests.integration.helpers import DEALER, PIT_BOSS, open_shift
from tests.integration.round_helpers import Terminal
from tests.signing import open_ledger, playing_other_days

DAY = (ledger_clock.now() - timedelta(days=20)).astimezone(MACAU).date()  # the gaming day the change takes effect
OPENED = datetime(DAY.year, DAY.month, DAY.day, tzinfo=UTC) - timedelta(hours=1, minutes=30)
SEVEN_MACAU = OPENED + timedelta(minutes=30)  # 07:00 Macau on DAY: 23:00 UTC the day before


def _table(ledger, code: str) -> Terminal:
    """A baccarat table opened at 06:30 Macau on DAY, its shift of DAY open, a dealer in, and
    the supervisor's change (the maximum to 800.00, effective DAY) recorded at 07:00 Macau."""
    ledger.execute(OpenTable(table=code, game="baccarat", min_bet=Decimal("100.00"),
                             max_bet=Decimal("50000.00"), settings={"decks": 8},
                             actor=PIT_BOSS, terminal="pit-1", at=OPENED))
    ledger.execute(open_shift(code, gaming_day=DAY, at=OPENED))
    ledger.execute(SignInDealer(table=code, dealer_id=DEALER.staff_id, actor=PIT_BOSS,
                                terminal="pit-1", at=OPENED))
    table = Terminal(ledger, code)
    table.as_supervisor().send(ChangeTableSettings, settings={"max_bet": "800.00"},
                               effective_from=DAY, authorisation="DICJ-2026-12",
                               at=SEVEN_MACAU)
    table.send(ShuffleShoe, at=SEVEN_MACAU)
    table.send(CutShoe, cut_by="player at box 3", cut_card_position=404, at=SEVEN_MACAU)
    table.send(BurnCards, count=8, at=SEVEN_MACAU)
    table.send(OpenRound, at=SEVEN_MACAU)
    return table


def test_a_change_effective_on_a_gaming_day_recorded_at_seven_macau_applies_to_its_rounds(
        settings, superuser):
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)
        table = _table(rt.ledger, "BAC-01")
        assert table.round().house_settings.max_bet == Decimal("800.00")
        with pytest.raises(RuleViolation, match="800.00"):
            table.send(PlaceBet, box=1, spot="banker", amount=Decimal("1000.00"),
                       at=SEVEN_MACAU)
    assert check_authorship(superuser).failures == []


def test_rounds_recorded_under_the_first_edition_still_verify_beside_the_second(
        settings, superuser):
    """A round opened as the previous release opened it (by the UTC date: the old maximum),
    then one under today's rule, on the same ledger: verify proves each under its own."""
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)
        rt.ledger.inner.rules = 1
        old = _table(rt.ledger, "BAC-01")
        rt.ledger.inner.rules = 2
        new = _table(rt.ledger, "BAC-02")
        assert old.round().house_settings.max_bet == Decimal("50000.00")
        assert new.round().house_settings.max_bet == Decimal("800.00")
    opened = [row[0] for row in superuser.execute(
        "SELECT convert_from(state, 'UTF8')::jsonb ->> 'rules' FROM ledger_events WHERE "
        "convert_from(state, 'UTF8')::jsonb ->> 'command_type' = 'OpenRound' "
        "ORDER BY notification_id")]
    assert opened == [None, "2"]  # each receipt names the edition it was executed under
    assert check_authorship(superuser).failures == []

