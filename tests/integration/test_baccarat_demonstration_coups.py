"""Baccarat art. 2(2): "the house may play demonstration coups, up to three, at the start of
each shoe". A demonstration coup is dealt and settled like any coup, recorded and replayable,
but takes no bets and stays out of the table's results, recall and the shift's figures."""

from __future__ import annotations

from ledger.audit.replay.recall import recall
from ledger.audit.replay.round import Verdict, find_round, replay_round
from ledger.commands.round import OpenRound, PlaceBet, SettleRound
from ledger.core.errors import RuleViolation, WrongState
from projections.engine.runner import ProjectionRunner
from projections.queries import table_state
from projections.registry import PROJECTIONS
from projections.shifts.read import shift_report
from tests.integration.round_helpers import baccarat_table, refused
from tests.signing import GAMING_DAY, open_ledger

# player 2S 2D = 4 draws 9S (3); banker 4H KC = 4 stands on a 9: banker wins
COUP = (("player", "2S"), ("banker", "4H"), ("player", "2D"), ("banker", "KC"),
        ("player", "9S"))


def _demonstration(terminal) -> None:
    terminal.send(OpenRound, demonstration=True)
    terminal.deal(*COUP)
    terminal.send(SettleRound)


def test_a_demonstration_coup_is_dealt_and_settled_but_takes_no_bet(settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger, demonstration_coups=2)
        bac.send(OpenRound, demonstration=True)
        refused(bac, superuser, RuleViolation,
                r"BAC-01 demonstration coup 1 takes no bets \(art. 2\(2\)\)", PlaceBet,
                box=1, spot="banker", amount="1000")
        bac.deal(*COUP)
        recorded = bac.send(SettleRound)
        assert "banker wins, player 3 banker 4; player pair; house even" in recorded.summary()
        assert bac.round().demonstration and bac.round().results == []


def test_demonstration_coups_come_only_at_a_shoes_start_and_as_many_as_the_house_allows(
        settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger, demonstration_coups=1)
        _demonstration(bac)
        refused(bac, superuser, RuleViolation,
                r"house settings allow 1 demonstration coup a shoe \(art. 2\(2\) allows up "
                r"to 3\), and this shoe has had 1", OpenRound, demonstration=True)
        bac.send(OpenRound)  # the shoe's first real coup
        bac.send(PlaceBet, box=1, spot="banker", amount="1000")
        bac.deal(*COUP)
        bac.send(SettleRound)
        refused(bac, superuser, WrongState,
                "a demonstration coup is played only at the start of a shoe", OpenRound,
                demonstration=True)


def test_a_house_that_plays_no_demonstration_coup_is_refused_one(settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)  # demonstration_coups = 0, the default
        refused(bac, superuser, RuleViolation, "allow 0 demonstration coup", OpenRound,
                demonstration=True)


def test_a_demonstration_coup_is_replayable_and_out_of_results_recall_and_reports(settings):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger, demonstration_coups=3)
        _demonstration(bac)
        bac.send(OpenRound)
        bac.send(PlaceBet, box=1, spot="banker", amount="1000")
        bac.deal(*COUP)
        bac.send(SettleRound)
        with ProjectionRunner(rt.database, PROJECTIONS) as runner:
            runner.catch_up()
        with rt.database.connect() as conn:
            demonstration = replay_round(conn, find_round(conn, "BAC-01", 1))
            assert demonstration.check.verdict is Verdict.MATCH and demonstration.demonstration
            assert demonstration.outcome["winner"] == "banker" and demonstration.results == []
            recalled = recall(conn, "BAC-01")
            state = table_state(conn, "BAC-01")
            report = shift_report(conn, GAMING_DAY, "day")
    assert [r.number for r in recalled.rounds] == [2]
    assert [r.number for r in state.last_results] == [2]
    assert report.floor.rounds_played == 1 and report.unassigned == []
