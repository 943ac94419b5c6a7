"""Each bet's exact edge and variance per unit staked, against published figures, against each
other under changed settings, and against rounds played through the real settlement."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterable
from datetime import date
from decimal import Decimal
from fractions import Fraction
from itertools import combinations

import pytest

from ledger.core.cards import DECK, Card
from ledger.games.baccarat import odds as baccarat_odds
from ledger.games.baccarat.game import GAME as BACCARAT
from ledger.games.baccarat.rules import BaccaratSettings, Bet, Spot, play_coup, settle_coup
from ledger.games.common import BetResult
from ledger.games.fortune8 import odds as fortune8_odds
from ledger.games.fortune8.game import GAME as FORTUNE8
from ledger.games.fortune8.rules import Bet as Fortune8Bet
from ledger.games.fortune8.rules import Box, DealMode, Fortune8Round, Fortune8Settings, settle
from ledger.games.odds import BetOdds, exact
from ledger.games.q_poker import odds as q_poker_odds
from ledger.games.q_poker.game import GAME as Q_POKER
from ledger.games.q_poker.rules import QUEEN_HIGH, Decision, QPokerRound, QPokerSettings
from ledger.games.q_poker.rules import Bet as QPokerBet
from ledger.games.q_poker.rules import Spot as QPokerSpot
from ledger.games.q_poker.rules import settle as settle_q_poker

STAKE = Decimal(100)  # every payout and commission on it is a whole number of avos
LIMITS = {
    "effective_from": date(2025, 1, 1), "authorisation": "DICJ 1/2025",
    "min_bet": Decimal(100), "max_bet": Decimal(10000),
}


def by_spot(figures: Iterable[BetOdds]) -> dict[str, BetOdds]:
    return {odds.spot: odds for odds in figures}


def baccarat(decks: int) -> dict[str, BetOdds]:
    return by_spot(BACCARAT.bet_odds(BaccaratSettings(decks=decks, **LIMITS)))


def percent(value: Decimal, places: int) -> Decimal:
    return (value * 100).quantize(Decimal(1).scaleb(-places))


def per_unit(result: BetResult) -> float:
    return float(-result.house_win / result.stake)


def assert_within_four_standard_errors(results: list[float], edge: Decimal) -> None:
    mean = statistics.fmean(results)
    error = statistics.stdev(results) / len(results) ** 0.5
    assert abs(mean + float(edge)) < 4 * error, f"mean {mean:.5f}, edge {edge}, se {error:.5f}"


# --- Baccarat --------------------------------------------------------------------------------


def test_baccarat_art11_eight_deck_coup_chances_are_the_reference_figures() -> None:
    chances = baccarat_odds.coup_chances(8)

    assert {str(winner): round(chance, 6) for winner, chance in chances.items()} == {
        "player": Fraction("0.446247"), "banker": Fraction("0.458597"), "tie": Fraction("0.095156"),
    }


def test_baccarat_art17_18_eight_deck_edges_are_the_published_figures() -> None:
    figures = baccarat(8)

    assert percent(figures["banker"].edge, 4) == Decimal("1.0579")  # 5% commission
    assert percent(figures["player"].edge, 4) == Decimal("1.2351")
    assert percent(figures["tie"].edge, 4) == Decimal("14.3596")  # 8:1
    assert [figures[spot].deviation.quantize(Decimal("0.01")) for spot in
            ("banker", "player", "tie")] == [Decimal("0.93"), Decimal("0.95"), Decimal("2.64")]


def test_baccarat_art12_a_tie_pushes_player_and_banker_as_a_result_of_zero() -> None:
    chances = baccarat_odds.coup_chances(8)
    banker = Fraction(95, 100) * chances["banker"] - chances["player"]
    square = Fraction(95, 100) ** 2 * chances["banker"] + chances["player"]

    assert baccarat(8)["banker"].edge == exact(-banker)
    assert baccarat(8)["banker"].variance == exact(square - banker**2)
    assert "result 0" in baccarat(8)["banker"].method


def test_baccarat_art13_pairs_pay_11_to_1_on_two_cards_of_one_rank() -> None:
    # 8 decks: the second card matches the first's rank in 31 of the 415 cards left.
    figures = baccarat(8)

    assert figures["player_pair"].edge == exact(1 - 12 * Fraction(31, 415))
    pair, banker_pair = figures["player_pair"], figures["banker_pair"]
    assert (banker_pair.edge, banker_pair.variance) == (pair.edge, pair.variance)
    assert percent(figures["player_pair"].edge, 2) == Decimal("10.36")


def test_baccarat_art1_the_deck_count_changes_the_banker_and_tie_edges() -> None:
    six, eight = baccarat(6), baccarat(8)

    assert percent(six["banker"].edge, 4) == Decimal("1.0558")
    assert percent(six["tie"].edge, 4) == Decimal("14.4382")
    assert six["banker"].edge != eight["banker"].edge
    assert six["tie"].edge != eight["tie"].edge
    assert six["player_pair"].edge > eight["player_pair"].edge


def test_baccarat_rounds_through_settle_coup_average_to_the_computed_edges() -> None:
    rng, shoe = random.Random(20260401), list(DECK) * 8
    bets = [Bet(box=1, spot=spot, stake=STAKE) for spot in Spot]
    results: dict[str, list[float]] = {spot.value: [] for spot in Spot}
    for _ in range(50_000):
        for result in settle_coup(bets, play_coup(rng.sample(shoe, 6))):
            results[result.spot].append(per_unit(result))

    for spot, odds in baccarat(8).items():
        assert_within_four_standard_errors(results[spot], odds.edge)


# --- Fortune 8 -------------------------------------------------------------------------------


def fortune8(decks: int) -> dict[str, BetOdds]:
    return by_spot(FORTUNE8.bet_odds(Fortune8Settings(decks=decks, **LIMITS)))


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_fortune8_art8_every_box_keeps_one_thirteenth_whatever_the_decks(decks: int) -> None:
    figures = fortune8(decks)

    assert {spot: odds.edge for spot, odds in figures.items()} == dict.fromkeys(
        ("L", "8", "H"), exact(Fraction(1, 13))
    )
    assert figures["L"].variance == figures["H"].variance == exact(Fraction(168, 169))
    assert figures["8"].variance == exact(Fraction(1728, 169))  # 11:1 on 4 cards of 52


def test_fortune8_art6_the_boxes_win_on_24_4_and_24_cards_of_52() -> None:
    assert fortune8_odds.box_chances() == {
        Box.LOW: Fraction(24, 52), Box.EIGHT: Fraction(4, 52), Box.HIGH: Fraction(24, 52),
    }


def test_fortune8_rounds_through_settle_average_to_the_computed_edges() -> None:
    rng, shoe = random.Random(20260402), list(DECK) * 6
    bets = [Fortune8Bet(space=space, box=box, stake=STAKE) for space in range(1, 8) for box in Box]
    rounds: dict[str, list[float]] = {box.value: [] for box in Box}
    for _ in range(8_000):
        round_ = Fortune8Round.open(Fortune8Settings(decks=6, **LIMITS))
        for bet in bets:
            round_ = round_.place_bet(bet)
        burn, *cards = rng.sample(shoe, 8)
        round_ = round_.announce(DealMode.ALL_SPACES).burn(burn)
        for space, card in enumerate(cards, start=1):
            round_ = round_.deal(space, card)
        results = settle(round_)
        for box in Box:  # one round's seven spaces share a shoe: their mean is the sample
            rounds[box.value].append(
                statistics.fmean(per_unit(r) for r in results if r.spot == box.value)
            )

    for spot, odds in fortune8(6).items():
        assert_within_four_standard_errors(rounds[spot], odds.edge)


# --- Q Poker ---------------------------------------------------------------------------------


def q_poker() -> dict[str, BetOdds]:
    return by_spot(Q_POKER.bet_odds(QPokerSettings(**LIMITS)))


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes.split())


def test_three_card_poker_ante_play_edge_is_the_published_3_37_percent() -> None:
    # The machinery checked on the published game: ranks only, ties push, best play or fold.
    assert round(q_poker_odds.ante_play_edge(), 4) == Fraction("0.0337")


def test_qpoker_art10_bonus_40_30_6_4_1_keeps_the_published_2_32_percent() -> None:
    # 128/5525 = 2.3167%: three card poker's pair plus on the same pay table.
    assert q_poker_odds.bonus_edge() == Fraction(512, 22_100)
    assert percent(q_poker()["bonus"].edge, 2) == Decimal("2.32")
    assert q_poker()["bonus"].edge == exact(Fraction(512, 22_100))


def test_qpoker_art9_the_best_play_continues_from_queen_six_four() -> None:
    figures = q_poker()

    assert q_poker_odds.continues(cards("QH 6D 4C"))
    assert not q_poker_odds.continues(cards("QH 6D 3C"))
    assert not q_poker_odds.continues(cards("JS TH 8D"))
    assert q_poker_odds.continues(cards("2C 2D 3H"))
    assert "continue with high card Q-6-4 or better" in figures["play"].method
    assert percent(figures["play"].edge, 4) == Decimal("2.7591")
    assert q_poker_odds.play_table().ties == 0


@pytest.mark.parametrize(
    "key", [lambda value: value.key, q_poker_odds._rank_key], ids=["art8_order", "ranks_only"]
)
def test_qpoker_art9_dealer_counts_match_every_dealer_hand_played_out(key) -> None:
    table = q_poker_odds._Table(key)
    values = dict(zip(*q_poker_odds._hands(), strict=True))
    for codes in ("QS 6C 3D", "2D 3C 5H", "AS KS QS", "9C 9D 4H", "KH 7H 2H", "QD JC 9S"):
        box = tuple(sorted(card.index for card in cards(codes)))
        left = [i for i in range(52) if i not in box]
        dealer = [values[hand] for hand in combinations(left, 3)]
        qualifying = [key(value) for value in dealer if value.key[:2] >= QUEEN_HIGH]
        played_out = (
            len(dealer) - len(qualifying),
            sum(k == key(values[box]) for k in qualifying),
            sum(k > key(values[box]) for k in qualifying),
        )

        counted = table.against(box)

        assert (counted.not_qualifying, counted.level, counted.above) == played_out, codes
        assert counted.not_qualifying + counted.below + counted.level + counted.above == 18_424


def play_q_poker_round(
    rng: random.Random, decide: Callable[[tuple[Card, ...]], bool]
) -> dict[str, float]:
    dealt = rng.sample(DECK, 6)
    bets = [QPokerBet(box=1, spot=spot, stake=STAKE) for spot in QPokerSpot]
    round_ = QPokerRound.after_deal(bets, {1: dealt[:3]}, dealt[3:])
    choice = Decision.PLAY if decide(round_.hand(1)) else Decision.SURRENDER
    round_ = round_.decide(1, None, choice).show_dealer()
    return {result.spot: per_unit(result) for result in settle_q_poker(round_)}


def test_qpoker_rounds_through_settle_average_to_the_computed_edges() -> None:
    rng = random.Random(20260403)
    rounds = [play_q_poker_round(rng, q_poker_odds.continues) for _ in range(20_000)]

    for spot, odds in q_poker().items():
        assert_within_four_standard_errors([r[spot] for r in rounds], odds.edge)
