"""The simulated floor's money against what casinos report: players buy in, bet from their
stacks and walk away, so a shift's hold on the drop is a floor's, not -5,910% or 822%
(an in-memory ledger, fixed seeds)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest

from ledger.application.bus import EVERY_AREA, Bus
from ledger.application.ledger import Ledger, LedgerApplication
from ledger.cli.demo import IRREGULARITY_RATE, ROUNDS, SEED, TABLES
from ledger.core.expectation import Expectation
from ledger.domain.round import Round, round_id
from ledger.domain.table import Table, table_id
from ledger.simulation.bias import Bias
from ledger.simulation.floor import floor_plan, run_floor
from ledger.simulation.table import Tally
from projections.shifts.read import HOLD_LIMIT
from tests.odds import rounds_expectation
from tests.signing import floor_staff, playing_other_days

# its module fixture is built once: the file runs in one process when the run is spread
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("simulated-hold-on-the-drop")]

MONDAY = date(2026, 11, 2)
HOLD_ON_THE_DROP = {  # what casinos report, in percent of the drop: baccarat's; Caribbean
    # Stud's and three-card poker's for Stud Poker and Q Poker; a wheel game's (big six) for
    # Fortune 8, a one-card game with an edge of 1/13 on every bet
    "baccarat": (8, 20), "stud-poker": (15, 35), "q-poker": (15, 35), "fortune-8": (30, 55)}


def _ledger() -> Ledger:
    app = LedgerApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo",
                                 "AGGREGATE_CACHE_MAXSIZE": "5000"})
    ledger = Ledger(app, bus=Bus(EVERY_AREA))
    playing_other_days(ledger)  # a week of November, whatever today is
    return ledger


def _rounds(ledger: Ledger, code: str, tally: Tally) -> list[Round]:
    last = ledger.load(Table, table_id(code), code).round_count
    first = last - tally.rounds - tally.voids - tally.demonstrations
    return [ledger.load(Round, round_id(table_id(code), n), "round") for n in range(first + 1, last + 1)]


def _expected(rounds: list[Round]) -> Expectation:
    """The rounds' theoretical win and its variance, under each round's exact odds."""
    return rounds_expectation(r for r in rounds if r.phase == "settled")[0]


@pytest.fixture(scope="module")
def week():
    """One table of each game, a 100-round shift a day for seven days, the players still
    seated at a shift's end playing on into the next (as a floor's do: a shift's end is the
    books', not the players')."""
    ledger = _ledger()
    plan = floor_plan(4)
    staff = floor_staff(ledger)
    shifts, staying = [], {}
    for day in range(7):
        result = run_floor(ledger, staff, plan, rounds=100, seed=1000 + day,
                           day=MONDAY + timedelta(days=day), staying=staying)
        assert not result.errors, result.errors
        for spec in plan:
            tally = result.tables[spec.code]
            shifts.append((spec.game, tally,
                           _expected(_rounds(ledger, spec.code, tally)).expected))
    return shifts


def test_a_shifts_accounting_win_is_its_rounds_win_when_nobody_errs(week):
    for game, tally, _ in week:
        assert tally.accounting_win == tally.won, game
        assert tally.drop > 0 and tally.walked > 0


@pytest.mark.parametrize("game", list(HOLD_ON_THE_DROP))
def test_a_simulated_weeks_hold_on_the_drop_per_game_is_in_the_range_casinos_report(
        week, game):
    """The hold the games' edges give on the week's drop (the players' money, free of the
    cards' luck) is in the range casinos report for such a game; what the cards gave is
    within the whole drop."""
    drop = sum((tally.drop for g, tally, _ in week if g == game), Decimal(0))
    won = sum((tally.won for g, tally, _ in week if g == game), Decimal(0))
    expected = sum((theory for g, _, theory in week if g == game), Decimal(0))
    hold, held = expected / drop * 100, won / drop * 100
    low, high = HOLD_ON_THE_DROP[game]
    assert low <= hold <= high, f"{game}: expected hold {hold:.1f}% (held {held:.1f}%)"
    assert abs(held) <= HOLD_LIMIT, f"{game}: held {held:.1f}%"


def test_the_demos_floor_flags_no_table_for_a_hold_beyond_the_whole_drop():
    ledger = _ledger()
    result = run_floor(ledger, floor_staff(ledger), floor_plan(TABLES), rounds=ROUNDS,
                       seed=SEED, day=MONDAY, irregularity_rate=IRREGULARITY_RATE)
    assert not result.errors, result.errors
    holds = {code: (tally.accounting_win / tally.drop * 100).quantize(Decimal("0.01"))
             for code, tally in result.tables.items()}
    assert all(abs(hold) <= HOLD_LIMIT for hold in holds.values()), {
        code: hold for code, hold in holds.items() if abs(hold) > HOLD_LIMIT}
    assert all(tally.accounting_win == tally.won for tally in result.tables.values())


@pytest.mark.parametrize("game", ["fortune-8", "baccarat"])
def test_players_who_know_the_cards_are_caught_within_150_rounds(game):
    """A marked-cards table (one player knows the coming cards on 80% of rounds) is caught by
    the statistics within 150 rounds: its win lies below even the 99.99% band around the
    theoretical win of its handle (chance alone: under once in 10,000 times), though every bet
    was settled by the rules; a fair table of the same game and seed stays within its 95%."""
    ledger = _ledger()
    plan = floor_plan(2, (game,))
    marked, fair = plan[0].code, plan[1].code
    result = run_floor(ledger, floor_staff(ledger), plan, rounds=150, seed=77, day=MONDAY,
                       bias={marked: Bias("marked-cards", 0.8)})
    assert not result.errors, result.errors
    caught = _expected(_rounds(ledger, marked, result.tables[marked]))
    won = result.tables[marked].won
    assert won < caught.band(Decimal("0.9999"))[0] and caught.probability(won) < 1e-4
    honest = _expected(_rounds(ledger, fair, result.tables[fair]))
    assert not honest.outside(result.tables[fair].won)
