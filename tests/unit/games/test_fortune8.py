"""Fortune 8 (DICJ 71/2009), named after the article each test checks."""

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.cards import DECK, Card, Rank
from ledger.core.errors import InvalidInput, RuleViolation, SettingOutsideRegulation
from ledger.games.common import Consequence, Outcome
from ledger.games.fortune8.rules import (
    SPACES,
    Bet,
    Box,
    DealMode,
    Equipment,
    Fortune8Round,
    Fortune8Settings,
    Irregularity,
    classify_irregularity,
    settle,
    winning_box,
)

D = Decimal


def card(code: str) -> Card:
    return Card.parse(code)


def settings(**changes) -> Fortune8Settings:
    base = {
        "effective_from": date(2025, 1, 1),
        "authorisation": "DICJ 2/2025",
        "min_bet": D("50.00"),
        "max_bet": D("5000.00"),
        "decks": 8,
    }
    return Fortune8Settings(**(base | changes))


def dealt(bets, cards: dict[int, str], mode=DealMode.SPACES_WITH_BETS) -> Fortune8Round:
    round_ = Fortune8Round.open(settings())
    for bet in bets:
        round_ = round_.place_bet(bet)
    round_ = round_.announce(mode).burn()
    for space, code in cards.items():
        round_ = round_.deal(space, card(code))
    return round_


def result_on(box: Box, code: str):
    (result,) = settle(dealt([Bet(4, box, D("100"))], {4: code}))
    return result.outcome, result.returned, result.payout


# --- Art. 6 and 7: which box a card makes win -----------------------------------------------


@pytest.mark.parametrize("rank", "234567")
def test_fortune8_art7_1_low_box_wins_on_2_to_7(rank):
    assert winning_box(rank + "S") == "L"


def test_fortune8_art7_3_fortune8_box_wins_on_an_eight():
    assert {winning_box(Card(Rank.EIGHT, suit)) for suit in {c.suit for c in DECK}} == {"8"}


@pytest.mark.parametrize("rank", ["9", "T", "10", "J", "Q", "K", "A"])
def test_fortune8_art7_2_high_box_wins_on_9_to_king_and_ace(rank):
    assert winning_box(rank + "D") == "H"


def test_fortune8_art6_2_the_ace_counts_high():
    assert winning_box("AC") == Box.HIGH


# --- Art. 8: payouts; art. 6(1): the other boxes lose ---------------------------------------


def test_fortune8_art8_1_low_pays_1_to_1():
    assert result_on(Box.LOW, "2H") == (Outcome.WON, D("100.00"), D("100.00"))


def test_fortune8_art8_1_high_pays_1_to_1():
    assert result_on(Box.HIGH, "KH") == (Outcome.WON, D("100.00"), D("100.00"))


def test_fortune8_art8_2_eight_pays_11_to_1():
    assert result_on(Box.EIGHT, "8C") == (Outcome.WON, D("100.00"), D("1100.00"))


def test_fortune8_art6_1_the_other_boxes_of_the_space_lose():
    bets = [Bet(2, box, D("100")) for box in Box]

    results = settle(dealt(bets, {2: "8S"}))

    assert [(r.spot, r.outcome, r.house_win) for r in results] == [
        ("L", Outcome.LOST, D("100.00")),
        ("8", Outcome.WON, D("-1100.00")),
        ("H", Outcome.LOST, D("100.00")),
    ]


def test_fortune8_art4_each_space_is_decided_by_its_own_card():
    bets = [Bet(1, Box.LOW, D("100")), Bet(6, Box.LOW, D("100"))]

    results = settle(dealt(bets, {6: "9S", 1: "3S"}))

    assert [(r.box, r.outcome) for r in results] == [(1, Outcome.WON), (6, Outcome.LOST)]


def test_fortune8_art4_1_any_number_of_players_bet_on_one_box():
    bets = [Bet(5, Box.HIGH, D("100"), "ana"), Bet(5, Box.HIGH, D("300"), "bo")]

    results = settle(dealt(bets, {5: "QD"}))

    assert [(r.player, r.payout) for r in results] == [("ana", D("100.00")), ("bo", D("300.00"))]


# --- Art. 1 and 2: equipment and settings ---------------------------------------------------


@pytest.mark.parametrize("decks", [1, 8])
def test_fortune8_art1_1_one_to_eight_decks(decks):
    assert settings(decks=decks).decks == decks


@pytest.mark.parametrize("decks", [0, 9])
def test_fortune8_art1_1_nine_decks_or_none_are_refused(decks):
    with pytest.raises(SettingOutsideRegulation, match=r"one to eight decks \(art\. 1\(1\)\)"):
        settings(decks=decks)


def test_fortune8_art1_equipment_shoe_automatic_shuffler_dealer_or_shuffler():
    assert {settings(equipment=kind).equipment for kind in Equipment} == set(Equipment)
    assert settings().deal_mode == DealMode.ALL_SPACES


def test_fortune8_art2_cut_card_before_the_last_12_except_with_the_automatic_dealer():
    assert settings(equipment=Equipment.SHOE).cut_card_before_last == 12
    assert settings(equipment=Equipment.AUTOMATIC_SHUFFLER_DEALER).cut_card_before_last is None


def test_fortune8_art4_3_bets_within_the_table_limits():
    settings().verify_stake(D("5000.00"))
    with pytest.raises(RuleViolation, match=r"table limits.*art\. 4\(3\)"):
        settings().verify_stake(D("5000.01"))


def test_fortune8_art1_1_a_card_cannot_come_out_more_often_than_there_are_decks():
    round_ = Fortune8Round(decks=1).announce(DealMode.ALL_SPACES).burn(card("AS"))

    with pytest.raises(InvalidInput, match="as many times as there are decks"):
        round_.deal(1, card("AS"))
    assert Fortune8Round(decks=2).announce("all_spaces").burn(card("AS")).deal(1, card("AS"))


@pytest.mark.parametrize(
    "bet",
    [{"space": 0}, {"space": 8}, {"box": "M"}, {"stake": D("-1")}, {"stake": D("0.001")}],
)
def test_fortune8_art4_3_bets_go_on_one_of_the_21_boxes(bet):
    with pytest.raises(InvalidInput):
        Bet(**({"space": 1, "box": "L", "stake": D("10")} | bet))


# --- Art. 4(5)-(6): betting closes, announcement, burn, deal --------------------------------


def test_fortune8_art4_5_a_bet_after_the_burn_is_refused():
    round_ = Fortune8Round().announce(DealMode.ALL_SPACES).burn()

    with pytest.raises(RuleViolation, match=r"before any card is drawn.*art\. 4\(5\)"):
        round_.place_bet(Bet(1, Box.LOW, D("100")))


def test_fortune8_art4_5_a_bet_after_the_first_card_is_refused():
    round_ = dealt([Bet(1, Box.LOW, D("100"))], {1: "2S"})

    with pytest.raises(RuleViolation, match="bets are closed"):
        round_.place_bet(Bet(2, Box.LOW, D("100")))


def test_fortune8_art4_6_betting_ends_with_the_announcement():
    round_ = Fortune8Round().announce(DealMode.SPACES_WITH_BETS)

    assert not round_.bets_open
    with pytest.raises(RuleViolation, match="bets are closed"):
        round_.place_bet(Bet(1, Box.LOW, D("100")))


def test_fortune8_art4_6_the_dealer_announces_before_the_first_card():
    with pytest.raises(RuleViolation, match=r"announces the deal mode.*art\. 4\(6\)"):
        Fortune8Round().burn()
    with pytest.raises(RuleViolation, match="already announced"):
        Fortune8Round().announce("all_spaces").announce("spaces_with_bets")


def test_fortune8_art4_6_the_round_records_the_announced_mode_not_the_house_default():
    round_ = Fortune8Round.open(settings(deal_mode=DealMode.ALL_SPACES))

    assert round_.announce("spaces_with_bets").mode == DealMode.SPACES_WITH_BETS


def test_fortune8_art4_6_the_first_card_is_burned():
    round_ = Fortune8Round().announce(DealMode.ALL_SPACES)

    with pytest.raises(RuleViolation, match=r"first card is burned.*art\. 5"):
        round_.deal(1, card("2S"))
    with pytest.raises(RuleViolation, match="already burned"):
        round_.burn().burn()


def test_fortune8_art4_6_all_spaces_mode_deals_every_space_bets_or_not():
    round_ = dealt([Bet(3, Box.HIGH, D("100"))], {3: "AS"}, DealMode.ALL_SPACES)

    assert round_.spaces_to_deal == SPACES
    with pytest.raises(RuleViolation, match=r"waiting: 1, 2, 4, 5, 6, 7.*art\. 5"):
        settle(round_)
    for space in (1, 2, 4, 5, 6, 7):
        round_ = round_.deal(space, card("2D"))
    assert settle(round_)[0].outcome == Outcome.WON


def test_fortune8_art4_6_spaces_with_bets_mode_deals_only_those_spaces():
    round_ = dealt([Bet(3, Box.HIGH, D("100")), Bet(6, Box.LOW, D("100"))], {})

    assert round_.spaces_to_deal == (3, 6)
    with pytest.raises(RuleViolation, match=r"space 4 holds no bet.*art\. 5"):
        round_.deal(4, card("2S"))


def test_fortune8_art4_6_spaces_may_be_dealt_in_any_order():
    round_ = dealt([Bet(3, Box.HIGH, D("100")), Bet(6, Box.LOW, D("100"))], {6: "2S", 3: "AS"})

    assert round_.deal_complete
    assert [r.outcome for r in settle(round_)] == [Outcome.WON, Outcome.WON]


def test_fortune8_art4_a_round_without_bets_settles_to_nothing():
    assert settle(dealt([], {})) == ()


# --- Art. 3 and 5: irregularities -----------------------------------------------------------


DEALING_ERRORS = [kind for kind in Irregularity if kind != Irregularity.CARD_LEFT_SHOE_FACE_UP]


def test_fortune8_art3_a_card_leaving_the_shoe_face_up_is_valid():
    round_ = dealt([Bet(1, Box.EIGHT, D("100"))], {1: "8H"})

    assert classify_irregularity(Irregularity.CARD_LEFT_SHOE_FACE_UP) == Consequence.ROUND_CONTINUES
    assert classify_irregularity("card_left_shoe_face_up", corrected=False) == (
        Consequence.ROUND_CONTINUES
    )
    round_ = round_.record_irregularity(Irregularity.CARD_LEFT_SHOE_FACE_UP)
    assert settle(round_)[0].payout == D("1100.00")


@pytest.mark.parametrize("kind", DEALING_ERRORS)
def test_fortune8_art5_a_dealing_error_corrected_at_once_lets_the_round_go_on(kind):
    assert classify_irregularity(kind, corrected=True) == Consequence.CORRECTED


@pytest.mark.parametrize("kind", DEALING_ERRORS)
def test_fortune8_art5_a_dealing_error_that_cannot_be_corrected_voids_the_round(kind):
    assert classify_irregularity(kind, corrected=False) == Consequence.ROUND_VOID


def test_fortune8_art5_a_second_card_to_a_space_is_refused_as_a_dealing_error():
    round_ = dealt([Bet(1, Box.LOW, D("100"))], {1: "2S"}, DealMode.ALL_SPACES)

    with pytest.raises(RuleViolation, match=r"space 1 already has its card 2S.*art\. 5"):
        round_.deal(1, card("3S"))


def test_fortune8_art5_a_space_with_bets_but_no_card_is_corrected_by_dealing_it():
    round_ = dealt([Bet(2, Box.LOW, D("100")), Bet(5, Box.HIGH, D("100"))], {5: "KS"})
    with pytest.raises(RuleViolation, match=r"waiting: 2.*corrected at once.*art\. 5"):
        settle(round_)

    round_ = round_.record_irregularity(Irregularity.SPACE_MISSED).deal(2, card("7C"))

    assert [r.outcome for r in settle(round_)] == [Outcome.WON, Outcome.WON]


def test_fortune8_art5_an_uncorrected_error_voids_the_round_and_returns_every_bet():
    round_ = dealt([Bet(2, Box.LOW, D("100")), Bet(2, Box.EIGHT, D("25"))], {})

    round_ = round_.record_irregularity(Irregularity.FIRST_CARD_NOT_BURNED, corrected=False)

    assert [(r.outcome, r.returned, r.house_win) for r in settle(round_)] == [
        (Outcome.RETURNED, D("100.00"), 0),
        (Outcome.RETURNED, D("25.00"), 0),
    ]
    with pytest.raises(RuleViolation, match="round is void"):
        round_.deal(2, card("2S"))


def test_fortune8_unknown_irregularity_is_refused_with_the_known_kinds():
    with pytest.raises(InvalidInput, match="space_missed"):
        classify_irregularity("shoe_dropped")


# --- Hypothesis -----------------------------------------------------------------------------


@given(st.sampled_from(DECK))
def test_fortune8_exactly_one_box_of_a_space_wins_on_any_card(any_card):
    results = settle(dealt([Bet(1, box, D("10")) for box in Box], {1: str(any_card)}))

    assert [r.outcome for r in results].count(Outcome.WON) == 1


stakes = st.integers(min_value=1, max_value=1_000_000).map(lambda avos: D(avos) / 100)
bets = st.builds(
    Bet,
    st.sampled_from(SPACES),
    st.sampled_from(list(Box)),
    stakes,
    st.sampled_from(["a", "b", None]),
)


@given(
    st.lists(bets, max_size=30),
    st.lists(st.sampled_from(DECK), min_size=8, max_size=8),
    st.sampled_from(list(DealMode)),
    st.booleans(),
)
def test_fortune8_settlement_conserves_money(placed, cards, mode, voided):
    round_ = dealt(placed, {}, mode)
    for space, drawn in zip(round_.spaces_to_deal, cards, strict=False):
        round_ = round_.deal(space, drawn)
    if voided:
        round_ = round_.record_irregularity(Irregularity.OTHER_DEALING_ERROR, corrected=False)

    results = settle(round_)

    assert len(results) == len(placed)
    assert sum(r.stake for r in results) == sum(
        r.returned + r.payout - r.commission for r in results
    ) + sum(r.house_win for r in results)
    for result in results:
        odds = 11 if result.spot == "8" else 1
        assert result.payout in (0, result.stake * odds)
        assert result.returned in (0, result.stake)
        assert (result.outcome == Outcome.RETURNED) == voided
