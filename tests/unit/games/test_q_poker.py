"""Q Poker (DICJ 89/2004), named after the article each test checks."""

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.cards import DECK, parse_cards
from ledger.core.errors import InvalidInput, RuleViolation, SettingOutsideRegulation
from ledger.games.common import Consequence, Outcome
from ledger.games.q_poker.rules import (
    DEALER,
    Bet,
    Category,
    Decision,
    Equipment,
    Irregularity,
    QPokerRound,
    QPokerSettings,
    Spot,
    classify_irregularity,
    deal_order,
    dealer_qualifies,
    evaluate,
    settle,
    settle_bonus,
    settle_play,
)

D = Decimal


def beats(higher: str, lower: str) -> bool:
    return evaluate(higher) > evaluate(lower) and evaluate(lower) < evaluate(higher)


def one_box(box_cards: str, dealer: str, *bets: Bet) -> QPokerRound:
    bets = bets or (Bet(1, Spot.BONUS, D("10")), Bet(1, Spot.PLAY, D("10")))
    return QPokerRound.after_deal(bets, {1: box_cards}, dealer)


def played(round_: QPokerRound, decision: Decision = Decision.PLAY) -> QPokerRound:
    for box, player in round_.undecided():
        round_ = round_.decide(box, player, decision)
    return round_.show_dealer()


def only(results, spot: Spot):
    (result,) = [r for r in results if r.spot == spot]
    return result


# --- Art. 4 and 8: ranking and tie-breaks --------------------------------------------------


def test_qpoker_art8_categories_are_named_and_ranked_high_to_low():
    ladder = ["AS KS QS", "2D 2C 2H", "4C 3D 2H", "JD 7D 4D", "2C 2D 3H", "AS KH JD"]
    names = [str(evaluate(hand).category) for hand in ladder]

    assert names == [
        "straight_flush",
        "three_of_a_kind",
        "straight",
        "flush",
        "one_pair",
        "high_card",
    ]
    assert sorted(ladder, key=evaluate, reverse=True) == ladder


def test_qpoker_art4_1_suits_rank_spades_hearts_clubs_diamonds():
    assert beats("AS 7H 4C", "AH 7C 4D")
    assert beats("AH 7C 4D", "AC 7D 4H")
    assert beats("AC 7D 4H", "AD 7H 4C")


def test_qpoker_art4_3_a_k_q_is_the_highest_straight():
    assert beats("AC KD QH", "KS QS JD")


def test_qpoker_art4_3_a_2_3_is_the_lowest_straight():
    assert beats("4C 3D 2H", "AS 2S 3D")
    assert evaluate("AS 2S 3D").category == Category.STRAIGHT


def test_qpoker_art4_2_ace_is_high_outside_a_2_3():
    assert beats("AD 4C 2H", "KS QH 9S")


def test_qpoker_art8_1_straight_flush_higher_rank_wins():
    assert beats("4D 3D 2D", "AS 2S 3S")  # A-2-3 is the lowest straight flush too


def test_qpoker_art8_1_straight_flush_same_ranks_higher_suit_wins():
    assert beats("9H 8H 7H", "9C 8C 7C")


def test_qpoker_art8_2_three_of_a_kind_higher_rank_wins():
    assert beats("3D 3C 3H", "2S 2H 2C")


def test_qpoker_art8_3_straight_higher_rank_wins():
    assert beats("9D 8C 7D", "8S 7S 6H")


def test_qpoker_art8_3_straight_same_ranks_suit_of_top_card_wins():
    assert beats("9S 8D 7D", "9H 8S 7S")
    assert beats("3S 2D AD", "3H 2S AS")  # in A-2-3 the top card is the 3


def test_qpoker_art8_4_flush_ranks_compared_high_to_low():
    assert beats("KD 9D 2D", "QS JS 9S")
    assert beats("KD 9D 3D", "KS 9S 2S")


def test_qpoker_art8_4_flush_same_ranks_higher_suit_wins():
    assert beats("KH 9H 2H", "KC 9C 2C")


def test_qpoker_art8_5_one_pair_pair_rank_first():
    assert beats("3D 3C 2H", "2S 2H AS")


def test_qpoker_art8_5_one_pair_same_pair_odd_card_rank_next():
    assert beats("9D 9C 6D", "9S 9H 5S")


def test_qpoker_art8_5_one_pair_same_ranks_odd_card_suit_decides_not_the_pair():
    assert beats("9C 9D 5H", "9S 9H 5D")


def test_qpoker_art8_6_high_card_ranks_compared_high_to_low():
    assert beats("KD 4C 2H", "QS JS 9H")
    assert beats("KD 9C 3H", "KS 9S 2H")


def test_qpoker_art8_6_high_card_same_ranks_suit_of_highest_card_decides():
    assert beats("AS 7D 5D", "AH 7S 5S")


@pytest.mark.parametrize("cards", ["AS KS", "AS KS QS JS", "AS AS KS", "", "AS KS XX"])
def test_evaluate_refuses_anything_but_three_distinct_cards(cards):
    with pytest.raises(InvalidInput, match=r"\w+ \w+"):
        evaluate(cards)


def test_evaluate_refuses_values_that_are_not_cards():
    with pytest.raises(InvalidInput, match="made of cards"):
        evaluate(["AS", "KS", "QS"])
    with pytest.raises(InvalidInput, match="made of cards"):
        evaluate(7)


# --- Hypothesis: the order ------------------------------------------------------------------

distinct_cards = st.lists(st.sampled_from(DECK), min_size=9, max_size=9, unique=True)


@given(distinct_cards)
def test_qpoker_order_is_total_and_antisymmetric_on_hands_from_one_deck(cards):
    first, second = evaluate(cards[:3]), evaluate(cards[3:6])

    assert (first < second) + (second < first) == 1
    assert first != second
    assert (first < second) == (second > first)


@given(distinct_cards)
def test_qpoker_order_is_transitive(cards):
    a, b, c = sorted([evaluate(cards[:3]), evaluate(cards[3:6]), evaluate(cards[6:])])

    assert a < b < c and a < c


@given(distinct_cards, st.permutations(range(3)))
def test_qpoker_value_does_not_depend_on_the_order_of_the_cards(cards, order):
    hand = cards[:3]
    shuffled = [hand[i] for i in order]

    assert evaluate(shuffled) == evaluate(hand)
    assert evaluate(shuffled).category == evaluate(hand).category
    assert evaluate(shuffled).cards == evaluate(hand).cards


# --- Art. 2 and settings --------------------------------------------------------------------


def settings(**changes) -> QPokerSettings:
    base = {
        "effective_from": date(2025, 1, 1),
        "authorisation": "DICJ 1/2025",
        "min_bet": D("100.00"),
        "max_bet": D("10000.00"),
    }
    return QPokerSettings(**(base | changes))


def test_qpoker_art2_1_table_has_at_least_seven_boxes():
    assert settings(boxes=9).boxes == 9
    with pytest.raises(SettingOutsideRegulation, match=r"art\. 2\(1\)"):
        settings(boxes=6)


def test_qpoker_settings_keep_bets_within_table_limits():
    settings().verify_stake(D("100.00"))
    with pytest.raises(RuleViolation, match="outside the table limits"):
        settings().verify_stake(D("99.00"))


# --- Art. 5 and 6: bets ---------------------------------------------------------------------


def test_qpoker_art6_2_no_bet_after_the_first_card():
    round_ = QPokerRound().place_bet(Bet(1, Spot.PLAY, D("10"))).deal(1, DECK[0])

    with pytest.raises(RuleViolation, match=r"first card is dealt \(art\. 6\(2\)\)"):
        round_.place_bet(Bet(2, Spot.PLAY, D("10")))


def test_qpoker_art5_2_a_box_may_hold_a_bonus_bet_alone():
    round_ = one_box("AS AH 2D", "KD 7C 2C", Bet(1, Spot.BONUS, D("10")))

    assert round_.undecided() == ()
    assert [r.payout for r in settle(round_.show_dealer())] == [D("10.00")]


@pytest.mark.parametrize(
    "bet",
    [{"box": 0}, {"spot": "ante"}, {"stake": D("0")}, {"stake": D("1.005")}, {"stake": 1.5}],
)
def test_qpoker_bets_are_positive_amounts_on_bonus_or_play(bet):
    with pytest.raises(InvalidInput):
        Bet(**({"box": 1, "spot": "play", "stake": D("10")} | bet))


def test_qpoker_art6_1_several_players_on_one_box_follow_its_hand_each_deciding_for_himself():
    bets = [
        Bet(2, Spot.PLAY, D("10"), "seated"),
        Bet(2, Spot.PLAY, D("20"), "behind"),
        Bet(2, Spot.BONUS, D("5"), "behind"),
    ]
    round_ = QPokerRound.after_deal(bets, {2: "KS KH 4D"}, "AD 9C 3H")
    round_ = round_.decide(2, "seated", "surrender").decide(2, "behind", "play").show_dealer()

    results = {(r.spot, r.player): r for r in settle(round_)}

    assert results["play", "seated"].outcome == Outcome.SURRENDERED
    assert results["play", "behind"].payout == D("20.00")
    assert results["bonus", "behind"].payout == D("5.00")


# --- Art. 7: dealing ------------------------------------------------------------------------


def test_qpoker_art7_1_shoe_deals_one_card_at_a_time_left_to_right_dealer_last():
    assert deal_order([5, 2], Equipment.SHOE) == (2, 5, DEALER) * 3


def test_qpoker_art7_2_shuffler_deals_three_at_a_time_left_to_right_dealer_last():
    assert deal_order([5, 2], Equipment.SHUFFLER) == (2, 2, 2, 5, 5, 5, DEALER, DEALER, DEALER)


def test_qpoker_art7_round_follows_the_order_of_its_equipment():
    bets = [Bet(1, Spot.PLAY, D("10")), Bet(4, Spot.PLAY, D("10"))]
    round_ = QPokerRound.after_deal(
        bets, {1: "AS KS QS", 4: "2D 3D 4D"}, "9C 9D 9H", equipment=Equipment.SHUFFLER
    )

    assert [recipient for recipient, _ in round_.dealt] == [1, 1, 1, 4, 4, 4, 0, 0, 0]
    assert round_.hand(4) == parse_cards("2D 3D 4D")
    assert round_.deal_complete


def test_qpoker_art11_1_a_fourth_card_to_a_box_is_refused():
    round_ = one_box("AS KS QS", "9C 9D 9H")

    with pytest.raises(RuleViolation, match=r"fourth card is a wrong count.*art\. 11\(1\)"):
        round_.deal(1, parse_cards("2C")[0])


def test_qpoker_art11_1_a_card_out_of_order_is_refused():
    round_ = QPokerRound().place_bet(Bet(1, Spot.PLAY, D("10")))

    with pytest.raises(RuleViolation, match=r"next card goes to box 1, not the dealer"):
        round_.deal(DEALER, DECK[0])


def test_qpoker_art1_one_deck_a_card_cannot_be_dealt_twice():
    round_ = QPokerRound().place_bet(Bet(1, Spot.PLAY, D("10"))).deal(1, DECK[0])

    with pytest.raises(InvalidInput, match="single deck"):
        round_.deal(DEALER, DECK[0])


def test_qpoker_art11_4_dealing_to_a_box_without_bets_is_refused_as_that_irregularity():
    round_ = QPokerRound().place_bet(Bet(1, Spot.PLAY, D("10")))

    with pytest.raises(RuleViolation, match=r"art\. 11\(4\)"):
        round_.deal(3, DECK[0])


# --- Art. 9 and 10: settlement --------------------------------------------------------------


def test_qpoker_art9_1_bonus_high_card_loses():
    result = only(settle(played(one_box("AS KH 9D", "2C 3C 5D"))), Spot.BONUS)

    assert (result.outcome, result.returned, result.payout) == (Outcome.LOST, 0, 0)


def bonus(cards: str) -> tuple:
    result = only(settle_bonus(one_box(cards, "AD KD 4C")), Spot.BONUS)
    return result.outcome, result.returned, result.payout


def test_qpoker_art10_1_bonus_straight_flush_pays_40_to_1():
    assert bonus("QS JS TS") == (Outcome.WON, D("10.00"), D("400.00"))
    assert bonus("AS 2S 3S") == (Outcome.WON, D("10.00"), D("400.00"))


def test_qpoker_art10_2_bonus_three_of_a_kind_pays_30_to_1():
    assert bonus("7S 7D 7C") == (Outcome.WON, D("10.00"), D("300.00"))


def test_qpoker_art10_3_bonus_straight_pays_6_to_1():
    assert bonus("QS JD TS") == (Outcome.WON, D("10.00"), D("60.00"))


def test_qpoker_art10_4_bonus_flush_pays_4_to_1():
    assert bonus("QS 8S 2S") == (Outcome.WON, D("10.00"), D("40.00"))


def test_qpoker_art10_5_bonus_one_pair_pays_1_to_1():
    assert bonus("2S 2H 9S") == (Outcome.WON, D("10.00"), D("10.00"))


def test_qpoker_art9_1_bonus_bets_are_settled_first_and_whatever_the_dealer_holds():
    round_ = played(one_box("2S 2H 9S", "AD AC AH"), Decision.SURRENDER)

    assert [r.spot for r in settle(round_)] == ["bonus", "play"]
    assert settle_bonus(round_)[0].payout == D("10.00")


def test_qpoker_art9_1_bonus_can_be_settled_before_any_decision():
    round_ = one_box("2S 2H 9S", "AD AC AH")

    assert settle_bonus(round_)[0].outcome == Outcome.WON
    with pytest.raises(RuleViolation, match="dealer's cards are shown"):
        settle_play(round_)


def test_qpoker_art9_3_surrender_loses_half_the_play_bet():
    result = only(settle(played(one_box("5S 3H 2D", "AD KD 4C"), Decision.SURRENDER)), Spot.PLAY)

    assert (result.outcome, result.returned, result.house_win) == (
        Outcome.SURRENDERED,
        D("5.00"),
        D("5.00"),
    )


def test_qpoker_art9_3_surrender_of_an_odd_avo_returns_the_half_rounded_up():
    round_ = one_box("5S 3H 2D", "AD KD 4C", Bet(1, Spot.PLAY, D("0.05")))

    assert settle(played(round_, Decision.SURRENDER))[0].returned == D("0.03")


def test_qpoker_art9_3_surrender_loses_half_even_when_the_dealer_does_not_qualify():
    result = settle(played(one_box("5S 3H 2D", "JD 9D 4C"), Decision.SURRENDER))[1]

    assert (result.outcome, result.returned) == (Outcome.SURRENDERED, D("5.00"))


def test_qpoker_art9_3_a_decision_after_the_dealer_cards_are_shown_is_refused():
    round_ = one_box(
        "5S 3H 2D", "AD KD 4C", Bet(1, Spot.PLAY, D("10"), "ana"), Bet(1, Spot.BONUS, D("10"), "bo")
    )
    round_ = round_.decide(1, "ana", Decision.PLAY).show_dealer()

    with pytest.raises(RuleViolation, match=r"already shown.*decide before \(art\. 9\(3\)\)"):
        round_.decide(1, "ana", Decision.SURRENDER)


def test_qpoker_art9_3_a_decision_cannot_be_undone():
    round_ = one_box("5S 3H 2D", "AD KD 4C").decide(1, None, Decision.SURRENDER)

    with pytest.raises(RuleViolation, match=r"cannot be undone \(art\. 9\(3\)\)"):
        round_.decide(1, None, Decision.PLAY)


def test_qpoker_art9_3_the_dealer_cards_wait_for_every_decision():
    with pytest.raises(RuleViolation, match=r"box 1 must play or surrender"):
        one_box("5S 3H 2D", "AD KD 4C").show_dealer()


def test_qpoker_art9_2_decisions_come_after_the_deal():
    round_ = QPokerRound().place_bet(Bet(1, Spot.PLAY, D("10"))).deal(1, DECK[0])

    with pytest.raises(RuleViolation, match=r"deal is not complete"):
        round_.decide(1, None, Decision.PLAY)


def test_qpoker_art9_2_only_a_player_with_a_play_bet_decides():
    round_ = one_box("5S 3H 2D", "AD KD 4C")

    with pytest.raises(RuleViolation, match="has no play bet"):
        round_.decide(1, "stranger", Decision.PLAY)
    with pytest.raises(InvalidInput, match="not a decision"):
        round_.decide(1, None, "fold")


@pytest.mark.parametrize(
    "dealer, qualifies",
    [("QD 3C 2H", True), ("JD TC 8H", False), ("2D 2C 3H", True), ("AH 2C 3D", True)],
)
def test_qpoker_art9_4_dealer_qualifies_with_queen_high_or_better(dealer, qualifies):
    assert dealer_qualifies(dealer) is qualifies


def test_qpoker_art9_5_dealer_below_queen_high_pays_each_continuing_play_bet_half():
    # The box's hand does not matter: 5-high against J-high still wins half.
    result = only(settle(played(one_box("5S 3H 2D", "JD 9D 4C"))), Spot.PLAY)

    assert (result.outcome, result.returned, result.payout) == (Outcome.WON, D("10.00"), D("5.00"))


def test_qpoker_art9_6_qualifying_dealer_that_beats_the_box_takes_the_play_bet():
    result = only(settle(played(one_box("KS JH 2D", "KD QD 4C"))), Spot.PLAY)

    assert (result.outcome, result.returned, result.house_win) == (Outcome.LOST, 0, D("10.00"))


def play(box: str, dealer: str = "QD JC 9D") -> tuple:
    result = only(settle(played(one_box(box, dealer))), Spot.PLAY)
    return result.outcome, result.returned, result.payout


def test_qpoker_art9_7_1_straight_flush_beating_the_dealer_pays_3_to_1():
    assert play("4S 3S 2S") == (Outcome.WON, D("10.00"), D("30.00"))


def test_qpoker_art9_7_2_three_of_a_kind_beating_the_dealer_pays_2_to_1():
    assert play("5S 5D 5C") == (Outcome.WON, D("10.00"), D("20.00"))


def test_qpoker_art9_7_3_straight_beating_the_dealer_pays_3_to_2():
    assert play("AS 2D 3S") == (Outcome.WON, D("10.00"), D("15.00"))
    assert play("9S 8D 7S", "QD JC 4D") == (Outcome.WON, D("10.00"), D("15.00"))


def test_qpoker_art9_7_4_any_other_hand_beating_the_dealer_pays_1_to_1():
    assert play("9H 6H 2H") == (Outcome.WON, D("10.00"), D("10.00"))  # flush
    assert play("2H 2S 7C") == (Outcome.WON, D("10.00"), D("10.00"))  # one pair
    assert play("KS 4H 2C") == (Outcome.WON, D("10.00"), D("10.00"))  # high card


def test_qpoker_art9_7_3_to_2_on_an_odd_avo_rounds_up_for_the_player():
    round_ = one_box("9S 8D 7S", "QD JC 4D", Bet(1, Spot.PLAY, D("0.05")))

    assert settle(played(round_))[0].payout == D("0.08")


# --- Art. 11: irregularities ----------------------------------------------------------------


def test_qpoker_art11_1_wrong_deal_order_voids_round():
    assert classify_irregularity(Irregularity.WRONG_DEAL_ORDER) == Consequence.ROUND_VOID


def test_qpoker_art11_1_wrong_card_count_voids_round():
    assert classify_irregularity(Irregularity.WRONG_CARD_COUNT) == Consequence.ROUND_VOID


def test_qpoker_art11_2_cards_exposed_during_the_deal_round_continues():
    round_ = one_box("9S 8D 7S", "QD JC 4D")

    assert classify_irregularity("card_exposed_during_deal") == Consequence.ROUND_CONTINUES
    assert round_.record_irregularity(Irregularity.CARD_EXPOSED_DURING_DEAL) == round_


def test_qpoker_art11_3_dealer_card_exposed_voids_round():
    assert classify_irregularity(Irregularity.DEALER_CARD_EXPOSED) == Consequence.ROUND_VOID


def test_qpoker_art11_4_cards_to_a_box_without_bets_void_that_box_and_play_continues():
    round_ = QPokerRound().place_bet(Bet(1, Spot.PLAY, D("10")))
    stray = parse_cards("2C")

    round_ = round_.record_irregularity(Irregularity.CARDS_TO_BOX_WITHOUT_BET, box=3, cards=stray)

    assert classify_irregularity(Irregularity.CARDS_TO_BOX_WITHOUT_BET) == Consequence.BOX_VOID
    assert round_.void_boxes == {3} and not round_.void
    assert round_.next_recipient() == 1
    with pytest.raises(InvalidInput, match="single deck"):
        round_.deal(1, stray[0])


def test_qpoker_art11_4_only_a_box_without_bets_is_voided_that_way():
    round_ = QPokerRound().place_bet(Bet(1, Spot.PLAY, D("10")))

    with pytest.raises(RuleViolation, match=r"box 1 holds bets"):
        round_.record_irregularity(Irregularity.CARDS_TO_BOX_WITHOUT_BET, box=1)


def test_qpoker_art11_5_shuffler_failure_voids_round():
    assert classify_irregularity(Irregularity.SHUFFLER_FAILURE) == Consequence.ROUND_VOID


def test_qpoker_art11_a_void_round_returns_every_bet_and_takes_no_more_actions():
    round_ = one_box("9S 8D 7S", "QD JC 4D").record_irregularity(Irregularity.DEALER_CARD_EXPOSED)

    results = settle(round_)

    assert [(r.outcome, r.returned, r.house_win) for r in results] == [
        (Outcome.RETURNED, D("10.00"), 0)
    ] * 2
    with pytest.raises(RuleViolation, match="round is void"):
        round_.decide(1, None, Decision.PLAY)


def test_qpoker_unknown_irregularity_is_refused_with_the_known_kinds():
    with pytest.raises(InvalidInput, match="shuffler_failure"):
        classify_irregularity("dealer_sneezed")


# --- Hypothesis: settlement conserves money -------------------------------------------------

stakes = st.integers(min_value=1, max_value=1_000_000).map(lambda avos: D(avos) / 100)


@st.composite
def rounds(draw) -> QPokerRound:
    boxes = draw(st.sets(st.integers(1, 7), min_size=1, max_size=7))
    bets = [
        Bet(box, spot, draw(stakes), player)
        for box in sorted(boxes)
        for player in draw(st.sets(st.sampled_from(["a", "b", None]), min_size=1))
        for spot in draw(st.sets(st.sampled_from(list(Spot)), min_size=1))
    ]
    deck = draw(st.permutations(DECK))
    hands = {box: deck[3 * i : 3 * i + 3] for i, box in enumerate(sorted(boxes))}
    equipment = draw(st.sampled_from(list(Equipment)))
    round_ = QPokerRound.after_deal(bets, hands, deck[-3:], equipment)
    for box, player in round_.undecided():
        round_ = round_.decide(box, player, draw(st.sampled_from(list(Decision))))
    irregularity = draw(st.none() | st.sampled_from(list(Irregularity)))
    if irregularity is not None:
        round_ = round_.record_irregularity(irregularity, box=8)  # box 8 never holds a bet
    return round_ if round_.void else round_.show_dealer()


@given(rounds())
def test_qpoker_settlement_conserves_money(round_):
    results = settle(round_)

    assert len(results) == len(round_.bets)
    assert sum(r.stake for r in results) == sum(
        r.returned + r.payout - r.commission for r in results
    ) + sum(r.house_win for r in results)
    for result in results:
        assert 0 <= result.returned <= result.stake and result.payout >= 0
        assert result.payout <= 40 * result.stake
        if result.outcome in (Outcome.LOST, Outcome.RETURNED, Outcome.SURRENDERED):
            assert result.payout == 0
        if result.outcome in (Outcome.WON, Outcome.RETURNED):
            assert result.returned == result.stake
