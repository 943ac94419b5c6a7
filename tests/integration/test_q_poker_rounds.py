"""Q Poker rounds through the Python API, article by article (DICJ 89/2004), on a real PostgreSQL.

One deck, shuffled afresh for every round (art. 1, 3); several players may bet on one box
(art. 6(1)); the ledger checks each card against art. 7's order and settles every bet itself:
the bonus by art. 10, the play bet by art. 9.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.commands.round import (
    DealCard,
    Decide,
    ExposeCard,
    OpenRound,
    PlaceBet,
    RecordIrregularity,
    RevealDealer,
    SettleRound,
    VoidRound,
)
from ledger.commands.shoe import ShuffleShoe
from ledger.core.errors import InvalidInput, NotAllowed, RuleViolation
from ledger.domain.round import Phase
from ledger.games.common import Outcome
from tests.integration.round_helpers import (
    Terminal,
    event_bodies,
    event_count,
    open_table,
    q_poker_table,
    refused,
)
from tests.signing import open_ledger

D = Decimal


@pytest.fixture
def qp(settings):
    """QP-01 with a freshly shuffled deck and round 1 open."""
    with open_ledger(settings) as rt:
        yield q_poker_table(rt.ledger)


def deal_by_shoe(terminal: Terminal, hands: dict[str, str]) -> None:
    """Art. 7(1): one card at a time, box by box left to right, the dealer last, three rounds."""
    cards = {to: hand.split() for to, hand in hands.items()}
    order = sorted((to for to in cards if to != "dealer"), key=lambda to: int(to[4:]))
    for i in range(3):
        for to in (*order, "dealer"):
            terminal.deal((to, cards[to][i]))


SIX_BOXES = {
    "box:1": "9S TS JS",  # straight flush
    "box:2": "7S 7H 7D",  # three of a kind
    "box:3": "4H 5C 6D",  # straight
    "box:4": "2H 8H KH",  # flush
    "box:5": "QC QD 3S",  # one pair
    "box:6": "JC 9D 5S",  # high card, below the dealer's
    "dealer": "KD 8C 2C",  # K high: the dealer plays (art. 9(4))
}


def play_six_boxes(qp: Terminal) -> None:
    for box in range(1, 7):
        qp.bet(box, "bonus", "100.00", player=f"P-{box}")
        qp.bet(box, "play", "200.00", player=f"P-{box}")
    deal_by_shoe(qp, SIX_BOXES)
    for box in range(1, 7):
        qp.send(Decide, box=box, decision="play", player=f"P-{box}")
    qp.send(RevealDealer)
    qp.send(SettleRound)


# --- a complete round ---------------------------------------------------------------------


def test_qpoker_a_complete_round_with_two_players_on_one_box(qp, superuser):
    qp.bet(1, "bonus", "100.00", player="P-1")
    qp.bet(1, "play", "200.00", player="P-1")
    qp.bet(1, "play", "300.00", player="P-2")  # art. 6(1): a second player on box 1
    qp.bet(3, "play", "500.00", player="P-3")
    qp.bet(3, "bonus", "100.00", player="P-3")
    deal_by_shoe(qp, {"box:1": "AS KS QS", "box:3": "9D 9C 4C", "dealer": "QH 5D 2C"})
    qp.send(Decide, box=1, decision="play", player="P-1")
    qp.send(Decide, box=1, decision="surrender", player="P-2")
    qp.send(Decide, box=3, decision="play", player="P-3")
    qp.send(RevealDealer)
    recorded = qp.send(SettleRound)

    assert [kind for _, _, kind in recorded.events].count("Round.BetSettled") == 5
    results = qp.results()
    summary = {key: (r.outcome, r.returned, r.payout) for key, r in results.items()}
    assert summary == {
        (1, "bonus", "P-1"): (Outcome.WON, D("100.00"), D("4000.00")),  # straight flush 40:1
        (3, "bonus", "P-3"): (Outcome.WON, D("100.00"), D("100.00")),  # pair 1:1
        (1, "play", "P-1"): (Outcome.WON, D("200.00"), D("600.00")),  # straight flush 3:1
        (1, "play", "P-2"): (Outcome.SURRENDERED, D("150.00"), D("0.00")),  # half lost
        (3, "play", "P-3"): (Outcome.WON, D("500.00"), D("500.00")),  # pair beats Q high
    }
    settled = event_bodies(superuser, "Round.Settled")[-1]
    assert settled["outcome"]["dealer_qualifies"] is True
    assert settled["outcome"]["boxes"]["1"].startswith("straight_flush")
    assert D(settled["house_win"]) == D("-5050.00")
    assert [(c.to, str(c.card)) for c in qp.round().cards][:3] == [
        ("box:1", "AS"), ("box:3", "9D"), ("dealer", "QH")]


def test_qpoker_art1_3_every_round_is_dealt_from_a_freshly_shuffled_deck(qp, superuser):
    qp.bet(1, "bonus", "100.00")
    deal_by_shoe(qp, {"box:1": "AS KS QS", "dealer": "QH 5D 2C"})
    qp.send(RevealDealer)
    qp.send(SettleRound)
    refused(qp, superuser, RuleViolation, "freshly shuffled deck: shuffle first", OpenRound)
    qp.send(ShuffleShoe)
    qp.send(OpenRound)
    qp.bet(1, "bonus", "100.00")
    qp.deal(("box:1", "AS"))  # the same card again: a new deck
    assert qp.round().number == 2


def test_qpoker_art1_the_automatic_shuffler_dealer_is_not_q_poker_equipment(settings, superuser):
    with open_ledger(settings) as rt:
        qp = open_table(rt.ledger, "QP-02", "q-poker")
        refused(qp, superuser, RuleViolation, "not by an automatic shuffler-dealer", ShuffleShoe,
                method="automatic_shuffler_dealer")


# --- art. 2, 5, 6: boxes and bets ---------------------------------------------------------


def test_qpoker_art2_1_boxes_are_those_of_the_table(settings, superuser):
    with open_ledger(settings) as rt:
        seven = q_poker_table(rt.ledger, "QP-07")
        refused(seven, superuser, InvalidInput, "there is no box 8: this table has boxes 1 to 7",
                PlaceBet, box=8, spot="play", amount=D("100.00"))
        nine = q_poker_table(rt.ledger, "QP-09", boxes=9)
        nine.bet(9, "play", "100.00")
        assert nine.round().bets[0].box == 9


def test_qpoker_art5_2_a_box_may_hold_the_bonus_alone(qp):
    qp.bet(2, "bonus", "100.00")
    deal_by_shoe(qp, {"box:2": "2H 7H JH", "dealer": "QH 5D 2C"})
    qp.send(RevealDealer)  # no play bet, so no decision waits
    qp.send(SettleRound)
    bonus = qp.results()[(2, "bonus", None)]
    assert (bonus.outcome, bonus.payout) == (Outcome.WON, D("400.00"))  # flush 4:1


def test_qpoker_art6_2_no_bet_after_the_first_card(qp, superuser):
    qp.bet(1, "play", "100.00")
    qp.deal(("box:1", "AS"))
    refused(qp, superuser, RuleViolation, "no bet is accepted once the first card is dealt",
            PlaceBet, box=2, spot="play", amount=D("100.00"), player="P-9")


def test_qpoker_a_bet_above_the_table_maximum_is_refused(qp, superuser):
    refused(qp, superuser, RuleViolation, "MOP 60,000.00 is above the table maximum MOP 50,000.00",
            PlaceBet, box=1, spot="bonus", amount=D("60000.00"))


def test_qpoker_a_bet_on_no_q_poker_spot_is_refused(qp, superuser):
    refused(qp, superuser, InvalidInput, "'ante' is not a bet of Q Poker", PlaceBet,
            box=1, spot="ante", amount=D("100.00"))


# --- art. 7: the deal ---------------------------------------------------------------------


def test_qpoker_art7_1_the_shoe_deals_one_card_at_a_time_left_to_right_dealer_last(qp, superuser):
    qp.bet(1, "play", "100.00")
    qp.bet(3, "play", "100.00")
    qp.deal(("box:1", "AS"))
    refused(qp, superuser, RuleViolation, "the next card goes to box 3, not box 1", DealCard,
            to="box:1", card="KS")
    qp.deal(("box:3", "KD"))
    refused(qp, superuser, RuleViolation, "the next card goes to the dealer", DealCard,
            to="box:1", card="KS")


def test_qpoker_art7_2_the_shuffler_deals_three_cards_at_a_time(settings, superuser):
    with open_ledger(settings) as rt:
        qp = open_table(rt.ledger, "QP-03", "q-poker")
        qp.send(ShuffleShoe, method="shuffler", shuffler_serial="SH-7")
        qp.send(OpenRound)
        qp.bet(1, "play", "100.00")
        qp.bet(3, "play", "100.00")
        qp.deal(("box:1", "AS"))
        refused(qp, superuser, RuleViolation, "the next card goes to box 1, not box 3", DealCard,
                to="box:3", card="KD")
        qp.deal(("box:1", "KS"), ("box:1", "QS"), ("box:3", "KD"), ("box:3", "KH"),
                ("box:3", "4C"), ("dealer", "QH"), ("dealer", "5D"), ("dealer", "2C"))
        assert qp.round().dealing == "shuffler"


def test_qpoker_art1_a_card_cannot_come_out_of_the_deck_twice(qp, superuser):
    qp.bet(1, "play", "100.00")
    qp.deal(("box:1", "AS"), ("dealer", "KD"))
    refused(qp, superuser, InvalidInput, "AS is already dealt: Q Poker uses a single deck",
            DealCard, to="box:1", card="AS")


# --- art. 9 and 10: settlement -----------------------------------------------------------


def test_qpoker_art10_bonus_pays_40_30_6_4_and_1_to_1_and_high_card_loses(qp):
    play_six_boxes(qp)
    results = qp.results()
    bonus = {box: (results[(box, "bonus", f"P-{box}")].outcome,
                   results[(box, "bonus", f"P-{box}")].payout) for box in range(1, 7)}
    assert bonus == {
        1: (Outcome.WON, D("4000.00")), 2: (Outcome.WON, D("3000.00")),
        3: (Outcome.WON, D("600.00")), 4: (Outcome.WON, D("400.00")),
        5: (Outcome.WON, D("100.00")), 6: (Outcome.LOST, D("0.00")),
    }


def test_qpoker_art9_7_a_box_beating_the_dealer_is_paid_3_2_3_to_2_or_1_to_1(qp):
    play_six_boxes(qp)
    results = qp.results()
    play = {box: (results[(box, "play", f"P-{box}")].outcome,
                  results[(box, "play", f"P-{box}")].payout) for box in range(1, 7)}
    assert play == {
        1: (Outcome.WON, D("600.00")),  # straight flush 3:1
        2: (Outcome.WON, D("400.00")),  # three of a kind 2:1
        3: (Outcome.WON, D("300.00")),  # straight 3:2
        4: (Outcome.WON, D("200.00")),  # flush 1:1
        5: (Outcome.WON, D("200.00")),  # pair 1:1
        6: (Outcome.LOST, D("0.00")),  # art. 9(6): the dealer's K high takes J high
    }


def test_qpoker_art9_7_a_straight_pays_3_to_2_rounded_up_to_the_avo(qp):
    qp.bet(1, "play", "100.01")
    deal_by_shoe(qp, {"box:1": "4H 5C 6D", "dealer": "QH 7D 2C"})
    qp.send(Decide, box=1, decision="play")
    qp.send(RevealDealer)
    qp.send(SettleRound)
    assert qp.results()[(1, "play", None)].payout == D("150.02")  # 150.015 up


def test_qpoker_art9_5_a_dealer_below_queen_high_pays_every_play_bet_1_to_2(qp, superuser):
    qp.bet(1, "play", "201.00", player="P-1")
    qp.bet(2, "play", "100.01", player="P-2")
    qp.bet(2, "play", "300.00", player="P-3")
    deal_by_shoe(qp, {"box:1": "3S 4D 9C", "box:2": "2S 6D 8C", "dealer": "JH 7D 2C"})
    qp.send(Decide, box=1, decision="play", player="P-1")
    qp.send(Decide, box=2, decision="play", player="P-2")
    qp.send(Decide, box=2, decision="surrender", player="P-3")
    qp.send(RevealDealer)
    qp.send(SettleRound)
    results = qp.results()
    assert results[(1, "play", "P-1")].payout == D("100.50")  # 3 9 high loses to J, yet wins
    assert results[(2, "play", "P-2")].payout == D("50.01")  # 50.005 up
    surrendered = results[(2, "play", "P-3")]
    assert (surrendered.outcome, surrendered.returned) == (Outcome.SURRENDERED, D("150.00"))
    assert event_bodies(superuser, "Round.Settled")[-1]["outcome"]["dealer_qualifies"] is False


def test_qpoker_art9_3_surrender_loses_half_rounded_in_the_players_favour(qp):
    qp.bet(1, "play", "100.01")
    deal_by_shoe(qp, {"box:1": "3S 4D 9C", "dealer": "KH 7D 2C"})
    qp.send(Decide, box=1, decision="surrender")
    qp.send(RevealDealer)
    qp.send(SettleRound)
    surrendered = qp.results()[(1, "play", None)]
    assert (surrendered.returned, surrendered.payout, surrendered.house_win) == (
        D("50.01"), D("0.00"), D("50.00"))


def test_qpoker_art9_2_the_decision_comes_once_the_cards_are_dealt(qp, superuser):
    qp.bet(1, "play", "100.00")
    qp.deal(("box:1", "3S"))
    refused(qp, superuser, RuleViolation, "the deal is not complete", Decide, box=1,
            decision="play")


def test_qpoker_art9_3_the_dealer_waits_for_every_decision(qp, superuser):
    qp.bet(1, "play", "100.00", player="P-1")
    qp.bet(1, "play", "100.00", player="P-2")
    deal_by_shoe(qp, {"box:1": "3S 4D 9C", "dealer": "KH 7D 2C"})
    qp.send(Decide, box=1, decision="play", player="P-1")
    refused(qp, superuser, RuleViolation, "player P-2 on box 1 must play or surrender before "
            "the dealer's cards are shown", RevealDealer)


def test_qpoker_art9_3_a_decision_after_the_dealers_cards_are_shown_is_refused(qp, superuser):
    qp.bet(1, "bonus", "100.00", player="P-1")
    qp.bet(1, "play", "100.00", player="P-1")
    deal_by_shoe(qp, {"box:1": "3S 4D 9C", "dealer": "KH 7D 2C"})
    qp.send(Decide, box=1, decision="play", player="P-1")
    qp.send(RevealDealer)
    refused(qp, superuser, RuleViolation, "the dealer's cards are already shown: player P-1 on "
            "box 1 had to decide before", Decide, box=1, decision="surrender", player="P-1")


def test_qpoker_art9_3_a_decision_cannot_be_undone(qp, superuser):
    qp.bet(1, "play", "100.00")
    deal_by_shoe(qp, {"box:1": "3S 4D 9C", "dealer": "KH 7D 2C"})
    qp.send(Decide, box=1, decision="surrender")
    refused(qp, superuser, RuleViolation, "already chose to surrender: a decision cannot be "
            "undone", Decide, box=1, decision="play")


# --- art. 11: irregularities -------------------------------------------------------------


def test_qpoker_art11_1_a_wrong_deal_order_voids_the_round_and_every_bet(qp, superuser):
    qp.bet(1, "bonus", "100.00", player="P-1")
    qp.bet(1, "play", "200.00", player="P-1")
    qp.bet(2, "play", "300.00", player="P-2")
    qp.deal(("box:1", "AS"))
    refused(qp, superuser, NotAllowed, "an irregularity that voids QP-01 round 1 needs a "
            "supervisor or pit boss", RecordIrregularity, kind="wrong_deal_order")
    qp.as_supervisor().send(RecordIrregularity, kind="wrong_deal_order",
                            note="box 2 was skipped")
    round_ = qp.round()
    assert round_.phase is Phase.VOID
    assert sorted((r.box, r.spot, r.outcome, r.returned) for r in round_.results) == [
        (1, "bonus", Outcome.RETURNED, D("100.00")), (1, "play", Outcome.RETURNED, D("200.00")),
        (2, "play", Outcome.RETURNED, D("300.00")),
    ]
    body = event_bodies(superuser, "Round.IrregularityRecorded")[-1]
    assert (body["kind"], body["consequence"]) == ("wrong_deal_order", "round_void")
    assert qp.table_state().current_round is None


def test_qpoker_art11_1_a_wrong_card_count_voids_the_round(qp):
    qp.bet(1, "play", "200.00")
    deal_by_shoe(qp, {"box:1": "3S 4D 9C", "dealer": "KH 7D 2C"})
    qp.as_supervisor().send(RecordIrregularity, kind="wrong_card_count", box=1,
                            note="a fourth card slid under box 1's hand")
    assert qp.round().phase is Phase.VOID
    assert qp.results()[(1, "play", None)].returned == D("200.00")


def test_qpoker_art11_2_a_box_card_exposed_during_the_deal_lets_the_round_go_on(qp, superuser):
    qp.bet(1, "play", "200.00")
    qp.deal(("box:1", "3S"))
    qp.send(ExposeCard, to="box:1", card="3S")
    body = event_bodies(superuser, "Round.CardExposed")[-1]
    assert (body["to"], body["card"], body["kind"], body["consequence"]) == (
        "box:1", "3S", "card_exposed_during_deal", "round_continues")
    qp.deal(("dealer", "KH"), ("box:1", "4D"), ("dealer", "7D"), ("box:1", "9C"),
            ("dealer", "2C"))
    qp.send(Decide, box=1, decision="play")
    qp.send(RevealDealer)
    qp.send(SettleRound)
    assert qp.round().phase is Phase.SETTLED


def test_qpoker_art11_3_dealer_card_exposed_voids_round(qp, superuser):
    qp.bet(1, "bonus", "100.00")
    qp.bet(1, "play", "200.00")
    qp.deal(("box:1", "3S"), ("dealer", "KH"))
    refused(qp, superuser, NotAllowed, "an exposed card that voids QP-01 round 1 needs a "
            "supervisor", ExposeCard, to="dealer", card="KH")
    recorded = qp.as_supervisor().send(ExposeCard, to="dealer", card="KH")
    assert [kind for _, _, kind in recorded.events] == [
        "Round.CardExposed", "Round.BetSettled", "Round.BetSettled", "Round.Voided",
        "Table.RoundFinished", "CommandReceipt.Accepted"]
    body = event_bodies(superuser, "Round.CardExposed")[-1]
    assert (body["kind"], body["consequence"]) == ("dealer_card_exposed", "round_void")
    assert {(r.spot, r.outcome, r.returned) for r in qp.round().results} == {
        ("bonus", Outcome.RETURNED, D("100.00")), ("play", Outcome.RETURNED, D("200.00"))}


def test_qpoker_art11_3_after_the_reveal_no_card_is_exposed_by_mistake(qp, superuser):
    qp.bet(1, "play", "200.00")
    deal_by_shoe(qp, {"box:1": "3S 4D 9C", "dealer": "KH 7D 2C"})
    qp.send(Decide, box=1, decision="play")
    qp.send(RevealDealer)
    before = event_count(superuser)
    with pytest.raises(RuleViolation, match="the dealer's cards are shown"):
        qp.as_supervisor().send(ExposeCard, to="dealer", card="KH")
    assert event_count(superuser) == before


def test_qpoker_art11_4_cards_dealt_to_a_box_without_bets_void_that_box_and_play_goes_on(
    qp, superuser
):
    qp.bet(1, "play", "200.00")
    qp.bet(3, "play", "300.00")
    qp.deal(("box:1", "3S"))
    refused(qp, superuser, RuleViolation, "box 2 holds no bet: cards dealt to it by mistake make "
            "that box void and play goes on", DealCard, to="box:2", card="7S")
    recorded = qp.send(RecordIrregularity, kind="cards_to_box_without_bet", box=2, cards=["7S"])
    assert [kind for _, _, kind in recorded.events] == [
        "Round.IrregularityRecorded", "Shoe.CardDrawn", "CommandReceipt.Accepted"]
    body = event_bodies(superuser, "Round.IrregularityRecorded")[-1]
    assert (body["box"], body["cards"], body["consequence"]) == (2, ["7S"], "box_void")
    assert qp.round().void_boxes == {2}
    assert [(p, str(c)) for p, c, _ in qp.shoe().drawn] == [(0, "3S"), (1, "7S")]
    refused(qp, superuser, InvalidInput, "7S is already dealt: Q Poker uses a single deck",
            DealCard, to="box:3", card="7S")
    qp.deal(("box:3", "KD"), ("dealer", "KH"), ("box:1", "4D"), ("box:3", "KC"),
            ("dealer", "7D"), ("box:1", "9C"), ("box:3", "4C"), ("dealer", "2C"))
    qp.send(Decide, box=1, decision="play")
    qp.send(Decide, box=3, decision="play")
    qp.send(RevealDealer)
    qp.send(SettleRound)
    assert qp.round().phase is Phase.SETTLED
    assert len(qp.round().results) == 2


def test_qpoker_art11_4_a_box_holding_bets_is_not_void_for_that_irregularity(qp, superuser):
    qp.bet(1, "play", "200.00")
    qp.deal(("box:1", "3S"))
    refused(qp, superuser, RuleViolation, "box 1 holds bets", RecordIrregularity,
            kind="cards_to_box_without_bet", box=1, cards=["7S"])


def test_qpoker_art11_4_a_stray_card_already_out_of_the_deck_is_refused(qp, superuser):
    qp.bet(1, "play", "200.00")
    qp.deal(("box:1", "3S"))
    refused(qp, superuser, RuleViolation, "3S cannot come out of this shoe again",
            RecordIrregularity, kind="cards_to_box_without_bet", box=2, cards=["3S"])
    qp.deal(("dealer", "KH"))  # the round still goes on


def test_qpoker_art11_5_a_shuffler_failure_voids_the_round_and_the_shuffler_is_replaced(
    settings, superuser
):
    with open_ledger(settings) as rt:
        qp = open_table(rt.ledger, "QP-05", "q-poker")
        qp.send(ShuffleShoe, method="shuffler", shuffler_serial="SH-7")
        qp.send(OpenRound)
        qp.bet(1, "play", "500.00")
        qp.deal(("box:1", "AS"), ("box:1", "KS"))
        qp.as_supervisor().send(RecordIrregularity, kind="shuffler_failure",
                                note="SH-7 jammed mid-deal")
        assert qp.round().phase is Phase.VOID
        assert qp.results()[(1, "play", None)].outcome is Outcome.RETURNED
        refused(qp, superuser, RuleViolation, "shuffler SH-7 failed during QP-05 round 1: "
                "replace it or deal from a shoe", ShuffleShoe, method="shuffler",
                shuffler_serial="SH-7")
        qp.send(ShuffleShoe, method="shuffler", shuffler_serial="SH-8")
        assert qp.shoe().shuffler_serial == "SH-8"


def test_qpoker_art11_5_there_is_no_shuffler_failure_in_a_round_dealt_from_a_shoe(qp, superuser):
    qp.bet(1, "play", "500.00")
    qp.deal(("box:1", "AS"))
    refused(qp.as_supervisor(), superuser, RuleViolation,
            "dealt from a hand-shuffled shoe: there is no shuffler", RecordIrregularity,
            kind="shuffler_failure")
    assert qp.round().phase is not Phase.VOID


def test_qpoker_art11_5_a_shuffler_fails_during_the_deal_not_after_it(settings, superuser):
    with open_ledger(settings) as rt:
        qp = open_table(rt.ledger, "QP-06", "q-poker")
        qp.send(ShuffleShoe, method="shuffler", shuffler_serial="SH-7")
        qp.send(OpenRound)
        qp.bet(1, "play", "500.00")
        qp.deal(("box:1", "AS"), ("box:1", "KS"), ("box:1", "QS"),
                ("dealer", "2H"), ("dealer", "7C"), ("dealer", "9D"))
        refused(qp.as_supervisor(), superuser, RuleViolation, "the deal is over",
                RecordIrregularity, kind="shuffler_failure")
        assert qp.round().phase is not Phase.VOID


def test_qpoker_a_void_needs_a_supervisor(qp, superuser):
    qp.bet(1, "play", "200.00")
    refused(qp, superuser, NotAllowed, "voiding a round needs a supervisor or pit boss: dealer "
            "D-101 cannot", VoidRound, reason="player dispute")
    qp.as_supervisor().send(VoidRound, reason="player dispute")
    assert qp.round().phase is Phase.VOID
