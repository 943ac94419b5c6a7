"""Game protection on a simulated floor with its planted cases (an in-memory ledger, a fixed
seed): six tables (two each of baccarat, Stud Poker and Q Poker) play 500 rounds each, about
a shift of a small floor, at the demo's irregularity rate. An informed bettor at BAC-01, a
lucky streak at BAC-02 and a dealer misdealing at three times the rate at SP-01 sit beside fair
players. A shift is enough for the planted cases to stand out and for the fair ones to show how
often chance alone raises a flag; `scripts/simulate-month` plays a month of them."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime
from decimal import Decimal
from random import Random

import pytest

from ledger.application.bus import EVERY_AREA, Bus
from ledger.application.ledger import Ledger, LedgerApplication
from ledger.audit.protection.coups import Coup, Wager, coup_of
from ledger.audit.protection.signals import ALPHA, Signal, every_test, informed, results
from ledger.domain.round import round_id
from ledger.domain.table import table_id
from ledger.simulation.bias import STREAK, Bias
from ledger.simulation.floor import floor_plan, run_floor
from tests.signing import floor_staff, playing_other_days

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("game-protection")]

ROUNDS = 500
AT = datetime(2026, 11, 22, 1, 0, tzinfo=UTC)
PLANTED = {"BAC-01": Bias("informed-bettor", 0.3), "BAC-02": Bias("lucky-streak"),
           "SP-01": Bias("misdealer")}


@pytest.fixture(scope="module")
def period() -> tuple[list[Coup], list[Signal]]:
    app = LedgerApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo",
                                 "AGGREGATE_CACHE_MAXSIZE": "5000"})
    ledger = Ledger(app, bus=Bus(EVERY_AREA))
    playing_other_days(ledger)
    plan = floor_plan(6, ("baccarat", "stud-poker", "q-poker"))
    result = run_floor(ledger, floor_staff(ledger), plan, rounds=ROUNDS, seed=20261122,
                       day=date(2026, 11, 22), bias=PLANTED, irregularity_rate=0.05)
    assert not result.errors, result.errors
    coups = []
    for spec in plan:
        number = 1
        while ledger.exists(rid := round_id(table_id(spec.code), number)):
            coup = coup_of(ledger.stream_events(rid))  # None: a demonstration coup
            coups += [coup] if coup is not None else []
            number += 1
    assert len(coups) >= 6 * ROUNDS
    return coups, every_test(coups)


def _flagged(tests: list[Signal], subject: str, signal: str) -> bool:
    return any(t.flagged for t in tests if t.subject == subject and t.signal == signal)


def test_the_informed_bettor_is_flagged_for_stakes_that_follow_the_coming_cards(period):
    _, tests = period
    assert _flagged(tests, "player INFORMED-BAC-01", "informed")


def test_the_dealer_misdealing_at_three_times_the_rate_is_flagged(period):
    _, tests = period
    assert _flagged(tests, "dealer D-SP-01-2", "irregularity")


def test_the_lucky_streak_is_not_flagged_though_it_won_six_coups_running(period):
    coups, tests = period
    streak = [w for c in coups if c.table == "BAC-02" and c.number in STREAK
              for w in c.wagers if w.player == "LUCKY-BAC-02"]
    assert streak and all(w.outcome in ("won", "pushed") for w in streak)
    assert not [t for t in tests if t.flagged and "LUCKY" in t.subject]


def test_fair_players_boxes_and_dealers_are_flagged_no_more_often_than_chance_allows(period):
    """Holm's correction holds the chance of any false flag in the period at 1%, so no fair
    subject is flagged; uncorrected, about 5% of fair tests fall below 5% (within three
    standard errors of it)."""
    _, tests = period
    planted = ("INFORMED", "BAC-01", "D-SP-01-2", "LUCKY", "box 7 at BAC-02")
    fair = [t for t in tests if not any(mark in t.subject for mark in planted)]
    assert not [t.subject for t in fair if t.flagged]
    share = sum(t.probability <= 0.05 for t in fair) / len(fair)
    assert len(fair) > 300
    assert share <= 0.05 + 3 * (0.05 * 0.95 / len(fair)) ** 0.5, share
    assert ALPHA == 0.01


def _fair_bettor(rng: Random, name: str, coups: int) -> list[Coup]:
    """A bettor on the banker, the player or the tie at stakes of their own whim, on coups
    whose winner falls with baccarat's exact chances: fair play by construction."""
    played = []
    for n in range(coups):
        winner = rng.choices(("banker", "player", "tie"), weights=(458597, 446247, 95156))[0]
        spot = rng.choices(("banker", "player", "tie"), weights=(46, 40, 6))[0]
        stake = Decimal(100 * rng.choice((1, 1, 2, 3, 5, 10)))
        if spot == winner:
            result, outcome = stake * {"banker": Decimal("0.95"), "player": 1, "tie": 8}[spot], "won"
        elif winner == "tie":
            result, outcome = Decimal(0), "pushed"
        else:
            result, outcome = -stake, "lost"
        wager = Wager(1, spot, name, stake, result, outcome)
        played.append(Coup(table=name, number=n, game="baccarat", gaming_day=date(2026, 11, 22), opened_at=AT,
                           dealer="D-1", settings=None, wagers=(wager,),
                           placed=(Wager(1, spot, name, stake, Decimal(0), ""),)))
    return played


def test_fair_bettors_fall_below_a_chance_of_5_percent_about_5_percent_of_the_time():
    """400 fair bettors of 120 coups each: the share whose result, and whose stakes against
    the coups' values, fall below a chance of 5% is 5% within three standard errors; below
    1%, 1% likewise (the tests say what they mean by their chances)."""
    rng = Random(20261129)
    coups = [c for n in range(400) for c in _fair_bettor(rng, f"T{n}", 120)]
    for tests in (results(coups), informed(coups)):
        tests = [t for t in tests if t.subject.startswith("player")]
        assert len(tests) == 400
        for level in (0.05, 0.01):
            share = sum(t.probability <= level for t in tests) / len(tests)
            assert share <= level + 3 * math.sqrt(level * (1 - level) / 400), (level, share)
        assert sum(t.probability <= 0.5 for t in tests) >= 150  # not a test that never flags
