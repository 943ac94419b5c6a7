"""Reconciliation with known figures: the events' win against the chips' and the drop's."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.commands.round import DealCard, OpenRound, PlaceBet, SettleRound
from ledger.commands.shift import CloseShift, EnterDrop, OpenShift, RecordCredit, RecordFill
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import OpenTable, SignInDealer, SignOutDealer
from ledger.core.errors import NotFound
from ledger.domain.base import Actor, Role
from ledger.pages.shift_report import to_html
from projections.engine.runner import ProjectionRunner
from projections.registry import select
from projections.shifts.read import shift_report
from tests.signing import GAMING_DAY, open_ledger

DAY = GAMING_DAY
DEALER = Actor(staff_id="D-1", role=Role.DEALER)
SUPERVISOR = Actor(staff_id="S-1", role=Role.SUPERVISOR)
COUNT = Actor(staff_id="C-1", role=Role.COUNT_TEAM)


def _coup(ledger, bets, cards):
    ledger.execute(OpenRound(table="BAC-R1", actor=DEALER))
    for box, spot, amount in bets:
        ledger.execute(PlaceBet(table="BAC-R1", box=box, spot=spot, amount=amount, actor=DEALER))
    for to, card in cards:
        ledger.execute(DealCard(table="BAC-R1", to=to, card=card, actor=DEALER))
    ledger.execute(SettleRound(table="BAC-R1", actor=DEALER))


def _shift_with(settings, *, record_fill: bool, drop_after_close: bool = False,
                relief: str | None = None):
    """Two coups the house wins 1,000.00 and loses 950.00 (ledger win 50.00); players buy in
    4,000.00 cash; a fill of 10,000.00 and a credit of 5,000.00. The closing count is what
    the chips must then be: 50,000 - 4,000 + 50 + 10,000 - 5,000 = 51,050.00."""
    shift = {"table": "BAC-R1", "gaming_day": DAY, "shift": "day"}
    with open_ledger(settings) as rt:
        ledger = rt.ledger
        ledger.execute(OpenTable(table="BAC-R1", game="baccarat", min_bet="100",
                                 max_bet="10000", actor=SUPERVISOR))
        ledger.execute(OpenShift(**shift, chips={"1000": 50}, dealer_id="D-1",
                                 supervisor=SUPERVISOR, actor=SUPERVISOR))
        ledger.execute(SignInDealer(table="BAC-R1", dealer_id="D-1", actor=SUPERVISOR))
        ledger.execute(ShuffleShoe(table="BAC-R1", actor=DEALER))
        ledger.execute(CutShoe(table="BAC-R1", cut_by="player on box 1", cut_card_position=404,
                               actor=DEALER))
        ledger.execute(BurnCards(table="BAC-R1", count=8, actor=DEALER))  # one per deck
        # player natural 9 against banker 7: player 1,000 paid, banker 2,000 lost: +1,000
        _coup(ledger, [(1, "player", "1000"), (2, "banker", "2000")],
              [("player", "9H"), ("banker", "2C"), ("player", "KD"), ("banker", "5S")])
        # banker natural 8 against player 5: banker 1,000 paid less 5% (50): -950
        _coup(ledger, [(1, "banker", "1000")],
              [("player", "2C"), ("banker", "4H"), ("player", "3D"), ("banker", "4S")])
        if relief:  # signs in after the last round, to close up: deals no round
            ledger.execute(SignOutDealer(table="BAC-R1", dealer_id="D-1", actor=SUPERVISOR))
            ledger.execute(SignInDealer(table="BAC-R1", dealer_id=relief, actor=SUPERVISOR))
        if record_fill:
            ledger.execute(RecordFill(**shift, slip=101, chips={"1000": 10}, runner_id="R-1",
                                      supervisor=SUPERVISOR, actor=SUPERVISOR))
        ledger.execute(RecordCredit(**shift, slip=102 if record_fill else 101,
                                    chips={"1000": 5}, runner_id="R-1", supervisor=SUPERVISOR,
                                    actor=SUPERVISOR))
        drop = EnterDrop(**shift, cash="4000", markers="0", counted_by=("C-1", "C-2"),
                         actor=COUNT)
        reports = []
        if not drop_after_close:
            ledger.execute(drop)
        ledger.execute(CloseShift(**shift, chips={"1000": 51, "25": 2}, dealer_id="D-1",
                                  supervisor=SUPERVISOR, actor=SUPERVISOR))
        if drop_after_close:  # the count room counts the drop box after the shift
            reports.append(_report(rt))
            ledger.execute(drop)
        reports.append(_report(rt))
        return reports if drop_after_close else reports[0]


def _report(rt):
    with ProjectionRunner(rt.database, select(["shift_report"])) as runner:
        runner.catch_up()
    with rt.database.connect() as conn:
        return shift_report(conn, DAY, "day")


def test_a_shift_whose_chips_and_drop_match_its_rounds_reconciles_to_zero(settings):
    report = _shift_with(settings, record_fill=True)
    table = report.tables[0]
    assert (table.ledger_win, table.accounting_win, table.variance) == (
        Decimal("50.00"), Decimal("50.00"), Decimal("0.00"))
    assert (table.rounds_played, table.commission, table.fills, table.credits) == (
        2, Decimal("50.00"), Decimal("10000.00"), Decimal("5000.00"))
    assert table.hold_pct == Decimal("1.25")  # 50 / 4,000
    assert {s.spot: s.handle for s in table.spots} == {
        "banker": Decimal("3000.00"), "player": Decimal("1000.00")}
    assert table.dealers == ["D-1"]
    assert report.floor.variance == Decimal("0.00")


def test_a_missing_fill_shows_as_exactly_that_variance(settings):
    report = _shift_with(settings, record_fill=False)
    table = report.tables[0]
    assert table.ledger_win == Decimal("50.00")
    assert table.variance == Decimal("10000.00")
    assert any("differ by MOP 10,000.00" in flag for flag in table.flags)


def test_a_hold_beyond_the_whole_drop_is_flagged(settings):
    """The demo once showed a hold of -5,910% under "ok": a win larger than the drop itself
    most often means the count, the inventories or the slips are wrong, whatever the band
    says."""
    missing_fill = _shift_with(settings, record_fill=False).tables[0]
    assert missing_fill.hold_pct == Decimal("251.25")  # 10,050 / 4,000
    assert ("hold 251.25% is beyond ±100%: the house won or lost more than the whole drop; "
            "check the count, the inventories and the slips (or chips brought from other "
            "tables)") in missing_fill.flags


def test_an_ordinary_hold_raises_no_hold_flag(settings):
    reconciled = _shift_with(settings, record_fill=True).tables[0]
    assert reconciled.hold_pct == Decimal("1.25")
    assert not [flag for flag in reconciled.flags if "hold" in flag]


def test_a_drop_counted_after_the_shift_closed_completes_its_accounting_win(settings):
    before, after = _shift_with(settings, record_fill=True, drop_after_close=True)
    pending = before.tables[0]
    assert pending.status == "closed" and pending.ledger_win == Decimal("50.00")
    assert (pending.accounting_win, pending.variance, before.floor.accounting_win) == (
        None, None, None)
    assert "drop not counted yet: no accounting win yet" in pending.flags
    assert (pending.drop, before.floor.drop, pending.hold_pct) == (None, None, None)
    counted = after.tables[0]
    assert (counted.accounting_win, counted.variance) == (Decimal("50.00"), Decimal("0.00"))
    assert counted.drop == after.floor.drop == Decimal("4000.00")
    assert not any("drop" in flag for flag in counted.flags)


def test_a_report_for_a_shift_that_does_not_exist_is_one_sentence(settings):
    with (open_ledger(settings) as rt, rt.database.connect() as conn,
          pytest.raises(NotFound, match=f"no night shift on {DAY} is in the ledger")):
        shift_report(conn, DAY, "night")


def test_a_shifts_dealers_are_who_dealt_its_rounds_and_a_relief_who_dealt_none_is_said_apart(
        settings):
    report = _shift_with(settings, record_fill=True, relief="D-2")
    table = report.tables[0]
    assert (table.dealers, table.dealt_no_round) == (["D-1"], ["D-2"])
    page = to_html(report, "Test property")
    assert "Signed in, dealt no round: D-2 at BAC-R1." in page


def test_signed_in_dealt_no_round_is_said_once_for_the_floor_not_on_every_tables_line(settings):
    page = to_html(_shift_with(settings, record_fill=True, relief="D-2"), "Test property")
    dealers = page[page.index('<table id="dealers">'):page.index('id="signatures"')]
    assert dealers.count("dealt no round") == 1
    assert dealers.index("</table>") < dealers.index("dealt no round")  # under the table
