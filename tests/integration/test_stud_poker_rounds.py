"""Stud Poker rounds (DICJ 69/2003 and 61/2004) recorded through the Python API, on PostgreSQL.

Each test drives `Ledger.execute` as a dealer terminal would and then reads what was stored
(`ledger_event_log`): every card with its shoe position, every decision, one BetSettled per
bet with the amounts the rules engine computed, the irregularities with their consequences.
Tests are named after the article they follow.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from datetime import timedelta
from decimal import Decimal
from uuid import UUID

import pytest

from ledger.application.ledger import Ledger, Recorded
from ledger.commands import Command
from ledger.commands.round import (
    AdjustRound,
    DealCard,
    Decide,
    ExposeCard,
    PlaceBet,
    RecordIrregularity,
    RevealDealer,
    SettleRound,
    VoidRound,
)
from ledger.commands.shoe import ShuffleShoe
from ledger.commands.table import ChangeTableSettings
from ledger.core import clock as ledger_clock
from ledger.core.errors import (
    ConcurrencyConflict,
    InvalidInput,
    LedgerError,
    NotAllowed,
    RuleViolation,
    SettingOutsideRegulation,
    WrongState,
)
from ledger.core.formatting import MACAU
from ledger.domain.round import Round, round_id
from ledger.domain.table import Table, table_id
from tests.integration.helpers import next_day
from tests.integration.stud_builders import (
    DEALER,
    NON_QUALIFYING_DEALER,
    QUALIFYING_DEALER,
    RULE_SETS,
    SUPERVISOR,
    bets,
    create_pool,
    deal,
    deal_order,
    decide,
    event_count,
    money,
    open_stud_table,
    recorded,
    reveal_and_settle,
    settled_bets,
    shuffle_and_open,
    stud_round,
    stud_table,
    until_decisions,
)
from tests.signing import open_ledger, playing_other_days

CODE = "SP-01"
POOL = "STUD-POOL"


@pytest.fixture
def ledger(settings) -> Iterator[Ledger]:
    with open_ledger(settings) as rt:
        yield rt.ledger


def run(ledger: Ledger, commands: Iterable[Command]) -> list[Recorded]:
    return [ledger.execute(command) for command in commands]


def table_with_pool(ledger: Ledger, rule_set: str, code: str = CODE, **options: object) -> None:
    run(ledger, [create_pool(POOL), *stud_table(code, rule_set, pool=POOL, **options)])


def round_stream(number: int, code: str = CODE) -> UUID:
    return round_id(table_id(code), number)


def refused(ledger: Ledger, superuser, command: Command, error: type[LedgerError],
            sentence: str) -> str:
    """The command is refused with one sentence containing `sentence`, and nothing is stored."""
    before = event_count(superuser)
    with pytest.raises(error) as caught:
        ledger.execute(command)
    message = str(caught.value)
    assert sentence in message
    assert "\n" not in message and message.endswith(".")
    assert event_count(superuser) == before
    return message


def won(box: int, spot: str, stake: str, payout: str) -> tuple[int, str, str, str, str, str]:
    return (box, spot, stake, "won", stake, payout)


def lost(box: int, spot: str, stake: str) -> tuple[int, str, str, str, str, str]:
    return (box, spot, stake, "lost", "0.00", "0.00")


def returned(box: int, spot: str, stake: str, outcome: str = "returned") -> tuple[
        int, str, str, str, str, str]:
    return (box, spot, stake, outcome, stake, "0.00")


# -- complete rounds ------------------------------------------------------------------------

THREE_BOXES = {1: ("100", "10"), 2: ("200", None), 4: ("150", None)}
THREE_HANDS = {1: "KH KS 9D 9C 3H", 2: "QH JH 8C 6D 5S", 4: "TC 8D 7S 5C 3D"}


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_art6_to_9_a_complete_round_records_each_card_decision_and_bet_result(
    ledger, superuser, rule_set
):
    table_with_pool(ledger, rule_set)
    run(ledger, stud_round(CODE, THREE_BOXES, THREE_HANDS, QUALIFYING_DEALER,
                           decisions={4: "fold"}))
    stream = round_stream(1)

    cards = recorded(superuser, "Round.CardDealt", stream)
    assert [(c["to"], c["card"]) for c in cards] == deal_order(THREE_HANDS, QUALIFYING_DEALER)
    assert [c["shoe_position"] for c in cards] == list(range(20))
    # art. 7, 1): every card face down but the dealer's last, which the ledger turns up itself
    assert [(c["to"], c["card"]) for c in cards if c["face_up"]] == [("dealer", "2D")]
    assert [(d["box"], d["decision"], d["amount"]) for d in
            recorded(superuser, "Round.DecisionMade", stream)] == [
        (1, "raise", "200.00"), (2, "raise", "400.00"), (4, "fold", "0.00")]
    assert recorded(superuser, "Round.DealerRevealed", stream)[0]["cards"] == (
        QUALIFYING_DEALER.split())

    # The dealer qualifies with A-K high (art. 9, 1)). Box 1's two pairs beat it: ante 1:1,
    # raise 2:1 (art. 9, 5)); box 2's queen high loses both bets (art. 9, 4)); box 4 folded
    # and loses its ante (art. 6, 7)); the jackpot bet buys a chance at the pool only.
    assert settled_bets(superuser, stream) == {
        won(1, "ante", "100.00", "100.00"), won(1, "raise", "200.00", "400.00"),
        lost(1, "jackpot", "10.00"),
        lost(2, "ante", "200.00"), lost(2, "raise", "400.00"),
        lost(4, "ante", "150.00"),
    }
    [settled] = recorded(superuser, "Round.Settled", stream)
    assert settled["house_win"] == "260.00"
    table = ledger.load(Table, table_id(CODE), "table")
    assert table.current_round is None and table.round_count == 1


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_art9_2_a_dealer_without_ace_king_pays_each_ante_and_returns_each_raise(
    ledger, superuser, rule_set
):
    table_with_pool(ledger, rule_set)
    placed = {1: ("100", None), 3: ("300", None)}
    hands = {1: "2S 3S 4D 8H 9C", 3: "KD KH 5S 6S 7D"}
    run(ledger, stud_round(CODE, placed, hands, NON_QUALIFYING_DEALER, decisions={3: "fold"}))
    # A fold loses the ante even when the dealer would not have qualified (art. 6, 7)).
    assert settled_bets(superuser, round_stream(1)) == {
        won(1, "ante", "100.00", "100.00"), returned(1, "raise", "200.00"),
        lost(3, "ante", "300.00"),
    }


@pytest.mark.parametrize(
    ("rule_set", "royal_odds", "payout"),
    [("stud-poker/2003", 50, "10000.00"),
     ("stud-poker/2004", 50, "10000.00"),
     ("stud-poker/2004", 80, "16000.00"),
     ("stud-poker/2004", 100, "20000.00")],
)
def test_stud_art9_5_9_royal_flush_pays_50_to_1_in_2003_and_the_house_odds_in_2004(
    ledger, superuser, rule_set, royal_odds, payout
):
    table_with_pool(ledger, rule_set, royal_odds=royal_odds)
    run(ledger, stud_round(CODE, {2: ("100", None)}, {2: "AS KS QS JS TS"}, QUALIFYING_DEALER))
    assert settled_bets(superuser, round_stream(1)) == {
        won(2, "ante", "100.00", "100.00"), won(2, "raise", "200.00", payout),
    }


def test_stud_2003_art9_5_9_a_table_cannot_set_other_royal_odds_than_50(ledger, superuser):
    message = refused(ledger, superuser, open_stud_table(CODE, "stud-poker/2003", royal_odds=80),
                      SettingOutsideRegulation, "a royal flush at 80:1 is outside DICJ 69/2003")
    assert "art. 9, 5), (9) fixes it at 50:1" in message


def test_stud_art13_2004_royal_odds_above_100_are_refused(ledger, superuser):
    refused(ledger, superuser, open_stud_table(CODE, "stud-poker/2004", royal_odds=120),
            SettingOutsideRegulation, "a royal flush at 120:1 is outside DICJ 61/2004")


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_art9_5_7_to_9_the_raise_payout_is_capped_at_the_house_maximum(
    ledger, superuser, rule_set
):
    table_with_pool(ledger, rule_set, max_payout="20000.00")
    placed = {1: ("500", None), 2: ("600", None), 3: ("2000", None)}
    hands = {1: "9H 8H 7H 6H 5H", 2: "QC QD QH QS 3C", 3: "JC JD JS 4D 4H"}
    run(ledger, stud_round(CODE, placed, hands, "AC KD 8S 3D 2S"))
    # straight flush 1000 x 50 = 50000 and four of a kind 1200 x 20 = 24000 are cut to the
    # maximum; a full house is never capped: 4000 x 7 = 28000 is paid in full.
    assert settled_bets(superuser, round_stream(1)) == {
        won(1, "ante", "500.00", "500.00"), won(1, "raise", "1000.00", "20000.00"),
        won(2, "ante", "600.00", "600.00"), won(2, "raise", "1200.00", "20000.00"),
        won(3, "ante", "2000.00", "2000.00"), won(3, "raise", "4000.00", "28000.00"),
    }
    capped = {(b["bet"]["box"], b["bet"]["spot"]) for b in
              recorded(superuser, "Round.BetSettled", round_stream(1)) if b["bet"]["capped"]}
    assert capped == {(1, "raise"), (2, "raise")}


def test_stud_art7_2_a_shuffler_deals_five_cards_at_a_time_and_shows_the_dealers_top_card(
    ledger, superuser
):
    table_with_pool(ledger, "stud-poker/2004")
    hands = {1: "KH KS 9D 9C 3H", 2: "QH JH 8C 6D 5S"}
    placed = {1: ("100", None), 2: ("100", None)}
    run(ledger, [ShuffleShoe(table=CODE, method="shuffler", shuffler_serial="SHF-0042",
                             actor=DEALER), *shuffle_and_open(CODE)[1:], *bets(CODE, placed)])
    # one card at a time is now the wrong way: box 1 takes its five first
    first, second = deal_order(hands, QUALIFYING_DEALER)[:2]
    ledger.execute(DealCard(table=CODE, to=first[0], card=first[1], actor=DEALER))
    refused(ledger, superuser, DealCard(table=CODE, to=second[0], card=second[1], actor=DEALER),
            RuleViolation, "the next card goes to box 1, not box 2: cards go five at a time")
    in_fives = [(f"box:{box}", card) for box in (1, 2) for card in hands[box].split()][1:]
    in_fives += [("dealer", card) for card in QUALIFYING_DEALER.split()]
    run(ledger, [DealCard(table=CODE, to=to, card=card, actor=DEALER) for to, card in in_fives])
    run(ledger, [*decide(CODE, placed), *reveal_and_settle(CODE)])
    cards = recorded(superuser, "Round.CardDealt", round_stream(1))
    assert [(c["to"], c["card"]) for c in cards if c["face_up"]] == [("dealer", "AD")]
    assert len(settled_bets(superuser, round_stream(1))) == 4


def test_stud_art13_new_royal_odds_apply_from_their_effective_date_never_to_earlier_rounds(
    ledger, superuser
):
    playing_other_days(ledger)
    table_with_pool(ledger, "stud-poker/2004")  # royal flush at 80:1
    today = ledger_clock.now()
    change = ChangeTableSettings(table=CODE, settings={"royal_odds": 100},
                                 effective_from=today.astimezone(MACAU).date() + timedelta(days=1),
                                 authorisation="DICJ-AUTH-2024-101", actor=DEALER)
    refused(ledger, superuser, change, NotAllowed, "changing a table's house settings needs a "
                                                   "supervisor or pit boss")
    ledger.execute(change.model_copy(update={"actor": SUPERVISOR}))
    royal = ({2: ("100", None)}, {2: "AS KS QS JS TS"})
    run(ledger, stud_round(CODE, *royal))
    tomorrow = [command.model_copy(update={"at": today + timedelta(days=1)})
                for command in stud_round(CODE, *royal)]
    next_day(ledger, CODE, today + timedelta(days=1))  # the next gaming day's shift plays it
    run(ledger, tomorrow)
    payouts = [next(b["bet"]["payout"] for b in recorded(superuser, "Round.BetSettled",
                                                         round_stream(n))
                    if b["bet"]["spot"] == "raise") for n in (1, 2)]
    assert payouts == ["16000.00", "20000.00"]
    opened = recorded(superuser, "Round.Opened")
    assert [o["settings"]["royal_odds"] for o in opened] == [80, 100]


def test_stud_2003_a_settings_change_cannot_move_the_royal_odds_off_50(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2003")
    refused(ledger, superuser,
            ChangeTableSettings(table=CODE, settings={"royal_odds": 60},
                                effective_from=ledger_clock.now().astimezone(MACAU).date(),
                                authorisation="DICJ-AUTH-2024-102", actor=SUPERVISOR),
            SettingOutsideRegulation, "a royal flush at 60:1 is outside DICJ 69/2003")


# -- art. 11: irregularities ----------------------------------------------------------------

TWO_BOXES = {1: ("100", "10"), 3: ("200", "20")}
TWO_HANDS = {1: "KH KS 9D 9C 3H", 3: "QH JH 8C 6D 5S"}


def assert_void_with_jackpot_bets_carried(ledger: Ledger, superuser, reason: str) -> None:
    """Art. 11, 1) and 4): antes (and raises) returned, jackpot bets carried to round 2."""
    stream = round_stream(1)
    assert settled_bets(superuser, stream) == {
        returned(1, "ante", "100.00"), returned(1, "jackpot", "10.00", "carried"),
        returned(3, "ante", "200.00"), returned(3, "jackpot", "20.00", "carried"),
    }
    [voided] = recorded(superuser, "Round.Voided", stream)
    assert voided["jackpot_carried"] is True and reason in voided["reason"]
    [carried] = recorded(superuser, "Table.JackpotBetsCarried")
    assert [(b["box"], b["amount"]) for b in carried["bets"]] == [(1, "10.00"), (3, "20.00")]
    assert recorded(superuser, "JackpotPool.ContributionReceived") == []  # nothing played
    assert ledger.load(Table, table_id(CODE), "table").current_round is None


def play_next_round_with_the_carried_bets(ledger: Ledger, superuser) -> None:
    """Round 2: the carried bets are bets of the new round. Box 1 antes again and its carried
    jackpot bet plays (and feeds the pool once); box 3 places no ante and gets its back."""
    run(ledger, shuffle_and_open(CODE))
    [opened] = recorded(superuser, "Round.Opened", round_stream(2))
    assert [(b["box"], b["amount"], b["from_round"]) for b in opened["carried_jackpot_bets"]] == [
        (1, "10.00", str(round_stream(1))), (3, "20.00", str(round_stream(1)))]
    placed = {1: ("100", None)}
    run(ledger, bets(CODE, placed))
    refused(ledger, superuser, PlaceBet(table=CODE, box=1, spot="jackpot", amount=money(10),
                                        actor=DEALER),
            RuleViolation, "box 1 already has its jackpot")
    run(ledger, [*deal(CODE, {1: "KH KS 9D 9C 3H"}, QUALIFYING_DEALER), *decide(CODE, placed),
                 *reveal_and_settle(CODE)])
    assert settled_bets(superuser, round_stream(2)) == {
        won(1, "ante", "100.00", "100.00"), won(1, "raise", "200.00", "400.00"),
        lost(1, "jackpot", "10.00"), returned(3, "jackpot", "20.00"),
    }
    [contribution] = recorded(superuser, "JackpotPool.ContributionReceived")
    assert (contribution["stakes"], contribution["to_pool"]) == ("10.00", "5.00")


def deal_first(ledger: Ledger, count: int, hands=TWO_HANDS, dealer=QUALIFYING_DEALER) -> None:
    run(ledger, deal(CODE, hands, dealer)[:count])


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_art11_1_cards_dealt_the_wrong_way_void_the_round_and_carry_the_jackpot_bets(
    ledger, superuser, rule_set
):
    table_with_pool(ledger, rule_set)
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, TWO_BOXES)])
    deal_first(ledger, 1)
    # The terminal will not record a card out of the order of art. 7 ...
    refused(ledger, superuser, DealCard(table=CODE, to="dealer", card="AD", actor=DEALER),
            RuleViolation, "the next card goes to box 3, not the dealer")
    # ... a dealer alone cannot void the round ...
    refused(ledger, superuser,
            RecordIrregularity(table=CODE, kind="wrong_order", cards=["AD"], actor=DEALER),
            NotAllowed, "an irregularity that voids SP-01 round 1 needs a supervisor")
    # ... the supervisor records what happened, and art. 11, 1) applies.
    ledger.execute(RecordIrregularity(table=CODE, kind="wrong_order", cards=["AD"],
                                      note="card to the dealer before box 3", actor=SUPERVISOR))
    [irregularity] = recorded(superuser, "Round.IrregularityRecorded", round_stream(1))
    assert (irregularity["kind"], irregularity["consequence"], irregularity["cards"]) == (
        "wrong_order", "round_void_jackpot_carried", ["AD"])
    assert_void_with_jackpot_bets_carried(ledger, superuser, "wrong_order")
    play_next_round_with_the_carried_bets(ledger, superuser)


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_art11_1_the_wrong_number_of_cards_voids_the_round_and_carries_the_jackpot_bets(
    ledger, superuser, rule_set
):
    table_with_pool(ledger, rule_set)
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, TWO_BOXES)])
    deal_first(ledger, 4)
    ledger.execute(RecordIrregularity(table=CODE, kind="wrong_count", box=3,
                                      note="two cards to box 3 at once", actor=SUPERVISOR))
    assert_void_with_jackpot_bets_carried(ledger, superuser, "wrong_count")
    play_next_round_with_the_carried_bets(ledger, superuser)


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_art11_1_two_exposed_cards_void_the_round_and_carry_the_jackpot_bets(
    ledger, superuser, rule_set
):
    table_with_pool(ledger, rule_set)
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, TWO_BOXES)])
    deal_first(ledger, 6)
    ledger.execute(ExposeCard(table=CODE, to="box:1", card="KH", actor=DEALER))
    refused(ledger, superuser, ExposeCard(table=CODE, to="dealer", card="AD", actor=DEALER),
            NotAllowed, "an exposed card that voids SP-01 round 1 needs a supervisor")
    ledger.execute(ExposeCard(table=CODE, to="dealer", card="AD", actor=SUPERVISOR))
    exposed = recorded(superuser, "Round.CardExposed", round_stream(1))
    assert [(e["to"], e["card"], e["consequence"]) for e in exposed] == [
        ("box:1", "KH", "round_continues"), ("dealer", "AD", "round_void_jackpot_carried")]
    assert_void_with_jackpot_bets_carried(ledger, superuser, "AD")
    play_next_round_with_the_carried_bets(ledger, superuser)


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_art11_2_one_exposed_box_card_and_play_continues(ledger, superuser, rule_set):
    table_with_pool(ledger, rule_set)
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, TWO_BOXES)])
    deal_first(ledger, 5)
    ledger.execute(ExposeCard(table=CODE, to="box:3", card="QH", actor=DEALER))
    refused(ledger, superuser, ExposeCard(table=CODE, to="box:3", card="QH", actor=SUPERVISOR),
            RuleViolation, "QH is already exposed")
    run(ledger, [*deal(CODE, TWO_HANDS, QUALIFYING_DEALER)[5:], *decide(CODE, TWO_BOXES),
                 *reveal_and_settle(CODE)])
    [exposed] = recorded(superuser, "Round.CardExposed", round_stream(1))
    assert exposed["consequence"] == "round_continues"
    assert (1, "ante", "100.00", "won", "100.00", "100.00") in settled_bets(
        superuser, round_stream(1))
    assert recorded(superuser, "Round.Voided") == []


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_art11_2_one_exposed_dealer_card_stays_up_and_play_continues(
    ledger, superuser, rule_set
):
    table_with_pool(ledger, rule_set)
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, TWO_BOXES)])
    deal_first(ledger, 3)  # box 1, box 3, then the dealer's first card, exposed by mistake
    ledger.execute(ExposeCard(table=CODE, to="dealer", card="AD", actor=DEALER))
    run(ledger, [*deal(CODE, TWO_HANDS, QUALIFYING_DEALER)[3:], *decide(CODE, TWO_BOXES),
                 *reveal_and_settle(CODE)])
    [exposed] = recorded(superuser, "Round.CardExposed", round_stream(1))
    assert (exposed["to"], exposed["card"], exposed["consequence"]) == (
        "dealer", "AD", "dealer_card_stays_up")
    # The exposed card stays up; the dealer's other cards, the last one too, go face down.
    dealer_cards = [c for c in recorded(superuser, "Round.CardDealt", round_stream(1))
                    if c["to"] == "dealer"]
    assert [c["face_up"] for c in dealer_cards] == [False] * 5
    assert len(settled_bets(superuser, round_stream(1))) == 6
    assert recorded(superuser, "Round.Voided") == []


def test_stud_art11_2_a_card_dealt_face_up_cannot_be_exposed_by_mistake(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, until_decisions(CODE, {1: ("100", None)}, {1: "KH KS 9D 9C 3H"}))
    refused(ledger, superuser, ExposeCard(table=CODE, to="dealer", card="2D", actor=DEALER),
            RuleViolation, "2D was dealt face up")
    run(ledger, [*decide(CODE, {1: ("100", None)}), RevealDealer(table=CODE, actor=DEALER)])
    refused(ledger, superuser, ExposeCard(table=CODE, to="box:1", card="KH", actor=DEALER),
            RuleViolation, "the dealer's hand is revealed: no card can be exposed by mistake")


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_art11_3_cards_to_a_box_without_a_bet_void_that_box_and_play_continues(
    ledger, superuser, rule_set
):
    table_with_pool(ledger, rule_set)
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, TWO_BOXES)])
    deal_first(ledger, 1)
    # box 5 has no bet: the deal does not take the card as part of the round ...
    refused(ledger, superuser, DealCard(table=CODE, to="box:5", card="7C", actor=DEALER),
            RuleViolation, "a card to box 5, which has no bet")
    # ... and a box with a bet is not a box without one
    refused(ledger, superuser,
            RecordIrregularity(table=CODE, kind="cards_to_box_without_bet", box=3,
                               cards=["7C"], actor=DEALER),
            RuleViolation, "box 3 holds bets")
    # the irregularity is recorded (no supervisor needed: the round goes on) and the card
    # it names has left the shoe, so it cannot be dealt again
    ledger.execute(RecordIrregularity(table=CODE, kind="cards_to_box_without_bet", box=5,
                                      cards=["7C"], actor=DEALER))
    [irregularity] = recorded(superuser, "Round.IrregularityRecorded", round_stream(1))
    assert (irregularity["kind"], irregularity["consequence"], irregularity["box"]) == (
        "cards_to_box_without_bet", "box_void", 5)
    refused(ledger, superuser, DealCard(table=CODE, to="box:3", card="7C", actor=DEALER),
            RuleViolation, "7C cannot come out of this shoe again")
    run(ledger, [*deal(CODE, TWO_HANDS, QUALIFYING_DEALER)[1:], *decide(CODE, TWO_BOXES),
                 *reveal_and_settle(CODE)])
    drawn = recorded(superuser, "Shoe.CardDrawn")
    assert [(d["position"], d["card"]) for d in drawn][:2] == [(0, "KH"), (1, "7C")]
    assert len(drawn) == 16
    bets_settled = settled_bets(superuser, round_stream(1))
    assert {box for box, *_ in bets_settled} == {1, 3}
    assert won(1, "raise", "200.00", "400.00") in bets_settled


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_art11_4_shuffler_failure_voids_the_round_carries_the_jackpot_bets_and_a_shoe_follows(
    ledger, superuser, rule_set
):
    table_with_pool(ledger, rule_set)
    run(ledger, [ShuffleShoe(table=CODE, method="shuffler", shuffler_serial="SHF-0042",
                             actor=DEALER), *shuffle_and_open(CODE)[1:], *bets(CODE, TWO_BOXES)])
    run(ledger, [DealCard(table=CODE, to="box:1", card=card, actor=DEALER)
                 for card in TWO_HANDS[1].split()[:3]])
    refused(ledger, superuser,
            RecordIrregularity(table=CODE, kind="shuffler_failure", actor=DEALER),
            NotAllowed, "needs a supervisor")
    ledger.execute(RecordIrregularity(table=CODE, kind="shuffler_failure",
                                      note="SHF-0042 jammed", actor=SUPERVISOR))
    assert_void_with_jackpot_bets_carried(ledger, superuser, "shuffler_failure")
    refused(ledger, superuser, ShuffleShoe(table=CODE, method="shuffler",
                                           shuffler_serial="SHF-0042", actor=DEALER),
            RuleViolation, "shuffler SHF-0042 failed during SP-01 round 1: replace it")
    play_next_round_with_the_carried_bets(ledger, superuser)  # a hand-shuffled shoe now
    shuffles = recorded(superuser, "Shoe.Shuffled")
    assert [s["method"] for s in shuffles] == ["shuffler", "hand"]


def test_stud_art11_4_there_is_no_shuffler_failure_in_a_round_dealt_from_a_shoe(
    ledger, superuser
):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, TWO_BOXES)])
    deal_first(ledger, 2)
    refused(ledger, superuser,
            RecordIrregularity(table=CODE, kind="shuffler_failure", actor=SUPERVISOR),
            RuleViolation, "no shuffler")


def test_stud_art11_4_a_shuffler_fails_during_the_deal_not_after_it(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, [ShuffleShoe(table=CODE, method="shuffler", shuffler_serial="SHF-0042",
                             actor=DEALER), *shuffle_and_open(CODE)[1:], *bets(CODE, TWO_BOXES)])
    five_at_a_time = [("box:1", TWO_HANDS[1]), ("box:3", TWO_HANDS[3]),
                      ("dealer", QUALIFYING_DEALER)]
    run(ledger, [DealCard(table=CODE, to=to, card=card, actor=DEALER)
                 for to, hand in five_at_a_time for card in hand.split()])
    refused(ledger, superuser,
            RecordIrregularity(table=CODE, kind="shuffler_failure", actor=SUPERVISOR),
            RuleViolation, "the deal is over: a shuffler failure voids a round during its deal")


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_stud_a_supervisor_voids_a_round_bets_returned_and_jackpot_bets_carried(
    ledger, superuser, rule_set
):
    table_with_pool(ledger, rule_set)
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, TWO_BOXES)])
    deal_first(ledger, 3)
    ledger.execute(VoidRound(table=CODE, reason="table dispute, pit boss decision",
                             actor=SUPERVISOR))
    assert_void_with_jackpot_bets_carried(ledger, superuser, "table dispute")


def test_stud_a_round_with_only_carried_jackpot_bets_is_voided_and_returns_them(
    ledger, superuser
):
    """Nobody antes after a void: the round cannot be dealt; the supervisor voids it and the
    carried bets go back to their players instead of being carried again."""
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, TWO_BOXES)])
    deal_first(ledger, 3)
    ledger.execute(VoidRound(table=CODE, reason="camera failure", actor=SUPERVISOR))
    run(ledger, shuffle_and_open(CODE))  # round 2 holds the carried bets, and no ante
    refused(ledger, superuser, DealCard(table=CODE, to="box:1", card="KH", actor=DEALER),
            InvalidInput, "a deal needs at least one of boxes 1 to 7")
    ledger.execute(VoidRound(table=CODE, reason="no player", actor=SUPERVISOR))
    assert settled_bets(superuser, round_stream(2)) == {
        returned(1, "jackpot", "10.00"), returned(3, "jackpot", "20.00")}
    run(ledger, shuffle_and_open(CODE))
    [opened] = recorded(superuser, "Round.Opened", round_stream(3))
    assert opened["carried_jackpot_bets"] == []


def test_stud_a_raise_returned_by_a_void_round(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, until_decisions(CODE, TWO_BOXES, TWO_HANDS))
    run(ledger, decide(CODE, TWO_BOXES)[:1])
    ledger.execute(VoidRound(table=CODE, reason="camera failure", actor=SUPERVISOR))
    assert returned(1, "raise", "200.00") in settled_bets(superuser, round_stream(1))


def test_stud_a_settled_round_is_corrected_by_a_supervisors_adjustment_never_an_edit(
    ledger, superuser
):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, stud_round(CODE, {2: ("200", None)}, {2: "QH JH 8C 6D 5S"}))
    before = settled_bets(superuser, round_stream(1))
    adjustment = AdjustRound(table=CODE, round=1, box=2, spot="ante", amount=money(200),
                             reason="dealer misread the hand", dispute="D-2291", actor=DEALER)
    refused(ledger, superuser, adjustment, NotAllowed,
            "adjusting a settled round needs a supervisor or pit boss")
    ledger.execute(adjustment.model_copy(update={"actor": SUPERVISOR}))
    [adjusted] = recorded(superuser, "Round.Adjusted", round_stream(1))
    assert (adjusted["box"], adjusted["spot"], adjusted["amount"], adjusted["by"]["actor"]) == (
        2, "ante", "200.00", {"staff_id": "SV-7", "role": "supervisor"})
    assert settled_bets(superuser, round_stream(1)) == before


def test_the_same_dispute_typed_twice_is_adjusted_once(ledger, superuser):
    """A second adjustment under the same dispute reference, even as a new command, is refused:
    the player is paid once."""
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, stud_round(CODE, {2: ("200", None)}, {2: "QH JH 8C 6D 5S"}))
    first = AdjustRound(table=CODE, round=1, box=2, spot="ante", amount=money(200),
                        reason="dealer misread the hand", dispute="D-2291", actor=SUPERVISOR)
    ledger.execute(first)
    again = AdjustRound(table=CODE, round=1, box=2, spot="ante", amount=money(200),
                        reason="dealer misread the hand", dispute="D-2291", actor=SUPERVISOR)
    refused(ledger, superuser, again, WrongState,
            "dispute D-2291 was adjusted already on SP-01 round 1 (box 2 ante MOP 200.00)")
    assert len(recorded(superuser, "Round.Adjusted", round_stream(1))) == 1


# -- refusals: one sentence, nothing recorded -----------------------------------------------

ONE_BOX = {1: ("100", "10")}
ONE_HAND = {1: "KH KS 9D 9C 3H"}


def test_stud_a_card_the_one_deck_shoe_cannot_hold_twice_is_refused(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, ONE_BOX)])
    ledger.execute(DealCard(table=CODE, to="box:1", card="AS", actor=DEALER))
    refused(ledger, superuser, DealCard(table=CODE, to="dealer", card="AS", actor=DEALER),
            InvalidInput, "AS is already dealt: Stud Poker uses one deck.")


def test_stud_art7_a_sixth_card_to_a_box_is_refused(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2003")
    run(ledger, until_decisions(CODE, ONE_BOX, ONE_HAND))
    refused(ledger, superuser, DealCard(table=CODE, to="box:1", card="2H", actor=DEALER),
            RuleViolation, "a sixth card to box 1: a Stud Poker hand has five cards.")


@pytest.mark.parametrize("spot", ["ante", "jackpot"])
def test_stud_art6_a_bet_after_the_first_card_is_refused(ledger, superuser, spot):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, ONE_BOX)])
    ledger.execute(DealCard(table=CODE, to="box:1", card="KH", actor=DEALER))
    box = 2 if spot == "ante" else 1
    refused(ledger, superuser,
            PlaceBet(table=CODE, box=box, spot=spot, amount=money(100), actor=DEALER),
            RuleViolation, f"bets are closed: no bet is accepted on box {box}")


@pytest.mark.parametrize("amount", ["100.00", "150.00", "300.00", None])
def test_stud_art6_6_a_raise_that_is_not_twice_the_ante_is_refused(ledger, superuser, amount):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, until_decisions(CODE, ONE_BOX, ONE_HAND))
    shown = f"MOP {amount or '0.00'}"
    refused(ledger, superuser,
            Decide(table=CODE, box=1, decision="raise",
                   amount=None if amount is None else Decimal(amount), actor=DEALER),
            RuleViolation,
            f"the raise must be exactly twice the ante: box 1 ante MOP 100.00 needs MOP 200.00, "
            f"not {shown}.")


def test_stud_art6_3_a_jackpot_bet_without_an_ante_is_refused(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, ONE_BOX)])
    refused(ledger, superuser,
            PlaceBet(table=CODE, box=2, spot="jackpot", amount=money(10), actor=DEALER),
            RuleViolation, "box 2 has no ante: a jackpot bet needs an accepted ante.")


def test_stud_a_bet_above_the_table_maximum_is_refused(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, shuffle_and_open(CODE))
    refused(ledger, superuser,
            PlaceBet(table=CODE, box=2, spot="ante", amount=money("10000.01"), actor=DEALER),
            RuleViolation, "box 2 ante: MOP 10,000.01 is above the table maximum MOP 10,000.00.")


def test_stud_a_void_without_a_supervisor_is_refused(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, ONE_BOX)])
    refused(ledger, superuser, VoidRound(table=CODE, reason="dealer thinks so", actor=DEALER),
            NotAllowed, "voiding a round needs a supervisor or pit boss: dealer D-101 cannot.")


@pytest.mark.parametrize(
    ("step", "command", "sentence"),
    [
        (0, lambda: Decide(table=CODE, box=1, decision="fold", actor=DEALER),
         "box 1 decides once every hand has its five cards"),
        (10, lambda: RevealDealer(table=CODE, actor=DEALER),
         "box 1 must raise or fold before the dealer reveals."),
        (10, lambda: SettleRound(table=CODE, actor=DEALER),
         "the dealer's hand must be revealed before the round is settled."),
        (10, lambda: Decide(table=CODE, box=2, decision="fold", actor=DEALER),
         "box 2 has no hand in play"),
        (10, lambda: Decide(table=CODE, box=1, decision="check", actor=DEALER),
         "'check' is not a decision: use raise or fold."),
        (0, lambda: PlaceBet(table=CODE, box=1, spot="raise", amount=money(200), actor=DEALER),
         "'raise' is not a bet of Stud Poker"),
        (0, lambda: PlaceBet(table=CODE, box=8, spot="ante", amount=money(200), actor=DEALER),
         "there is no box 8"),
        (0, lambda: PlaceBet(table=CODE, box=1, spot="ante", amount=money(200), actor=DEALER),
         "box 1 already has its ante: one player per box."),
        (0, lambda: PlaceBet(table=CODE, box=2, spot="ante", amount=money(50), actor=DEALER),
         "box 2 ante: MOP 50.00 is below the table minimum MOP 100.00."),
        (0, lambda: PlaceBet(table=CODE, box=2, spot="ante", amount=money(-200), actor=DEALER),
         "box 2 ante: a bet is above zero, not -200.00."),
        (0, lambda: PlaceBet(table=CODE, box=1, spot="jackpot", amount=money(-10),
                             actor=DEALER),
         "box 1 jackpot: a bet is above zero, not -10.00."),
        (10, lambda: Decide(table=CODE, box=1, decision="fold", amount=money(200), actor=DEALER),
         "box 1 folds: a fold puts no amount on the table."),
    ],
)
def test_stud_an_action_out_of_turn_or_out_of_shape_is_refused(
    ledger, superuser, step, command, sentence
):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, {1: ("100", None)}),
                 *deal(CODE, ONE_HAND, QUALIFYING_DEALER)[:step]])
    refused(ledger, superuser, command(), LedgerError, sentence)


def test_stud_a_second_round_needs_a_fresh_shuffle(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, stud_round(CODE, ONE_BOX, ONE_HAND))
    refused(ledger, superuser, shuffle_and_open(CODE)[1], RuleViolation,
            "stud-poker deals each round from a freshly shuffled deck: shuffle first.")


# -- idempotency and two terminals ----------------------------------------------------------


def test_stud_the_same_command_sent_twice_records_once(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    commands = stud_round(CODE, ONE_BOX, ONE_HAND)
    first = run(ledger, commands)
    after_once = event_count(superuser)
    again = run(ledger, commands)  # every command of the round, resent with its command id
    assert not any(r.duplicate for r in first) and all(r.duplicate for r in again)
    assert event_count(superuser) == after_once
    assert len(recorded(superuser, "Round.CardDealt")) == 10
    assert len(recorded(superuser, "JackpotPool.ContributionReceived")) == 1


def test_stud_two_terminals_dealing_the_same_card_at_once_record_it_once(settings, superuser):
    with open_ledger(settings) as rt:
        table_with_pool(rt.ledger, "stud-poker/2004")
        run(rt.ledger, [*shuffle_and_open(CODE), *bets(CODE, ONE_BOX)])
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def terminal(name: str) -> None:
        with open_ledger(settings) as rt:
            command = DealCard(table=CODE, to="box:1", card="KH", actor=DEALER, terminal=name)
            barrier.wait()
            try:
                rt.ledger.execute(command)
                outcomes.append("recorded")
            except (RuleViolation, InvalidInput) as error:
                outcomes.append(f"refused: {error}")

    threads = [threading.Thread(target=terminal, args=(f"shoe-{n}",)) for n in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(o.split(":")[0] for o in outcomes) == ["recorded", "refused"]
    assert [c["card"] for c in recorded(superuser, "Round.CardDealt")] == ["KH"]
    assert len(recorded(superuser, "Shoe.CardDrawn")) == 1


def test_stud_a_terminal_that_saw_an_older_round_gets_a_clear_conflict(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, [*shuffle_and_open(CODE), *bets(CODE, ONE_BOX)])
    seen = ledger.load(Round, round_stream(1), "round").version
    ledger.execute(DealCard(table=CODE, to="box:1", card="KH", actor=DEALER))
    refused(ledger, superuser,
            DealCard(table=CODE, to="box:1", card="KH", expected_version=seen, actor=DEALER),
            ConcurrencyConflict, f"SP-01 round 1 changed since this terminal read it (version "
                                 f"{seen}, now {seen + 1}): nothing was recorded")
    refused(ledger, superuser,
            DealCard(table=CODE, to="dealer", card="AD", round=2, actor=DEALER),
            ConcurrencyConflict, "round 2 is not in play at table SP-01: round 1 is.")


def test_stud_a_closed_round_takes_no_more_actions(ledger, superuser):
    table_with_pool(ledger, "stud-poker/2004")
    run(ledger, stud_round(CODE, ONE_BOX, ONE_HAND))
    refused(ledger, superuser, SettleRound(table=CODE, actor=DEALER), WrongState,
            "table SP-01 has no round in play: open one first.")


def test_stud_rounds_keep_the_rule_set_of_their_table(ledger, superuser):
    run(ledger, [create_pool(POOL),
                 *stud_table("SP-03", "stud-poker/2003", pool=POOL),
                 *stud_table("SP-04", "stud-poker/2004", pool=POOL)])
    for code in ("SP-03", "SP-04"):
        run(ledger, stud_round(code, {1: ("100", None)}, {1: "AS KS QS JS TS"}))
    payouts = {
        code: [b["bet"]["payout"] for b in recorded(superuser, "Round.BetSettled",
                                                    round_stream(1, code))
               if b["bet"]["spot"] == "raise"]
        for code in ("SP-03", "SP-04")
    }
    assert payouts == {"SP-03": ["10000.00"], "SP-04": ["16000.00"]}
    rule_sets = {o["table"]: o["rule_set"] for o in recorded(superuser, "Round.Opened")}
    assert rule_sets == {"SP-03": "stud-poker/2003", "SP-04": "stud-poker/2004"}

