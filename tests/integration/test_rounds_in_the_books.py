"""Nothing outside the books: a round opens only inside its table's open shift, one shift at a
time, and the opener's count is checked against the last closer's."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from psycopg.rows import dict_row

from ledger.audit.replay.recall import recall
from ledger.audit.verification.verify import verify_ledger
from ledger.commands.round import DealCard, OpenRound, PlaceBet, SettleRound, VoidRound
from ledger.commands.shift import CloseShift, EnterDrop, OpenShift
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import SignInDealer
from ledger.core import clock as ledger_clock
from ledger.core.errors import WrongState
from ledger.domain.base import Actor, Role
from ledger.domain.chips import parse_chips
from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
from ledger.domain.table import Table
from ledger.reports.shift import unassigned_lines
from projections.engine.runner import ProjectionRunner
from projections.shifts.read import shift_report, unassigned_rounds
from projections.shifts.report import ShiftReport
from tests.integration.helpers import DEALER, PIT_BOSS, open_table
from tests.signing import GAMING_DAY, event_count, open_ledger

COUNT = Actor(staff_id="C-1", role=Role.COUNT_TEAM)
WHERE = {"table": "BAC-01", "gaming_day": GAMING_DAY, "actor": PIT_BOSS, "terminal": "pit-1"}


def opening(shift: str, chips: str = "1000=50") -> OpenShift:
    return OpenShift(**WHERE, shift=shift, chips=parse_chips(chips), dealer_id=DEALER.staff_id,
                     supervisor=PIT_BOSS)


def closing(shift: str, chips: str = "1000=45") -> CloseShift:
    return CloseShift(**WHERE, shift=shift, chips=parse_chips(chips), dealer_id="D-2",
                      supervisor=PIT_BOSS)


@pytest.fixture
def ledger(settings):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table())
        rt.ledger.execute(SignInDealer(table="BAC-01", dealer_id=DEALER.staff_id, actor=PIT_BOSS,
                                       terminal="pit-1"))
        for command in (ShuffleShoe, CutShoe, BurnCards):
            fields = {CutShoe: {"cut_by": "dealer", "cut_card_position": 404},
                      BurnCards: {"count": 8}}.get(command, {})
            rt.ledger.execute(command(table="BAC-01", actor=DEALER, terminal="BAC-01-DT",
                                      **fields))
        yield rt.ledger


def open_round() -> OpenRound:
    return OpenRound(table="BAC-01", actor=DEALER, terminal="BAC-01-DT")


def test_a_round_does_not_open_at_a_table_whose_shift_is_not_open(ledger, superuser):
    before = event_count(superuser)
    with pytest.raises(WrongState, match="table BAC-01 has no shift open: open the shift "
                                         r"\(its opening inventory\) before the first round"):
        ledger.execute(open_round())
    assert event_count(superuser) == before
    ledger.execute(opening("day"))
    ledger.execute(open_round())  # the opener came first


def test_a_round_does_not_open_after_its_tables_shift_closed(ledger, superuser):
    ledger.execute(opening("day"))
    ledger.execute(closing("day"))
    before = event_count(superuser)
    with pytest.raises(WrongState, match="has no shift open"):
        ledger.execute(open_round())
    assert event_count(superuser) == before


def test_one_shift_at_a_time_is_open_at_a_table(ledger, superuser):
    ledger.execute(opening("day"))
    before = event_count(superuser)
    with pytest.raises(WrongState, match=f"the day shift of BAC-01 on {GAMING_DAY} is still "
                                         "open: close it"):
        ledger.execute(opening("swing"))
    assert event_count(superuser) == before


def test_a_shift_does_not_close_with_a_round_in_play(ledger, superuser):
    ledger.execute(opening("day"))
    ledger.execute(open_round())
    before = event_count(superuser)
    with pytest.raises(WrongState, match="round 1 in play: settle or void it before the "
                                         "shift's closing count"):
        ledger.execute(closing("day"))
    assert event_count(superuser) == before
    ledger.execute(VoidRound(table="BAC-01", reason="wrong_count", actor=PIT_BOSS,
                             terminal="pit-1"))
    ledger.execute(closing("day"))


def _report(database: object, shift: str):
    with ProjectionRunner(database, [ShiftReport]) as runner:
        runner.catch_up()
    with database.connect() as conn:
        return shift_report(conn, GAMING_DAY, shift).tables[0]


def test_an_opener_whose_count_differs_from_the_last_closer_is_recorded_and_flagged(
        ledger, database, superuser):
    ledger.execute(opening("day", "1000=50"))
    ledger.execute(closing("day", "1000=45"))
    ledger.execute(opening("swing", "1000=44,100=5"))  # one 1,000 chip short, five 100s more
    opened = superuser.execute(
        "SELECT convert_from(state, 'UTF8')::jsonb->'previous_closing' FROM ledger_events "
        "WHERE topic LIKE '%%:Shift.Opened' ORDER BY notification_id DESC LIMIT 1").fetchone()[0]
    assert {Decimal(d): n for d, n in opened.items()} == {Decimal(1000): 45}
    swing = _report(database, "swing")
    assert swing.opening == Decimal("44500.00")
    assert swing.previous_closing == Decimal("45000.00")
    assert ("the opening count MOP 44,500.00 differs from the last closing count MOP 45,000.00 "
            "at this table (by MOP -500.00)") in swing.flags


def test_the_count_handed_over_unchanged_is_not_flagged(ledger, database):
    ledger.execute(opening("day", "1000=50"))
    ledger.execute(closing("day", "1000=45"))
    ledger.execute(opening("swing", "1000=45"))
    ledger.execute(closing("swing", "1000=45"))
    ledger.execute(EnterDrop(**{**WHERE, "actor": COUNT}, shift="swing", cash="0", markers="0",
                             counted_by=("C-1", "C-2")))
    swing = _report(database, "swing")
    assert swing.previous_closing is None
    assert not [flag for flag in swing.flags if "last closing" in flag]


def _one_gaming_day_ahead() -> date:
    """The gaming day in force by the run's clock, an hour into its day shift
    (`tests/clock.py`): the test's rounds and shift all fall on it."""
    return ShiftSchedule.parse(DEFAULT_SCHEDULE).locate(ledger_clock.now()).gaming_day


def test_a_round_recorded_before_the_rule_is_listed_unassigned_and_verify_names_it(
        ledger, database, superuser, monkeypatch):
    """A ledger recorded before rounds were refused outside the books: its report lists the
    round as unassigned, and `ledger verify` no longer says all holds."""
    day = _one_gaming_day_ahead()
    with monkeypatch.context() as before_the_rule:
        before_the_rule.setattr(Table, "check_in_shift", lambda self: None)
        ledger.execute(open_round())
    ledger.execute(VoidRound(table="BAC-01", reason="wrong_count", actor=PIT_BOSS,
                             terminal="pit-1"))
    ledger.execute(opening("day").model_copy(update={"gaming_day": day}))
    ledger.execute(open_round())  # inside the day shift: not listed
    with ProjectionRunner(database, [ShiftReport]) as runner:
        runner.catch_up()
    with database.connect() as conn:
        view = shift_report(conn, day, "day")
        found = verify_ledger(conn, projections=False)
    assert [(r.table, r.number) for r in view.unassigned] == [("BAC-01", 1)]
    assert unassigned_lines(view)[0].startswith("round 1 at BAC-01, opened ")
    assert "Macau time, was played outside every shift" in unassigned_lines(view)[0]
    assert not found.ok
    assert [f.reason for f in found.failures if "outside every shift" in f.reason] == [
        ("round 1 of table BAC-01, opened at position "
        f"{_position_of_round(superuser, 1)}, was played outside every shift of its table: "
        "it is in no shift report")]


def _position_of_round(superuser: object, number: int) -> int:
    return superuser.execute(
        "SELECT notification_id FROM ledger_events WHERE topic LIKE '%%:Round.Opened' "
        "AND convert_from(state, 'UTF8')::jsonb->>'number' = %s", (str(number),)).fetchone()[0]


def test_a_round_outside_every_shift_at_three_in_the_morning_belongs_to_the_gaming_day_before(
        ledger, database, superuser, monkeypatch):
    """The gaming day starts with its first shift (06:00 Macau time by default), not at
    midnight: a round played at 03:00 on the 23rd is listed in the report of the 22nd."""
    with monkeypatch.context() as before_the_rule:
        before_the_rule.setattr(Table, "check_in_shift", lambda self: None)
        ledger.execute(open_round())
    with ProjectionRunner(database, [ShiftReport]) as runner:
        runner.catch_up()
    day = date(2026, 11, 22)
    listed = {}
    with database.connect() as conn:
        for moment in ("2026-11-23 03:00", "2026-11-23 05:59", "2026-11-23 06:00"):
            conn.execute("UPDATE report_rounds SET opened_at = %s::timestamp AT TIME ZONE "
                         "'Asia/Macau' WHERE shift_id IS NULL", (moment,))
            with conn.cursor(row_factory=dict_row) as cursor:
                listed[moment] = [
                    [r.number for r in unassigned_rounds(cursor, on, on)]
                    for on in (day, day + timedelta(days=1))]
            late = unassigned_rounds(conn.cursor(row_factory=dict_row), day, day,
                                     day_starts=timedelta(hours=2))
            listed[moment].append([r.number for r in late])
    assert listed == {"2026-11-23 03:00": [[1], [], []],
                      "2026-11-23 05:59": [[1], [], []],
                      "2026-11-23 06:00": [[], [1], []]}


def _banker_coup(ledger, stake: str) -> None:
    """A banker bet, and a coup the banker wins 4 to 3 (paid even money less 5% commission)."""
    dealer = {"table": "BAC-01", "actor": DEALER, "terminal": "BAC-01-DT"}
    ledger.execute(PlaceBet(**dealer, box=1, spot="banker", amount=Decimal(stake)))
    for to, card in (("player", "2S"), ("banker", "4H"), ("player", "2D"), ("banker", "KC"),
                     ("player", "9S")):
        ledger.execute(DealCard(**dealer, to=to, card=card))
    ledger.execute(SettleRound(**dealer))


def test_a_round_outside_every_shift_has_a_win_of_its_own_and_is_in_no_shifts_ledger_win(
        ledger, database, superuser, monkeypatch):
    """A round is in the figures of the shift it opened in; one opened outside every shift
    (a ledger recorded before the rule) is in none: the shift's ledger win is the sum of its
    own rounds' table wins, to the avo."""
    with monkeypatch.context() as before_the_rule:
        before_the_rule.setattr(Table, "check_in_shift", lambda self: None)
        ledger.execute(open_round())
    _banker_coup(ledger, "1000")
    ledger.execute(opening("day"))
    ledger.execute(open_round())
    _banker_coup(ledger, "200")
    line = _report(database, "day")
    with database.connect() as conn:
        wins = {r.number: r.win.table_win for r in recall(conn, "BAC-01").rounds if r.win}
    assert wins == {1: Decimal("-950.00"), 2: Decimal("-190.00")}
    assert line.ledger_win == wins[2]

