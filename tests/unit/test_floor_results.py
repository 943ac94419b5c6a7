"""The floor's last results say what happened at the table, in the pit's words."""

from __future__ import annotations

from decimal import Decimal

from ledger.web.floor import floor_table
from projections.queries import RoundResult


def _state(game: str, results: list[RoundResult]):
    from projections.queries import TableState

    fields = {name: None for name in TableState.model_fields}
    return TableState.model_construct(**{**fields, "code": "T-1", "game": game, "is_open": True,
                                         "last_results": results})


def test_stud_poker_s_recent_results_say_the_dealer_s_hand_whether_it_qualifies_and_the_house():
    result = RoundResult(number=47, status="settled", outcome={},
                         dealer_cards=["JS", "JC", "9D", "4H", "2C"], house_win=Decimal("-1100.00"),
                         adjustments=Decimal(0))
    [said] = floor_table(_state("stud-poker", [result]), None).results
    assert said == ("#47 dealer J♠ J♣ 9♦ 4♥ 2♣, one pair of jacks: qualifies; "
                    "house loses MOP 1,100.00")


def test_fortune_8_s_results_say_the_deal_mode_in_words():
    result = RoundResult(number=3, status="settled", outcome={"mode": "all_spaces"},
                         house_win=Decimal("200.00"), adjustments=Decimal(0))
    [said] = floor_table(_state("fortune-8", [result]), None).results
    assert said == "#3 dealt to all seven spaces; house wins MOP 200.00"


def test_stud_poker_s_results_say_which_boxes_won_lost_and_folded():
    from ledger.games.registry import game

    def bet(box: int, spot: str, outcome: str) -> dict[str, object]:
        return {"box": box, "spot": spot, "outcome": outcome}

    settled = [bet(1, "ante", "lost"), bet(1, "raise", "lost"), bet(2, "ante", "lost"),
               bet(3, "ante", "won"), bet(3, "raise", "won"), bet(5, "ante", "won"),
               bet(5, "raise", "won"), bet(3, "jackpot", "lost")]
    assert game("stud-poker").describe_boxes(settled) == (
        "boxes 3 and 5 win; box 1 loses; box 2 folds")


def test_the_floor_says_a_stud_round_s_table_win_with_its_jackpot_bets_left_to_the_pool():
    """SP-03 round 14: the house won MOP 1,100.00 on antes and raises; the MOP 400.00 of jackpot
    stakes went to the pool, so the floor says 1,100.00, as replay and the shift report do."""
    from uuid import uuid4

    from ledger.domain.round import round_id
    from ledger.web.floor import BoxesRound

    result = RoundResult(number=14, status="settled", outcome={},
                         dealer_cards=["3H", "2S", "JC", "6S", "4C"], house_win=Decimal("1500.00"),
                         adjustments=Decimal(0))
    state = _state("stud-poker", [result]).model_copy(update={"stream_id": uuid4()})
    boxes = {round_id(state.stream_id, 14): BoxesRound("box 1 wins", Decimal("400.00"))}
    [said] = floor_table(state, None, boxes).results
    assert said.endswith("box 1 wins; house wins MOP 1,100.00"), said


def test_two_players_on_one_box_are_told_apart_on_the_floor_page():
    """Q Poker: P5A and P5B both play box 5; the floor names each player beside the box, as
    `round show` does, so it does not read as one box with two play bets."""
    from projections.queries import LayoutBet

    bets = [LayoutBet(box=5, spot="play", amount=Decimal("200.00"), player="P5A"),
            LayoutBet(box=5, spot="bonus", amount=Decimal("200.00"), player="P5A"),
            LayoutBet(box=5, spot="play", amount=Decimal("600.00"), player="P5B"),
            LayoutBet(box=2, spot="play", amount=Decimal("100.00"))]
    state = _state("q-poker", []).model_copy(update={"bets": bets})
    assert [name for name, _ in floor_table(state, None).bets] == [
        "box 5 (P5A) play", "box 5 (P5A) bonus", "box 5 (P5B) play", "box 2 play"]
