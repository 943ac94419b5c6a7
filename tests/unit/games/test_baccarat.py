"""Baccarat rules, one test per article of DICJ 55/2004 (the regulation's own numbering)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.cards import DECK, Card, Rank, Suit
from ledger.core.errors import InvalidInput, RuleViolation, SettingOutsideRegulation
from ledger.games.baccarat.rules import (
    BaccaratSettings,
    Bet,
    BurnMethod,
    Coup,
    Equipment,
    Irregularity,
    LastCoup,
    Side,
    Spot,
    TieHandling,
    burn_at_shoe_start,
    burn_count,
    can_deal,
    card_value,
    classify_irregularity,
    coups_after_blank_card,
    next_card_to,
    play_coup,
    settle_coup,
    settle_void_coup,
    verify_bet_after_tie,
    verify_deal,
)
from ledger.games.common import BetResult, Consequence, Outcome

SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def cards(*values: int) -> tuple[Card, ...]:
    """Cards of the given values in shoe order (0 is a king, 1 an ace), suits varied."""
    ranks = {0: Rank.KING, 1: Rank.ACE} | {value: Rank(value) for value in range(2, 10)}
    return tuple(Card(ranks[value], SUITS[i % 4]) for i, value in enumerate(values))


def banker_draws(banker_total: int, players_third: int) -> bool:
    """Whether the banker, on `banker_total`, draws after the player (on 2) drew that value."""
    coup = play_coup(cards(1, banker_total, 1, 0, players_third, 5))
    return len(coup.banker_cards) == 3


# --- art. 5: card values ---------------------------------------------------------------------


@pytest.mark.parametrize("rank", list(Rank))
def test_baccarat_art5_tens_and_faces_count_zero_ace_one_others_face_value(rank: Rank) -> None:
    expected = 1 if rank == Rank.ACE else 0 if rank >= Rank.TEN else int(rank)
    assert card_value(Card(rank, Suit.HEARTS)) == expected


def test_baccarat_art5_a_total_of_ten_or_more_drops_the_tens() -> None:
    coup = play_coup("7S 3H 8D QC 9D KS")  # player 7+8 = 15 counts 5, draws a 9
    assert coup.player_total == (7 + 8 + 9) % 10 == 4
    assert coup.banker_total == 3


# --- art. 7: the initial deal ----------------------------------------------------------------


def test_baccarat_art7_deal_alternates_player_banker_starting_with_the_player() -> None:
    coup = play_coup("2S 3H 4D 5C 6S 7H")
    assert [str(card) for card in coup.player_cards[:2]] == ["2S", "4D"]
    assert [str(card) for card in coup.banker_cards[:2]] == ["3H", "5C"]


@pytest.mark.parametrize(
    ("dealt", "due"), [(0, "player"), (1, "banker"), (2, "player"), (3, "banker")]
)
def test_baccarat_art7_each_initial_card_is_due_in_turn(dealt: int, due: str) -> None:
    so_far = cards(1, 2, 3, 4)[:dealt]
    assert next_card_to(so_far) == due
    other = "banker" if due == "player" else "player"
    assert not can_deal(so_far, other)
    with pytest.raises(RuleViolation, match=f"the next card goes to the {due}"):
        verify_deal(so_far, other)


# --- art. 9: third cards ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "banker"), [(8, 2), (9, 0), (3, 8), (0, 9), (8, 9), (9, 9), (8, 8)]
)
def test_baccarat_art9_a_natural_on_either_side_and_both_stand(player: int, banker: int) -> None:
    dealt = cards(player, banker, 0, 0)
    coup = play_coup(dealt + cards(1, 1))
    assert coup.cards_used == 4
    assert next_card_to(dealt) is None
    with pytest.raises(RuleViolation, match="natural .*: no third card is allowed"):
        verify_deal(dealt, "player" if player < 8 else "banker")


@pytest.mark.parametrize("total", range(6))
def test_baccarat_art9_player_draws_on_0_to_5(total: int) -> None:
    dealt = cards(total, 7, 0, 0)
    assert next_card_to(dealt) == Side.PLAYER
    assert len(play_coup(dealt + cards(4, 4)).player_cards) == 3


@pytest.mark.parametrize("total", [6, 7])
def test_baccarat_art9_player_stands_on_6_or_7(total: int) -> None:
    dealt = cards(total, 7, 0, 0)
    assert len(play_coup(dealt + cards(4, 4)).player_cards) == 2
    with pytest.raises(RuleViolation) as refusal:
        verify_deal(dealt, "player")
    assert str(refusal.value) == f"the player stands on {total}: a third card is not allowed."


@pytest.mark.parametrize("total", range(6))
def test_baccarat_art9_banker_draws_on_0_to_5_when_the_player_stood(total: int) -> None:
    dealt = cards(6, total, 0, 0)
    assert next_card_to(dealt) == Side.BANKER
    coup = play_coup(dealt + cards(3, 3))
    assert (len(coup.player_cards), len(coup.banker_cards), coup.cards_used) == (2, 3, 5)


@pytest.mark.parametrize("total", [6, 7])
def test_baccarat_art9_banker_stands_on_6_or_7_when_the_player_stood(total: int) -> None:
    dealt = cards(7, total, 0, 0)
    assert play_coup(dealt + cards(3, 3)).cards_used == 4
    with pytest.raises(RuleViolation) as refusal:
        verify_deal(dealt, "banker")
    assert str(refusal.value) == f"the banker stands on {total}: a third card is not allowed."


@pytest.mark.parametrize("total", [0, 1, 2])
def test_baccarat_art9_banker_on_0_1_2_draws_whatever_the_players_third(total: int) -> None:
    assert all(banker_draws(total, third) for third in range(10))


def test_baccarat_art9_banker_on_3_draws_unless_players_third_is_8() -> None:
    assert {third for third in range(10) if banker_draws(3, third)} == set(range(10)) - {8}


def test_baccarat_art9_banker_on_4_draws_when_players_third_is_2_to_7() -> None:
    assert {third for third in range(10) if banker_draws(4, third)} == set(range(2, 8))


def test_baccarat_art9_banker_on_5_draws_when_players_third_is_4_to_7() -> None:
    assert {third for third in range(10) if banker_draws(5, third)} == set(range(4, 8))


def test_baccarat_art9_banker_on_6_draws_when_players_third_is_6_or_7() -> None:
    assert {third for third in range(10) if banker_draws(6, third)} == {6, 7}


def test_baccarat_art9_banker_on_7_stands_whatever_the_players_third() -> None:
    assert not any(banker_draws(7, third) for third in range(10))
    with pytest.raises(RuleViolation) as refusal:
        verify_deal(cards(1, 7, 1, 0, 6), "banker")
    assert str(refusal.value) == "the banker stands on 7: a third card is not allowed."


# Art. 9(3) and 9(4) as printed: the player's third card by face, tens and faces written 10.
DRAWS_AS_PRINTED = {
    3: {1, 2, 3, 4, 5, 6, 7, 9, 10}, 4: {2, 3, 4, 5, 6, 7}, 5: {4, 5, 6, 7}, 6: {6, 7}
}
STANDS_AS_PRINTED = {
    3: {8}, 4: {1, 8, 9, 10}, 5: {1, 2, 3, 8, 9, 10}, 6: {1, 2, 3, 4, 5, 8, 9, 10}
}


@pytest.mark.parametrize("banker_total", [3, 4, 5, 6])
def test_baccarat_art9_banker_table_matches_the_text_for_every_third_card(
    banker_total: int,
) -> None:
    for face in range(1, 11):
        expected = face in DRAWS_AS_PRINTED[banker_total]
        assert expected != (face in STANDS_AS_PRINTED[banker_total]), "the text is exhaustive"
        assert banker_draws(banker_total, face % 10) is expected, (banker_total, face)


def test_baccarat_art9_refusal_names_the_players_third_card() -> None:
    with pytest.raises(RuleViolation) as refusal:
        verify_deal(cards(1, 5, 1, 0, 3), "banker")
    assert str(refusal.value) == (
        "the banker stands on 5 when the player's third card is worth 3: "
        "a third card is not allowed."
    )


def test_baccarat_art9_the_player_draws_first() -> None:
    dealt = cards(1, 2, 1, 0)  # both would draw: the player's card comes first
    with pytest.raises(RuleViolation, match="the player draws first on 2"):
        verify_deal(dealt, "banker")
    assert can_deal(dealt, "player")


def test_baccarat_art9_only_one_additional_card_each() -> None:
    with pytest.raises(RuleViolation, match="the player already has a third card"):
        verify_deal(cards(1, 2, 1, 0, 5), "player")
    with pytest.raises(RuleViolation, match="the banker already has a third card"):
        verify_deal(cards(1, 2, 1, 0, 5, 5), "banker")
    with pytest.raises(RuleViolation, match="the banker already has a third card"):
        verify_deal(cards(7, 2, 0, 0, 5), "banker")
    assert next_card_to(cards(1, 2, 1, 0, 5, 5)) is None


def test_baccarat_art9_a_card_dealt_after_the_tableau_completed_is_refused() -> None:
    with pytest.raises(RuleViolation, match="complete after 4 cards, yet card 5"):
        next_card_to(cards(7, 7, 0, 0, 3))


def test_baccarat_art9_too_few_cards_for_the_tableau_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="needs card 5 for the player, but only 4 cards"):
        play_coup(cards(1, 2, 1, 0))
    with pytest.raises(InvalidInput, match="needs card 3 for the player, but only 2 cards"):
        play_coup("9S 9H")


def test_baccarat_art9_cards_after_the_coup_are_left_in_the_shoe() -> None:
    coup = play_coup("9S 2H KD 3C 5H 8D 7S 7H")
    assert coup.cards_used == 4
    assert coup.winner == "player"


def test_baccarat_side_names_are_checked() -> None:
    with pytest.raises(InvalidInput, match="'dealer' is not a side"):
        verify_deal((), "dealer")


# --- arts. 11, 12, 13: winner, tie, pairs -----------------------------------------------------


def test_baccarat_art11_the_higher_total_wins() -> None:
    assert play_coup(cards(4, 5, 4, 4)).winner == "banker"  # 8 vs 9, both naturals
    assert play_coup(cards(9, 4, 0, 4)).winner == "player"  # 9 vs 8


def test_baccarat_art12_equal_totals_are_a_tie() -> None:
    coup = play_coup(cards(7, 5, 0, 2))
    assert (coup.player_total, coup.banker_total, coup.winner) == (7, 7, "tie")


def test_baccarat_art13_a_pair_is_two_cards_of_the_same_rank_whatever_the_suit() -> None:
    coup = play_coup("JS 4H JD 4C")
    assert coup.player_pair and coup.banker_pair


def test_baccarat_art13_a_jack_and_a_queen_are_not_a_pair() -> None:
    coup = play_coup("JS KH QD TC 9S 9H")  # same value 0, different ranks
    assert not coup.player_pair and not coup.banker_pair


def test_baccarat_art13_only_the_first_two_cards_make_a_pair() -> None:
    coup = play_coup("2S 3H 3D 4C 2C")  # player 2-3 draws a 2: 2-3-2 is no pair
    assert len(coup.player_cards) == 3 and not coup.player_pair


# --- arts. 10, 12, 17, 18: settlement ------------------------------------------------------


PLAYER_WINS = play_coup(cards(9, 4, 0, 3))  # 9 vs 7
BANKER_WINS = play_coup(cards(4, 9, 4, 0))  # 8 vs 9, naturals
TIE = play_coup(cards(7, 5, 0, 2))  # 7 vs 7, no pairs


def settle_one(spot: str, stake: str, coup: Coup) -> BetResult:
    (result,) = settle_coup([Bet(box=1, spot=Spot(spot), stake=Decimal(stake))], coup)
    return result


def test_baccarat_art17_player_bet_pays_1_to_1() -> None:
    result = settle_one("player", "100", PLAYER_WINS)
    assert (result.outcome, result.returned, result.payout, result.house_win) == (
        Outcome.WON, Decimal("100.00"), Decimal("100.00"), Decimal("-100.00"))
    assert settle_one("player", "100", BANKER_WINS).house_win == Decimal("100.00")


def test_baccarat_art17_banker_bet_pays_1_to_1_less_the_commission() -> None:
    result = settle_one("banker", "100", BANKER_WINS)
    assert (result.outcome, result.payout, result.commission) == (
        Outcome.WON, Decimal("100.00"), Decimal("5.00"))
    assert settle_one("banker", "100", PLAYER_WINS).outcome is Outcome.LOST


def test_baccarat_art18_commission_is_5_percent_of_the_banker_win() -> None:
    assert settle_one("banker", "2000", BANKER_WINS).house_win == Decimal("-1900.00")


def test_baccarat_art18_commission_rounds_down_to_the_avo_in_the_players_favour() -> None:
    assert settle_one("banker", "0.30", BANKER_WINS).commission == Decimal("0.01")  # 0.015
    assert settle_one("banker", "0.19", BANKER_WINS).commission == Decimal("0.00")  # 0.0095


def test_baccarat_art17_tie_bet_pays_8_to_1() -> None:
    result = settle_one("tie", "10", TIE)
    assert (result.outcome, result.payout, result.house_win) == (
        Outcome.WON, Decimal("80.00"), Decimal("-80.00"))
    assert settle_one("tie", "10", PLAYER_WINS).outcome is Outcome.LOST


@pytest.mark.parametrize("spot", ["player_pair", "banker_pair"])
def test_baccarat_art17_pair_bets_pay_11_to_1(spot: str) -> None:
    coup = play_coup("8S 8H 8D 8C")
    result = settle_one(spot, "10", coup)
    assert (result.outcome, result.payout, result.house_win) == (
        Outcome.WON, Decimal("110.00"), Decimal("-110.00"))
    assert settle_one(spot, "10", PLAYER_WINS).outcome is Outcome.LOST


@pytest.mark.parametrize("spot", ["player", "banker"])
def test_baccarat_art12_a_tie_pushes_player_and_banker_bets(spot: str) -> None:
    result = settle_one(spot, "50", TIE)
    assert (result.outcome, result.returned, result.payout, result.house_win) == (
        Outcome.PUSHED, Decimal("50.00"), Decimal("0.00"), Decimal("0.00"))


def test_baccarat_art12_tie_and_pair_bets_settle_on_their_own_in_a_tie() -> None:
    tie_with_pairs = play_coup("8S 8H 8D 8C")  # 6 vs 6, both stand, both pairs
    assert settle_one("player_pair", "5", tie_with_pairs).outcome is Outcome.WON
    assert settle_one("tie", "5", tie_with_pairs).outcome is Outcome.WON
    assert settle_one("banker_pair", "5", TIE).outcome is Outcome.LOST


def test_baccarat_art10_a_void_coup_returns_every_stake() -> None:
    bets = [Bet(1, Spot.BANKER, Decimal(100), "p1"), Bet(2, Spot.TIE, Decimal(5))]
    results = settle_void_coup(bets)
    assert [result.outcome for result in results] == [Outcome.RETURNED] * 2
    assert [result.returned for result in results] == [Decimal("100.00"), Decimal("5.00")]
    assert sum(result.house_win for result in results) == 0
    assert results[0].player == "p1"


def test_baccarat_settlement_keeps_the_order_box_and_player_of_each_bet() -> None:
    bets = [Bet(3, Spot.PLAYER, Decimal(1), "ana"), Bet(1, Spot.BANKER, Decimal(2), "bo")]
    results = settle_coup(bets, PLAYER_WINS)
    assert [(r.box, r.spot, r.player) for r in results] == [
        (3, "player", "ana"), (1, "banker", "bo")]


@pytest.mark.parametrize(
    ("box", "spot", "stake", "message"),
    [
        (0, "player", Decimal(1), "not a box"),
        (1, "dragon", Decimal(1), "'dragon' is not a baccarat bet spot"),
        (1, "player", Decimal("1.005"), "not a stake"),
        (1, "player", 1.5, "not a stake"),
        (1, "player", Decimal(0), "must be positive"),
    ],
)
def test_baccarat_bets_are_checked(box: int, spot: str, stake: object, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        Bet(box, spot, stake)  # type: ignore[arg-type]


# --- art. 12: what a tie's bets may become ---------------------------------------------------


PUSHED = BetResult(box=2, spot="banker", stake=Decimal("100.00"), outcome=Outcome.PUSHED,
                   returned=Decimal("100.00"))


def test_baccarat_art12_withdrawn_leaves_the_player_free() -> None:
    verify_bet_after_tie(PUSHED, None, "withdrawn")
    verify_bet_after_tie(PUSHED, Bet(2, Spot.PLAYER, Decimal(5)), "withdrawn")


def test_baccarat_art12_kept_bets_stand_unchanged() -> None:
    verify_bet_after_tie(PUSHED, Bet(2, Spot.BANKER, Decimal(100)), "kept")
    for new in (None, Bet(2, Spot.BANKER, Decimal(50)), Bet(2, Spot.PLAYER, Decimal(100))):
        with pytest.raises(RuleViolation, match="tie handling is 'kept' \\(art. 12\\)"):
            verify_bet_after_tie(PUSHED, new, TieHandling.KEPT)


def test_baccarat_art12_changed_amount_keeps_the_side() -> None:
    verify_bet_after_tie(PUSHED, Bet(2, Spot.BANKER, Decimal(40)), "changed_amount")
    verify_bet_after_tie(PUSHED, Bet(2, Spot.BANKER, Decimal(400)), "changed_amount")
    with pytest.raises(RuleViolation, match="may change amount but not side"):
        verify_bet_after_tie(PUSHED, Bet(2, Spot.PLAYER, Decimal(100)), "changed_amount")


def test_baccarat_art12_changed_side_keeps_the_amount() -> None:
    verify_bet_after_tie(PUSHED, Bet(2, Spot.PLAYER, Decimal(100)), "changed_side")
    verify_bet_after_tie(PUSHED, Bet(2, Spot.BANKER, Decimal(100)), "changed_side")
    with pytest.raises(RuleViolation, match="same amount"):
        verify_bet_after_tie(PUSHED, Bet(2, Spot.PLAYER, Decimal(90)), "changed_side")


# --- arts. 4, 10: irregularities -------------------------------------------------------------


@pytest.mark.parametrize("correctable", [True, False])
def test_baccarat_art4_a_card_out_face_up_is_valid_and_play_continues(correctable: bool) -> None:
    assert classify_irregularity("card_face_up", correctable) is Consequence.ROUND_CONTINUES


@pytest.mark.parametrize("kind", [Irregularity.INITIAL_DEAL_ERROR, Irregularity.THIRD_CARD_ERROR])
def test_baccarat_art10_a_dealing_error_is_corrected_at_once(kind: Irregularity) -> None:
    assert classify_irregularity(kind, correctable=True) is Consequence.CORRECTED


@pytest.mark.parametrize("kind", [Irregularity.INITIAL_DEAL_ERROR, Irregularity.THIRD_CARD_ERROR])
def test_baccarat_art10_a_dealing_error_that_cannot_be_corrected_voids_the_coup(
    kind: Irregularity,
) -> None:
    assert classify_irregularity(kind, correctable=False) is Consequence.ROUND_VOID


def test_baccarat_unknown_irregularity_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="'spilled_drink' is not a baccarat irregularity"):
        classify_irregularity("spilled_drink", True)


# --- house settings and the shoe start (arts. 1, 2, 3, 7, 8, 12, 16, 18) ---------------------


def settings(**overrides: object) -> BaccaratSettings:
    data: dict[str, object] = {
        "effective_from": date(2024, 1, 1), "authorisation": "DICJ 123/2024",
        "min_bet": Decimal(100), "max_bet": Decimal(50000), "decks": 8,
    }
    return BaccaratSettings(**(data | overrides))  # type: ignore[arg-type]


@pytest.mark.parametrize("decks", range(6, 13))
def test_baccarat_art1_six_to_twelve_decks_are_allowed(decks: int) -> None:
    assert settings(decks=decks).decks == decks


@pytest.mark.parametrize("decks", [1, 4, 5, 13])
def test_baccarat_art1_fewer_than_six_or_more_than_twelve_decks_are_refused(decks: int) -> None:
    with pytest.raises(SettingOutsideRegulation, match=r"art\. 1\(1\) .* 6 to 12 decks"):
        settings(decks=decks)


@pytest.mark.parametrize("equipment", list(Equipment))
def test_baccarat_art1_and_art7_each_dealing_equipment_is_allowed(equipment: Equipment) -> None:
    assert settings(equipment=equipment.value).equipment is equipment


@pytest.mark.parametrize("decks", [6, 8, 12])
def test_baccarat_art2_burn_by_decks_burns_one_card_per_deck(decks: int) -> None:
    assert burn_count("by_decks", decks) == decks
    assert burn_at_shoe_start(settings(decks=decks)) == decks


@pytest.mark.parametrize(
    ("rank", "burned"),
    [("A", 2), ("2", 3), ("5", 6), ("9", 10), ("T", 11), ("J", 11), ("Q", 11), ("K", 11)],
)
def test_baccarat_art2_burn_by_first_card_value_burns_it_and_as_many_more(
    rank: str, burned: int
) -> None:
    first = Card.parse(rank + "S")
    assert burn_count(BurnMethod.BY_FIRST_CARD_VALUE, 8, first) == burned
    by_value = settings(burn_method="by_first_card_value")
    assert burn_at_shoe_start(by_value, first) == burned


def test_baccarat_art2_burn_by_first_card_value_needs_the_first_card() -> None:
    with pytest.raises(InvalidInput, match="needs the first card"):
        burn_count("by_first_card_value", 8)


def test_baccarat_art2_burn_count_refuses_decks_outside_the_regulation() -> None:
    with pytest.raises(SettingOutsideRegulation, match=r"art\. 1\(1\)"):
        burn_count("by_decks", 4)


@pytest.mark.parametrize("coups", [0, 1, 2, 3])
def test_baccarat_art2_up_to_three_demonstration_coups(coups: int) -> None:
    assert settings(demonstration_coups=coups).demonstration_coups == coups


@pytest.mark.parametrize("coups", [-1, 4])
def test_baccarat_art2_more_than_three_demonstration_coups_are_refused(coups: int) -> None:
    with pytest.raises(SettingOutsideRegulation, match=r"art\. 2\(2\) .* 0 to 3"):
        settings(demonstration_coups=coups)


def test_baccarat_art2_the_automatic_shuffler_dealer_burns_nothing() -> None:
    machine = settings(equipment="automatic_shuffler_dealer", burn_method="by_first_card_value")
    assert burn_at_shoe_start(machine) == 0


@pytest.mark.parametrize(("option", "more"), [("this_coup", 0), ("one_more", 1)])
def test_baccarat_art3_the_blank_card_ends_the_shoe_now_or_after_one_more_coup(
    option: str, more: int
) -> None:
    assert coups_after_blank_card(settings(last_coup=option).last_coup) == more


def test_baccarat_art3_the_house_may_replace_the_shoe_after_each_shoe() -> None:
    assert settings(shoe_replaced_each_shoe=True).shoe_replaced_each_shoe


def test_baccarat_art8_the_house_may_burn_one_card_before_each_coup() -> None:
    assert settings(burn_card_each_coup=True).burn_card_each_coup
    assert not settings().burn_card_each_coup


@pytest.mark.parametrize("handling", list(TieHandling))
def test_baccarat_art12_each_tie_handling_is_a_house_option(handling: TieHandling) -> None:
    assert settings(tie_handling=handling.value).tie_handling is handling


def test_baccarat_art16_the_house_may_let_players_handle_the_cards() -> None:
    assert settings(players_handle_cards=True).players_handle_cards


def test_baccarat_art18_the_commission_is_fixed_at_5_percent() -> None:
    assert settings(commission_rate=Decimal("0.050")).commission_rate == Decimal("0.05")
    with pytest.raises(SettingOutsideRegulation, match=r"art\. 18 .* fixes it at 5%"):
        settings(commission_rate=Decimal("0.04"))


def test_baccarat_settings_refuse_a_minimum_above_the_maximum() -> None:
    with pytest.raises(SettingOutsideRegulation, match="above the table maximum"):
        settings(min_bet=Decimal(100), max_bet=Decimal(50))


def test_baccarat_settings_are_frozen_and_default_to_the_texts_first_alternatives() -> None:
    plain = settings()
    assert (plain.equipment, plain.burn_method, plain.last_coup, plain.tie_handling) == (
        Equipment.SHOE, BurnMethod.BY_DECKS, LastCoup.THIS_COUP, TieHandling.WITHDRAWN)
    assert plain.demonstration_coups == 0


# --- properties --------------------------------------------------------------------------------

shoe_cards = st.lists(st.sampled_from(DECK), min_size=6, max_size=9)


@given(shoe_cards)
def test_baccarat_play_coup_uses_4_to_6_cards_and_totals_are_sums_mod_10(shoe: list[Card]) -> None:
    coup = play_coup(shoe)
    assert 4 <= coup.cards_used <= 6
    assert coup.cards_used == len(coup.player_cards) + len(coup.banker_cards)
    assert coup.player_cards[:2] == (shoe[0], shoe[2])
    assert coup.banker_cards[:2] == (shoe[1], shoe[3])
    assert coup.player_total == sum(card_value(card) for card in coup.player_cards) % 10
    assert coup.banker_total == sum(card_value(card) for card in coup.banker_cards) % 10
    assert set(shoe[4:coup.cards_used]) <= set(coup.player_cards[2:] + coup.banker_cards[2:])


@given(shoe_cards)
def test_baccarat_dealing_card_by_card_gives_the_same_hands(shoe: list[Card]) -> None:
    hands: dict[str, list[Card]] = {"player": [], "banker": []}
    dealt: list[Card] = []
    while (side := next_card_to(dealt)) is not None:
        verify_deal(dealt, side)
        hands[side].append(shoe[len(dealt)])
        dealt.append(shoe[len(dealt)])
    coup = play_coup(shoe)
    assert tuple(hands["player"]) == coup.player_cards
    assert tuple(hands["banker"]) == coup.banker_cards
    for refused in ("player", "banker"):
        with pytest.raises(RuleViolation):
            verify_deal(dealt, refused)


bets = st.lists(
    st.builds(
        Bet,
        box=st.integers(1, 14),
        spot=st.sampled_from(list(Spot)),
        stake=st.integers(1, 10**8).map(lambda avos: Decimal(avos).scaleb(-2)),
        player=st.none() | st.sampled_from(["ana", "bo", "chen"]),
    ),
    max_size=20,
)


@given(bets, shoe_cards, st.booleans())
def test_baccarat_settlement_conserves_money(
    placed: list[Bet], shoe: list[Card], void: bool
) -> None:
    coup = play_coup(shoe)
    results = settle_void_coup(placed) if void else settle_coup(placed, coup)
    assert len(results) == len(placed)
    for bet, result in zip(placed, results, strict=True):
        assert (result.box, result.spot, result.stake, result.player) == (
            bet.box, bet.spot, bet.stake, bet.player)
        assert result.returned in (0, bet.stake)
        assert 0 <= result.commission <= result.payout
        expected_house_win = {
            Outcome.LOST: bet.stake,
            Outcome.PUSHED: 0,
            Outcome.RETURNED: 0,
            Outcome.WON: result.commission - result.payout,
        }[result.outcome]
        assert result.house_win == expected_house_win
    paid_out = sum(r.returned + r.payout - r.commission for r in results)
    assert paid_out + sum(r.house_win for r in results) == sum(bet.stake for bet in placed)
