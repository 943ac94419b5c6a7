"""Cards are values: parsed from and printed as `AS KH TD`."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.core.cards import DECK, Card, Rank, Suit, format_cards, parse_card, parse_cards
from ledger.core.errors import InvalidCard


def test_cards_print_back_the_way_they_were_written():
    assert format_cards(parse_cards("AS KH TD 2C")) == "AS KH TD 2C"


def test_ten_may_be_written_10_and_prints_as_t():
    assert str(parse_card("10H")) == "TH"
    assert parse_card("10h") == parse_card("TH")


def test_equal_cards_are_equal_values_and_hash_alike():
    assert parse_card("QS") == Card(Rank.QUEEN, Suit.SPADES)
    assert len({parse_card("QS"), parse_card("qs")}) == 1


def test_suits_rank_spades_hearts_clubs_diamonds():
    assert Suit.SPADES > Suit.HEARTS > Suit.CLUBS > Suit.DIAMONDS


def test_a_deck_has_52_different_cards():
    assert len(set(DECK)) == 52
    assert [card.index for card in DECK] == list(range(52))


@pytest.mark.parametrize(
    ("code", "why"),
    [("1X", "'1X' is not a card"), ("AZ", "not a card suit"), ("11S", "not a card rank"),
     ("A", "write rank then suit"), ("", "write rank then suit")],
)
def test_a_malformed_card_is_refused_with_a_sentence(code, why):
    with pytest.raises(InvalidCard, match=why):
        parse_card(code)


def test_a_list_of_codes_parses_like_a_string():
    assert parse_cards(["AS", "10D"]) == parse_cards("AS, 10D")


@given(st.sampled_from(DECK))
def test_every_card_survives_printing_and_parsing(card):
    assert parse_card(str(card)) == card
