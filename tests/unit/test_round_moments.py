"""A round's bets taken together: `round_moments` against brute force.

Each game's figures are checked against a count made apart from them: Fortune 8's two spaces
over every ordered pair of cards of a deck; baccarat's joint chances of the winner and the pairs
against its own exact winner chances and the pairs counted by combinatorics; Q Poker's box
against every dealer hand for a few box hands; and every game's moments of a round against
the round's result enumerated outcome by outcome."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction
from itertools import combinations, permutations

import pytest

from ledger.core.cards import DECK
from ledger.games.baccarat import odds as baccarat
from ledger.games.baccarat.coup import Winner
from ledger.games.fortune8 import odds as fortune8
from ledger.games.fortune8.rules import ODDS as F8_ODDS
from ledger.games.fortune8.rules import winning_box
from ledger.games.odds import Moments, RoundOdds, Stake
from ledger.games.q_poker import odds as q_poker
from ledger.games.registry import game, standard_settings
from ledger.games.stud_poker import odds as stud
from tests.simulation.played_rounds import _q_poker_results


def _moments(outcomes: dict, won) -> tuple[Fraction, Fraction]:
    """The mean and variance of the house's win `won(outcome)` over a distribution."""
    mean = sum((p * won(o) for o, p in outcomes.items()), Fraction(0))
    square = sum((p * won(o) ** 2 for o, p in outcomes.items()), Fraction(0))
    return mean, square - mean * mean


def _close(moments: Moments, mean: Fraction, variance: Fraction) -> None:
    assert abs(Fraction(moments.mean) - mean) < Fraction(1, 10_000)
    assert abs(Fraction(moments.variance) - variance) < Fraction(1, 1_000)


def test_fortune8_two_spaces_are_two_cards_of_the_shoe_drawn_without_replacement():
    settings = standard_settings("fortune-8").model_copy(update={"decks": 1})
    bets = [Stake(1, "L", Decimal(300)), Stake(1, "8", Decimal(100)), Stake(2, "L", Decimal(200)),
            Stake(2, "H", Decimal(500)), Stake(1, "L", Decimal(100))]
    pairs = list(permutations(DECK, 2))  # every ordered pair of cards for spaces 1 and 2

    def won(cards) -> Fraction:
        return sum((-F8_ODDS[b.spot] * Fraction(b.amount) if winning_box(cards[b.box - 1]) == b.spot
                    else Fraction(b.amount) for b in bets), Fraction(0))
    outcomes = {cards: Fraction(1, len(pairs)) for cards in pairs}
    _close(fortune8.round_moments(settings, bets), *_moments(outcomes, won))


def test_baccarat_joint_chances_add_up_to_the_winner_and_pair_chances():
    for decks in (1, 8):
        joint = baccarat.coup_outcomes(decks)
        for winner, chance in baccarat.coup_chances(decks).items():
            assert sum(p for (w, _, _), p in joint.items() if w is winner) == chance
        pair = baccarat.pair_chance(decks)
        assert sum(p for (_, pp, _), p in joint.items() if pp) == pair
        assert sum(p for (_, _, bp), p in joint.items() if bp) == pair
        # both pairs: cards 1 and 3 share a rank, and cards 2 and 4, counted by combinatorics
        n, each = 52 * decks, 4 * decks
        same = 13 * each * (each - 1) * (each - 2) * (each - 3)
        other = 13 * 12 * (each * (each - 1)) ** 2
        both = Fraction(same + other, n * (n - 1) * (n - 2) * (n - 3))
        assert sum(p for (_, pp, bp), p in joint.items() if pp and bp) == both


def test_baccarat_coup_moments_are_the_coup_enumerated_outcome_by_outcome():
    settings = standard_settings("baccarat")
    bets = [Stake(1, "banker", Decimal(1000)), Stake(2, "player", Decimal(500)),
            Stake(3, "tie", Decimal(100)), Stake(3, "player_pair", Decimal(200)),
            Stake(4, "banker", Decimal(300))]

    def won(outcome) -> Fraction:
        winner, player_pair, banker_pair = outcome
        paid = {"banker": Fraction(19, 20) if winner is Winner.BANKER else -1,
                "player": 1 if winner is Winner.PLAYER else -1,
                "tie": 8 if winner is Winner.TIE else -1,
                "player_pair": 11 if player_pair else -1, "banker_pair": 11 if banker_pair else -1}
        if winner is Winner.TIE:
            paid["banker"] = paid["player"] = 0
        return -sum((Fraction(b.amount) * paid[b.spot] for b in bets), Fraction(0))
    _close(baccarat.round_moments(settings, bets), *_moments(baccarat.coup_outcomes(8), won))


def test_two_banker_bets_on_one_coup_spread_as_one_bet_of_both_stakes():
    settings = standard_settings("baccarat")
    apart = baccarat.round_moments(settings, [Stake(1, "banker", Decimal(100)),
                                              Stake(5, "banker", Decimal(100))])
    one = baccarat.round_moments(settings, [Stake(1, "banker", Decimal(200))])
    assert apart == one


@pytest.mark.parametrize("seed", range(6))
def test_q_poker_box_outcomes_match_its_hand_against_every_dealer_hand(seed):
    """Brute force for one box hand: every dealer hand of the 49 cards left, settled."""
    cards = random.Random(seed).sample(DECK, 3)
    rest = [card for card in DECK if card not in cards]
    tally: dict[tuple[Fraction, Fraction], int] = {}
    for dealer in combinations(rest, 3):
        results = _q_poker_results(cards, list(dealer))
        key = (results["bonus"], results["play"])
        tally[key] = tally.get(key, 0) + 1
    table = q_poker._Table(lambda value: value.key)
    hand = tuple(sorted(card.index for card in cards))
    value = q_poker.evaluate(cards)
    bonus = q_poker.BONUS_ODDS.get(value.category, Fraction(-1))
    if hand in q_poker.play_table().continued:
        expected = {(bonus, play): n for play, n in
                    q_poker._continue_results(value, table.against(hand)).items() if n}
    else:
        expected = {(bonus, q_poker.SURRENDER): q_poker.DEALER_HANDS}
    assert tally == expected


def test_q_poker_box_moments_are_its_bonus_and_play_enumerated_together():
    settings = standard_settings("q-poker")
    bets = [Stake(2, "play", Decimal(300)), Stake(2, "bonus", Decimal(100)),
            Stake(2, "play", Decimal(200))]  # two players share box 2

    def won(outcome) -> Fraction:
        bonus, play = outcome
        return -(500 * play + 100 * bonus)
    _close(q_poker.round_moments(settings, bets), *_moments(q_poker.box_outcomes(), won))
    marginal = {spot.spot: spot for spot in q_poker.bet_odds(settings)}
    assert Fraction(q_poker.round_odds(settings).within["play", "play"]) == Fraction(
        sum(p * o[1] ** 2 for o, p in q_poker.box_outcomes().items())) - Fraction(
        sum(p * o[1] for o, p in q_poker.box_outcomes().items())) ** 2
    assert abs(q_poker.round_odds(settings).within["play", "play"]
               - Fraction(marginal["play"].variance)) < Fraction(1, 10**6)


def test_a_stud_ante_carries_its_raise_and_the_jackpot_is_left_out():
    settings = standard_settings("stud-poker")
    edge, variance = stud.ante_figures(settings.royal_odds)  # type: ignore[attr-defined]
    ante = stud.round_moments(settings, [Stake(1, "ante", Decimal(100))])
    _close(ante, 100 * edge, 10_000 * variance)
    raised = stud.round_moments(settings, [Stake(1, "ante", Decimal(100)),
                                           Stake(1, "raise", Decimal(200)),
                                           Stake(1, "jackpot", Decimal(10))])
    assert raised == ante
    two = stud.round_moments(settings, [Stake(1, "ante", Decimal(100)),
                                        Stake(2, "ante", Decimal(100))])
    across = stud.round_odds(settings).across["ante", "ante"]
    _close(two, 200 * edge, 20_000 * variance + 20_000 * across)


def test_many_rounds_summed_by_pairs_of_spots_equal_their_moments_added():
    """What the shift report keeps (`report_pairs`) gives the variance of its rounds."""
    settings = standard_settings("q-poker")
    odds: RoundOdds = game("q-poker").round_odds(settings)
    rounds = [[Stake(1, "play", Decimal(100)), Stake(1, "bonus", Decimal(100)),
               Stake(3, "play", Decimal(500))],
              [Stake(2, "play", Decimal(200)), Stake(2, "play", Decimal(300))]]
    within: dict[tuple[str, str], Decimal] = {}
    whole: dict[tuple[str, str], Decimal] = {}
    for bets in rounds:
        for one in bets:
            for other in bets:
                pair = (one.spot, other.spot)
                product = one.amount * other.amount
                whole[pair] = whole.get(pair, Decimal(0)) + product
                if one.box == other.box:
                    within[pair] = within.get(pair, Decimal(0)) + product
    added = sum((odds.moments(bets).variance for bets in rounds), Decimal(0))
    assert abs(odds.variance_of_sums(within, whole) - added) <= Decimal("0.0002")
