"""A round's win and a shift's win tie out: a table's rounds in a shift, as replay, recall and
`round show` give their wins, add up to the shift report's ledger win for that table, to the
avo, for every game. Jackpot stakes and prizes are kept apart on both sides; a voided round's
win is nothing; an adjustment recorded later is in the round's win and in its shift's.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal

import pytest

from ledger.application.ledger import Ledger
from ledger.audit.replay.recall import recall
from ledger.audit.replay.round import replay_round
from ledger.commands.round import AdjustRound
from ledger.domain.round import Round, round_id
from ledger.domain.table import table_id
from ledger.reports.round import round_view
from ledger.simulation.floor import GAME_ORDER, floor_plan, run_floor
from projections.engine.runner import ProjectionRunner
from projections.registry import select
from projections.shifts.read import shift_report
from tests.integration import replay_rounds as rounds
from tests.signing import GAMING_DAY, floor_staff, open_ledger, playing_other_days

D = Decimal
DAY = date(2026, 11, 22)
ROUNDS = 14


@pytest.fixture
def ledger(settings) -> Iterator[Ledger]:
    with open_ledger(settings) as rt:
        yield rt.ledger


def _catch_up(database) -> None:
    with ProjectionRunner(database, select()) as runner:
        runner.catch_up()


def _wins_by_every_reader(conn, ledger: Ledger, code: str) -> dict[str, Decimal]:
    """The sum of the table's round wins as recall, replay and `round show` give them."""
    recalled = recall(conn, code, last=1000).rounds
    shown = [round_view(ledger.load(Round, round_id(table_id(code), r.number), "round"))
             for r in recalled]
    return {
        "recall": sum((r.win.table_win for r in recalled if r.win), D(0)),
        "replay": sum((replay_round(conn, r.round_id).win.table_win  # type: ignore[union-attr]
                       for r in recalled), D(0)),
        "round show": sum((view["win"]["table_win"] for view in shown), D(0)),
    }


def test_a_tables_round_wins_add_up_to_its_shift_report_ledger_win_for_every_game(
    settings, database
):
    """A simulated day of every game, voids and jackpot bets among its rounds, and a round
    adjusted after the shift closed."""
    plan = floor_plan(len(GAME_ORDER))
    assert sorted(spec.game for spec in plan) == sorted(GAME_ORDER)
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)
        result = run_floor(rt.ledger, floor_staff(rt.ledger), plan, rounds=ROUNDS, seed=7,
                           day=DAY, irregularity_rate=0.2)
        assert not result.errors, result.errors
        baccarat = next(spec.code for spec in plan if spec.game == "baccarat")
        played = next(n for n in range(1, ROUNDS + 1) if rt.ledger.load(
            Round, round_id(table_id(baccarat), n), "round").results)
        bet = rt.ledger.load(Round, round_id(table_id(baccarat), played), "round").results[0]
        rt.ledger.execute(AdjustRound(
            table=baccarat, round=played, box=bet.box, spot=bet.spot, player=bet.player,
            amount=D("125.50"), reason="paid short", dispute="DSP-TIE-1",
            actor=rounds.SUPERVISOR, terminal="pit-1"))
        _catch_up(rt.database)
        with rt.database.connect() as conn:
            report = {t.table: t for t in shift_report(conn, DAY, "day").tables}
            wins = {spec.code: _wins_by_every_reader(conn, rt.ledger, spec.code)
                    for spec in plan}
            states = {spec.code: [r.status for r in recall(conn, spec.code, 1000).rounds]
                      for spec in plan}
    for spec in plan:
        line = report[spec.code]
        assert wins[spec.code] == dict.fromkeys(wins[spec.code], line.ledger_win), (
            spec.game, wins[spec.code], line.ledger_win)
        assert len(states[spec.code]) == line.rounds_played + line.rounds_voided
    assert any(report[spec.code].rounds_voided for spec in plan)  # voids were among them
    assert any(report[spec.code].jackpot_stakes for spec in plan)  # and jackpot bets


def test_a_jackpot_round_a_void_and_an_adjustment_tie_out_with_the_jackpot_kept_apart(
    ledger, database, superuser
):
    """Prizes won, jackpot bets carried by a void and played the round after, and a later
    adjustment: each table's round wins are its shift's ledger win, the jackpot's money its
    own figures."""
    jackpot_round = rounds.stud_jackpot_round(ledger, "SP-01")
    rounds.stud_void_then_carried(ledger, "SP-02")
    rounds.adjust(ledger, "SP-01", 1, 4, "ante", "100.00", "camera: box 4 was paid short")
    _catch_up(database)
    report = {t.table: t for t in shift_report(superuser, GAMING_DAY, "day").tables}
    for code in ("SP-01", "SP-02"):
        recalled = recall(superuser, code).rounds
        wins = [r.win for r in recalled if r.win]
        line = report[code]
        assert sum((w.table_win for w in wins), D(0)) == line.ledger_win
        assert sum((w.jackpot_stakes for w in wins), D(0)) == line.jackpot_stakes
        assert sum((w.jackpot_prizes for w in wins), D(0)) == line.jackpot_prizes
    win = replay_round(superuser, jackpot_round).win
    assert win is not None
    assert (win.jackpot_stakes, win.jackpot_prizes, win.adjustments) == (
        D("30.00"), D("25000.00"), D("100.00"))
    assert win.table_win == win.as_settled - D("100.00")


def test_a_round_in_play_has_no_win_yet_and_adds_nothing(ledger, superuser):
    dealer = rounds.baccarat_dealt(ledger)
    replayed = replay_round(superuser, dealer.round_id(1))
    assert replayed.win is not None and replayed.win.table_win == D("0.00")
    assert replayed.win.said == "in play (dealing): no win until it is settled"
    assert round_view(ledger.load(Round, dealer.round_id(1), "round"))["win"]["table_win"] == D("0.00")
