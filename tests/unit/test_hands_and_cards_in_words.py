"""A hand is named one way in running text, lower case inside a sentence, on every screen that
names it; a card is its face (`10♠`) wherever people read it, its code (`TS`) only in machine
formats; a round without cards says so in one sentence."""

from __future__ import annotations

from decimal import Decimal

from ledger.audit.replay.check import ProofStatus, ShoeProof
from ledger.audit.replay.round import CardView, HandView
from ledger.core.cards import face, faces
from ledger.games.registry import game
from ledger.presentation.wording import NO_CARDS, describe_outcome
from ledger.reports.round_win import Prize, prize_words, win_of, win_sentence


def test_hand_names_are_lower_case_inside_a_sentence_on_every_screen():
    prize = Prize(box=1, category="full_house", amount=Decimal("1500.00"))
    won = win_of("settled", [], [], [prize])
    said = [win_sentence(won), prize_words(prize),
            game("stud-poker").dealer_summary(["KS", "KH", "KD", "3C", "3H"]),
            HandView(target="box:1", label="box 1", value="full_house",
                     name="Full house, kings over threes",
                     cards=[CardView(card="KS", face_up=True)]).said]
    for sentence in said:
        assert "full house" in sentence and "Full house" not in sentence, sentence
    assert "Full House" not in " ".join(said) and "Straight Flush" not in " ".join(said)


def test_people_read_a_cards_face_and_machines_its_code():
    assert face("TS") == "10♠" and faces("box 1: TS AH") == "box 1: 10♠ A♥"
    hand = HandView(target="box:1", label="box 1", value=None,
                    cards=[CardView(card="TS", face_up=True), CardView(card="QD", face_up=True)])
    assert hand.said == "box 1: 10♠ Q♦" and hand.model_dump()["cards"][0]["card"] == "TS"
    said = describe_outcome({"dealer": "straight (KH QC TS)", "dealer_qualifies": True})
    assert said == "dealer straight (K♥ Q♣ 10♠): qualifies"


def test_a_round_with_no_cards_says_so_once_rather_than_counting_nought_cards():
    proof = ShoeProof(status=ProofStatus.HOLDS, cards_checked=0)
    assert "0 cards" not in proof.sentence and "drew no card" in proof.sentence
    assert ShoeProof(status=ProofStatus.HOLDS, cards_checked=1).sentence.endswith(
        "this round's 1 card is where it says")
    assert NO_CARDS == "no card was dealt in this round"
