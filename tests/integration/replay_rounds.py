"""Whole rounds of every game recorded through `Ledger.execute`, for the replay and verify tests.

Each function plays one round the way a dealer terminal sends it and returns the round's stream
id. Shoes that know their order in advance (an electronic shoe) are shuffled with a commitment
and closed with the order and the secret revealed, so a replay has a proof to check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.utils import get_topic

from ledger.application.ledger import Ledger
from ledger.commands import Command
from ledger.commands.jackpot import CreatePool, LinkTable
from ledger.commands.round import (
    AdjustRound,
    AnnounceDealMode,
    DealCard,
    Decide,
    OpenRound,
    PlaceBet,
    RevealDealer,
    SettleRound,
    VoidRound,
)
from ledger.commands.shoe import BurnCards, CloseShoe, CutShoe, ShuffleShoe
from ledger.commands.table import OpenTable, SignInDealer
from ledger.core import clock as ledger_clock
from ledger.core.cards import DECK, Card, parse_cards
from ledger.domain.base import Actor, Provenance, Role
from ledger.domain.round import Round, SettledBet, round_id
from ledger.domain.shoe import commitment_of
from ledger.domain.table import table_id
from ledger.games.registry import procedure_for
from tests.integration.helpers import open_shift

DEALER = Actor(staff_id="D-101", role=Role.DEALER)
SUPERVISOR = Actor(staff_id="SV-7", role=Role.SUPERVISOR)
PIT_BOSS = Actor(staff_id="PB-7", role=Role.PIT_BOSS)
SECRET = "replay-test-secret"

POOL = "REPLAY-POOL"
POOL_SETTINGS = {
    "seed": "100000.00", "royal_flush": "200000.00", "straight_flush": "20000.00",
    "four_of_a_kind": "5000.00", "full_house": "1500.00", "flush": "1000.00",
    "contribution_rate": "0.5",
}


@dataclass
class Dealer:
    """The terminal of one table: fills in the table, the actor and the terminal name."""

    ledger: Ledger
    table: str

    def send(self, command: type[Command], /, actor: Actor = DEALER, **fields: Any) -> None:
        self.ledger.execute(command(table=self.table, actor=actor,
                                    terminal=f"{self.table}-dealer", **fields))

    def bet(self, box: int, spot: str, amount: str, player: str | None = None) -> None:
        self.send(PlaceBet, box=box, spot=spot, amount=Decimal(amount), player=player)

    def deal(self, cards: Sequence[tuple[str, str]]) -> None:
        for to, card in cards:
            self.send(DealCard, to=to, card=card)

    def round_id(self, number: int) -> UUID:
        return round_id(table_id(self.table), number)


def open_table(ledger: Ledger, code: str, game: str, **options: Any) -> Dealer:
    settings = options.pop("settings", {})
    ledger.execute(OpenTable(table=code, game=game, min_bet=Decimal("100.00"),
                             max_bet=Decimal("50000.00"), settings=settings, actor=PIT_BOSS,
                             terminal="pit-1", **options))
    ledger.execute(open_shift(code))
    ledger.execute(SignInDealer(table=code, dealer_id=DEALER.staff_id, actor=PIT_BOSS,
                                terminal="pit-1"))
    return Dealer(ledger, code)


def shoe_order(decks: int, first: Sequence[str], skip: int = 0) -> list[Card]:
    """A whole shoe whose cards from position `skip` on are `first`, in that order."""
    rest = [card for _ in range(decks) for card in DECK]
    wanted = list(parse_cards(list(first)))
    for card in wanted:
        rest.remove(card)
    return rest[:skip] + wanted + rest[skip:]


def shuffle_committed(dealer: Dealer, order: list[Card]) -> None:
    dealer.send(ShuffleShoe, commitment=commitment_of(order, SECRET))


def close_revealed(dealer: Dealer, order: list[Card]) -> None:
    dealer.send(CloseShoe, revealed_order=[str(card) for card in order], secret=SECRET)


# -- baccarat ---------------------------------------------------------------------------------

def baccarat_round(ledger: Ledger, code: str = "BAC-01") -> UUID:
    """An 8-deck shoe shuffled with a commitment, cut, 8 burned; a coup with five bets; the
    shoe closed with its order revealed."""
    dealer = open_table(ledger, code, "baccarat", settings={"decks": 8})
    # player 4 draws a 5 to 9; banker 6 stands on a player third card of 5; a banker pair
    coup = [("player", "4H"), ("banker", "3C"), ("player", "KD"), ("banker", "3S"),
            ("player", "5D")]
    order = shoe_order(8, [card for _, card in coup], skip=8)
    shuffle_committed(dealer, order)
    dealer.send(CutShoe, cut_by="player at box 3", cut_card_position=404)
    dealer.send(BurnCards, count=8)
    dealer.send(OpenRound)
    dealer.bet(1, "player", "1000.00")
    dealer.bet(2, "banker", "2000.00")
    dealer.bet(3, "tie", "100.00")
    dealer.bet(4, "banker_pair", "100.00")
    dealer.bet(5, "player", "500.00", player="P-55")
    dealer.deal(coup)
    dealer.send(SettleRound)
    close_revealed(dealer, order)
    return dealer.round_id(1)


# -- Fortune 8 --------------------------------------------------------------------------------


def fortune8_round(ledger: Ledger, code: str = "F8-01") -> UUID:
    """Six decks cut before the last twelve cards; bets on three spaces; spaces with bets."""
    dealer = open_table(ledger, code, "fortune-8", settings={"decks": 6})
    dealer.send(ShuffleShoe)
    dealer.send(CutShoe, cut_by="dealer", cut_card_position=52 * 6 - 12)
    dealer.send(OpenRound)
    dealer.bet(1, "8", "100.00", player="P-1")
    dealer.bet(1, "L", "200.00", player="P-2")
    dealer.bet(4, "H", "300.00")
    dealer.bet(6, "L", "150.00")
    dealer.send(AnnounceDealMode, mode="spaces_with_bets")
    dealer.deal([("burn", "2C"), ("space:1", "8S"), ("space:4", "KH"), ("space:6", "9D")])
    dealer.send(SettleRound)
    return dealer.round_id(1)


# -- Q Poker ----------------------------------------------------------------------------------


def q_poker_surrender_round(ledger: Ledger, code: str = "QP-01", close: bool = True) -> UUID:
    """Two players on box 1 (one plays, one surrenders), box 3 alone; a shoe deal; the deck
    closed afterwards with its order revealed (unless `close` is False)."""
    dealer = open_table(ledger, code, "q-poker")
    hands = {"box:1": "AS KS QS", "box:3": "9D 9C 4C", "dealer": "QH 5D 2C"}
    order = shoe_order(1, three_card_deal(hands))
    shuffle_committed(dealer, order)
    dealer.send(OpenRound)
    dealer.bet(1, "bonus", "100.00", player="P-1")
    dealer.bet(1, "play", "200.00", player="P-1")
    dealer.bet(1, "play", "300.00", player="P-2")
    dealer.bet(3, "play", "500.00", player="P-3")
    dealer.deal(list(zip(three_card_targets(hands), three_card_deal(hands), strict=True)))
    dealer.send(Decide, box=1, decision="play", player="P-1")
    dealer.send(Decide, box=1, decision="surrender", player="P-2")
    dealer.send(Decide, box=3, decision="play", player="P-3")
    dealer.send(RevealDealer)
    dealer.send(SettleRound)
    if close:
        close_revealed(dealer, order)
    return dealer.round_id(1)


def _round_robin(hands: dict[str, str], size: int) -> list[tuple[str, str]]:
    seats = sorted((to for to in hands if to != "dealer"), key=lambda to: int(to[4:]))
    cards = {to: hand.split() for to, hand in hands.items()}
    return [(to, cards[to][n]) for n in range(size) for to in (*seats, "dealer")]


def three_card_targets(hands: dict[str, str]) -> list[str]:
    return [to for to, _ in _round_robin(hands, 3)]


def three_card_deal(hands: dict[str, str]) -> list[str]:
    return [card for _, card in _round_robin(hands, 3)]


# -- Stud Poker -------------------------------------------------------------------------------


def stud_table(ledger: Ledger, code: str = "SP-01", rule_set: str = "stud-poker/2004") -> Dealer:
    """A Stud Poker table linked to the pool (created first when it does not exist)."""
    if not ledger.exists(_pool_stream()):
        ledger.execute(CreatePool(pool=POOL, settings=POOL_SETTINGS, actor=SUPERVISOR,
                                  terminal="pit-1"))
    dealer = open_table(ledger, code, "stud-poker", rule_set=rule_set,
                        settings={"royal_odds": 80, "max_payout": "100000.00"},
                        authorisation="DICJ-AUTH-2004-013")
    ledger.execute(LinkTable(pool=POOL, table=code, actor=SUPERVISOR, terminal="pit-1"))
    return dealer


def _pool_stream() -> UUID:
    from ledger.domain.jackpot_pool import pool_id

    return pool_id(POOL)


def stud_deal(hands: dict[int, str], dealer_hand: str) -> list[tuple[str, str]]:
    """Art. 7, 1): one card at a time, box 1 first, the dealer last, five times."""
    return _round_robin({**{f"box:{box}": hand for box, hand in hands.items()},
                         "dealer": dealer_hand}, 5)


def stud_round(dealer: Dealer, bets: dict[int, tuple[str, str | None]], hands: dict[int, str],
               dealer_hand: str = "AC KD 8S 3D 2S", decisions: dict[int, str] | None = None,
               committed: bool = True) -> None:
    """A shuffle (with a commitment), bets, the deal, decisions, reveal, settlement, close."""
    deal = stud_deal(hands, dealer_hand)
    order = shoe_order(1, [card for _, card in deal])
    if committed:
        shuffle_committed(dealer, order)
    else:
        dealer.send(ShuffleShoe)
    dealer.send(OpenRound)
    for box, (ante, jackpot) in sorted(bets.items()):
        dealer.bet(box, "ante", ante)
        if jackpot is not None:
            dealer.bet(box, "jackpot", jackpot)
    dealer.deal(deal)
    for box, (ante, _) in sorted(bets.items()):
        decision = (decisions or {}).get(box, "raise")
        amount = Decimal(ante) * 2 if decision == "raise" else None
        dealer.send(Decide, box=box, decision=decision, amount=amount)
    dealer.send(RevealDealer)
    dealer.send(SettleRound)
    if committed:
        close_revealed(dealer, order)


def stud_jackpot_round(ledger: Ledger, code: str = "SP-01") -> UUID:
    """Two boxes win the jackpot (a straight flush, then four of a kind), one loses, one folds."""
    dealer = stud_table(ledger, code)
    hands = {1: "9H 8H 7H 6H 5H", 2: "QC QD QH QS 3C", 4: "2H 3H 7S 9D JH", 5: "4C 6D TS JC 2C"}
    stud_round(dealer, {1: ("100", "10"), 2: ("200", "10"), 4: ("100", "10"), 5: ("100", None)},
               hands, decisions={5: "fold"})
    return dealer.round_id(1)


def stud_void_then_carried(ledger: Ledger, code: str = "SP-02") -> tuple[UUID, UUID]:
    """Round 1 voided by a supervisor after the deal began: antes back, jackpot bets carried
    (art. 11); round 2 plays them on the same boxes."""
    dealer = stud_table(ledger, code)
    dealer.send(ShuffleShoe)
    dealer.send(OpenRound)
    dealer.bet(1, "ante", "100.00")
    dealer.bet(1, "jackpot", "10.00")
    dealer.bet(3, "ante", "300.00")
    dealer.bet(3, "jackpot", "20.00")
    dealer.deal([("box:1", "AS"), ("box:3", "KD")])
    dealer.send(VoidRound, actor=SUPERVISOR, reason="the shoe jammed: cards out of order")
    stud_round(dealer, {1: ("100", None), 3: ("300", None)},
               {1: "KH KS 9D 9C 3H", 3: "QH JH 8C 6D 5S"}, committed=False)
    return dealer.round_id(1), dealer.round_id(2)


def adjust(ledger: Ledger, code: str, number: int, box: int, spot: str, amount: str,
           reason: str) -> None:
    ledger.execute(AdjustRound(table=code, round=number, box=box, spot=spot,
                               amount=Decimal(amount), reason=reason,
                               dispute=f"DSP-{code}-{number}-{box}", actor=SUPERVISOR,
                               terminal="pit-1"))


# -- behind the application's back ------------------------------------------------------------


def insert_events(conn: Any, events: Sequence[Any]) -> None:
    """Rows straight into `ledger_events`, as psql would write them: the chain trigger hashes
    them like any insert, but no handler ever checked what they say."""
    for event in events:
        conn.execute(
            "INSERT INTO ledger_events (originator_id, originator_version, topic, state) "
            "VALUES (%s, %s, %s, %s)",
            (event.originator_id, event.originator_version, get_topic(type(event)),
             event.model_dump_json().encode()),
        )


def forge_provenance() -> Provenance:
    """The `by` of an event typed in psql: nobody's command, a supervisor's name."""
    return Provenance(command_id=uuid4(), actor=SUPERVISOR, terminal="psql",
                      at=ledger_clock.now())


def forge_settlement(ledger: Ledger, conn: Any, code: str, number: int,
                     wrong: dict[tuple[int, str], dict[str, str]]) -> UUID:
    """Settle a fully dealt round by writing its BetSettled and Settled events with SQL, with
    the figures of some bets replaced (`{(box, spot): {"payout": "1500.00"}}`). The house win
    is summed from the forged bets, so the round still adds up on its own."""
    rid = round_id(table_id(code), number)
    round_ = ledger.app.repository.get(rid)
    facts = round_.facts()
    procedure: Any = procedure_for(round_.game)
    by = Provenance(command_id=uuid4(), actor=DEALER, terminal="psql", at=ledger_clock.now())
    bets = []
    for result in procedure.settle(facts):
        bet = SettledBet.of(result)
        changes = wrong.get((bet.box, bet.spot), {})
        bets.append(bet.model_copy(update={k: Decimal(v) for k, v in changes.items()}))
    version, now = round_.version, ledger_clock.now()
    events: list[Any] = []
    for bet in bets:
        version += 1
        events.append(Round.BetSettled(originator_id=rid, originator_version=version,
                                       timestamp=now, bet=bet, by=by))
    outcome = procedure.outcome(facts) if hasattr(procedure, "outcome") else {}
    events.append(Round.Settled(originator_id=rid, originator_version=version + 1, timestamp=now,
                                outcome=outcome, by=by,
                                house_win=sum((b.house_win for b in bets), Decimal("0.00"))))
    insert_events(conn, events)
    return rid


def baccarat_dealt(ledger: Ledger, code: str = "BAC-09") -> Dealer:
    """A baccarat coup bet and dealt (player 9 against banker 6), not yet settled."""
    dealer = open_table(ledger, code, "baccarat", settings={"decks": 8})
    dealer.send(ShuffleShoe)
    dealer.send(CutShoe, cut_by="dealer", cut_card_position=404)
    dealer.send(BurnCards, count=8)
    dealer.send(OpenRound)
    dealer.bet(1, "player", "1000.00")
    dealer.bet(2, "banker", "2000.00")
    dealer.deal([("player", "4H"), ("banker", "3C"), ("player", "KD"), ("banker", "3S"),
                 ("player", "5D")])
    return dealer
