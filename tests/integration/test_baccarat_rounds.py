"""Baccarat coups through the Python API, article by article (DICJ 55/2004), on a real PostgreSQL.

Every coup is dealt card by card as the shoe gives them; the ledger checks each card against
the tableau (art. 7, 9) and settles every bet itself (art. 12, 13, 17, 18).
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from ledger.commands.round import (
    AdjustRound,
    CloseBetting,
    DealCard,
    ExposeCard,
    OpenRound,
    PlaceBet,
    RecordIrregularity,
    SettleRound,
    VoidRound,
)
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import ChangeTableSettings, CloseTable
from ledger.core import clock as ledger_clock
from ledger.core.errors import InvalidInput, NotAllowed, RuleViolation
from ledger.core.formatting import MACAU
from ledger.domain.round import Phase
from ledger.games.common import Outcome
from tests.integration.helpers import PIT_BOSS, next_day
from tests.integration.round_helpers import (
    Terminal,
    baccarat_table,
    event_bodies,
    event_count,
    open_table,
    refused,
)
from tests.signing import open_ledger, playing_other_days

D = Decimal


@pytest.fixture
def bac(settings):
    """BAC-01, its shoe started, with a coup open."""
    with open_ledger(settings) as rt:
        terminal = baccarat_table(rt.ledger)
        terminal.send(OpenRound)
        yield terminal


def deal(terminal: Terminal, cards: str) -> None:
    """The coup's cards in shoe order, to player and banker as art. 7 and 9 give them."""
    sides = {"P": "player", "B": "banker"}
    terminal.deal(*((sides[code[0]], code[2:]) for code in cards.split()))


# --- a complete coup --------------------------------------------------------------------


def test_baccarat_a_complete_coup_is_recorded_card_by_card_and_settled_bet_by_bet(bac, superuser):
    bac.bet(1, "banker", "1000.00", player="P-1")
    bac.bet(2, "player", "500.00")
    bac.bet(2, "tie", "100.00")
    bac.bet(3, "player_pair", "100.00")
    # player 2S 2D = 4 draws 9S (3); banker 4H KC = 4 stands on a 9 (art. 9(4)(2))
    deal(bac, "P:2S B:4H P:2D B:KC P:9S")
    recorded = bac.send(SettleRound)

    assert [kind for _, _, kind in recorded.events].count("Round.BetSettled") == 4
    round_ = bac.round()
    assert round_.phase is Phase.SETTLED
    assert [(c.to, str(c.card), c.shoe_position) for c in round_.cards] == [
        ("player", "2S", 8), ("banker", "4H", 9), ("player", "2D", 10), ("banker", "KC", 11),
        ("player", "9S", 12),
    ]
    results = bac.results()
    banker = results[(1, "banker", "P-1")]
    assert (banker.outcome, banker.returned, banker.payout, banker.commission) == (
        Outcome.WON, D("1000.00"), D("1000.00"), D("50.00"))
    assert results[(2, "player", None)].outcome is Outcome.LOST
    assert results[(2, "tie", None)].outcome is Outcome.LOST
    pair = results[(3, "player_pair", None)]
    assert (pair.outcome, pair.payout) == (Outcome.WON, D("1100.00"))
    settled = event_bodies(superuser, "Round.Settled")[-1]
    assert settled["outcome"] == {"winner": "banker", "player_total": 3, "banker_total": 4,
                                  "player_pair": True, "banker_pair": False}
    # the house: +500 +100 -1000 +50 -1100
    assert D(settled["house_win"]) == D("-1450.00")
    assert bac.table_state().current_round is None


def test_baccarat_each_card_dealt_is_drawn_from_the_shoe_at_its_position(bac):
    bac.bet(1, "player", "100.00")
    deal(bac, "P:4S B:7H P:4D B:KC")
    shoe = bac.shoe()
    assert [(position, str(card)) for position, card, _ in shoe.drawn] == [
        (8, "4S"), (9, "7H"), (10, "4D"), (11, "KC")]
    assert shoe.position == 12 and shoe.cards_remaining == 416 - 12


# --- art. 7: the deal ---------------------------------------------------------------------


def test_baccarat_art7_1_the_first_card_goes_to_the_player(bac, superuser):
    bac.bet(1, "banker", "100.00")
    refused(bac, superuser, RuleViolation, "the next card goes to the player", DealCard,
            to="banker", card="5H")


def test_baccarat_art7_1_the_first_four_cards_alternate_player_banker(bac, superuser):
    bac.bet(1, "banker", "100.00")
    deal(bac, "P:5H")
    refused(bac, superuser, RuleViolation, "the next card goes to the banker", DealCard,
            to="player", card="6H")


def test_baccarat_a_card_goes_to_the_player_or_the_banker_only(bac, superuser):
    refused(bac, superuser, InvalidInput, "not 'box:1'", DealCard, to="box:1", card="5H")


# --- art. 9: the third cards --------------------------------------------------------------


def test_baccarat_art9_2_a_natural_stops_the_coup(bac, superuser):
    bac.bet(1, "player", "100.00")
    deal(bac, "P:4S B:7H P:4D B:KC")  # player 8, banker 7
    refused(bac, superuser, RuleViolation, "the player has a natural 8: no third card",
            DealCard, to="player", card="3S")
    bac.send(SettleRound)
    assert bac.results()[(1, "player", None)].payout == D("100.00")


def test_baccarat_art9_1_player_draws_on_5(bac, superuser):
    bac.bet(1, "player", "100.00")
    deal(bac, "P:2S B:2H P:3D B:AC")  # player 5, banker 3
    refused(bac, superuser, RuleViolation, "the coup is not complete: the next card goes to "
            "the player", SettleRound)
    refused(bac, superuser, RuleViolation, "the player draws first on 5", DealCard,
            to="banker", card="9C")


def test_baccarat_art9_2_player_stands_on_7_and_a_third_card_is_refused(bac, superuser):
    bac.bet(1, "player", "100.00")
    deal(bac, "P:3H B:2D P:4C B:2C")  # player 7, banker 4
    refused(bac, superuser, RuleViolation, "the player stands on 7: a third card is not allowed",
            DealCard, to="player", card="5S")


def test_baccarat_art9_3_6_banker_draws_on_4_when_the_player_stood(bac):
    bac.bet(1, "banker", "200.00")
    deal(bac, "P:3H B:2D P:4C B:2C B:5S")  # player 7 stands; banker 4 draws 5: 9
    bac.send(SettleRound)
    banker = bac.results()[(1, "banker", None)]
    assert (banker.outcome, banker.payout, banker.commission) == (
        Outcome.WON, D("200.00"), D("10.00"))


def test_baccarat_art9_banker_draws_on_3_unless_players_third_is_8(settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        bac.bet(1, "tie", "100.00")
        deal(bac, "P:2S B:2H P:3D B:AC P:8C")  # player 5 draws 8: 3; banker 3
        refused(bac, superuser, RuleViolation, "the banker stands on 3 when the player's third "
                "card is worth 8: a third card is not allowed", DealCard, to="banker", card="5D")
        bac.send(SettleRound)
        assert bac.round().cards[-1].to == "player"

        bac.send(OpenRound)
        bac.bet(1, "banker", "100.00")
        deal(bac, "P:2D B:2C P:3C B:AD P:9C B:5H")  # player 4; banker 3 draws on a 9: 8
        bac.send(SettleRound)
        assert bac.results()[(1, "banker", None)].outcome is Outcome.WON


def test_baccarat_art9_4_4_banker_stands_on_6_when_the_player_stood(bac, superuser):
    bac.bet(1, "player", "100.00")
    deal(bac, "P:3H B:3D P:4C B:3C")  # player 7, banker 6: both stand
    refused(bac, superuser, RuleViolation, "the banker stands on 6", DealCard,
            to="banker", card="2S")
    bac.send(SettleRound)
    assert bac.results()[(1, "player", None)].outcome is Outcome.WON


def test_baccarat_art9_4_5_banker_stands_on_7(bac, superuser):
    bac.bet(1, "banker", "100.00")
    deal(bac, "P:AS B:3H P:2C B:4D P:KD")  # player 3 draws a 0; banker 7
    refused(bac, superuser, RuleViolation, "the banker stands on 7", DealCard,
            to="banker", card="2S")


def test_baccarat_art9_at_most_one_third_card_each(bac, superuser):
    bac.bet(1, "player", "100.00")
    deal(bac, "P:2S B:4H P:3D B:KC P:5H B:8D")
    refused(bac, superuser, RuleViolation, "the banker already has a third card", DealCard,
            to="banker", card="9S")


# --- art. 12, 13, 17, 18: settlement ----------------------------------------------------


def test_baccarat_art12_a_tie_pushes_player_and_banker_and_pays_the_tie_8_to_1(bac):
    bac.bet(1, "player", "300.00")
    bac.bet(2, "banker", "400.00")
    bac.bet(3, "tie", "150.00")
    deal(bac, "P:2S B:2H P:3D B:AC P:8C")  # 3 against 3
    bac.send(SettleRound)
    results = bac.results()
    for key, stake in (((1, "player", None), "300.00"), ((2, "banker", None), "400.00")):
        pushed = results[key]
        assert (pushed.outcome, pushed.returned, pushed.payout, pushed.commission) == (
            Outcome.PUSHED, D(stake), D("0.00"), D("0.00"))
    tie = results[(3, "tie", None)]
    assert (tie.outcome, tie.returned, tie.payout) == (Outcome.WON, D("150.00"), D("1200.00"))


TIE_COUP = "P:2S B:2H P:3D B:AC P:8C"  # 3 against 3
NEXT_COUP = "P:4S B:7H P:4D B:KC"  # the player's natural 8


def tie_at_table(ledger, tie_handling: str) -> Terminal:
    """A table under `tie_handling` whose first coup tied, pushing box 1's 1,000.00 on the
    banker (player P-1) and box 2's 500.00 on the player; the next coup open."""
    table = baccarat_table(ledger, tie_handling=tie_handling)
    table.send(OpenRound)
    table.bet(1, "banker", "1000.00", player="P-1")
    table.bet(2, "player", "500.00")
    deal(table, TIE_COUP)
    table.send(SettleRound)
    table.send(OpenRound)
    return table


@pytest.fixture
def kept(settings):
    with open_ledger(settings) as rt:
        yield tie_at_table(rt.ledger, "kept")


def test_baccarat_art12_2_kept_bets_of_a_tie_stand_unchanged_in_the_next_coup(kept, superuser):
    kept.bet(1, "banker", "1000.00", player="P-1")
    refused(kept, superuser, RuleViolation, "this house's tie handling is 'kept' \\(art. 12\\): "
            "box 2's 500.00 on the player stays in play for the next coup", DealCard,
            to="player", card="4S")
    refused(kept, superuser, RuleViolation, "box 2's 500.00 on the player stays in play",
            CloseBetting)
    kept.bet(2, "player", "500.00")
    deal(kept, NEXT_COUP)
    kept.send(SettleRound)
    assert kept.results()[(2, "player", None)].outcome is Outcome.WON


def test_baccarat_art12_2_a_kept_bet_cannot_be_changed(kept, superuser):
    kept.bet(1, "banker", "2000.00", player="P-1")
    kept.bet(2, "player", "500.00")
    refused(kept, superuser, RuleViolation,
            "box 1's 1000.00 on the banker \\(player P-1\\) cannot be changed", DealCard,
            to="player", card="4S")


def test_baccarat_art12_a_coup_after_a_void_owes_nothing_to_the_tie_before_it(kept, superuser):
    kept.as_supervisor().send(VoidRound, reason="dispute at the table")
    kept.send(OpenRound)
    kept.bet(3, "tie", "100.00")
    deal(kept, NEXT_COUP)  # the void returned every bet: the tie's bets no longer stand
    assert kept.round().phase is Phase.DEALING


def test_baccarat_art12_the_tie_bets_lapse_when_the_table_closes_before_the_next_coup(settings):
    with open_ledger(settings) as rt:
        table = baccarat_table(rt.ledger, tie_handling="kept")
        table.send(OpenRound)
        table.bet(1, "banker", "1000.00")
        deal(table, TIE_COUP)
        table.send(SettleRound)
        rt.ledger.execute(CloseTable(table="BAC-01", actor=PIT_BOSS))
        table = open_table(rt.ledger, "BAC-01", "baccarat", shift=False, decks=8,
                           tie_handling="kept")  # the day shift is still open
        table.send(OpenRound)
        table.bet(4, "player", "200.00")  # a new session: nobody's bet stands from before
        deal(table, NEXT_COUP)
        assert table.round().number == 2 and table.round().phase is Phase.DEALING


def test_baccarat_art12_3_changed_side_moves_the_same_amount_between_player_and_banker(
    settings, superuser
):
    with open_ledger(settings) as rt:
        table = tie_at_table(rt.ledger, "changed_side")
        table.bet(1, "player", "1000.00", player="P-1")  # from the banker to the player
        table.bet(2, "player", "900.00")
        refused(table, superuser, RuleViolation,
                "box 2's 500.00 on the player may move between player and banker, same amount",
                DealCard, to="player", card="4S")
        table.send(PlaceBet, box=2, spot="banker", amount=D("500.00"))
        deal(table, NEXT_COUP)  # box 2's 900.00 on the player is a new bet beside it
        table.send(SettleRound)
        assert table.results()[(1, "player", "P-1")].outcome is Outcome.WON


def test_baccarat_art12_3_changed_amount_keeps_the_side_and_lets_the_stake_change(
    settings, superuser
):
    with open_ledger(settings) as rt:
        table = tie_at_table(rt.ledger, "changed_amount")
        table.bet(1, "banker", "3000.00", player="P-1")  # more on the same side
        table.bet(2, "banker", "500.00")
        refused(table, superuser, RuleViolation,
                "box 2's 500.00 on the player may change amount but not side", DealCard,
                to="player", card="4S")
        table.bet(2, "player", "100.00")
        deal(table, NEXT_COUP)
        assert table.round().phase is Phase.DEALING


def test_baccarat_art12_a_player_on_both_sides_keeps_both_and_a_bet_without_a_name_counts(
    settings, superuser
):
    with open_ledger(settings) as rt:
        table = baccarat_table(rt.ledger, tie_handling="kept")
        table.send(OpenRound)
        table.bet(5, "player", "200.00", player="P-5")
        table.bet(5, "banker", "300.00", player="P-5")
        deal(table, TIE_COUP)
        table.send(SettleRound)
        table.send(OpenRound)
        table.bet(5, "banker", "300.00")  # recorded without the player's name
        refused(table, superuser, RuleViolation,
                "box 5's 200.00 on the player \\(player P-5\\) stays in play", DealCard,
                to="player", card="4S")
        table.bet(5, "player", "200.00", player="P-5")
        deal(table, NEXT_COUP)
        assert table.round().phase is Phase.DEALING


def test_baccarat_art12_a_pushed_bet_a_supervisor_adjusted_is_not_owed(settings):
    with open_ledger(settings) as rt:
        table = tie_at_table(rt.ledger, "kept")
        table.as_supervisor().send(AdjustRound, round=1, box=2, spot="player",
                                   amount=D("-500.00"), reason="tie keyed by mistake",
                                   dispute="DSP-1")
        table.bet(1, "banker", "1000.00", player="P-1")
        deal(table, NEXT_COUP)  # box 2's pushed bet was settled by hand: nothing stands
        assert table.round().phase is Phase.DEALING


def test_baccarat_art12_a_pushed_bet_above_the_next_coups_maximum_is_not_owed(settings):
    """The limits changed overnight (from the next gaming day, whose shift plays the next
    coup): the kept 1,000.00 could not be placed again, so it is not owed; the 500.00 still
    is."""
    tomorrow = ledger_clock.now() + timedelta(days=1)
    with open_ledger(settings) as rt:
        playing_other_days(rt.ledger)
        table = baccarat_table(rt.ledger, tie_handling="kept")
        table.as_supervisor().send(ChangeTableSettings, settings={"max_bet": "800.00"},
                                   effective_from=tomorrow.astimezone(MACAU).date(), authorisation="DICJ-2026-7")
        table.send(OpenRound)
        table.bet(1, "banker", "1000.00", player="P-1")
        table.bet(2, "player", "500.00")
        deal(table, TIE_COUP)
        table.send(SettleRound)
        next_day(rt.ledger, "BAC-01", tomorrow)
        table.send(OpenRound, at=tomorrow)
        table.send(PlaceBet, box=2, spot="player", amount=D("500.00"), at=tomorrow)
        table.send(DealCard, to="player", card="4S", at=tomorrow)
        assert table.round().phase is Phase.DEALING


def test_baccarat_art12_1_withdrawn_bets_leave_the_next_coup_free(settings):
    with open_ledger(settings) as rt:
        table = tie_at_table(rt.ledger, "withdrawn")
        table.bet(3, "banker", "300.00")
        deal(table, NEXT_COUP)
        assert table.round().phase is Phase.DEALING


def test_baccarat_art13_4_j_and_j_are_a_pair_j_and_q_are_not(bac):
    bac.bet(1, "player_pair", "100.00")
    bac.bet(2, "banker_pair", "100.00")
    deal(bac, "P:JS B:JH P:JD B:QD P:7S B:9H")
    bac.send(SettleRound)
    results = bac.results()
    assert (results[(1, "player_pair", None)].outcome,
            results[(1, "player_pair", None)].payout) == (Outcome.WON, D("1100.00"))
    assert results[(2, "banker_pair", None)].outcome is Outcome.LOST


def test_baccarat_art17_1_player_pays_1_to_1_without_commission(bac):
    bac.bet(1, "player", "250.00")
    deal(bac, "P:4S B:7H P:4D B:KC")
    bac.send(SettleRound)
    player = bac.results()[(1, "player", None)]
    assert (player.returned, player.payout, player.commission) == (
        D("250.00"), D("250.00"), D("0.00"))


def test_baccarat_art18_banker_commission_is_5_percent_rounded_down_to_the_avo(bac):
    bac.bet(1, "banker", "100.10")  # 5% is 5.005: the house takes 5.00
    bac.bet(2, "banker", "155.00")  # exactly 7.75
    deal(bac, "P:2S B:4H P:2D B:KC P:9S")
    bac.send(SettleRound)
    results = bac.results()
    assert (results[(1, "banker", None)].payout, results[(1, "banker", None)].commission) == (
        D("100.10"), D("5.00"))
    assert results[(2, "banker", None)].commission == D("7.75")
    assert all(isinstance(r.commission, Decimal) for r in results.values())


# --- bets -------------------------------------------------------------------------------


def test_baccarat_no_bet_after_the_first_card(bac, superuser):
    bac.bet(1, "player", "100.00")
    deal(bac, "P:4S")
    refused(bac, superuser, RuleViolation, "bets are closed", PlaceBet, box=2, spot="banker",
            amount=D("100.00"))


def test_baccarat_a_bet_above_the_table_maximum_is_refused(bac, superuser):
    refused(bac, superuser, RuleViolation, "MOP 50,000.01 is above the table maximum MOP 50,000.00",
            PlaceBet, box=1, spot="banker", amount=D("50000.01"))
    refused(bac, superuser, RuleViolation, "MOP 99.99 is below the table minimum MOP 100.00",
            PlaceBet, box=1, spot="banker", amount=D("99.99"))


def test_baccarat_a_bet_on_no_baccarat_spot_is_refused(bac, superuser):
    refused(bac, superuser, InvalidInput, "'ante' is not a bet of Baccarat", PlaceBet,
            box=1, spot="ante", amount=D("100.00"))


# --- art. 4, 8, 10: irregularities ---------------------------------------------------------


def test_baccarat_art4_a_card_out_of_the_shoe_face_up_is_valid_and_play_goes_on(bac, superuser):
    bac.bet(1, "player", "100.00")
    deal(bac, "P:4S")
    recorded = bac.send(ExposeCard, to="player", card="4S")
    assert [kind for _, _, kind in recorded.events] == ["Round.CardExposed", "CommandReceipt.Accepted"]
    exposed = event_bodies(superuser, "Round.CardExposed")[-1]
    assert (exposed["card"], exposed["kind"], exposed["consequence"]) == (
        "4S", "card_face_up", "round_continues")
    deal(bac, "B:7H P:4D B:KC")
    bac.send(SettleRound)
    assert bac.results()[(1, "player", None)].outcome is Outcome.WON


def test_baccarat_art10_a_dealing_error_corrected_at_once_is_recorded_and_the_coup_goes_on(
    bac, superuser
):
    bac.bet(1, "banker", "100.00")
    deal(bac, "P:2S B:4H")
    bac.send(RecordIrregularity, kind="initial_deal_error", cards=["2D"],
             note="player's second card slid to the banker: moved back")
    body = event_bodies(superuser, "Round.IrregularityRecorded")[-1]
    assert (body["kind"], body["consequence"], body["cards"]) == (
        "initial_deal_error", "corrected", ["2D"])
    deal(bac, "P:2D B:KC P:9S")
    bac.send(SettleRound)
    assert bac.round().phase is Phase.SETTLED


@pytest.mark.parametrize("kind", ["initial_deal_error", "third_card_error"])
@pytest.mark.parametrize(("correctable", "consequence"), [(True, "corrected"),
                                                         (False, "round_void")])
def test_baccarat_art10_every_dealing_error_is_corrected_or_voids_the_coup(
    bac, superuser, kind, correctable, consequence
):
    bac.bet(1, "player", "100.00")
    deal(bac, "P:2S B:4H P:2D B:KC")
    bac.as_supervisor().send(RecordIrregularity, kind=kind, correctable=correctable)
    body = event_bodies(superuser, "Round.IrregularityRecorded")[-1]
    assert (body["kind"], body["consequence"]) == (kind, consequence)
    assert bac.round().phase is (Phase.DEALING if correctable else Phase.VOID)


def test_baccarat_an_irregularity_no_regulation_names_is_refused(bac, superuser):
    refused(bac, superuser, InvalidInput, "'spilled_drink' is not a baccarat irregularity",
            RecordIrregularity, kind="spilled_drink")


def test_baccarat_art10_an_error_that_cannot_be_corrected_voids_the_coup_every_stake_back(
    bac, superuser
):
    bac.bet(1, "banker", "1000.00")
    bac.bet(2, "player_pair", "100.00")
    deal(bac, "P:2S B:4H P:2D")
    before = event_count(superuser)
    with pytest.raises(NotAllowed, match="needs a supervisor or pit boss: dealer D-101 cannot"):
        bac.send(RecordIrregularity, kind="third_card_error", correctable=False)
    assert event_count(superuser) == before

    bac.as_supervisor().send(RecordIrregularity, kind="initial_deal_error", correctable=False,
                             note="cards fell off the table")
    round_ = bac.round()
    assert round_.phase is Phase.VOID
    assert {(r.box, r.spot): (r.outcome, r.returned) for r in round_.results} == {
        (1, "banker"): (Outcome.RETURNED, D("1000.00")),
        (2, "player_pair"): (Outcome.RETURNED, D("100.00")),
    }
    voided = event_bodies(superuser, "Round.Voided")[-1]
    assert (voided["reason"], voided["by"]["actor"]["role"]) == ("initial_deal_error",
                                                                  "supervisor")
    assert bac.table_state().current_round is None


def test_baccarat_art10_a_coup_voided_by_a_supervisor_returns_every_stake(bac, superuser):
    bac.bet(1, "tie", "100.00")
    deal(bac, "P:2S")
    refused(bac, superuser, NotAllowed, "voiding a round needs a supervisor or pit boss",
            VoidRound, reason="dispute")
    bac.as_supervisor().send(VoidRound, reason="shoe dropped")
    assert [r.outcome for r in bac.round().results] == [Outcome.RETURNED]


def test_baccarat_art8_the_house_option_burns_one_card_before_each_coup(settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger, "BAC-08", burn_card_each_coup=True)
        bac.send(OpenRound)
        bac.bet(1, "player", "100.00")
        bac.deal(("burn", "9D"))
        refused(bac, superuser, RuleViolation, "burned once, before the deal", DealCard,
                to="burn", card="9H")
        deal(bac, "P:4S B:7H P:4D B:KC")
        bac.send(SettleRound)
        assert [c.to for c in bac.round().cards] == ["burn", "player", "banker", "player",
                                                     "banker"]


def test_baccarat_art8_no_burn_before_a_coup_unless_the_house_chose_it(bac, superuser):
    refused(bac, superuser, RuleViolation, "this table burns no card before a coup", DealCard,
            to="burn", card="9D")


def test_baccarat_art7_2_the_automatic_shuffler_dealer_deals_face_up_without_cut_or_burn(
    settings, superuser
):
    with open_ledger(settings) as rt:
        bac = open_table(rt.ledger, "BAC-07", "baccarat", decks=8)
        bac.send(ShuffleShoe, method="automatic_shuffler_dealer")
        refused(bac, superuser, RuleViolation, "shuffled by automatic_shuffler_dealer is not cut",
                CutShoe, cut_by="dealer", cut_card_position=404)
        refused(bac, superuser, RuleViolation, "no burn", BurnCards, count=8)
        bac.send(OpenRound)
        bac.bet(1, "player", "100.00")
        deal(bac, "P:4S B:7H P:4D B:KC")
        assert all(card.face_up for card in bac.round().cards)


# --- corrections --------------------------------------------------------------------------


def test_baccarat_a_settled_coup_is_corrected_by_a_supervisors_adjustment_never_an_edit(
    bac, superuser
):
    bac.bet(1, "banker", "1000.00")
    deal(bac, "P:2S B:4H P:2D B:KC P:9S")
    bac.send(SettleRound)
    refused(bac, superuser, NotAllowed, "adjusting a settled round needs a supervisor",
            AdjustRound, round=1, box=1, spot="banker", amount=D("50.00"), reason="dispute 7",
            dispute="DSP-7")
    bac.as_supervisor().send(AdjustRound, round=1, box=1, spot="banker", amount=D("50.00"),
                             reason="dispute 7: commission waived by the shift manager",
                             dispute="DSP-7")
    round_ = bac.round(1)
    assert round_.results[0].commission == D("50.00")  # the settlement stands as recorded
    adjusted = event_bodies(superuser, "Round.Adjusted")
    assert [(a["amount"], a["reason"]) for a in adjusted] == [
        ("50.00", "dispute 7: commission waived by the shift manager")]
