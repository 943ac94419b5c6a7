"""A write command says what it recorded in the floor's words, not the events' class names
(not "recorded BetSettled, BetSettled, ..., RoundFinished")."""

from __future__ import annotations

from decimal import Decimal as D
from uuid import uuid4

import pytest

import ledger.domain.gaming_day
import ledger.domain.jackpot_pool
import ledger.domain.receipt
import ledger.domain.registry
import ledger.domain.round
import ledger.domain.shift
import ledger.domain.shoe
import ledger.domain.table  # noqa: F401  (the last aggregate)
from ledger.application.ledger import Recorded
from ledger.core.cards import parse_cards
from ledger.domain.base import Aggregate
from ledger.domain.round import Round, SettledBet
from ledger.domain.shift import Shift
from ledger.games.common import Outcome
from ledger.games.q_poker import rules as q_poker
from ledger.games.q_poker.naming import q_poker_name
from ledger.games.stud_poker import rules as stud_poker
from ledger.games.stud_poker.naming import stud_name
from ledger.presentation.details import details
from ledger.presentation.wording import ONE_AND_MANY, RECEIPT, describe


def _recorded_kinds() -> set[str]:
    found, waiting = set(), list(Aggregate.Event.__subclasses__())
    while waiting:
        kind = waiting.pop()
        waiting.extend(kind.__subclasses__())
        generated = (kind.__name__ == "Created"
                     and set(kind.model_fields) == set(Aggregate.Created.model_fields))
        if (kind.__module__.startswith("ledger.domain.") and not kind.__subclasses__()
                and not generated):  # the library's own `Created`, never recorded here
            found.add(kind.__qualname__)
    return found


def test_a_settled_round_says_how_many_bets_were_settled_without_its_receipt():
    said = Recorded(uuid4(), duplicate=False, events=tuple(
        (uuid4(), n, kind) for n, kind in enumerate(
            ["Round.BetSettled"] * 4 + ["Round.Settled", "Table.RoundFinished", RECEIPT])))
    assert said.summary() == "recorded: 4 bets settled, round settled, round finished"


def test_every_event_the_ledger_records_has_words_of_its_own():
    kinds = _recorded_kinds() - {RECEIPT}
    assert {"Round.BetSettled", "Shift.FillRecorded", "JackpotPool.Created",
            "GamingDay.Closed", "Table.ShiftOpened"} <= kinds
    assert sorted(kinds - set(ONE_AND_MANY)) == []


def test_an_event_nobody_worded_yet_is_still_said_in_words():
    assert describe(["Shoe.SealBroken"]) == "shoe: seal broken"


# -- hands in words, as a dealer says them (the replay page and the terminal) -----------------

@pytest.mark.parametrize(("cards", "said"), [
    ("AH KH QH JH TH", "Royal flush"),
    ("9C 8C 7C 6C 5C", "Straight flush, nine high"),
    ("QS QH QD QC 2H", "Four of a kind, queens"),
    ("3S 3H 3D JC JH", "Full house, threes over jacks"),
    ("QH JH 8H 7H 2H", "Flush, queen high"),
    ("5S 4H 3D 2C AH", "Straight, five high"),
    ("7S 7H 7D KC 2H", "Three of a kind, sevens"),
    ("KS KH 5D 5C 2H", "Two pairs, kings and fives"),
    ("9S 9H 7D 5C 2H", "One pair of nines"),
    ("AS QH 9D 5C 2H", "High card, ace high"),
])
def test_a_stud_poker_hand_is_named_as_a_dealer_says_it_not_by_its_internal_key(cards, said):
    hand = parse_cards(cards)
    assert stud_name(stud_poker.evaluate(hand), hand) == said


@pytest.mark.parametrize(("cards", "said"), [
    ("AD 2C 3H", "Straight, three high"),
    ("QH JH TH", "Straight flush, queen high"),
    ("7S 7H 7D", "Three of a kind, sevens"),
    ("9S 9H 2D", "One pair of nines"),
    ("KH 8H 3H", "Flush, king high"),
    ("AS 9H 4D", "High card, ace high"),
])
def test_a_q_poker_hand_is_named_as_a_dealer_says_it(cards, said):
    assert q_poker_name(q_poker.evaluate(cards)) == said


# -- what the money did: a write command's lines ("box 3 banker 1,000 wins 950 after commission")

def _settled(spot: str, stake: str, outcome: str, returned: str = "0", payout: str = "0",
             commission: str = "0", **more) -> Round.BetSettled:
    bet = SettledBet(box=3, spot=spot, stake=D(stake), outcome=Outcome(outcome),
                     returned=D(returned), payout=D(payout), commission=D(commission), **more)
    return Round.BetSettled.model_construct(bet=bet)


@pytest.mark.parametrize(("event", "said"), [
    (_settled("banker", "1000", "won", "1000", "1000", "50"),
     "box 3 banker MOP 1,000.00 wins MOP 950.00 after commission MOP 50.00"),
    (_settled("player", "500", "lost"), "box 3 player MOP 500.00 loses"),
    (_settled("jackpot", "10", "lost"), "box 3 jackpot MOP 10.00 to the jackpot pool"),
    (_settled("banker", "200", "pushed", "200"),
     "box 3 banker MOP 200.00 pushed: MOP 200.00 returned"),
    (_settled("play", "400", "surrendered", "200"),
     "box 3 play MOP 400.00 surrenders: MOP 200.00 returned"),
    (_settled("ante", "100", "won", "100", "100", player="P-7", capped=True),
     "box 3 (P-7) ante MOP 100.00 wins MOP 100.00 (capped at the house maximum)"),
    (Round.DecisionMade.model_construct(box=2, player=None, decision="raise", amount=D(200)),
     "box 2 raise MOP 200.00"),
    (Round.DecisionMade.model_construct(box=2, player=None, decision="fold", amount=D(0)),
     "box 2 fold"),
    (Round.JackpotPrizeAwarded.model_construct(
        box=1, category="royal_flush", amount=D("200175.77"), paid_by_pool=D("200175.77"),
        paid_by_house=D(0)), "box 1 royal flush: MOP 200,175.77 from the pool"),
    (Round.Settled.model_construct(outcome={"winner": "player", "player_total": 8,
                                            "banker_total": 6}, house_win=D(-900)),
     "player wins, player 8 banker 6; house loses MOP 900.00"),
    (Round.Voided.model_construct(reason="wrong_count", jackpot_carried=True),
     "void: wrong count; jackpot bets carried"),
    (Shift.FillRecorded.model_construct(slip=1043, amount=D(20000)),
     "fill slip 1043: MOP 20,000.00"),
    (Shift.DropEntered.model_construct(cash=D(1500), markers=D(0), after_close=True),
     "drop MOP 1,500.00 (cash MOP 1,500.00, markers MOP 0.00) (after the gaming day closed)"),
])
def test_a_write_command_says_what_the_money_did(event, said):
    assert details([event]) == (said,)


def test_events_that_move_no_money_add_no_line_and_the_summary_lists_the_lines_under_it():
    quiet = Round.BettingClosed.model_construct()
    lines = details([quiet, _settled("player", "500", "lost")])
    assert lines == ("box 3 player MOP 500.00 loses",)
    recorded = Recorded(uuid4(), duplicate=False,
                        events=((uuid4(), 4, "Round.BetSettled"),), details=lines)
    assert recorded.summary() == "recorded: bet settled\n  box 3 player MOP 500.00 loses"


def test_a_void_reads_the_same_in_a_write_s_answer_in_round_show_and_in_a_replay():
    """One wording for a void's reason: the command's answer, `round show`/`recall`, the replay
    (terminal and page) and the demo all say `wrong count`, never the code `wrong_count`."""
    from ledger.presentation.wording import describe_outcome, void_reason

    voided = Round.Voided.model_construct(reason="wrong_count", jackpot_carried=False)
    assert details([voided]) == ("void: wrong count",)
    assert describe_outcome({"void": "wrong_count"}) == "void: wrong count"
    assert void_reason("wrong_count") == "wrong count"
    assert void_reason("dealer dropped the shoe") == "dealer dropped the shoe"


def test_the_floor_says_the_dealer_s_hand_in_words_not_one_pair_with_an_underscore():
    from ledger.presentation.wording import describe_outcome

    said = describe_outcome({"dealer": "one_pair (JS JC 9D)", "dealer_qualifies": True})
    assert said == "dealer one pair (J♠ J♣ 9♦): qualifies"


def test_fortune_8_s_deal_modes_read_as_article_4_says_them():
    from ledger.presentation.wording import describe_outcome

    assert describe_outcome({"mode": "all_spaces"}) == "dealt to all seven spaces"
    assert describe_outcome({"mode": "spaces_with_bets"}) == "dealt only to the spaces with bets"


def test_fields_values_and_counts_read_as_a_pit_reads_them():
    from decimal import Decimal

    from ledger.core.formatting import count, counted
    from ledger.presentation.wording import label, shown, term

    assert (label("max_bet"), shown(Decimal("50000.00"))) == ("maximum bet", "MOP 50,000.00")
    assert (label("is_open"), shown(True), shown(False), shown(None)) == ("open", "yes", "no", "-")
    assert (term("royal_flush"), term("two_pairs"), term("pit_workstation")) == (
        "royal flush", "two pairs", "pit workstation")
    assert (count(5804), counted(5804, "command"), counted(1, "pool")) == (
        "5,804", "5,804 commands", "1 pool")


def test_names_shown_to_people_come_from_one_place_in_words():
    from ledger.core.formatting import counted
    from ledger.games.rulesets import RULE_SETS
    from ledger.presentation.wording import game, line_name, round_reached, rule_set

    assert rule_set("stud-poker/2004") == "Stud Poker, 2004 rules"
    assert rule_set("baccarat/2004", with_game=False) == "2004 rules"
    assert all(code not in rule_set(code) for code in RULE_SETS)  # every one said in words
    assert rule_set("unknown/1999") == "unknown/1999"  # not guessed at
    assert [line_name("game", "fortune-8"), line_name("table", "F8-02"),
            line_name("dealer", "D-7"), line_name("pit", "A"), line_name("floor", "floor")] == [
        "Fortune 8", "table F8-02", "dealer D-7", "pit A", "floor"]
    assert game("q-poker") == "Q Poker"
    assert (counted(1, "deck"), counted(12, "table")) == ("1 deck", "12 tables")
    assert (round_reached(16, "settled", 1, settled=16)
            == "16 settled, 1 of them a demonstration coup")
    assert (round_reached(17, "settled", 2, settled=16, voided=1)
            == "16 settled, 2 of them demonstration coups; 1 void")
    assert (round_reached(15, "settled", settled=15), round_reached(None, None)) == (
        "15 settled", "-")


def test_a_table_counts_its_settled_and_voided_rounds_apart():
    from ledger.presentation.wording import round_reached

    assert round_reached(15, "settled", settled=14, voided=1) == "14 settled, 1 void"
    assert round_reached(15, "void", settled=13, voided=2) == "13 settled, 2 void"
    assert round_reached(6, "betting", settled=5) == "5 settled, round 6 betting"
