"""Stud Poker's house edges and variances: the published Caribbean Stud figure, the project's
own rules (suit tie-breaks, royal odds per settings), a settlement cross-check, the jackpot."""

import importlib.util
import math
import random
import statistics
import sys
from datetime import date
from decimal import Decimal as D
from fractions import Fraction
from pathlib import Path

import pytest

from ledger.core.cards import DECK
from ledger.games.jackpot import JackpotPoolSettings
from ledger.games.registry import game
from ledger.games.stud_poker import odds, odds_data
from ledger.games.stud_poker.hands import HandCategory
from ledger.games.stud_poker.settings import RuleVersion, StudPokerSettings
from ledger.games.stud_poker.settlement import Decision, StudBox, StudPokerRound, settle
from tests.enumerations import enumerate_again, held

DEALS = 2_598_960 * 47 * 163_185  # box hand x up card x the dealer's four hidden cards
HIDDEN = 163_185
ROOT = Path(__file__).resolve().parents[3]


def settings(version: str = "2004", royal_odds: int = 50) -> StudPokerSettings:
    return StudPokerSettings(
        effective_from=date(2024, 1, 1), authorisation="DICJ ref. 123/2024",
        min_bet=D("10.00"), max_bet=D("1000.00"), rule_version=RuleVersion(version),
        royal_odds=royal_odds, max_payout=D("500000.00"),
    )


def ante(table: StudPokerSettings) -> odds.BetOdds:
    return {bet.spot: bet for bet in odds.bet_odds(table)}["ante"]


def test_caribbean_stud_ranks_only_ties_push_gives_the_published_5_224_percent_per_ante():
    edge, variance = odds.ante_figures(100, ties_push=True)

    assert round(edge * 100, 3) == Fraction(5224, 1000)  # 5.224%, as published
    assert 5.02 < variance < 5.04  # standard deviation 2.24 per ante


def test_every_deal_is_counted_once_under_both_orders():
    for deals in (odds.SUIT_TIE_BREAKS, odds.RANK_ONLY):
        total = (deals.folded + sum(deals.not_qualified) + sum(deals.won) + sum(deals.lost)
                 + sum(deals.pushed))
        assert total == DEALS
        for category in HandCategory:  # a pair or better always raises
            s = category.strength
            if s >= 1:
                dealt = (deals.not_qualified[s] + deals.won[s] + deals.lost[s]
                         + deals.pushed[s])
                assert dealt == odds.CATEGORY_COUNTS[category] * 47 * HIDDEN
        assert deals.ak_cases == 167_280 * 47  # A-K high hands (no pair, straight or flush)


def test_art9_below_ace_king_high_always_folds_and_pairs_always_raise():
    below_ak = 1_302_540 - 167_280  # high cards without both an ace and a king
    for deals in (odds.SUIT_TIE_BREAKS, odds.RANK_ONLY):
        ak_folded = (deals.ak_cases - deals.ak_raised) * HIDDEN
        assert deals.folded == below_ak * 47 * HIDDEN + ak_folded


def test_art8_suit_tie_breaks_leave_no_push():
    assert odds.SUIT_TIE_BREAKS.pushed == (0,) * 10


def test_art8_suit_tie_breaks_split_rank_ties_evenly_for_pairs_and_better():
    suits, ranks = odds.SUIT_TIE_BREAKS, odds.RANK_ONLY
    for s in range(1, 10):  # the same play under both orders: a rank tie is won or lost
        assert suits.won[s] - ranks.won[s] == suits.lost[s] - ranks.lost[s]
        assert 2 * (suits.won[s] - ranks.won[s]) == ranks.pushed[s]


def test_art9_2004_figures_under_suit_tie_breaks():
    at_50, at_100 = ante(settings("2004", 50)), ante(settings("2004", 100))

    assert at_50.edge == D("0.0523252") and at_50.variance == D("5.0055868")
    assert at_100.edge == D("0.0522411") and at_100.variance == D("5.0309876")
    assert at_50.error == at_100.error == 0 and at_50.method.startswith("exact")


def test_art9_royal_odds_100_to_1_lower_the_edge_and_widen_the_variance():
    at_50, at_100 = ante(settings("2004", 50)), ante(settings("2004", 100))

    assert at_100.edge < at_50.edge and at_100.variance > at_50.variance
    edge_50, _ = odds.ante_figures(50)
    edge_100, _ = odds.ante_figures(100)  # 50 more units on a raise of 2, once per royal
    royals = odds.SUIT_TIE_BREAKS.won[9]
    assert edge_50 - edge_100 == Fraction(royals * 2 * 50, DEALS)


def test_art9_2003_is_2004_at_50_to_1():
    assert ante(settings("2003", 50)).edge == ante(settings("2004", 50)).edge
    assert ante(settings("2003", 50)).variance == ante(settings("2004", 50)).variance


def test_art6_raise_is_counted_in_the_ante():
    bets = {bet.spot: bet for bet in game("stud-poker").bet_odds(settings())}

    assert set(bets) == {"ante", "raise"}
    assert bets["raise"].edge == 0 and bets["raise"].variance == 0
    assert "counted in the ante" in bets["raise"].method
    assert "A-K high raises in" in bets["ante"].method


def test_ak_ranks_table_costs_under_a_millionth_of_an_ante():
    assert Fraction(odds_data.AK_RAISES_LOSS, DEALS) < Fraction(1, 1_000_000)
    assert len(odds_data.AK_RAISES) == 164  # A-K with three lower ranks, not A-K-Q-J-T


def test_seeded_rounds_through_the_settlement_average_the_ante_edge_within_4_standard_errors():
    table, rng, deck = settings("2004", 100), random.Random(20040512), list(DECK)
    per_round = []
    for _ in range(30_000):
        rng.shuffle(deck)
        dealer = tuple(deck[35:40])
        boxes = tuple(
            StudBox(n, D("1.00"), tuple(deck[5 * n - 5:5 * n]),
                    Decision.RAISE if odds.raises(deck[5 * n - 5:5 * n], dealer[-1])
                    else Decision.FOLD)
            for n in range(1, 8)
        )
        results = settle(StudPokerRound(boxes, dealer), table)
        per_round.append(float(sum(r.returned + r.payout - r.stake for r in results)))  # money-safe
    mean = statistics.fmean(per_round) / 7
    error = statistics.stdev(per_round) / 7 / math.sqrt(len(per_round))  # rounds independent

    assert abs(mean + float(ante(table).edge)) < 4 * error  # money-safe: a statistic


def pool(**fixed: str) -> JackpotPoolSettings:
    sums = {"royal_flush": "100000.00", "straight_flush": "10000.00",
            "four_of_a_kind": "5000.00", "full_house": "1500.00", "flush": "1000.00"}
    return JackpotPoolSettings(effective_from=date(2024, 1, 1), seed=D("100000.00"),
                               contribution_rate=D("0.7"), **{**sums, **fixed})


def test_art10_jackpot_edge_is_one_less_the_expected_prize_per_stake():
    bet = odds.jackpot_odds(pool(), D("25.00"), pool_amount=D("250000.00"))
    prizes = {4: 250_000, 36: 25_000, 624: 5_000, 3_744: 1_500, 5_108: 1_000}
    mean = sum(Fraction(count * prize, 2_598_960) for count, prize in prizes.items())
    square = sum(Fraction(count * prize**2, 2_598_960) for count, prize in prizes.items())

    assert bet.spot == "jackpot" and bet.error == 0
    assert bet.edge == odds.exact(1 - mean / 25)
    assert bet.variance == odds.exact((square - mean**2) / 625)


def test_art10_jackpot_fixed_sums_stand_under_a_small_pool_and_a_tenth_rounds_up():
    prizes = odds.jackpot_prizes(pool(), D("50000.05"))

    assert prizes[HandCategory.ROYAL_FLUSH] == D("100000.00")  # the fixed sum is greater
    assert prizes[HandCategory.STRAIGHT_FLUSH] == D("10000.00")
    prizes = odds.jackpot_prizes(pool(), D("123456.78"))
    assert prizes[HandCategory.ROYAL_FLUSH] == D("123456.78")
    assert prizes[HandCategory.STRAIGHT_FLUSH] == D("12345.68")  # 10% rounded up to the avo
    richer = odds.jackpot_odds(pool(), D("25.00"), D("2000000.00"))
    assert richer.edge < odds.jackpot_odds(pool(), D("25.00"), D("123456.78")).edge


@pytest.mark.slow
def test_enumeration_script_reproduces_odds_data(monkeypatch):
    enumerate_again("stud-poker-odds")
    spec = importlib.util.spec_from_file_location("stud_odds", ROOT / "scripts" / "stud_odds.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "stud_odds", script)  # its dataclasses look themselves up
    spec.loader.exec_module(script)

    suits, ranks, strategy = script.compute()

    assert script.source(suits, ranks, strategy) == (ROOT / script.DATA).read_text()
    held("stud-poker-odds")
