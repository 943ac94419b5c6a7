"""`ledger round show` lists each bet once with its own result, and says who won."""

from __future__ import annotations

from decimal import Decimal

from ledger.domain.round import SettledBet
from ledger.games.common import Outcome
from ledger.games.facts import BetFact
from ledger.presentation.wording import describe_outcome
from ledger.reports.round import _result_of


def _settled(box: int, spot: str, player: str | None) -> SettledBet:
    return SettledBet(box=box, spot=spot, player=player, stake=Decimal("100.00"),
                      outcome=Outcome.WON, returned=Decimal("100.00"),
                      payout=Decimal("100.00"), commission=Decimal("0.00"))


def test_a_stud_poker_ante_of_a_named_player_settled_without_the_name_is_shown_once():
    ante = BetFact(1, "ante", Decimal("100.00"), "P-1")
    raise_ = _settled(1, "raise", None)  # settled without a bet placed
    unmatched = [_settled(1, "ante", None), raise_]
    assert _result_of(ante, unmatched) is not None
    assert unmatched == [raise_]  # the ante's result taken: not listed again as a raise


def test_two_players_on_one_box_and_spot_each_get_their_own_result():
    first, second = _settled(2, "banker", "P-1"), _settled(2, "banker", "P-2")
    unmatched = [first, second]
    assert _result_of(BetFact(2, "banker", Decimal("100.00"), "P-2"), unmatched) is second
    assert _result_of(BetFact(2, "banker", Decimal("100.00"), "P-1"), unmatched) is first
    assert unmatched == []


def test_a_baccarat_coup_says_who_won_with_the_totals_and_pairs():
    outcome = {"winner": "banker", "player_total": 3, "banker_total": 4,
               "player_pair": True, "banker_pair": False}
    assert describe_outcome(outcome) == "banker wins, player 3 banker 4; player pair"
    assert describe_outcome({**outcome, "winner": "tie", "banker_total": 3,
                             "player_pair": False}) == "tie, player 3 banker 3"


def test_a_void_says_its_reason_and_a_q_poker_round_whether_the_dealer_played():
    assert describe_outcome({"void": "wrong_count"}) == "void: wrong count"
    assert describe_outcome({"dealer": "high card K", "dealer_qualifies": False,
                             "boxes": {}}) == "dealer high card K: does not qualify"
    assert describe_outcome({}) == ""
