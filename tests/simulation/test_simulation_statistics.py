"""The simulated floor against the games' mathematics (an in-memory ledger, a fixed seed)."""

from __future__ import annotations

import math
from datetime import date
from decimal import Decimal

import pytest

from ledger.application.bus import EVERY_AREA, Bus
from ledger.application.ledger import Ledger, LedgerApplication
from ledger.core.expectation import Expectation
from ledger.domain.round import Round, round_id
from ledger.domain.table import table_id
from ledger.simulation.floor import floor_plan, run_floor
from tests.odds import round_expectation
from tests.signing import floor_staff, playing_other_days

# its module fixture is built once: the file runs in one process when the run is spread
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("simulation-statistics")]


def _play(plan_size: int, games: tuple[str, ...], rounds: int):
    app = LedgerApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo",
                                 "AGGREGATE_CACHE_MAXSIZE": "5000"})
    ledger = Ledger(app, bus=Bus(EVERY_AREA))
    playing_other_days(ledger)  # a fixed day, whatever today is
    plan = floor_plan(plan_size, games)
    result = run_floor(ledger, floor_staff(ledger), plan, rounds=rounds, seed=20041231, day=date(2026, 11, 22))
    assert not result.errors, result.errors
    played = {
        spec.code: [ledger.load(Round, round_id(table_id(spec.code), n), "round")
                    for n in range(1, rounds + 1)]
        for spec in plan
    }
    return plan, played


@pytest.fixture(scope="module")
def baccarat_floor():
    return _play(4, ("baccarat",), 150)  # 600 coups


@pytest.fixture(scope="module")
def floor():
    return _play(8, ("baccarat", "stud-poker", "q-poker", "fortune-8"), 60)


def _settled(rounds: list[Round]) -> list[Round]:
    return [r for r in rounds if r.phase == "settled"]


def test_baccarat_banker_player_and_tie_frequencies_fall_in_their_bands(baccarat_floor):
    plan, rounds = baccarat_floor
    coups = [r for spec in plan if spec.game == "baccarat" for r in _settled(rounds[spec.code])]
    n = len(coups)
    for winner, p in (("banker", 0.458597), ("player", 0.446247), ("tie", 0.095156)):
        share = sum(1 for r in coups if r.outcome["winner"] == winner) / n
        band = 4 * math.sqrt(p * (1 - p) / n)
        assert abs(share - p) <= band, f"{winner}: {share:.4f} over {n} coups, expected {p}"


@pytest.mark.parametrize("game", ["baccarat", "fortune-8", "stud-poker", "q-poker"])
def test_the_house_hold_per_game_falls_in_the_band_its_edge_and_variance_allow(floor, game):
    plan, rounds = floor
    expected, win = Expectation(), Decimal(0)
    for spec in plan:
        if spec.game != game:
            continue
        for round_ in _settled(rounds[spec.code]):
            more, won = round_expectation(round_)
            expected, win = expected + more, win + won
    assert not expected.outside(win, Decimal("0.9999")), (
        f"{game}: won {win}, expected {expected.expected} ± {expected.deviation}")


def test_about_one_stretch_in_twenty_falls_outside_its_95_percent_band(calibration_floor):
    """The band means what it says: over many seeded stretches of ten rounds at a table (240
    of them, every game), the share of actual wins outside the 95% band around the
    theoretical win is near 5% (about 12 of 240; 6 to 22 is within chance and the normal
    approximation's roughness on so few rounds)."""
    plan, rounds = calibration_floor
    outside = stretches = 0
    for spec in plan:
        played = _settled(rounds[spec.code])
        for start in range(0, len(played) - STRETCH + 1, STRETCH):
            expected, win = Expectation(), Decimal(0)
            for round_ in played[start:start + STRETCH]:
                more, won = round_expectation(round_)
                expected, win = expected + more, win + won
            outside += expected.outside(win)
            stretches += 1
    assert stretches >= 220
    assert 6 <= outside <= 22, f"{outside} of {stretches} stretches outside their 95% band"


STRETCH = 10


@pytest.fixture(scope="module")
def calibration_floor():
    return _play(120, ("baccarat", "stud-poker", "q-poker", "fortune-8"), 2 * STRETCH)
