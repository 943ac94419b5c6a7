"""Shoes on a real PostgreSQL: shuffle methods, the cut, burns, the cut card, the commitment.

Baccarat's shoe start is DICJ 55/2004 art. 2-3, Fortune 8's DICJ 71/2009 art. 2, Q Poker's
DICJ 89/2004 art. 1 and 3. When the order is known in advance, the shuffle records only
SHA-256 of "order|secret"; closing the shoe reveals both, and the ledger records whether the
commitment holds and every card drawn that differs from the revealed order.
"""

from __future__ import annotations

import random

import pytest

from ledger.commands.round import DealCard, OpenRound, RevealDealer, SettleRound
from ledger.commands.shoe import BurnCards, CloseShoe, CutShoe, ShuffleShoe
from ledger.core.cards import DECK, Card
from ledger.core.errors import InvalidInput, RuleViolation, WrongState
from ledger.domain.shoe import Shoe, ShuffleMethod, commitment_of
from tests.integration.round_helpers import (
    Terminal,
    baccarat_table,
    event_bodies,
    open_table,
    refused,
)
from tests.signing import open_ledger

SECRET = "9f1c0c7e-the-shoe-servers-secret"


def shuffled(decks: int, seed: int) -> list[Card]:
    order = list(DECK) * decks
    random.Random(seed).shuffle(order)
    return order


def codes(cards: list[Card]) -> list[str]:
    return [str(card) for card in cards]


# --- shuffle methods ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "serial"),
    [("hand", None), ("shuffler", "SH-0042"), ("automatic_shuffler_dealer", "ASD-7")],
)
def test_a_baccarat_shoe_is_shuffled_by_hand_by_a_shuffler_or_by_the_automatic_dealer(
    settings, superuser, method, serial
):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=8)
        recorded = bac.send(ShuffleShoe, method=method, shuffler_serial=serial)
        assert [kind for _, _, kind in recorded.events] == [
            "Table.ShoeStarted", "Shoe.Shuffled", "CommandReceipt.Accepted"]
        shoe = bac.shoe()
    assert (shoe.method, shoe.shuffler_serial, shoe.decks, shoe.capacity) == (
        ShuffleMethod(method), serial, 8, 416)
    body = event_bodies(superuser, "Shoe.Shuffled")[-1]
    assert (body["method"], body["shuffler_serial"], body["decks"]) == (method, serial, 8)


def test_a_shuffle_by_a_shuffler_records_its_serial(settings, superuser):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=8)
        refused(bac, superuser, InvalidInput, "records the shuffler's serial number", ShuffleShoe,
                method="shuffler")


def test_a_shoe_has_the_decks_of_the_tables_house_settings(settings, superuser):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=6)
        refused(bac, superuser, RuleViolation, "plays with 6 decks \\(its house settings\\), not 8",
                ShuffleShoe, decks=8)
        bac.send(ShuffleShoe, decks=6)
        assert bac.shoe().capacity == 312


def test_a_new_shuffle_closes_the_tables_previous_shoe(settings):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        first = bac.shoe().id
        bac.send(ShuffleShoe)
        previous = rt.ledger.load(Shoe, first, "the old shoe")
        assert previous.is_closed and bac.shoe().id != first


def test_no_shuffle_while_a_round_is_in_play(settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        refused(bac, superuser, WrongState, "has a round in play: no shuffle until it ends",
                ShuffleShoe)


# --- the cut ------------------------------------------------------------------------------


def test_baccarat_art2_1_the_cut_records_who_cut_and_where_the_cut_card_sits(settings, superuser):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=8)
        bac.send(ShuffleShoe)
        refused(bac, superuser, InvalidInput, "say where the cut card sits", CutShoe,
                cut_by="player P-3")
        refused(bac, superuser, InvalidInput, "the shoe holds 416 cards: the cut card cannot sit "
                "after card 420", CutShoe, cut_by="player P-3", cut_card_position=420)
        bac.send(CutShoe, cut_by="player P-3", cut_card_position=403)
        refused(bac, superuser, WrongState, "is already cut, by player P-3", CutShoe,
                cut_by="dealer", cut_card_position=404)
        shoe = bac.shoe()
    assert (shoe.cut_by, shoe.cut_at) == ("player P-3", 403)
    body = event_bodies(superuser, "Shoe.CutMade")[-1]
    assert (body["cut_by"], body["cut_card_position"]) == ("player P-3", 403)


def test_baccarat_a_shoe_from_a_shuffler_is_still_cut_by_a_player(settings):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=8)
        bac.send(ShuffleShoe, method="shuffler", shuffler_serial="SH-1")
        bac.send(CutShoe, cut_by="player P-1", cut_card_position=404)
        assert bac.shoe().cut_by == "player P-1"


def test_qpoker_art3_a_deck_shuffled_by_hand_is_cut_with_the_blank_card_to_the_bottom(
    settings, superuser
):
    with open_ledger(settings) as rt:
        qp = open_table(rt.ledger, "QP-01", "q-poker")
        qp.send(ShuffleShoe)
        refused(qp, superuser, RuleViolation, "the blank card goes to the bottom of the deck, "
                "after card 52, not after card 30", CutShoe, cut_by="dealer",
                cut_card_position=30)
        qp.send(CutShoe, cut_by="dealer", cut_card_position=52)


def test_qpoker_art3_2_a_deck_from_the_shuffler_is_not_cut(settings, superuser):
    with open_ledger(settings) as rt:
        qp = open_table(rt.ledger, "QP-01", "q-poker")
        qp.send(ShuffleShoe, method="shuffler", shuffler_serial="SH-9")
        refused(qp, superuser, RuleViolation, "shuffled by shuffler is not cut", CutShoe,
                cut_by="dealer")


# --- baccarat burns (art. 2(1)) -------------------------------------------------------------


def test_baccarat_art2_1_the_first_round_waits_for_the_cut_and_the_burn(settings, superuser):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=8)
        bac.send(ShuffleShoe)
        refused(bac, superuser, WrongState, "not cut yet", OpenRound)
        refused(bac, superuser, WrongState, "the shoe is cut before its first cards are burned",
                BurnCards, count=8)
        bac.send(CutShoe, cut_by="player P-2", cut_card_position=404)
        refused(bac, superuser, WrongState, "has not burned its first cards yet", OpenRound)
        bac.send(BurnCards, count=8)
        bac.send(OpenRound)


def test_baccarat_art2_1_burn_as_many_cards_as_decks(settings, superuser):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=8)
        bac.send(ShuffleShoe)
        bac.send(CutShoe, cut_by="dealer", cut_card_position=404)
        refused(bac, superuser, RuleViolation, "burns as many cards as decks \\(art. 2\\(1\\)\\): "
                "8, not 7", BurnCards, count=7)
        bac.send(BurnCards, count=8)
        assert bac.shoe().position == 8
        refused(bac, superuser, WrongState, "burned once, before its first coup", BurnCards,
                count=8)


@pytest.mark.parametrize(("first", "count"), [("KH", 11), ("7S", 8), ("AD", 2), ("TC", 11)])
def test_baccarat_art2_1_burn_by_the_first_cards_value(settings, superuser, first, count):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=8,
                         burn_method="by_first_card_value")
        bac.send(ShuffleShoe)
        bac.send(CutShoe, cut_by="dealer", cut_card_position=404)
        refused(bac, superuser, InvalidInput, "name the first card drawn", BurnCards, count=count)
        refused(bac, superuser, RuleViolation, f"the first card {first} is worth {count - 1}",
                BurnCards, count=count + 1, cards=[first])
        bac.send(BurnCards, count=count, cards=[first])
        shoe = bac.shoe()
    assert (shoe.position, shoe.burned, shoe.counts[Card.parse(first)]) == (count, count, 1)
    body = event_bodies(superuser, "Shoe.CardsBurned")[-1]
    assert (body["count"], body["cards"], body["first_position"]) == (count, [first], 0)


def test_no_burn_may_name_more_of_a_card_than_the_decks_hold(settings, superuser):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=6,
                         burn_method="by_first_card_value")
        bac.send(ShuffleShoe)
        bac.send(CutShoe, cut_by="dealer", cut_card_position=300)
        refused(bac, superuser, RuleViolation, "AS cannot come out of this shoe 7 times: with 6 "
                "decks it holds AS only 6 times", BurnCards, count=11,
                cards=["KH", "AS", "AS", "AS", "AS", "AS", "AS", "AS"])


def test_a_card_the_shoe_cannot_contain_is_refused(settings, superuser):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=8)
        bac.send(ShuffleShoe)
        bac.send(CutShoe, cut_by="dealer", cut_card_position=404)
        bac.send(BurnCards, count=8, cards=["AS"] * 8)  # every deck's ace of spades
        bac.send(OpenRound)
        bac.bet(1, "player", "100.00")
        refused(bac, superuser, RuleViolation, "AS cannot come out of this shoe again: with 8 "
                "decks it holds AS only 8 times, and it is already out", DealCard,
                to="player", card="AS")


def test_only_baccarat_burns_from_the_shoe_between_rounds(settings, superuser):
    with open_ledger(settings) as rt:
        qp = open_table(rt.ledger, "QP-01", "q-poker")
        qp.send(ShuffleShoe)
        refused(qp, superuser, RuleViolation, "q-poker burns no cards", BurnCards, count=1)


# --- the cut card and the last coup (baccarat art. 3(1)) -----------------------------------


def play_coup(bac: Terminal, cards: str = "4S 7H 4D KC") -> None:
    bac.send(OpenRound)
    bac.bet(1, "player", "100.00")
    for to, card in zip(("player", "banker", "player", "banker"), cards.split(), strict=True):
        bac.deal((to, card))
    bac.send(SettleRound)


def short_shoe(rt, code: str, last_coup: str) -> Terminal:
    """A shoe whose cut card sits after card 20: eight burned, then three four-card coups."""
    bac = open_table(rt.ledger, code, "baccarat", decks=8, last_coup=last_coup)
    bac.send(ShuffleShoe)
    bac.send(CutShoe, cut_by="dealer", cut_card_position=20)
    bac.send(BurnCards, count=8)
    return bac


def test_baccarat_art3_1_the_coup_in_which_the_cut_card_appears_is_the_last(settings, superuser):
    with open_ledger(settings) as rt:
        bac = short_shoe(rt, "BAC-03", "this_coup")
        play_coup(bac)
        play_coup(bac)
        bac.send(OpenRound)
        bac.bet(1, "player", "100.00")
        bac.deal(("player", "4S"), ("banker", "7H"), ("player", "4D"))
        recorded = bac.send(DealCard, to="banker", card="KC")  # the 20th card: the cut card shows
        assert "Shoe.CutCardReached" in [kind for _, _, kind in recorded.events]
        bac.send(SettleRound)
        refused(bac, superuser, WrongState, "the cut card of table BAC-03 has come out and the "
                "last round of this shoe is played: shuffle a new shoe", OpenRound)
        assert event_bodies(superuser, "Shoe.CutCardReached")[-1]["position"] == 20
        bac.send(ShuffleShoe)


def test_baccarat_art3_1_by_house_option_one_more_coup_follows_the_cut_card(settings, superuser):
    with open_ledger(settings) as rt:
        bac = short_shoe(rt, "BAC-04", "one_more")
        for _ in range(3):
            play_coup(bac)
        assert bac.shoe().cut_card_reached
        play_coup(bac)  # the one more coup
        refused(bac, superuser, WrongState, "has come out and the last round of this shoe is "
                "played", OpenRound)


# --- the commitment -------------------------------------------------------------------------


def committed_q_poker_round(rt, order: list[Card], dealt: list[Card]) -> Terminal:
    """QP-01 shuffled with a commitment to `order`, one box and the dealer dealt `dealt`."""
    qp = open_table(rt.ledger, "QP-01", "q-poker")
    qp.send(ShuffleShoe, method="shuffler", shuffler_serial="ESHOE-3",
            commitment=commitment_of(order, SECRET))
    qp.send(OpenRound)
    qp.bet(1, "bonus", "100.00")
    for to, card in zip(["box:1"] * 3 + ["dealer"] * 3, dealt, strict=True):
        qp.deal((to, str(card)))
    qp.send(RevealDealer)
    qp.send(SettleRound)
    return qp


def test_the_shuffle_records_only_the_commitment_nothing_of_the_order(settings, superuser):
    order = shuffled(1, seed=11)
    with open_ledger(settings) as rt:
        qp = open_table(rt.ledger, "QP-01", "q-poker")
        qp.send(ShuffleShoe, method="shuffler", shuffler_serial="ESHOE-3",
                commitment=commitment_of(order, SECRET))
    shuffled_body = event_bodies(superuser, "Shoe.Shuffled")[-1]
    assert shuffled_body["commitment"] == commitment_of(order, SECRET)
    envelope = {"originator_id", "originator_version", "originator_topic", "timestamp"}
    assert set(shuffled_body) - envelope == {"table", "game", "decks", "method",
                                             "shuffler_serial", "commitment", "by"}
    everything = " ".join(str(row[0]) for row in superuser.execute(
        "SELECT body FROM ledger_event_log").fetchall())
    assert SECRET not in everything
    assert " ".join(codes(order[:3])) not in everything


def test_closing_with_the_right_order_and_secret_records_that_the_commitment_holds(
    settings, superuser
):
    order = shuffled(1, seed=12)
    with open_ledger(settings) as rt:
        qp = committed_q_poker_round(rt, order, order[:6])
        qp.send(CloseShoe, revealed_order=codes(order), secret=SECRET)
        assert qp.shoe().is_closed
    closed = event_bodies(superuser, "Shoe.Closed")[-1]
    assert (closed["commitment_holds"], closed["mismatches"], closed["secret"]) == (
        True, [], SECRET)
    assert closed["revealed_order"] == codes(order)


def test_closing_with_a_wrong_secret_records_that_the_commitment_does_not_hold(
    settings, superuser
):
    order = shuffled(1, seed=13)
    with open_ledger(settings) as rt:
        qp = committed_q_poker_round(rt, order, order[:6])
        qp.send(CloseShoe, revealed_order=codes(order), secret="not-the-secret")
    closed = event_bodies(superuser, "Shoe.Closed")[-1]
    assert (closed["commitment_holds"], closed["mismatches"]) == (False, [])


def test_a_dealt_card_that_differs_from_the_revealed_order_is_recorded_as_a_mismatch(
    settings, superuser
):
    order = shuffled(1, seed=14)
    dealt = [*order[:4], order[5], order[4]]  # the fifth and sixth cards came out swapped
    with open_ledger(settings) as rt:
        qp = committed_q_poker_round(rt, order, dealt)
        qp.send(CloseShoe, revealed_order=codes(order), secret=SECRET)
    closed = event_bodies(superuser, "Shoe.Closed")[-1]
    assert closed["commitment_holds"] is True
    assert closed["mismatches"] == [
        f"position 4: drawn {order[5]}, order says {order[4]}",
        f"position 5: drawn {order[4]}, order says {order[5]}",
    ]


def test_a_revealed_order_no_shoe_could_hold_is_recorded_as_not_matching(settings, superuser):
    order = shuffled(1, seed=15)
    forged = [*order[:51], order[0]]  # 52 cards, the first twice, the last missing
    with open_ledger(settings) as rt:
        qp = committed_q_poker_round(rt, forged, order[:6])
        qp.send(CloseShoe, revealed_order=codes(forged), secret=SECRET)
    closed = event_bodies(superuser, "Shoe.Closed")[-1]
    assert closed["commitment_holds"] is True  # the hash matches what was committed...
    assert closed["mismatches"] == [  # ...but no deck holds that order
        f"{order[0]} appears 2 times in the revealed order; the shoe holds it 1 times"]


def test_burned_cards_shown_are_checked_against_the_revealed_order(settings, superuser):
    order = shuffled(8, seed=16)
    shown = [order[0], next(card for card in DECK if card != order[1])]  # the second differs
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-01", "baccarat", decks=8)
        bac.send(ShuffleShoe, commitment=commitment_of(order, SECRET))
        bac.send(CutShoe, cut_by="dealer", cut_card_position=404)
        bac.send(BurnCards, count=8, cards=codes(shown))
        bac.send(CloseShoe, revealed_order=codes(order), secret=SECRET)
    closed = event_bodies(superuser, "Shoe.Closed")[-1]
    assert closed["mismatches"] == [f"position 1: drawn {shown[1]}, order says {order[1]}"]


def test_a_committed_shoe_is_closed_with_its_order_and_secret_before_a_new_shuffle(
    settings, superuser
):
    order = shuffled(1, seed=17)
    with open_ledger(settings) as rt:
        qp = committed_q_poker_round(rt, order, order[:6])
        refused(qp, superuser, WrongState, "close it with its order and secret before a new "
                "shuffle", ShuffleShoe)
        refused(qp, superuser, InvalidInput, "closing it reveals the order and the secret",
                CloseShoe)
        qp.send(CloseShoe, revealed_order=codes(order), secret=SECRET)
        qp.send(ShuffleShoe)


def test_a_shoe_without_a_commitment_has_nothing_to_reveal(settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        refused(bac, superuser, InvalidInput, "recorded no commitment: there is nothing to reveal",
                CloseShoe, revealed_order=["AS"], secret="x")
        bac.send(CloseShoe)
        refused(bac, superuser, WrongState, "is closed: shuffle a new one", OpenRound)


def test_a_shoe_is_not_closed_in_the_middle_of_a_round(settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        refused(bac, superuser, WrongState, "has a round in play: close the shoe after it",
                CloseShoe)
