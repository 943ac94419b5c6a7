"""The simulator on a real PostgreSQL: the same seed gives the same ledger."""

from __future__ import annotations

import itertools
from datetime import date

from ledger.application.config import LedgerSettings
from ledger.audit.verification.verify import verify_ledger
from ledger.domain.round import Round, round_id
from ledger.domain.table import Table, table_id
from ledger.simulation.floor import floor_plan, run_floor
from projections.engine.runner import ProjectionRunner
from projections.registry import select
from projections.shifts.read import shift_report
from tests.signing import floor_staff, open_ledger, playing_other_days

DAY = date(2026, 11, 22)


def _simulate(settings: LedgerSettings):
    plan = floor_plan(8)
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)  # DAY is a fixed date, replayed whatever today is
        result = run_floor(rt.ledger, floor_staff(rt.ledger), plan, rounds=4, seed=11, day=DAY)
        assert not result.errors, result.errors
        rounds = {
            (spec.code, n): [(r.box, r.spot, r.player, r.stake, r.outcome, r.payout, r.commission)
                             for r in rt.ledger.load(Round, round_id(table_id(spec.code), n), "r").results]
            for spec in plan for n in range(1, 5)
        }
        with ProjectionRunner(rt.database, select()) as runner:
            runner.catch_up()
        with rt.database.connect() as conn:
            report = shift_report(conn, DAY, "day")
    return rounds, report


def test_two_simulations_with_the_same_seed_produce_identical_rounds_and_reports(
    settings, second_database
):
    first_rounds, first_report = _simulate(settings)
    second_rounds, second_report = _simulate(LedgerSettings(database_url=second_database.url))
    assert first_rounds == second_rounds
    assert first_report.model_dump() == second_report.model_dump()
    assert first_report.floor.variance == 0  # the simulated chips reconcile with the events


def _events(conn, event_type: str) -> list[tuple[str, int, dict]]:
    """(table code, round number or 0, body) of every event of one type, in ledger order."""
    return [(row[0], row[1], row[2]) for row in conn.execute(
        "SELECT coalesce(e.body ->> 'table', r.body ->> 'table'), "
        "coalesce((r.body ->> 'number')::int, 0), e.body FROM ledger_event_log e "
        "LEFT JOIN ledger_event_log r ON r.stream_id = e.stream_id AND r.version = 1 "
        "WHERE e.event_type = %s ORDER BY e.position", (event_type,),
    )]


def test_shuffler_tables_fail_now_and_then_and_the_next_shuffle_is_by_another_shuffler(settings):
    """Stud art. 11, 4) and Q Poker art. 11(5) as the floor lives them: the supervisor records
    the failure, the round is void (Stud jackpot bets carried), the unit is replaced."""
    plan = floor_plan(4, ("stud-poker", "q-poker"))
    assert [(spec.code, spec.shuffler) for spec in plan] == [
        ("SP-01", True), ("QP-01", True), ("SP-02", False), ("QP-02", False)]
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)  # DAY is a fixed date, replayed whatever today is
        result = run_floor(rt.ledger, floor_staff(rt.ledger), plan, rounds=12, seed=6, day=DAY, irregularity_rate=0.4)
        assert not result.errors, result.errors
        failures = {code: tally.shuffler_failures for code, tally in result.tables.items()}
        assert failures["SP-01"] > 0 and failures["QP-01"] > 0, failures
        assert failures["SP-02"] == failures["QP-02"] == 0
        with rt.database.connect() as conn:
            recorded = [(table, number, body) for table, number, body
                        in _events(conn, "Round.IrregularityRecorded")
                        if body["kind"] == "shuffler_failure"]
            voided = {(table, number) for table, number, _ in _events(conn, "Round.Voided")}
            shuffles = _events(conn, "Shoe.Shuffled")
            cuts = {table for table, _, body in _events(conn, "Shoe.CutMade")}
            carried = [body for table, _, body in _events(conn, "Round.BetSettled")
                       if table == "SP-01" and body["bet"]["outcome"] == "carried"]
            report = verify_ledger(conn)
    assert len(recorded) == failures["SP-01"] + failures["QP-01"]
    assert all(body["by"]["actor"]["role"] == "supervisor" for _, _, body in recorded)
    assert not [body["note"] for _, _, body in recorded if "after 0 cards" in body["note"]]
    assert {(table, number) for table, number, _ in recorded} <= voided
    for code in ("SP-01", "QP-01"):
        serials = [body["shuffler_serial"] for table, _, body in shuffles if table == code]
        assert all(body["method"] == "shuffler" for table, _, body in shuffles if table == code)
        assert len(set(serials)) == failures[code] + 1  # a new unit after each failure
        assert serials == sorted(serials, key=lambda s: int(s.rsplit("-", 1)[1]))
    assert {body["method"] for table, _, body in shuffles if table.endswith("02")} == {"hand"}
    assert cuts == {"SP-02", "QP-02"}  # by hand the dealer cuts; a shuffler's deck is not cut
    assert carried, "a Stud round voided mid-deal carries its jackpot bets"
    assert report.ok, [str(f) for f in report.failures]


def test_a_kept_tie_table_records_the_pushed_bets_again_in_the_next_coup(settings):
    """Baccarat art. 12(2) on the floor: BAC-02 keeps a tie's player and banker bets."""
    plan = floor_plan(2, ("baccarat",))
    assert [spec.settings for spec in plan] == [{"demonstration_coups": 1},
                                                {"tie_handling": "kept"}]
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)  # DAY is a fixed date, replayed whatever today is
        result = run_floor(rt.ledger, floor_staff(rt.ledger), plan, rounds=30, seed=5, day=DAY)
        assert not result.errors, result.errors
        coups = [rt.ledger.load(Round, round_id(table_id("BAC-02"), n), "coup") for n in range(1, 31)]
    kept = 0
    for coup, following in itertools.pairwise(coups):
        pushed = [(r.box, r.spot, r.stake, r.player) for r in coup.results if r.outcome == "pushed"]
        placed = [(b.box, b.spot, b.amount, b.player) for b in following.bets]
        assert all(bet in placed for bet in pushed), (coup.number, pushed, placed)
        kept += len(pushed)
    assert kept > 0


def test_the_simulated_floor_plays_a_demonstration_coup_at_each_shoes_start(settings):
    """Baccarat art. 2(2) on the floor: BAC-01 plays one demonstration coup, with no bet, after
    each shoe's burn and before its first coup; BAC-02 plays none."""
    plan = floor_plan(2, ("baccarat",))
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)
        result = run_floor(rt.ledger, floor_staff(rt.ledger), plan, rounds=8, seed=5, day=DAY)
        assert not result.errors, result.errors
        demonstrations = {code: [n for n in range(1, tally.rounds + tally.voids
                                                  + tally.demonstrations + 1)
                                 if rt.ledger.load(Round, round_id(table_id(code), n), "coup").demonstration]
                          for code, tally in result.tables.items()}
        first = rt.ledger.load(Round, round_id(table_id("BAC-01"), 1), "coup")
    assert demonstrations["BAC-01"] == [1] and demonstrations["BAC-02"] == []
    assert first.bets == [] and first.cards and first.results == []
    assert result.tables["BAC-01"].rounds + result.tables["BAC-01"].voids == 8


def test_a_second_simulated_day_opens_each_table_with_the_tray_its_closer_left(settings):
    """The opener counts what the last closer left: the next day's shifts hand over with no
    difference to flag, and the floor still reconciles to the cent."""
    from datetime import timedelta

    plan = floor_plan(4)
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)
        staff = floor_staff(rt.ledger)
        for day in (DAY, DAY + timedelta(days=1)):
            result = run_floor(rt.ledger, staff, plan, rounds=2, seed=5, day=day)
            assert not result.errors, result.errors
        with ProjectionRunner(rt.database, select()) as runner:
            runner.catch_up()
        with rt.database.connect() as conn:
            second = shift_report(conn, DAY + timedelta(days=1), "day")
            handed_over = conn.execute(
                "SELECT count(*) FROM ledger_event_log WHERE event_type = 'Shift.Opened' "
                "AND body ? 'previous_closing' AND body->'previous_closing' <> 'null'"
            ).fetchone()[0]
    assert handed_over == len(plan)  # each second-day opening recorded the closer's count
    assert not [flag for t in second.tables for flag in t.flags if "last closing" in flag]
    assert second.floor.variance == 0


def test_two_shifts_of_one_gaming_day_play_with_the_same_seed_without_sharing_a_command_id(
        settings):
    """The swing shift after the day shift, same seed: each command its own id (a shift's ids
    once collided with the previous shift's, and every table failed at its first shuffle)."""
    from datetime import datetime
    from datetime import time as clock
    from zoneinfo import ZoneInfo

    plan = floor_plan(4)
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)
        staff = floor_staff(rt.ledger)
        swing = datetime.combine(DAY, clock(14, 0), tzinfo=ZoneInfo("Asia/Macau"))
        for shift, starts in (("day", None), ("swing", swing)):
            result = run_floor(rt.ledger, staff, plan, rounds=2, seed=5, day=DAY, shift=shift,
                               starts_at=starts)
            assert not result.errors, result.errors
        with ProjectionRunner(rt.database, select()) as runner:
            runner.catch_up()
        with rt.database.connect() as conn:
            report = shift_report(conn, DAY, "swing")
    assert len(report.tables) == len(plan) and report.floor.variance == 0


def test_a_table_that_fails_mid_shift_is_wound_down_not_left_half_open(settings):
    """A table's terminal fails in the middle of a round: the round is voided, the shift
    counted and closed, the table closed; the failure is reported with the table's code."""
    from ledger.commands.round import PlaceBet

    class FailingTerminal:
        """The ledger, but BAC-01's fourth bet never arrives."""

        def __init__(self, ledger):
            self.ledger, self.bets = ledger, 0

        def execute(self, signed):
            body = signed.command
            if body.get("command") == "place_bet" and body.get("table") == "BAC-01":
                self.bets += 1
                if self.bets == 4:
                    raise RuntimeError("the dealer terminal lost its network")
            return self.ledger.execute(signed)

        def __getattr__(self, name):
            return getattr(self.ledger, name)

    assert PlaceBet.model_fields["command"].default == "place_bet"
    plan = floor_plan(2, ("baccarat",))
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)
        failing = FailingTerminal(rt.ledger)
        result = run_floor(failing, floor_staff(rt.ledger), plan, rounds=3, seed=5,
                           day=DAY)  # type: ignore[arg-type]
        assert len(result.errors) == 1 and result.errors[0].startswith("BAC-01: RuntimeError")
        for spec in plan:
            table = rt.ledger.load(Table, table_id(spec.code), spec.code)
            assert not table.is_open and table.current_round is None, spec.code
