"""Stud Poker's progressive jackpot, named after art. 10 (and art. 11) of DICJ 61/2004.

DICJ 69/2003 has the same art. 10 and 11, sentence for sentence.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.cards import parse_cards
from ledger.core.errors import InvalidInput
from ledger.games.common import Outcome
from ledger.games.jackpot import (
    PRIZE_CATEGORIES,
    CarriedJackpotBet,
    JackpotClaim,
    JackpotPoolSettings,
    admit_carried,
    carry_over,
    claims_from_round,
    contribute,
    pay_jackpot,
    split_equally,
)
from ledger.games.stud_poker.rules import (
    Decision,
    HandCategory,
    StudBox,
    StudPokerRound,
    settle_void,
)

ROYAL, STRAIGHT_FLUSH = HandCategory.ROYAL_FLUSH, HandCategory.STRAIGHT_FLUSH
FOUR, FULL, FLUSH = HandCategory.FOUR_OF_A_KIND, HandCategory.FULL_HOUSE, HandCategory.FLUSH

POOL = JackpotPoolSettings(
    effective_from=date(2024, 1, 1),
    seed=D("10000.00"),
    royal_flush=D("100000.00"),
    straight_flush=D("5000.00"),
    four_of_a_kind=D("2000.00"),
    full_house=D("500.00"),
    flush=D("300.00"),
    contribution_rate=D("0.70"),
)


def claim(box: int, category: HandCategory, bet: bool = True, folded: bool = False):
    return JackpotClaim(box, category, has_jackpot_bet=bet, folded=folded)


def amounts(payout) -> list[tuple[int, D]]:
    return [(prize.box, prize.amount) for prize in payout.prizes]


def test_stud_art10_1_only_a_box_with_a_jackpot_bet_wins():
    assert pay_jackpot(D("200000.00"), [claim(1, ROYAL, bet=False)], POOL).prizes == ()


def test_stud_art10_1_a_folded_box_cannot_win_the_jackpot():
    assert pay_jackpot(D("200000.00"), [claim(1, ROYAL, folded=True)], POOL).prizes == ()


def test_stud_art10_2_1_royal_flush_wins_the_whole_pool_when_above_the_fixed_sum():
    payout = pay_jackpot(D("200000.00"), [claim(3, ROYAL)], POOL)
    assert amounts(payout) == [(3, D("200000.00"))]
    assert payout.prizes[0].paid_by_house == 0


def test_stud_art10_2_1_royal_flush_wins_the_fixed_sum_when_larger_house_pays_the_rest():
    (prize,) = pay_jackpot(D("80000.00"), [claim(3, ROYAL)], POOL).prizes
    assert (prize.amount, prize.paid_by_pool, prize.paid_by_house) == (
        D("100000.00"), D("80000.00"), D("20000.00"))


def test_stud_art10_2_2_straight_flush_wins_10_percent_of_the_pool():
    assert amounts(pay_jackpot(D("200000.00"), [claim(1, STRAIGHT_FLUSH)], POOL)) == [
        (1, D("20000.00"))]


def test_stud_art10_2_2_straight_flush_wins_the_fixed_sum_when_larger():
    assert amounts(pay_jackpot(D("30000.00"), [claim(1, STRAIGHT_FLUSH)], POOL)) == [
        (1, D("5000.00"))]


def test_stud_art10_2_2_ten_percent_is_rounded_up_to_the_avo():
    assert amounts(pay_jackpot(D("123456.78"), [claim(1, STRAIGHT_FLUSH)], POOL)) == [
        (1, D("12345.68"))]


@pytest.mark.parametrize(("category", "fixed"), [(FOUR, "2000.00"), (FULL, "500.00"),
                                                 (FLUSH, "300.00")],
                         ids=["3_four_of_a_kind", "4_full_house", "5_flush"])
def test_stud_art10_2_3_to_5_fixed_sums(category, fixed):
    assert amounts(pay_jackpot(D("50000.00"), [claim(2, category)], POOL)) == [(2, D(fixed))]


def test_stud_art10_2_other_hands_win_nothing():
    others = [claim(box, category) for box, category in enumerate(HandCategory, start=1)
              if category not in PRIZE_CATEGORIES]
    assert pay_jackpot(D("50000.00"), others, POOL).prizes == ()


def test_stud_art10_2_the_jackpot_is_won_whatever_the_dealer_holds():
    box = StudBox(1, D("100.00"), parse_cards("JH 9H 7H 4H 3H"), Decision.RAISE, D("10.00"))
    folded = StudBox(2, D("100.00"), parse_cards("KS KH KC KD 2S"), Decision.FOLD, D("10.00"))
    round_ = StudPokerRound((box, folded), parse_cards("AS AD AC AH 2D"))  # dealer's four aces
    assert claims_from_round(round_) == (claim(1, FLUSH), claim(2, FOUR, folded=True))
    assert amounts(pay_jackpot(D("50000.00"), claims_from_round(round_), POOL)) == [
        (1, D("300.00"))]


def test_stud_art10_3_fixed_sums_are_the_posted_pool_settings():
    assert [POOL.fixed_sum(category) for category in PRIZE_CATEGORIES] == [
        D("100000.00"), D("5000.00"), D("2000.00"), D("500.00"), D("300.00")]
    with pytest.raises(InvalidInput, match="straight wins no jackpot prize"):
        POOL.fixed_sum(HandCategory.STRAIGHT)


def test_stud_art10_4_prizes_are_paid_left_to_right_from_box_1():
    claims = [claim(6, FLUSH), claim(2, FULL), claim(4, FOUR)]
    assert [prize.box for prize in pay_jackpot(D("50000.00"), claims, POOL).prizes] == [2, 4, 6]


def test_stud_art10_5_two_royals_share_the_pool():
    payout = pay_jackpot(D("300000.00"), [claim(5, ROYAL), claim(2, ROYAL)], POOL)
    assert amounts(payout) == [(2, D("150000.00")), (5, D("150000.00"))]


def test_stud_art10_5_two_royals_share_the_fixed_sum_when_larger():
    payout = pay_jackpot(D("60000.00"), [claim(5, ROYAL), claim(2, ROYAL)], POOL)
    assert amounts(payout) == [(2, D("50000.00")), (5, D("50000.00"))]
    assert [(p.paid_by_pool, p.paid_by_house) for p in payout.prizes] == [
        (D("50000.00"), 0), (D("10000.00"), D("40000.00"))]


def test_stud_art10_5_an_indivisible_avo_goes_to_the_leftmost_royal():
    payout = pay_jackpot(D("200000.02"), [claim(1, ROYAL), claim(4, ROYAL), claim(7, ROYAL)],
                         POOL)
    assert amounts(payout) == [(1, D("66666.68")), (4, D("66666.67")), (7, D("66666.67"))]
    assert payout.paid_by_pool == D("200000.02")
    assert split_equally(D("0.05"), 3) == (D("0.02"), D("0.02"), D("0.01"))


def test_stud_art10_6_two_straight_flushes_each_take_10_percent_of_the_pool_before_the_round():
    payout = pay_jackpot(D("200000.00"), [claim(1, STRAIGHT_FLUSH), claim(3, STRAIGHT_FLUSH)],
                         POOL)
    assert amounts(payout) == [(1, D("20000.00")), (3, D("20000.00"))]
    assert payout.prizes[1].pool_before == D("180000.00")
    assert payout.pool_after == D("160000.00")


def test_stud_art10_7_straight_flush_is_paid_before_the_royal_flush():
    payout = pay_jackpot(D("200000.00"), [claim(1, ROYAL), claim(6, STRAIGHT_FLUSH)], POOL)
    assert amounts(payout) == [(6, D("20000.00")), (1, D("180000.00"))]


def test_fixed_prizes_after_a_royal_are_paid_by_the_house():
    payout = pay_jackpot(D("200000.00"), [claim(1, FLUSH), claim(2, ROYAL)], POOL)
    assert amounts(payout) == [(2, D("200000.00")), (1, D("300.00"))]
    assert (payout.prizes[1].paid_by_pool, payout.prizes[1].paid_by_house) == (0, D("300.00"))


def test_stud_art10_8_the_pool_is_reduced_by_what_it_paid():
    payout = pay_jackpot(D("50000.00"), [claim(1, FOUR), claim(2, FLUSH)], POOL)
    assert [(p.pool_before, p.pool_after) for p in payout.prizes] == [
        (D("50000.00"), D("48000.00")), (D("48000.00"), D("47700.00"))]
    assert (payout.pool_after, payout.reset_to_seed) == (D("47700.00"), False)


def test_stud_art10_8_an_emptied_pool_restarts_at_the_seed():
    payout = pay_jackpot(D("200000.00"), [claim(1, ROYAL)], POOL)
    assert (payout.pool_after_payments, payout.reset_to_seed, payout.pool_after) == (
        D("0.00"), True, D("10000.00"))


def test_a_fixed_sum_above_the_pool_is_paid_partly_by_the_house():
    (prize,) = pay_jackpot(D("1200.00"), [claim(1, FOUR)], POOL).prizes
    assert (prize.pool_before, prize.paid_by_pool, prize.paid_by_house, prize.pool_after) == (
        D("1200.00"), D("1200.00"), D("800.00"), D("0.00"))


def test_contributions_feed_the_pool_then_the_reserve_above_the_cap():
    pool = POOL.model_copy(update={"reserve_rate": D("0.10"), "cap": D("1000.00")})
    assert contribute(D("0.00"), [D("10.00"), D("5.00")], pool).to_pool == D("9.45")
    capped = contribute(D("995.00"), [D("10.00")], pool)
    assert (capped.to_pool, capped.to_reserve, capped.retained) == (D("5.00"), D("2.00"),
                                                                    D("3.00"))


def test_stud_art11_1_jackpot_bets_carry_over_to_the_next_round():
    results = settle_void({1: D("100.00"), 3: D("100.00")}, {3: D("10.00")})
    assert carry_over(results) == (CarriedJackpotBet(3, D("10.00")),)


def test_a_carried_jackpot_bet_without_an_ante_in_the_next_round_is_returned():
    carried = (CarriedJackpotBet(3, D("10.00")), CarriedJackpotBet(5, D("10.00")))
    standing, returned = admit_carried(carried, {3: D("100.00")})
    assert standing == (CarriedJackpotBet(3, D("10.00")),)
    assert [(r.box, r.spot, r.outcome) for r in returned] == [(5, "jackpot", Outcome.RETURNED)]


claims = st.lists(
    st.builds(JackpotClaim, st.integers(1, 7), st.sampled_from(list(HandCategory)),
              st.booleans(), st.booleans()),
    max_size=7, unique_by=lambda c: c.box,
)


@given(st.integers(0, 50_000_000).map(lambda avos: D(avos) / 100), claims)
def test_every_prize_is_paid_exactly_by_pool_and_house(pool_before, round_claims):
    payout = pay_jackpot(pool_before, round_claims, POOL)
    assert payout.pool_after_payments == pool_before - payout.paid_by_pool >= 0
    for prize in payout.prizes:
        assert prize.amount == prize.paid_by_pool + prize.paid_by_house
        assert prize.pool_after == prize.pool_before - prize.paid_by_pool >= 0
    assert len(payout.prizes) == sum(c.eligible for c in round_claims)
