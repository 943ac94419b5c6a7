"""Fortune 8 rounds through the Python API, article by article (DICJ 71/2009), real PostgreSQL.

Bets on the 21 boxes (art. 4(3)), the deal mode announced (art. 4(6)), the first card burned,
one card face up per space; the ledger settles every bet: L and H 1:1, 8 at 11:1 (art. 8).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.commands.round import (
    AnnounceDealMode,
    DealCard,
    ExposeCard,
    OpenRound,
    PlaceBet,
    RecordIrregularity,
    SettleRound,
    VoidRound,
)
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import OpenTable
from ledger.core.errors import (
    InvalidInput,
    NotAllowed,
    RuleViolation,
    SettingOutsideRegulation,
    WrongState,
)
from ledger.domain.round import Phase
from ledger.games.common import Outcome
from tests.integration.helpers import PIT_BOSS
from tests.integration.round_helpers import (
    Terminal,
    event_bodies,
    event_count,
    fortune8_table,
    open_table,
    refused,
)
from tests.signing import open_ledger

D = Decimal


@pytest.fixture
def f8(settings):
    """F8-01: six decks, shuffled and cut, round 1 open."""
    with open_ledger(settings) as rt:
        terminal = fortune8_table(rt.ledger)
        terminal.send(OpenRound)
        yield terminal


def deal_spaces(terminal: Terminal, burn: str, cards: str) -> None:
    """The burn, then `space:card` pairs in the order dealt."""
    terminal.deal(("burn", burn))
    terminal.deal(*((f"space:{pair.split(':')[0]}", pair.split(":")[1]) for pair in cards.split()))


# --- a complete round ---------------------------------------------------------------------


def test_fortune8_a_complete_round_with_several_players_on_one_box(f8, superuser):
    f8.bet(1, "8", "100.00", player="P-1")
    f8.bet(1, "8", "200.00", player="P-2")  # art. 4(1), (3): any number of players
    f8.bet(1, "L", "100.00", player="P-3")
    f8.bet(4, "H", "300.00", player="P-1")
    f8.bet(6, "L", "500.00", player="P-4")
    f8.bet(7, "H", "100.00", player="P-5")
    f8.send(AnnounceDealMode, mode="all_spaces")
    deal_spaces(f8, "5C", "1:8H 2:2D 3:9S 4:KD 5:7C 6:3S 7:AH")
    recorded = f8.send(SettleRound)

    assert [kind for _, _, kind in recorded.events].count("Round.BetSettled") == 6
    summary = {key: (r.outcome, r.returned, r.payout) for key, r in f8.results().items()}
    assert summary == {
        (1, "8", "P-1"): (Outcome.WON, D("100.00"), D("1100.00")),
        (1, "8", "P-2"): (Outcome.WON, D("200.00"), D("2200.00")),
        (1, "L", "P-3"): (Outcome.LOST, D("0.00"), D("0.00")),
        (4, "H", "P-1"): (Outcome.WON, D("300.00"), D("300.00")),
        (6, "L", "P-4"): (Outcome.WON, D("500.00"), D("500.00")),
        (7, "H", "P-5"): (Outcome.WON, D("100.00"), D("100.00")),  # art. 6(2): the ace is high
    }
    round_ = f8.round()
    assert [(c.to, str(c.card), c.face_up) for c in round_.cards][:2] == [
        ("burn", "5C", False), ("space:1", "8H", True)]
    settled = event_bodies(superuser, "Round.Settled")[-1]
    assert settled["outcome"]["mode"] == "all_spaces"
    assert settled["outcome"]["spaces"]["1"] == {"card": "8H", "wins": "8"}
    assert D(settled["house_win"]) == D("-4100.00")


def test_fortune8_art7_8_l_wins_on_2_to_7_eight_on_8_h_on_9_to_ace(f8):
    for space in range(1, 8):
        for box in ("L", "8", "H"):
            f8.bet(space, box, "100.00")
    f8.send(AnnounceDealMode, mode="all_spaces")
    deal_spaces(f8, "4D", "1:2S 2:7D 3:8C 4:9H 5:TD 6:KS 7:AC")
    f8.send(SettleRound)
    won = {(r.box, r.spot): r.payout for r in f8.round().results if r.outcome is Outcome.WON}
    assert won == {(1, "L"): D("100.00"), (2, "L"): D("100.00"), (3, "8"): D("1100.00"),
                   (4, "H"): D("100.00"), (5, "H"): D("100.00"), (6, "H"): D("100.00"),
                   (7, "H"): D("100.00")}
    assert sum(r.outcome is Outcome.LOST for r in f8.round().results) == 14


# --- art. 4: bets and the deal ------------------------------------------------------------


def test_fortune8_art4_5_a_bet_after_the_burn_is_refused(f8, superuser):
    f8.bet(2, "L", "100.00")
    f8.send(AnnounceDealMode, mode="spaces_with_bets")
    f8.deal(("burn", "5C"))
    refused(f8, superuser, RuleViolation, "bets are closed: no bet is accepted on space 3",
            PlaceBet, box=3, spot="H", amount=D("100.00"))


def test_fortune8_art4_6_the_announcement_ends_the_betting(f8, superuser):
    f8.bet(2, "L", "100.00")
    f8.send(AnnounceDealMode, mode="all_spaces")
    refused(f8, superuser, RuleViolation, "bets are closed", PlaceBet, box=2, spot="H",
            amount=D("100.00"))


def test_fortune8_art4_6_the_mode_is_announced_before_the_first_card(f8, superuser):
    f8.bet(2, "L", "100.00")
    refused(f8, superuser, RuleViolation, "announces the deal mode before drawing the first card",
            DealCard, to="burn", card="5C")
    refused(f8, superuser, InvalidInput, "'some_spaces' is not a deal mode", AnnounceDealMode,
            mode="some_spaces")


def test_fortune8_art4_6_the_first_card_is_burned_before_any_space(f8, superuser):
    f8.bet(2, "L", "100.00")
    f8.send(AnnounceDealMode, mode="all_spaces")
    refused(f8, superuser, RuleViolation, "the first card is burned before any space gets a card",
            DealCard, to="space:1", card="8H")
    f8.deal(("burn", "5C"))
    refused(f8, superuser, RuleViolation, "already burned", DealCard, to="burn", card="6C")


def test_fortune8_art4_6_cards_only_on_spaces_with_bets_when_announced_so(f8, superuser):
    f8.bet(2, "L", "100.00")
    f8.bet(5, "8", "100.00")
    f8.send(AnnounceDealMode, mode="spaces_with_bets")
    f8.deal(("burn", "5C"))
    refused(f8, superuser, RuleViolation, "space 1 holds no bet", DealCard, to="space:1",
            card="8H")
    f8.deal(("space:2", "3H"))
    refused(f8, superuser, RuleViolation, "the deal is not complete: waiting for 5", SettleRound)
    f8.deal(("space:5", "8S"))
    f8.send(SettleRound)
    assert f8.results()[(5, "8", None)].payout == D("1100.00")


def test_fortune8_art4_6_all_spaces_get_a_card_with_or_without_bets(f8, superuser):
    f8.bet(2, "L", "100.00")
    f8.send(AnnounceDealMode, mode="all_spaces")
    deal_spaces(f8, "5C", "2:3H")
    refused(f8, superuser, RuleViolation, "waiting for 1, 3, 4, 5, 6, 7", SettleRound)


def test_fortune8_art4_6_a_space_gets_one_card(f8, superuser):
    f8.bet(2, "L", "100.00")
    f8.send(AnnounceDealMode, mode="all_spaces")
    deal_spaces(f8, "5C", "2:3H")
    refused(f8, superuser, RuleViolation, "space 2 already has its card 3H", DealCard,
            to="space:2", card="4H")


def test_fortune8_art4_3_a_bet_above_the_table_maximum_is_refused(f8, superuser):
    refused(f8, superuser, RuleViolation, "MOP 50,000.50 is above the table maximum MOP 50,000.00",
            PlaceBet, box=1, spot="8", amount=D("50000.50"))


def test_fortune8_art4_3_there_are_21_boxes_on_seven_spaces(f8, superuser):
    refused(f8, superuser, InvalidInput, "there is no space 8", PlaceBet, box=8, spot="L",
            amount=D("100.00"))
    refused(f8, superuser, InvalidInput, "'M' is not a bet of Fortune 8", PlaceBet, box=1,
            spot="M", amount=D("100.00"))


def test_fortune8_art1_1_one_to_eight_decks(settings, superuser):
    with open_ledger(settings) as rt:
        before = event_count(superuser)
        with pytest.raises(SettingOutsideRegulation, match="one to eight decks"):
            rt.ledger.execute(OpenTable(table="F8-09", game="fortune-8", min_bet=D("100"),
                                        max_bet=D("1000"), settings={"decks": 9},
                                        actor=PIT_BOSS))
        assert event_count(superuser) == before


# --- art. 2: the shoe -------------------------------------------------------------------


def test_fortune8_art2_1_the_cut_card_goes_before_the_last_twelve_cards(settings, superuser):
    with open_ledger(settings) as rt:
        f8 = open_table(rt.ledger, "F8-02", "fortune-8", decks=6)
        f8.send(ShuffleShoe)
        refused(f8, superuser, WrongState, "not cut yet", OpenRound)
        refused(f8, superuser, RuleViolation, "before the last 12 cards \\(art. 2\\(1\\)\\): after "
                "card 300 of this 6-deck shoe, not 290", CutShoe, cut_by="dealer",
                cut_card_position=290)
        f8.send(CutShoe, cut_by="player P-4", cut_card_position=300)
        f8.send(OpenRound)


def test_fortune8_art2_2_the_automatic_shuffler_dealer_needs_no_cut(settings, superuser):
    with open_ledger(settings) as rt:
        f8 = open_table(rt.ledger, "F8-03", "fortune-8", decks=6)
        f8.send(ShuffleShoe, method="automatic_shuffler_dealer")
        refused(f8, superuser, RuleViolation, "is not cut", CutShoe, cut_by="dealer",
                cut_card_position=300)
        f8.send(OpenRound)


def test_fortune8_burns_in_the_round_not_from_the_shoe_between_rounds(f8, superuser):
    refused(f8, superuser, RuleViolation, "deal it to 'burn' in the round", BurnCards, count=1)


def test_fortune8_a_card_the_six_decks_cannot_hold_a_seventh_time_is_refused(f8, superuser):
    f8.bet(1, "8", "100.00")
    f8.send(AnnounceDealMode, mode="all_spaces")
    deal_spaces(f8, "8C", "1:8C 2:8C 3:8C 4:8C 5:8C 6:2D 7:3D")  # six 8C: one per deck
    f8.send(SettleRound)
    f8.send(OpenRound)
    f8.bet(1, "8", "100.00")
    f8.send(AnnounceDealMode, mode="spaces_with_bets")
    f8.deal(("burn", "4C"))
    refused(f8, superuser, RuleViolation, "8C cannot come out of this shoe again: with 6 decks "
            "it holds 8C only 6 times", DealCard, to="space:1", card="8C")


# --- art. 3 and 5: irregularities ---------------------------------------------------------


def test_fortune8_art3_a_card_leaving_the_shoe_face_up_is_valid(f8, superuser):
    f8.bet(1, "H", "100.00")
    f8.send(AnnounceDealMode, mode="spaces_with_bets")
    f8.deal(("burn", "KC"))
    f8.send(ExposeCard, to="burn", card="KC")
    body = event_bodies(superuser, "Round.CardExposed")[-1]
    assert (body["kind"], body["consequence"]) == ("card_left_shoe_face_up", "round_continues")
    f8.deal(("space:1", "QH"))
    f8.send(SettleRound)
    assert f8.results()[(1, "H", None)].outcome is Outcome.WON


def test_fortune8_art5_a_dealing_error_corrected_at_once_is_recorded_and_play_goes_on(
    f8, superuser
):
    f8.bet(1, "L", "100.00")
    f8.bet(3, "H", "100.00")
    f8.send(AnnounceDealMode, mode="spaces_with_bets")
    deal_spaces(f8, "KC", "1:4H")
    f8.send(RecordIrregularity, kind="space_missed", note="space 3 skipped, dealt at once")
    body = event_bodies(superuser, "Round.IrregularityRecorded")[-1]
    assert (body["kind"], body["consequence"]) == ("space_missed", "corrected")
    f8.deal(("space:3", "TD"))
    f8.send(SettleRound)
    assert {r.outcome for r in f8.round().results} == {Outcome.WON}


@pytest.mark.parametrize("kind", ["first_card_not_burned", "space_missed",
                                  "card_to_space_without_bets", "two_cards_to_one_space",
                                  "other_dealing_error"])
@pytest.mark.parametrize(("correctable", "consequence"), [(True, "corrected"),
                                                         (False, "round_void")])
def test_fortune8_art5_every_dealing_error_is_corrected_or_voids_the_round(
    f8, superuser, kind, correctable, consequence
):
    f8.bet(2, "H", "100.00")
    f8.send(AnnounceDealMode, mode="all_spaces")
    f8.deal(("burn", "KC"))
    f8.as_supervisor().send(RecordIrregularity, kind=kind, correctable=correctable)
    body = event_bodies(superuser, "Round.IrregularityRecorded")[-1]
    assert (body["kind"], body["consequence"]) == (kind, consequence)
    assert f8.round().phase is (Phase.DEALING if correctable else Phase.VOID)


def test_fortune8_art5_an_error_that_cannot_be_corrected_voids_the_round(f8, superuser):
    f8.bet(1, "8", "200.00", player="P-1")
    f8.bet(1, "H", "100.00", player="P-2")
    f8.send(AnnounceDealMode, mode="all_spaces")
    deal_spaces(f8, "KC", "1:8D")
    refused(f8, superuser, NotAllowed, "needs a supervisor or pit boss", RecordIrregularity,
            kind="two_cards_to_one_space", correctable=False)
    f8.as_supervisor().send(RecordIrregularity, kind="two_cards_to_one_space", correctable=False,
                            note="cards on space 1 mixed with space 2's")
    round_ = f8.round()
    assert round_.phase is Phase.VOID
    assert {(r.player, r.outcome, r.returned) for r in round_.results} == {
        ("P-1", Outcome.RETURNED, D("200.00")), ("P-2", Outcome.RETURNED, D("100.00"))}
    body = event_bodies(superuser, "Round.IrregularityRecorded")[-1]
    assert body["consequence"] == "round_void"


def test_fortune8_a_void_needs_a_supervisor(f8, superuser):
    f8.bet(1, "8", "200.00")
    refused(f8, superuser, NotAllowed, "voiding a round needs a supervisor", VoidRound,
            reason="table moved")
    f8.as_supervisor().send(VoidRound, reason="table moved")
    assert f8.results()[(1, "8", None)].outcome is Outcome.RETURNED
