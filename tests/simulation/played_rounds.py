"""Rounds of fair play dealt and settled through the games' own rules, with no ledger and no
database: each round's bets (`Stake`) and what they gave the house, for checks of the band
over many more rounds than a simulated floor plays in a test's time.

The play is the simulator's: one to seven boxes in play, stakes in hundreds, baccarat's side
bets small, a quarter of Q Poker's boxes shared by a second player and half its players on the
bonus, Fortune 8's players on a space's L, H or 8, Stud Poker's boxes raising as `raises`
says; baccarat and Fortune 8 dealt from a shoe until its cut card, Q Poker and Stud Poker from
a fresh deck a round. The cards decide; the rules engines settle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction

from ledger.core.cards import DECK, Card
from ledger.games.baccarat.coup import play_coup
from ledger.games.baccarat.settlement import Bet as CoupBet
from ledger.games.baccarat.settlement import settle_coup
from ledger.games.common import pay
from ledger.games.fortune8.rules import ODDS as F8_ODDS
from ledger.games.fortune8.rules import winning_box
from ledger.games.odds import Stake
from ledger.games.q_poker.hands import QUEEN_HIGH
from ledger.games.q_poker.hands import evaluate as q_evaluate
from ledger.games.q_poker.odds import continues
from ledger.games.q_poker.settlement import BONUS_ODDS, DEALER_NOT_QUALIFIED_ODDS, PLAY_ODDS
from ledger.games.stud_poker.odds import ante_result

Round = tuple[list[Stake], Decimal]  # the round's bets, and what they gave the house
HUNDRED = Decimal(100)
ROYAL_ODDS = 50  # Stud Poker's standard settings


def _stake(rng: random.Random, most: int = 10) -> Decimal:
    return HUNDRED * rng.randint(1, most)


def _boxes(rng: random.Random) -> list[int]:
    return sorted(rng.sample(range(1, 8), rng.randint(1, 7)))


class Shoe:
    """A shuffled shoe of `decks` decks, dealt until fewer than `cut` cards are left."""

    def __init__(self, rng: random.Random, decks: int, cut: int) -> None:
        self.rng, self.cards, self.cut = rng, list(DECK) * decks, cut
        self.shuffle()

    def shuffle(self) -> None:
        self.rng.shuffle(self.cards)
        self.at = 1  # the burn card

    def deal(self, n: int) -> list[Card]:
        if len(self.cards) - self.at < self.cut + n:
            self.shuffle()
        dealt = self.cards[self.at:self.at + n]
        self.at += n
        return dealt


def baccarat(rng: random.Random) -> Iterator[Round]:
    shoe = Shoe(rng, 8, 14)
    while True:
        bets = []
        for box in _boxes(rng):
            spot = rng.choices(("banker", "player", "tie", "player_pair", "banker_pair"),
                               weights=(46, 40, 6, 4, 4))[0]
            side = spot not in ("banker", "player")
            bets.append(CoupBet(box, spot, _stake(rng, 3 if side else 10)))  # type: ignore[arg-type]  # reason: the spot is parsed by the bet
        upcoming = shoe.cards[shoe.at:shoe.at + 6]
        coup = play_coup(upcoming)
        shoe.deal(coup.cards_used)
        results = settle_coup(bets, coup)
        won = sum((r.stake - r.returned - r.payout + r.commission for r in results), Decimal(0))
        yield [Stake(b.box, b.spot.value, b.stake) for b in bets], won


def fortune8(rng: random.Random) -> Iterator[Round]:
    shoe = Shoe(rng, 6, 12)
    while True:
        bets = [Stake(rng.randint(1, 7), rng.choices(("L", "H", "8"), weights=(45, 45, 10))[0],
                      _stake(rng)) for _ in range(rng.randint(1, 7))]
        cards = dict(zip(range(1, 8), shoe.deal(7), strict=True))
        won = Decimal(0)
        for bet in bets:
            wins = winning_box(cards[bet.box]) == bet.spot
            won += -pay(bet.amount, F8_ODDS[bet.spot]) if wins else bet.amount  # type: ignore[index]  # reason: the spot is a box's wire name
        yield bets, won


def _q_poker_results(cards: list[Card], dealer: list[Card]) -> dict[str, Fraction]:
    value, house = q_evaluate(cards), q_evaluate(dealer)
    bonus = BONUS_ODDS.get(value.category, Fraction(-1))
    if not continues(cards):
        return {"bonus": bonus, "play": Fraction(-1, 2)}
    if house.key[:2] < QUEEN_HIGH:
        return {"bonus": bonus, "play": DEALER_NOT_QUALIFIED_ODDS}
    play = Fraction(-1) if house > value else PLAY_ODDS.get(value.category, Fraction(1))
    return {"bonus": bonus, "play": play}


def _won(stake: Decimal, result: Fraction) -> Decimal:
    return -pay(stake, result) if result > 0 else pay(stake, -result)


def q_poker(rng: random.Random) -> Iterator[Round]:
    deck = list(DECK)
    while True:
        rng.shuffle(deck)
        bets, won = [], Decimal(0)
        dealer = deck[:3]
        for n, box in enumerate(_boxes(rng)):
            results = _q_poker_results(deck[3 * n + 3:3 * n + 6], dealer)
            for _ in range(2 if rng.random() < 0.25 else 1):
                spots = ["play"] + (["bonus"] if rng.random() < 0.5 else [])
                for spot in spots:
                    stake = _stake(rng, 3 if spot == "bonus" else 10)
                    bets.append(Stake(box, spot, stake))
                    won += _won(stake, results[spot])
        yield bets, won


def stud_poker(rng: random.Random) -> Iterator[Round]:
    deck = list(DECK)
    while True:
        rng.shuffle(deck)
        bets, won = [], Decimal(0)
        dealer = deck[:5]
        for n, box in enumerate(_boxes(rng)):
            ante = _stake(rng)
            result = ante_result(deck[5 * n + 5:5 * n + 10], dealer, dealer[0], ROYAL_ODDS)
            bets.append(Stake(box, "ante", ante))
            if result != -1:  # raised: the raise, twice the ante, weighs in the ante's figures
                bets.append(Stake(box, "raise", 2 * ante))
            won -= ante * result.numerator / result.denominator  # in hundreds: payouts are whole
        yield bets, won


GAMES: dict[str, Callable[[random.Random], Iterator[Round]]] = {
    "baccarat": baccarat, "fortune-8": fortune8, "q-poker": q_poker, "stud-poker": stud_poker}
