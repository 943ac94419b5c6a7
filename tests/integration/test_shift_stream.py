"""The Shift stream on a real PostgreSQL: a whole shift, races, refusals that record nothing."""

from __future__ import annotations

import threading
from datetime import timedelta
from decimal import Decimal

import pytest

from ledger.commands.shift import (
    AdjustDrop,
    CloseShift,
    EnterDrop,
    OpenShift,
    RecordCredit,
    RecordFill,
    VoidSlip,
)
from ledger.core.errors import InvalidInput, NotAllowed, NotFound, RuleViolation, WrongState
from ledger.domain.base import Actor, Role
from ledger.domain.chips import parse_chips
from ledger.domain.shift import Shift, shift_id
from tests.integration.helpers import DEALER, PIT_BOSS, open_table
from tests.signing import GAMING_DAY, open_ledger
from tests.signing import event_count as table_events

DAY = GAMING_DAY
SUPERVISOR = Actor(staff_id="S-1", role=Role.SUPERVISOR)
COUNT = Actor(staff_id="C-1", role=Role.COUNT_TEAM)
WHERE = {"table": "BAC-01", "gaming_day": DAY, "shift": "day", "actor": PIT_BOSS,
         "terminal": "pit-1"}


def _event_count(superuser) -> int:
    return table_events(superuser)


def opening(chips: str = "1000=50", **overrides: object) -> OpenShift:
    fields = {**WHERE, "chips": parse_chips(chips), "dealer_id": "D-1", "supervisor": SUPERVISOR}
    return OpenShift(**{**fields, **overrides})


def fill(slip: int, chips: str, **overrides: object) -> RecordFill:
    fields = {**WHERE, "slip": slip, "chips": parse_chips(chips), "runner_id": "R-1",
              "supervisor": SUPERVISOR}
    return RecordFill(**{**fields, **overrides})


def credit(slip: int, chips: str) -> RecordCredit:
    return RecordCredit(**WHERE, slip=slip, chips=parse_chips(chips), runner_id="R-2",
                        supervisor=SUPERVISOR)


def drop(cash: str = "30000", markers: str = "5000") -> EnterDrop:
    return EnterDrop(**{**WHERE, "actor": COUNT}, cash=cash, markers=markers,
                     counted_by=("C-1", "C-2"))


def closing(chips: str = "1000=45", **overrides: object) -> CloseShift:
    fields = {**WHERE, "chips": parse_chips(chips), "dealer_id": "D-2", "supervisor": SUPERVISOR}
    return CloseShift(**{**fields, **overrides})


@pytest.fixture
def ledger(settings):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))
        yield rt.ledger


def test_a_whole_shift_is_recorded_and_reconciles_to_its_accounting_win(ledger):
    for command in (
        opening("1000=50"), fill(1043, "1000=20"), credit(1044, "5000=2"),
        fill(1045, "1000=99"), VoidSlip(**WHERE, slip=1045, reason="keyed twice"),
        drop("30000", "5000"), closing("1000=45"),
    ):
        ledger.execute(command)
    shift = ledger.load(Shift, shift_id("BAC-01", DAY, "day"), "shift")
    assert shift.is_closed and shift.version == 7
    assert (shift.opening_total, shift.fills_total, shift.credits_total, shift.drop_total,
            shift.closing_total) == (Decimal("50000.00"), Decimal("20000.00"),
                                     Decimal("10000.00"), Decimal("35000.00"),
                                     Decimal("45000.00"))
    assert shift.accounting_win == Decimal("20000.00")


def test_a_slips_amount_is_stored_computed_from_its_chips(ledger, superuser):
    ledger.execute(opening())
    ledger.execute(fill(1043, "1000=10,5000=2"))
    body = superuser.execute(
        "SELECT body FROM ledger_event_log WHERE event_type LIKE '%FillRecorded'"
    ).fetchone()[0]
    assert body["amount"] == "20000.00"
    assert body["chips"] == {"1000.00": 10, "5000.00": 2}
    assert body["supervisor"] == {"staff_id": "S-1", "role": "supervisor"}


def test_a_supervisor_corrects_the_drop_and_the_first_figures_stay_on_record(ledger):
    ledger.execute(opening())
    ledger.execute(drop("30000", "5000"))
    ledger.execute(AdjustDrop(**{**WHERE, "actor": SUPERVISOR}, cash="29000", markers="5000",
                              reason="count room recount"))
    shift = ledger.load(Shift, shift_id("BAC-01", DAY, "day"), "shift")
    assert shift.drop_total == Decimal("34000.00")
    kinds = [type(e).__name__ for e in ledger.stream_events(shift.id)]
    assert kinds == ["Opened", "DropEntered", "DropAdjusted"]


def _prepared(ledger, stage: str) -> None:
    """Bring the day shift of BAC-01 to a stage: none, open, filled, dropped, closed."""
    stages = {
        "open": [opening()],
        "filled": [opening(), fill(1043, "1000=10")],
        "dropped": [opening(), fill(1043, "1000=10"), drop()],
        "closed": [opening(), fill(1043, "1000=10"), drop(), closing()],
    }
    for command in stages.get(stage, []):
        ledger.execute(command)


@pytest.mark.parametrize(
    ("stage", "command", "error", "sentence"),
    [
        ("none", lambda: opening("100=40,7=3"), InvalidInput,
         "denomination 7.00 is not a chip of this casino: chips are 1, 5, 10, 25, 100"),
        ("filled", lambda: fill(1043, "1000=1"), RuleViolation,
         "slip 1043 was already recorded in this shift"),
        ("filled", lambda: fill(1045, "1000=1"), RuleViolation,
         ("slip 1045 is out of sequence: .* the next slip of the day shift of BAC-01 on "
          f"{DAY} is 1044")),
        ("none", lambda: closing(), NotFound,
         f"^the day shift of BAC-01 on {DAY} was never opened.$"),
        ("none", lambda: fill(1, "100=1"), NotFound, "was never opened"),
        ("none", lambda: opening(table="NOPE-1"), NotFound, "table NOPE-1 does not exist"),
        ("open", lambda: opening(), WrongState,
         f"day shift of BAC-01 on {DAY} is already open"),
        ("open", lambda: opening(shift="swing", supervisor=Actor(staff_id="D-9", role=Role.DEALER)),
         NotAllowed, "signing the opening inventory needs a supervisor or pit boss"),
        ("filled", lambda: fill(1044, "2=5"), InvalidInput,
         "denomination 2.00 is not a chip"),
        ("filled", lambda: VoidSlip(**{**WHERE, "actor": DEALER}, slip=1043, reason="oops"),
         NotAllowed, "voiding a slip needs a supervisor or pit boss"),
        ("filled", lambda: VoidSlip(**WHERE, slip=999, reason="oops"), NotFound,
         "no slip 999 was recorded"),
        ("dropped", lambda: drop(), WrongState, "was already entered"),
        ("dropped", lambda: closing("3=1"), InvalidInput, "denomination 3.00 is not a chip"),
        ("closed", lambda: fill(1044, "1000=1"), WrongState, "nothing more is recorded on it"),
        ("closed", lambda: closing(), WrongState, "was closed"),
        ("closed", lambda: VoidSlip(**WHERE, slip=1043, reason="late"), WrongState, "was closed"),
    ],
)
def test_bad_input_about_shifts_is_refused_with_a_sentence_and_records_nothing(
    ledger, superuser, stage, command, error, sentence
):
    _prepared(ledger, stage)
    before = _event_count(superuser)
    with pytest.raises(error, match=sentence):
        ledger.execute(command())
    assert _event_count(superuser) == before


def test_the_same_slip_sent_twice_records_once(ledger, superuser):
    ledger.execute(opening())
    command = fill(1043, "1000=10")
    ledger.execute(command)
    before = _event_count(superuser)
    assert ledger.execute(command).duplicate
    assert _event_count(superuser) == before


def test_shifts_of_the_same_table_are_separate_streams(ledger):
    ledger.execute(opening())
    ledger.execute(fill(1043, "100=1"))
    ledger.execute(closing())
    ledger.execute(opening(shift="swing"))
    ledger.execute(fill(7, "100=1", shift="swing"))  # each shift starts its own series
    ledger.execute(closing(shift="swing"))
    ledger.execute(opening(gaming_day=DAY + timedelta(days=1)))
    day = ledger.load(Shift, shift_id("BAC-01", DAY, "day"), "shift")
    swing = ledger.load(Shift, shift_id("BAC-01", DAY, "swing"), "shift")
    assert (day.next_slip, day.version, swing.next_slip) == (1044, 3, 8)


def test_two_terminals_recording_the_same_slip_number_leave_exactly_one(settings, ledger):
    """Both race for the shift's next version; the loser is re-checked and refused."""
    ledger.execute(opening())
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def terminal(runner: str) -> None:
        with open_ledger(settings) as rt:
            barrier.wait()
            try:
                rt.ledger.execute(fill(1043, "1000=1", runner_id=runner))
                outcomes.append("recorded")
            except RuleViolation as refused:
                outcomes.append(f"refused:{refused}")

    threads = [threading.Thread(target=terminal, args=(r,)) for r in ("R-1", "R-2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(o.split(":")[0] for o in outcomes) == ["recorded", "refused"]
    assert any("slip 1043 was already recorded" in o for o in outcomes)
