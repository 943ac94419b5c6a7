"""The covariance of two boxes' unit results in one round of Q Poker and of Stud Poker, by
seeded sampling.

Two boxes of a round meet the same dealer hand, so their results move together; counting every
deal of two boxes and a dealer exactly is out of reach. Each sampled deal gives seven boxes and
the dealer their cards from one shuffled deck; each box plays as the game's odds say (Q Poker:
`continues`; Stud Poker: `raises`, the royal flush at 100:1); the mean of the products of two
boxes' unit results over the deal's 21 pairs of boxes, less the product of the exact means,
estimates the covariance. Deals are independent, so the standard error is that of the per-deal
means; the stored bound is four standard errors.

Run: scripts/round-odds [--deals N] [--write]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations
from math import sqrt
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ledger.core.cards import DECK, Card
from ledger.games.q_poker import odds as q_odds
from ledger.games.q_poker.hands import QUEEN_HIGH
from ledger.games.q_poker.hands import evaluate as q_evaluate
from ledger.games.q_poker.settlement import (
    BONUS_ODDS,
    DEALER_NOT_QUALIFIED_ODDS,
    PLAY_ODDS,
)
from ledger.games.stud_poker import odds as stud_odds

BOXES = 7
Results = dict[str, Fraction]


def q_poker_box(cards: Sequence[Card], dealer: Sequence[Card]) -> Results:
    value, house = q_evaluate(cards), q_evaluate(dealer)
    bonus = BONUS_ODDS.get(value.category, Fraction(-1))
    if not q_odds.continues(cards):
        play = q_odds.SURRENDER
    elif house.key[:2] < QUEEN_HIGH:
        play = DEALER_NOT_QUALIFIED_ODDS
    elif house > value:
        play = Fraction(-1)
    else:
        play = PLAY_ODDS.get(value.category, Fraction(1))
    return {"bonus": bonus, "play": play}


def stud_box(cards: Sequence[Card], dealer: Sequence[Card]) -> Results:
    return {"ante": stud_odds.ante_result(cards, dealer, dealer[0], 100)}


def estimate(size: int, box: Callable[[Sequence[Card], Sequence[Card]], Results],
             means: dict[str, Fraction], deals: int, seed: int) -> tuple[dict[tuple[str, str], float], float]:
    rng = random.Random(seed)
    spots = sorted(means)
    pairs = [(a, b) for a in spots for b in spots if a <= b]
    sums = {pair: 0.0 for pair in pairs}
    squares = {pair: 0.0 for pair in pairs}
    deck = list(DECK)
    for _ in range(deals):
        rng.shuffle(deck)
        dealer = deck[:size]
        results = [box(deck[size * (n + 1):size * (n + 2)], dealer) for n in range(BOXES)]
        for a, b in pairs:
            mean = sum(float(one[a] * other[b] + one[b] * other[a]) / 2
                       for one, other in combinations(results, 2)) / 21
            sums[a, b] += mean
            squares[a, b] += mean * mean
    found, error = {}, 0.0
    for pair in pairs:
        average = sums[pair] / deals
        spread = sqrt(max(squares[pair] / deals - average * average, 0.0) / deals)
        found[pair] = average - float(means[pair[0]] * means[pair[1]])
        error = max(error, 4 * spread)
    return found, error


def module(found: dict[tuple[str, str], float], error: float, deals: int, seed: int,
           header: str) -> str:
    entries = "".join(f'    ("{a}", "{b}"): Fraction("{value:.6f}"),\n'
                      for (a, b), value in sorted(found.items()))
    method = (f"estimated: the sample covariance over {deals:,} seeded deals (seed {seed}) of "
              f"seven boxes each, within +/-{error:.4f} (four standard errors)")
    return (f"{header}\nfrom fractions import Fraction\n\n"
            f"ACROSS: dict[tuple[str, str], Fraction] = {{\n{entries}}}\n"
            f'ERROR = Fraction("{error:.4f}")\nMETHOD = "{method}"\n')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    games = {
        "q_poker": (3, q_poker_box, {"bonus": -q_odds._round_odds().edge["bonus"],
                                     "play": -q_odds._round_odds().edge["play"]}),
        "stud_poker": (5, stud_box, {"ante": -stud_odds.ante_figures(100)[0]}),
    }
    for name, (size, box, means) in games.items():
        found, error = estimate(size, box, means, args.deals, args.seed)
        print(name, {pair: round(value, 5) for pair, value in found.items()}, f"+/-{error:.5f}")
        if args.write:
            path = ROOT / "ledger" / "games" / name / "round_data.py"
            header = path.read_text().split('"""\n', 1)[0] + '"""\n'
            path.write_text(module(found, error, args.deals, args.seed, header))


if __name__ == "__main__":
    main()
