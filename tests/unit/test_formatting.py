"""Money and time look the same wherever people read them: `MOP 1,000.00`, Macau time to the
second with its zone named; machine-readable output keeps the exact values."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

from ledger.core.formatting import (
    amount,
    clock,
    decimal_text,
    heading,
    iso,
    macau,
    minute,
    money,
    when,
)


def test_money_reads_mop_with_thousands_and_two_places():
    assert money(Decimal(1000)) == "MOP 1,000.00"
    assert money(Decimal("200175.77")) == "MOP 200,175.77"
    assert money(Decimal("-5910.5")) == "MOP -5,910.50"
    assert money(0) == "MOP 0.00"
    assert money(None) == "-"


def test_an_amount_under_a_currency_heading_leaves_the_currency_to_the_heading():
    assert amount(Decimal("950.00")) == "950.00"
    assert amount("1234567.8") == "1,234,567.80"
    assert heading("win") == "win (MOP)"


def test_money_is_never_a_float_on_the_way_to_the_screen():
    """0.1 + 0.2 as floats shows 0.30 but is not; the decimal's own digits are formatted."""
    assert amount(Decimal("0.105")) == "0.10"  # banker's rounding of the display only
    assert decimal_text(Decimal("1000.00")) == "1000.00"
    assert decimal_text(None) is None


def test_a_utc_moment_is_shown_eight_hours_later_on_macau_clocks_with_its_zone_named():
    moment = datetime(2026, 11, 24, 6, 3, 5, 123456, tzinfo=UTC)
    assert clock(moment) == "2026-11-24 14:03:05"
    assert when(moment) == "2026-11-24 14:03:05 Macau time"
    assert minute(moment) == "2026-11-24 14:03 Macau time"
    assert str(macau(moment).tzinfo) == "Asia/Macau"


def test_moments_from_any_zone_agree_once_shown():
    utc = datetime(2026, 11, 24, 16, 30, tzinfo=UTC)
    west = utc.astimezone(timezone(timedelta(hours=-12)))
    assert when(utc) == when(west) == "2026-11-25 00:30:00 Macau time"


def test_a_naive_time_typed_at_the_floor_is_macau_time():
    assert clock(datetime(2026, 11, 24, 14, 3, 5)) == "2026-11-24 14:03:05"
    assert iso(datetime(2026, 11, 24, 14, 3, 5)) == "2026-11-24T14:03:05+08:00"


def test_machine_readable_times_keep_their_offset_and_full_precision():
    moment = datetime(2026, 11, 24, 6, 3, 5, 123456, tzinfo=UTC)
    assert iso(moment) == "2026-11-24T14:03:05.123456+08:00"
    assert iso(None) is None


def test_one_column_of_chances_reads_by_one_rule_never_once_in_2_times_nor_100_percent():
    """A column read `once in 59 times`, `61% of the time`, `once in 2 times` and `100% of the
    time` side by side: below 1 in 20 a chance reads `once in N times`, from it up a
    percentage, and nothing short of certain reads as certain."""
    from ledger.core.formatting import chance

    assert chance(1 / 59) == "once in 59 times"
    assert chance(0.5) == "50% of the time"  # not `once in 2 times`
    assert chance(1 / 3) == "33% of the time"
    assert chance(0.61) == "61% of the time"
    assert chance(0.9999) == "more than 99% of the time"  # not `100% of the time`
    assert chance(1.0) == "more than 99% of the time"
    assert chance(0.0) == "practically never"
