"""What a set of bets is expected to win, the band chance allows around it, and the periods a
statistics report covers."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from ledger.core.errors import InvalidInput
from ledger.core.expectation import Expectation, z_score
from ledger.reports.base import PREVIOUS_MONTH, PREVIOUS_YEAR, choose_base, period_of


def test_bets_add_their_expected_win_and_their_variance():
    banker = Expectation.of_bets(Decimal(1000), Decimal(500_000), Decimal("0.0105791"),
                                 Decimal("0.8500"))  # two bets of 500
    tie = Expectation.of_bets(Decimal(100), Decimal(10_000), Decimal("0.1435964"), Decimal(7))
    both = banker + tie
    assert both.expected == Decimal(1000) * Decimal("0.0105791") + Decimal(100) * Decimal(
        "0.1435964")
    assert both.variance == Decimal(500_000) * Decimal("0.85") + Decimal(70_000)


def test_a_95_percent_band_is_1_96_deviations_either_side():
    assert z_score(Decimal("0.95")) == Decimal("1.9600")
    assert z_score(Decimal("0.99")) == Decimal("2.5758")
    spread = Expectation(Decimal(100), Decimal(10_000))  # sd 100
    assert spread.band() == (Decimal("-96.00"), Decimal("296.00"))
    assert not spread.outside(Decimal(296)) and spread.outside(Decimal("296.01"))


def test_a_result_far_from_the_expected_win_is_improbable_and_says_how_improbable():
    spread = Expectation(Decimal(0), Decimal(100))  # sd 10
    assert spread.probability(Decimal(0)) == pytest.approx(1.0)
    assert spread.probability(Decimal("19.6")) == pytest.approx(0.05, abs=1e-4)
    assert spread.probability(Decimal(-40)) < 1e-4  # as unlikely above as below


@pytest.mark.parametrize("confidence", ["0", "1", "1.5", "-0.2"])
def test_a_confidence_must_lie_between_nothing_and_certainty(confidence):
    with pytest.raises(InvalidInput, match="not between 0 and 1"):
        z_score(Decimal(confidence))


def test_periods_end_on_the_day_asked_and_start_with_the_day_month_or_year():
    day = date(2026, 11, 27)
    assert period_of("day", day) == (day, day)
    assert period_of("month", day) == (date(2026, 11, 1), day)
    assert period_of("ytd", day) == (date(2026, 1, 1), day)
    with pytest.raises(InvalidInput, match="give day, month or ytd"):
        period_of("week", day)


def test_comar_36_05_03_25_b2_base_is_the_previous_business_year_once_there_is_one():
    base = choose_base(date(2026, 11, 27), first_gaming_day=date(2025, 12, 30))
    assert base is not None and base.label == PREVIOUS_YEAR
    assert (base.first_day, base.last_day) == (date(2025, 1, 1), date(2025, 12, 31))


def test_comar_36_05_03_25_b2_in_the_first_year_the_base_is_the_previous_month():
    base = choose_base(date(2028, 3, 31), first_gaming_day=date(2028, 1, 3))
    assert base is not None and base.label == PREVIOUS_MONTH
    assert (base.first_day, base.last_day) == (date(2028, 2, 1), date(2028, 2, 29))
    assert choose_base(date(2028, 1, 31), first_gaming_day=date(2028, 1, 3)) is None
    assert choose_base(date(2028, 1, 31), first_gaming_day=None) is None