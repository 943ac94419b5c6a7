"""Stud Poker, named after the articles of DICJ 61/2004.

DICJ 69/2003 numbers arts. 1-12 the same way; it differs only in art. 9, 5), (9) (royal flush
fixed at 50:1) and has no art. 13.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.cards import DECK, parse_cards
from ledger.core.errors import InvalidInput, RuleViolation, SettingOutsideRegulation
from ledger.games.common import Consequence, Outcome
from ledger.games.stud_poker import settlement as stud_settlement
from ledger.games.stud_poker.rules import (
    DEALER,
    DealError,
    DealMethod,
    Decision,
    HandCategory,
    Irregularity,
    RuleVersion,
    StudBox,
    StudPokerRound,
    StudPokerSettings,
    check_jackpot_bet,
    check_next_card,
    check_raise,
    classify_irregularity,
    dealer_qualifies,
    evaluate,
    expected_deal,
    settle,
    settle_void,
)

QUALIFIED_DEALER = "AD KC 9S 6H 2C"  # A-K high: just qualifies
UNQUALIFIED_DEALER = "AD QC 9S 6H 2C"  # A-Q high


def settings(version: str = "2004", royal_odds: int = 50, max_payout: str = "100000.00"):
    return StudPokerSettings(
        effective_from=date(2024, 1, 1),
        authorisation="DICJ ref. 123/2024",
        min_bet=D("10.00"),
        max_bet=D("1000.00"),
        rule_version=RuleVersion(version),
        royal_odds=royal_odds,
        max_payout=D(max_payout),
    )


def one_box_round(cards: str, dealer: str, decision: str = "raise", ante: str = "100.00",
                  jackpot: str = "0.00") -> StudPokerRound:
    box = StudBox(1, D(ante), parse_cards(cards), Decision(decision), D(jackpot))
    return StudPokerRound((box,), parse_cards(dealer))


def by_spot(results) -> dict:
    return {(result.box, result.spot): result for result in results}


def settled(cards: str, dealer: str = QUALIFIED_DEALER, decision: str = "raise",
            jackpot: str = "0.00", **house) -> dict:
    """One box of ante 100.00 against the dealer: its results by (box, spot)."""
    return by_spot(settle(one_box_round(cards, dealer, decision, jackpot=jackpot),
                          settings(**house)))


VOID_CARRY = Consequence.ROUND_VOID_JACKPOT_CARRIED


# --- Art. 4: card values ---


def test_stud_art4_1_suits_rank_spades_hearts_clubs_diamonds():
    royals = [evaluate(f"A{s} K{s} Q{s} J{s} T{s}") for s in "SHCD"]
    assert royals == sorted(royals, reverse=True)
    assert len(set(royals)) == 4


def test_stud_art4_3_ace_in_a_five_high_straight_is_the_lowest_card():
    wheel, six_high, ace_high = evaluate("5S 4H 3C 2D AS"), evaluate("6D 5D 4C 3H 2S"), evaluate(
        "AD KC QH JS TD")
    assert wheel < six_high < ace_high
    assert wheel.category is six_high.category is HandCategory.STRAIGHT


# --- Art. 8: hand values, one test per row ---


def test_stud_art8_categories_rank_from_royal_flush_down_to_high_card():
    hands = ["AH KH QH JH TH", "9C 8C 7C 6C 5C", "2S 2H 2C 2D 3S", "3S 3H 3C 2D 2S",
             "AS JS 9S 5S 3S", "AD KC QH JS TD", "AS AH AC KD QS", "AS AH KC KD QS",
             "AS AH KC QD JS", "AS KH QC JD 9S"]
    values = [evaluate(hand) for hand in hands]
    assert [value.category for value in values] == list(HandCategory)
    assert values == sorted(values, reverse=True)


def test_stud_art8_1_royal_flushes_rank_by_suit():
    assert evaluate("AS KS QS JS TS") > evaluate("AH KH QH JH TH")
    assert evaluate("AC KC QC JC TC") > evaluate("TD JD QD KD AD")


def test_stud_art8_2_straight_flushes_rank_by_top_card_king_high_best_five_high_lowest():
    assert evaluate("KD QD JD TD 9D") > evaluate("QS JS TS 9S 8S")
    assert evaluate("6D 5D 4D 3D 2D") > evaluate("5S 4S 3S 2S AS")
    assert evaluate("KD QD JD TD 9D").category is HandCategory.STRAIGHT_FLUSH


def test_stud_art8_2_equal_straight_flushes_rank_by_suit():
    assert evaluate("9H 8H 7H 6H 5H") > evaluate("9C 8C 7C 6C 5C")


def test_stud_art8_3_four_of_a_kind_ranks_by_the_four_odd_card_ignored():
    assert evaluate("KS KH KC KD 2S") > evaluate("QS QH QC QD AS")
    assert evaluate("KS KH KC KD 2S") == evaluate("KS KH KC KD AD")


def test_stud_art8_4_full_house_ranks_by_the_three():
    assert evaluate("QS QH QC 2D 2S") > evaluate("JS JH JC AD AS")
    assert evaluate("QS QH QC 2D 2S") == evaluate("QS QH QD AD AS")


def test_stud_art8_5_flush_ranks_by_all_five_cards_then_suit():
    assert evaluate("AS JS 9S 5S 3S") > evaluate("AH JH 9H 5H 2H")  # fifth card decides
    assert evaluate("AH JH 9H 5H 3H") > evaluate("AC JC 9C 5C 3C")  # same ranks: suit
    assert evaluate("KS QS JS 9S 7S") < evaluate("AD 4D 3D 2D 6D")


def test_stud_art8_6_straight_ranks_by_top_card_then_suit_of_the_top_card():
    assert evaluate("AD KC QH JS TD") > evaluate("KS QS JS TS 9D")
    assert evaluate("9S 8D 7D 6D 5D") > evaluate("9H 8S 7S 6S 5S")  # only the 9's suit counts
    assert evaluate("5H 4S 3S 2S AS") > evaluate("5C 4H 3H 2H AH")  # wheel: the 5's suit


def test_stud_art8_7_three_of_a_kind_ranks_by_the_three_odd_cards_ignored():
    assert evaluate("8S 8H 8C 2D 3S") > evaluate("7S 7H 7C AD KS")
    assert evaluate("8S 8H 8C 2D 3S") == evaluate("8S 8H 8D AD KS")


def test_stud_art8_8_two_pairs_rank_by_pairs_then_odd_card_then_suit_in_higher_pair():
    assert evaluate("KS KH 2C 2D 3S") > evaluate("QS QH JC JD AS")
    assert evaluate("KS KH 7C 7D 3S") > evaluate("KC KD 6C 6D AS")
    assert evaluate("KS KH 7C 7D 4S") > evaluate("KC KD 7S 7H 3H")
    assert evaluate("KC KS 7C 7D 4C") > evaluate("KH KD 7S 7H 4S")  # the spade king


def test_stud_art8_9_one_pair_ranks_by_pair_then_odd_cards_then_suit_in_pair():
    assert evaluate("3S 3H 4C 5D 6S") > evaluate("2S 2H AC KD QS")
    assert evaluate("TS TH 9C 7D 5S") > evaluate("TC TD 9S 7H 4S")  # third odd card
    assert evaluate("TC TS 9S 7H 5H") > evaluate("TD TH 9C 7D 5S")  # ten of spades


def test_stud_art8_10_high_card_ranks_by_five_cards_then_suit_of_the_highest():
    assert evaluate("AS KH QC JD 9S") > evaluate("AH KS QD JC 8S")
    assert evaluate("AS KH QC JD 9S") > evaluate("AH KS QD JC 9D")  # the ace of spades
    assert evaluate("AS KH QC JD 9S") > evaluate("AH KS QD JC 9H") > evaluate("AC 3S 4S 5S 7H")


def test_evaluate_refuses_anything_but_five_different_cards():
    with pytest.raises(InvalidInput, match="five cards, not 4"):
        evaluate("AS KS QS JS")
    with pytest.raises(InvalidInput, match="AS appears twice"):
        evaluate("AS AS KD QD JD")
    with pytest.raises(InvalidInput, match="is not a card"):
        evaluate(["AS", "KS", "QS", "JS", "TS"])
    with pytest.raises(InvalidInput):
        evaluate("AS KS QS JS XX")


# --- Art. 9, 1): dealer qualification ---


def test_stud_art9_1_dealer_qualifies_with_ace_king_high():
    assert dealer_qualifies(QUALIFIED_DEALER)
    assert dealer_qualifies("AS KD 4C 3H 2S")


def test_stud_art9_1_dealer_with_ace_queen_high_does_not_qualify():
    assert not dealer_qualifies(UNQUALIFIED_DEALER)
    assert not dealer_qualifies("KS QD JC 9H 8S")


def test_stud_art9_1_any_pair_qualifies():
    assert dealer_qualifies("2S 2D 4C 5H 7S")
    assert dealer_qualifies("5S 4D 3C 2H AS")  # the lowest straight


# --- Art. 6: bets ---


def test_stud_art6_6_raise_must_be_exactly_twice_the_ante():
    check_raise(3, D("100.00"), D("200.00"))
    with pytest.raises(RuleViolation) as error:
        check_raise(3, D("100.00"), D("150.00"))
    assert str(error.value) == (
        "the raise must be exactly twice the ante: box 3 ante MOP 100.00 needs MOP 200.00, "
        "not MOP 150.00."
    )


def test_stud_art6_7_fold_loses_the_ante_even_when_the_dealer_does_not_qualify():
    results = settled("AS AH 3C 4D 5S", UNQUALIFIED_DEALER, "fold").values()
    assert [(r.spot, r.outcome, r.house_win) for r in results] == [
        ("ante", Outcome.LOST, D("100.00"))]


def test_stud_art6_3_and_art10_1_jackpot_bet_needs_an_ante_before_the_first_card():
    check_jackpot_bet(2, D("50.00"), first_card_dealt=False)
    with pytest.raises(RuleViolation, match="box 3 has no ante: a jackpot bet needs an accepted"):
        check_jackpot_bet(3, D(0), first_card_dealt=False)
    with pytest.raises(RuleViolation, match="only taken before the first card"):
        check_jackpot_bet(3, D("50.00"), first_card_dealt=True)


# --- Art. 9: settlement ---


def test_stud_art9_2_dealer_not_qualifying_returns_raise_and_pays_ante_1_to_1():
    results = settled("7S 5H 4C 3D 2S", UNQUALIFIED_DEALER)
    assert results[1, "ante"].outcome is Outcome.WON
    assert results[1, "ante"].payout == D("100.00")
    assert results[1, "raise"].outcome is Outcome.RETURNED
    assert results[1, "raise"].returned == D("200.00") and results[1, "raise"].house_win == 0


def test_stud_art9_4_qualified_dealer_beating_the_box_takes_ante_and_raise():
    results = settled("AS KH 8C 5D 3S")
    assert results[1, "ante"].outcome is results[1, "raise"].outcome is Outcome.LOST
    assert results[1, "ante"].house_win + results[1, "raise"].house_win == D("300.00")


@pytest.mark.parametrize(
    ("name", "cards", "payout"),
    [
        ("1_high_card", "AS KH QD 5C 3H", "200.00"),
        ("1_one_pair", "2S 2H 7D 8C JH", "200.00"),
        ("2_two_pairs", "3S 3H 4D 4C 7H", "400.00"),
        ("3_three_of_a_kind", "7S 7H 7C 4D 3H", "600.00"),
        ("4_straight", "8S 7H 6C 5D 4S", "800.00"),
        ("5_flush", "JH 9H 7H 4H 3H", "1000.00"),
        ("6_full_house", "QS QH QC 8D 8S", "1400.00"),
        ("7_four_of_a_kind", "TS TH TC TD 4C", "4000.00"),
        ("8_straight_flush", "9C 8C 7C 6C 5C", "10000.00"),
    ],
)
def test_stud_art9_5_box_beats_dealer_raise_paid_by_category(name, cards, payout):
    results = settled(cards)
    assert results[1, "ante"].payout == D("100.00")
    assert results[1, "raise"].outcome is Outcome.WON
    assert results[1, "raise"].payout == D(payout)
    assert not results[1, "raise"].capped


def test_stud_art9_box_beats_dealer_straight_pays_4_to_1():
    assert settled("8S 7H 6C 5D 4S")[1, "raise"].payout == D("200.00") * 4


@pytest.mark.parametrize(
    "cards", ["TS TH TC TD 4C", "9C 8C 7C 6C 5C", "AS KS QS JS TS"],
    ids=["7_four_of_a_kind", "8_straight_flush", "9_royal_flush"],
)
def test_stud_art9_5_7_to_9_payout_may_not_exceed_the_house_maximum(cards):
    results = settled(cards, max_payout="3000.00")
    assert results[1, "raise"].payout == D("3000.00") and results[1, "raise"].capped
    assert results[1, "ante"].payout == D("100.00")  # the ante's 1:1 is never capped


def test_stud_art9_5_6_full_house_is_not_capped():
    results = settled("QS QH QC 8D 8S", max_payout="1000.00")
    assert results[1, "raise"].payout == D("1400.00") and not results[1, "raise"].capped


def test_stud_art9_5_9_royal_flush_pays_the_house_odds_2004():
    results = settled("AS KS QS JS TS", royal_odds=80)
    assert results[1, "raise"].payout == D("16000.00")


def test_stud_2003_art9_5_9_royal_flush_pays_50_to_1():
    results = settled("AS KS QS JS TS", version="2003")
    assert results[1, "raise"].payout == D("10000.00")


def test_stud_equal_hands_push_both_bets():
    # Unreachable in a valid round (one deck); the settlement still gives a sensible answer.
    box = StudBox(1, D("100.00"), parse_cards("KS KH KC KD 2S"), Decision.RAISE)
    results = stud_settlement._settle_table_bets(box, evaluate("KS KH KC KD 3S"), settings())
    assert [(r.outcome, r.house_win) for r in results] == [(Outcome.PUSHED, 0)] * 2


def test_stud_art10_jackpot_stake_is_collected_by_the_table_settlement():
    results = settled("AS KS QS JS TS", jackpot="10.00")
    assert results[1, "jackpot"].outcome is Outcome.LOST
    assert results[1, "jackpot"].house_win == D("10.00")


def test_a_round_refuses_a_card_dealt_twice():
    with pytest.raises(InvalidInput, match="AD was dealt twice"):
        one_box_round("AD 2S 3S 4S 5H", QUALIFIED_DEALER)


def test_a_box_refuses_what_is_not_a_stake_or_a_decision():
    cards = parse_cards("2S 3S 4S 5S 7H")
    with pytest.raises(InvalidInput, match="box 8"):
        StudBox(8, D("100.00"), cards, Decision.RAISE)
    with pytest.raises(InvalidInput, match="never a float"):
        StudBox(1, 100.0, cards, Decision.RAISE)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="box 1 ante 0.005"):
        StudBox(1, D("0.005"), cards, Decision.RAISE)
    with pytest.raises(InvalidInput, match="'call' is not raise or fold"):
        StudBox(1, D("100.00"), cards, "call")  # type: ignore[arg-type]


# --- Settings: art. 9, 5), (9) and art. 13 ---


@pytest.mark.parametrize("odds", [50, 75, 100])
def test_stud_art13_house_sets_royal_odds_between_50_and_100(odds):
    assert settings(royal_odds=odds).royal_odds == odds


@pytest.mark.parametrize("odds", [49, 120])
def test_stud_art13_royal_odds_outside_50_to_100_are_refused(odds):
    with pytest.raises(SettingOutsideRegulation, match=r"art\. 9, 5\), \(9\).*art\. 13"):
        settings(royal_odds=odds)


def test_stud_2003_art9_5_9_royal_odds_are_fixed_at_50():
    assert settings("2003").rule_version is RuleVersion.V2003
    with pytest.raises(SettingOutsideRegulation, match="69/2003: art. 9, 5\\), \\(9\\) fixes it"):
        settings("2003", royal_odds=60)


# --- Art. 7: the deal ---


def test_stud_art7_1_shoe_deals_one_at_a_time_left_to_right_dealer_last_last_card_up():
    plan = expected_deal([5, 2], DealMethod.SHOE)
    assert [step.to for step in plan[:6]] == [2, 5, DEALER, 2, 5, DEALER]
    assert len(plan) == 15
    assert [(step.to, step.card_number) for step in plan if step.face_up] == [(DEALER, 5)]


def test_stud_art7_2_shuffler_deals_five_at_a_time_dealer_last_top_card_shown():
    plan = expected_deal([3, 1], DealMethod.SHUFFLER)
    assert [step.to for step in plan] == [1] * 5 + [3] * 5 + [DEALER] * 5
    assert [(step.to, step.card_number) for step in plan if step.face_up] == [(DEALER, 1)]


def test_stud_art7_next_card_follows_the_plan():
    step = check_next_card([1, 3], DealMethod.SHOE, [1, 3], DEALER)
    assert step.to == DEALER and step.card_number == 1 and not step.face_up


def test_stud_art7_a_sixth_card_is_a_wrong_count():
    dealt = [step.to for step in expected_deal([3], DealMethod.SHOE)]
    with pytest.raises(DealError, match="a sixth card to box 3: a Stud Poker hand has five cards"
                       ) as error:
        check_next_card([3], DealMethod.SHOE, dealt, 3)
    assert error.value.kind is Irregularity.WRONG_COUNT


def test_stud_art7_a_deal_needs_a_box_with_a_bet():
    with pytest.raises(InvalidInput, match="at least one of boxes 1 to 7"):
        expected_deal([], DealMethod.SHOE)


def test_stud_art7_a_card_out_of_turn_is_a_wrong_order():
    with pytest.raises(DealError, match="the next card goes to box 3, not the dealer") as error:
        check_next_card([1, 3], DealMethod.SHOE, [1], DEALER)
    assert error.value.kind is Irregularity.WRONG_ORDER


# --- Art. 11: irregularities ---


def test_stud_art11_1_cards_dealt_the_wrong_way_void_the_round_jackpot_bets_carried():
    assert classify_irregularity(Irregularity.WRONG_ORDER) is VOID_CARRY


def test_stud_art11_1_wrong_number_of_cards_voids_the_round_jackpot_bets_carried():
    assert classify_irregularity(Irregularity.WRONG_COUNT) is VOID_CARRY


def test_stud_art11_1_two_exposed_cards_void_the_round_jackpot_bets_carried():
    assert classify_irregularity(Irregularity.CARDS_EXPOSED, exposed=2) is VOID_CARRY
    assert classify_irregularity(Irregularity.CARDS_EXPOSED, exposed=3, dealer_card=True) is (
        VOID_CARRY)


def test_stud_art11_1_void_round_returns_bets_and_carries_jackpot_bets():
    results = by_spot(settle_void({1: D("100.00"), 4: D("50.00")}, {4: D("10.00")}))
    assert results[1, "ante"].outcome is results[4, "ante"].outcome is Outcome.RETURNED
    assert results[4, "jackpot"].outcome is Outcome.CARRIED
    assert all(result.house_win == 0 for result in results.values())


def test_stud_art10_1_a_void_returns_a_jackpot_bet_whose_box_has_no_ante():
    results = by_spot(settle_void({1: D("100.00")}, {1: D("10.00"), 5: D("20.00")}))
    assert results[1, "jackpot"].outcome is Outcome.CARRIED
    assert results[5, "jackpot"].outcome is Outcome.RETURNED
    assert results[5, "jackpot"].returned == D("20.00")


def test_stud_art11_2_one_exposed_card_play_continues():
    consequence = classify_irregularity(Irregularity.CARDS_EXPOSED, exposed=1)
    assert consequence is Consequence.ROUND_CONTINUES


def test_stud_art11_2_exposed_dealer_card_stays_up_the_rest_dealt_down():
    consequence = classify_irregularity(Irregularity.CARDS_EXPOSED, exposed=1, dealer_card=True)
    assert consequence is Consequence.DEALER_CARD_STAYS_UP
    assert not any(step.face_up for step in expected_deal([1], DealMethod.SHOE,
                                                          dealer_card_exposed=True))


def test_stud_art11_3_cards_to_a_box_without_a_bet_void_that_box_play_continues():
    with pytest.raises(DealError, match="a card to box 4, which has no bet") as error:
        check_next_card([1, 6], DealMethod.SHOE, [1], 4)
    assert classify_irregularity(error.value.kind) is Consequence.BOX_VOID
    assert check_next_card([1, 6], DealMethod.SHOE, [1, 4], 6).to == 6  # the deal goes on


def test_stud_art11_3_a_void_box_has_its_bets_returned():
    box = StudBox(2, D("100.00"), parse_cards("AS KS QS JS TS"), Decision.RAISE, D("10.00"))
    round_ = StudPokerRound((box,), parse_cards(QUALIFIED_DEALER), frozenset({2}))
    assert {r.outcome for r in settle(round_, settings())} == {Outcome.RETURNED}


def test_stud_art11_4_shuffler_failure_voids_the_round_jackpot_bets_carried():
    assert classify_irregularity(Irregularity.SHUFFLER_FAILURE) is VOID_CARRY


# --- Properties ---

hands = st.permutations(DECK).map(lambda deck: (tuple(deck[:5]), tuple(deck[5:10]),
                                                tuple(deck[10:15])))


@given(hands)
def test_order_is_total_and_antisymmetric_on_disjoint_hands(three):
    a, b, c = (evaluate(hand) for hand in three)
    assert (a < b) + (b < a) == 1 and a != b
    if a < b < c:
        assert a < c


@given(st.permutations(DECK).map(lambda deck: deck[:5]), st.randoms())
def test_a_hands_value_does_not_depend_on_card_order(cards, random):
    shuffled = list(cards)
    random.shuffle(shuffled)
    assert evaluate(cards) == evaluate(shuffled)
    assert evaluate(cards).key == evaluate(tuple(reversed(cards))).key


@st.composite
def rounds(draw):
    deck = draw(st.permutations(DECK))
    numbers = draw(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True))
    boxes = []
    for index, number in enumerate(sorted(numbers)):
        ante = D(draw(st.integers(1000, 100000))) / 100
        jackpot = draw(st.sampled_from([D("0.00"), D("10.00"), D("25.50")]))
        decision = draw(st.sampled_from(list(Decision)))
        cards = tuple(deck[5 * index:5 * index + 5])
        boxes.append(StudBox(number, ante, cards, decision, jackpot))
    void = draw(st.frozensets(st.sampled_from(sorted(numbers))))
    return StudPokerRound(tuple(boxes), tuple(deck[45:50]), void)


@given(rounds(), st.sampled_from(["500.00", "100000.00"]))
def test_settlement_conserves_money_per_round(round_, max_payout):
    results = settle(round_, settings(royal_odds=100, max_payout=max_payout))
    placed = sum((box.ante + box.raise_stake + box.jackpot for box in round_.boxes), D(0))
    assert sum(r.stake for r in results) == placed
    assert sum(r.stake for r in results) == sum(
        r.returned + r.payout - r.commission for r in results) + sum(r.house_win for r in results)
    for result in results:
        assert 0 <= result.returned <= result.stake and result.payout >= 0
        assert not result.capped or result.payout == D(max_payout)
        assert result.payout <= result.stake * 100
