"""What a new user's trial of the CLI found said two ways, each now said one way, from one
place, on every screen that says it."""

from __future__ import annotations

import json

from ledger.presentation.wording import NO_CARDS
from tests.e2e.coups import opened_coup


def test_a_game_is_given_by_its_name_in_words_as_well_as_by_its_code(cli):
    by_name = cli("edges", "--game", "Fortune 8", "--json")
    by_code = cli("edges", "--game", "fortune-8", "--json")
    assert by_name.code == by_code.code == 0, by_name.err
    assert json.loads(by_name.out) == json.loads(by_code.out)
    assert json.loads(by_name.out)["game"] == "fortune-8"
    hand = cli("hand", "Stud Poker", "AS", "KS", "QS", "JS", "TS", "--json")
    assert hand.code == 0 and json.loads(hand.out)["game"] == "stud-poker", hand.err
    opened = cli("table", "open", "QP-01", "--game", "Q Poker", "--min", "100", "--max", "5000")
    assert opened.code == 0, opened.err
    assert json.loads(cli("table", "show", "QP-01", "--json").out)["game"] == "q-poker"
    refused = cli("edges", "--game", "Roulette")
    assert refused.code == 1 and "unknown game 'Roulette': known are stud-poker" in refused.err


def test_a_round_voided_before_its_cards_says_so_in_one_sentence_not_an_empty_table(
        cli, as_staff):
    ok, _ = opened_coup(cli, as_staff, game="Baccarat")  # the game by its name in words
    ok("round", "void", "BAC-01", "--reason", "dispute")
    shown = ok("round", "show", "BAC-01", "1")
    assert NO_CARDS in shown and "shoe position" not in shown, shown
    replayed = ok("replay", "BAC-01", "1")
    assert NO_CARDS in replayed and "0 cards" not in replayed, replayed
