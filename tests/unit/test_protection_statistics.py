"""Game protection's statistics against small cases worked by hand."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime
from decimal import Decimal
from itertools import permutations

import pytest

from ledger.audit.protection.chance import (
    binomial_upper,
    holm,
    normal_upper,
    permutation_test,
    poisson_upper,
    ranks,
    rate_test,
    stratified_test,
)
from ledger.audit.protection.coups import Coup, Wager, coup_of, decided_by_cards, round_moments
from ledger.audit.protection.signals import (
    every_test,
    findings,
    informed,
    irregularities,
    jackpots,
    results,
)
from ledger.commands.round import DealCard, ExposeCard, OpenRound, PlaceBet, SettleRound
from ledger.core.cards import Card
from ledger.domain.round import Round
from ledger.games.facts import BetFact, CardFact, RoundFacts
from ledger.games.registry import game, standard_settings
from tests.unit.handlers.floor import DEALER, Floor

AT = datetime(2026, 11, 22, 1, 0, tzinfo=UTC)
BACCARAT = standard_settings("baccarat")
BANKER = next(o for o in game("baccarat").bet_odds(BACCARAT) if o.spot == "banker")


def _coup(number: int, wagers: list[Wager], *, dealer: str = "D-1", table: str = "BAC-01",
          game_code: str = "baccarat", **facts: object) -> Coup:
    placed = tuple(Wager(w.box, w.spot, w.player, w.stake, Decimal(0), "") for w in wagers)
    return Coup(table=table, number=number, game=game_code, gaming_day=date(2026, 11, 22),
                opened_at=AT, dealer=dealer, settings=None, placed=placed,
                wagers=tuple(wagers), **facts)  # type: ignore[arg-type]  # reason: the flags a case sets


def _banker(stake: int, won: bool, player: str = "P-1") -> Wager:
    amount = Decimal(stake)
    return Wager(1, "banker", player, amount, amount * Decimal("0.95") if won else -amount,
                 "won" if won else "lost")


def test_binomial_tail_is_the_sum_of_the_tail_terms():
    # P(X >= 2), X ~ Bin(4, 1/2) = (6 + 4 + 1) / 16
    assert binomial_upper(2, 4, 0.5) == pytest.approx(11 / 16)
    assert binomial_upper(0, 4, 0.5) == 1.0
    assert binomial_upper(5, 4, 0.5) == 0.0


def test_poisson_tail_is_one_less_the_terms_below():
    # P(X >= 2), X ~ Poisson(2) = 1 - e^-2 (1 + 2)
    assert poisson_upper(2, 2.0) == pytest.approx(1 - 3 * math.exp(-2))
    assert poisson_upper(30, 2.0) == pytest.approx(
        sum(math.exp(-2) * 2**k / math.factorial(k) for k in range(30, 60)), rel=1e-9)


def test_a_dealers_rate_against_the_others_is_a_binomial_given_the_total():
    # 3 of the 4 irregularities in a quarter of the rounds: P(X >= 3), X ~ Bin(4, 1/4) = 13/256
    assert rate_test(3, 10, 1, 30) == pytest.approx(13 / 256)
    assert rate_test(0, 10, 4, 30) == 1.0


def test_the_permutation_test_counts_the_orders_reaching_the_sum_seen():
    # stakes 1, 2, 3 on values 1, 2, 3: the sum 14 is the largest of the 6 orders' sums
    assert permutation_test([1, 2, 3], [1, 2, 3]) == pytest.approx(1 / 6)
    # stakes against the values: every order reaches at least 10
    assert permutation_test([1, 2, 3], [3, 2, 1]) == 1.0
    # one big stake on the best of four coups: the 6 orders with 10 on value 5 reach it
    assert permutation_test([10, 1, 1, 1], [5, 0, 0, 0]) == pytest.approx(6 / 24)


def test_the_permutation_tests_normal_tail_uses_the_shuffled_sums_mean_and_variance():
    stakes, values = [1.0, 2, 3, 4, 5, 6, 7, 8, 9], [0.0, 1, 0, 1, 0, 1, 1, 1, 1]
    sums = [sum(s * v for s, v in zip(order, values, strict=True))
            for order in permutations(stakes)]
    mean = sum(sums) / len(sums)
    variance = sum((t - mean) ** 2 for t in sums) / len(sums)
    seen = sum(s * v for s, v in zip(stakes, values, strict=True))
    assert permutation_test(stakes, values) == pytest.approx(
        normal_upper((seen - mean) / math.sqrt(variance)))


def test_ranks_share_ties():
    assert ranks([5, 1, 5, 5]) == [3.0, 1.0, 3.0, 3.0]


def test_holm_multiplies_the_smallest_by_the_number_of_tests_then_steps_down():
    assert holm([0.01, 0.02, 0.5]) == [0.03, 0.04, 0.5]
    assert holm([0.04, 0.01]) == [0.04, 0.02]


def test_a_players_result_is_set_against_the_exact_mean_and_deviation_of_their_bets():
    coups = [_coup(n, [_banker(100, n < 15)]) for n in range(20)]  # 15 won, 5 lost
    test = next(t for t in results(coups) if t.subject == "player P-1")
    won = Decimal(15) * 95 - 5 * 100
    mean, variance = -20 * 100 * BANKER.edge, 20 * 100**2 * BANKER.variance
    z = float(won - mean) / math.sqrt(float(variance))
    assert test.probability == pytest.approx(normal_upper(z), rel=1e-5)  # figures' rounding
    assert test.count == 20
    mean, variance = round_moments("baccarat", None, [_banker(100, True)])
    assert float(mean) == pytest.approx(float(-100 * BANKER.edge), rel=1e-5)
    assert float(variance) == pytest.approx(float(100**2 * BANKER.variance), rel=1e-5)


def test_one_coups_banker_and_player_bets_move_against_each_other():
    """The round's bets taken together: a banker and a player bet of one coup vary less than
    two bets of two coups would."""
    player = Wager(2, "player", "P-2", Decimal(100), Decimal(100), "won")
    together = round_moments("baccarat", None, [_banker(100, False), player])[1]
    alone = (round_moments("baccarat", None, [_banker(100, False)])[1]
             + round_moments("baccarat", None, [player])[1])
    assert together < alone / 4


def test_stakes_that_follow_the_coming_cards_are_unlikely_and_flat_stakes_tell_nothing():
    following = [_coup(n, [_banker(1000 if n % 2 else 100, bool(n % 2))]) for n in range(40)]
    flat = [_coup(n, [_banker(100, bool(n % 2))]) for n in range(40)]
    (box, player) = informed(following)
    assert player.subject == "player P-1" and player.probability < 1e-6
    assert box.subject == "box 1 at BAC-01"
    assert all(t.probability == 1.0 for t in informed(flat))


def test_a_dealers_irregularities_are_set_against_the_other_dealers_of_the_game():
    coups = ([_coup(n, [], dealer="D-1", misdealt=n < 3) for n in range(10)]
             + [_coup(10 + n, [], dealer="D-2", misdealt=n < 1) for n in range(30)])
    (test,) = [t for t in irregularities(coups) if t.subject == "dealer D-1"]
    assert test.probability == pytest.approx(13 / 256)
    assert test.seen.startswith(
        "3 of 10 rounds of Baccarat irregular (0 exposed cards, 3 misdeals, 0 voids)")


def test_a_round_with_one_exposed_card_and_no_misdeal_counts_one_exposed_card_and_no_misdeal():
    """A baccarat coup whose player card was shown by mistake and play went on: the round's
    irregularities hold the exposed card, which is no misdeal."""
    floor = Floor()
    floor.baccarat(round_=False)
    events = floor.do(OpenRound(table="BAC-01"), DEALER)
    events += floor.do(PlaceBet(table="BAC-01", box=1, spot="banker", amount=Decimal(500),
                                player="P-1"), DEALER)
    for to, card in (("player", "9S"), ("banker", "2H"), ("player", "KD"), ("banker", "3C")):
        events += floor.do(DealCard(table="BAC-01", to=to, card=card), DEALER)
        if card == "9S":
            events += floor.do(ExposeCard(table="BAC-01", to="player", card="9S"), DEALER)
    events += floor.do(SettleRound(table="BAC-01"), DEALER)
    (round_id,) = {e.originator_id for e in events if isinstance(e, Round.Opened)}
    coup = coup_of(e for e in events if e.originator_id == round_id)
    assert coup is not None and (coup.exposed, coup.misdealt, coup.voided) == (True, False, False)
    others = [_coup(10 + n, [], dealer="D-2", misdealt=n < 1) for n in range(10)]
    (test,) = [t for t in irregularities([coup, *others]) if t.subject == "dealer D-101"]
    assert test.seen.startswith(
        "1 of 1 round of Baccarat irregular (1 exposed card, 0 misdeals, 0 voids)"), test.seen


def test_a_tables_and_a_dealers_result_is_the_houses_and_a_players_or_a_boxs_the_players():
    """Twenty banker bets of 100 by P-1, five won (95 each) and fifteen lost: the house won
    MOP 1,025.00 from them, and expected to win 20 x 100 x the banker's edge."""
    coups = [_coup(n, [_banker(100, n < 5)]) for n in range(20)]
    said = {t.subject: t.seen for t in results(coups)}
    expected = f"MOP {20 * 100 * BANKER.edge:,.2f}"
    assert said["table BAC-01"].startswith(
        f"the house won MOP 1,025.00 at table BAC-01 on 20 bets; expected to win {expected} ± ")
    assert said["dealer D-1"].startswith(
        f"the house won MOP 1,025.00 on 20 bets dealt by dealer D-1; expected to win {expected}")
    assert said["player P-1"].startswith(
        f"player P-1 lost MOP 1,025.00 on 20 bets; expected to lose {expected} ± ")
    assert said["box 1 at BAC-01"].startswith(
        f"the players of box 1 at BAC-01 lost MOP 1,025.00 on 20 bets; expected to lose {expected}")
    assert all(seen.endswith("deviations in the house's favour)") for seen in said.values())


def test_jackpot_prizes_are_set_against_the_chance_of_a_prize_per_bet():
    q = float(game("stud-poker").jackpot_hit_chance())  # type: ignore[arg-type]  # reason: Stud Poker has one
    bets = [Wager(2, "jackpot", None, Decimal(100), Decimal(-100), "lost")]
    coups = [_coup(n, bets, game_code="stud-poker", table="SP-01",
                   jackpot_hits=(2,) if n == 0 else ()) for n in range(10)]
    (test,) = jackpots(coups)
    assert test.subject == "box 2 at SP-01"
    assert test.probability == pytest.approx(1 - (1 - q) ** 10)
    assert test.seen.startswith("1 prize on 10 jackpot bets; ")


def test_a_void_after_the_coup_was_complete_returned_decided_bets():
    bets = (BetFact(1, "banker", Decimal(100)), BetFact(2, "player", Decimal(200)))
    dealt = [("player", "9S"), ("banker", "2H"), ("player", "KD"), ("banker", "3C")]
    cards = tuple(CardFact(to, Card.parse(c), True, i) for i, (to, c) in enumerate(dealt))
    facts = RoundFacts(game="baccarat", rule_set=game("baccarat").rule_sets[0],
                       settings=BACCARAT, dealing="shoe", bets=bets, cards=cards,
                       betting_closed=True)
    decided = decided_by_cards(facts)
    assert [(r.box, str(r.outcome)) for r in decided] == [(1, "lost"), (2, "won")]
    from dataclasses import replace

    assert decided_by_cards(replace(facts, cards=cards[:3])) == ()
    void = _coup(1, [], voided=True, void_reason="misdeal", voided_by="S-A", decided=decided)
    (finding,) = findings([void])
    assert (finding.lost, finding.lost_stakes, finding.won, finding.won_stakes) == (
        1, Decimal("100.00"), 1, Decimal("200.00"))


def test_every_test_is_flagged_only_when_holms_adjusted_chance_is_within_the_level():
    following = [_coup(n, [_banker(1000 if n % 2 else 100, bool(n % 2))]) for n in range(40)]
    tests = every_test(following)
    assert {t.subject for t in tests if t.flagged} >= {"player P-1"}
    for test in tests:
        assert test.adjusted >= test.probability
        assert test.flagged == (test.adjusted <= 0.01)


def test_stratified_shuffles_add_each_stratums_mean_and_variance():
    # each stratum: sum seen 2, shuffled mean 2 x 1.5 x 0.5 = 1.5, variance 0.5 x 0.5 / 1
    assert stratified_test([([1, 2], [0, 1]), ([1, 2], [0, 1])]) == pytest.approx(
        normal_upper((4 - 3) / math.sqrt(0.5)))
    assert stratified_test([([1, 2, 3], [1, 2, 3]), ([5], [1])]) == pytest.approx(1 / 6)


def test_equal_values_at_different_stakes_are_ties_not_ranked_by_the_figures_rounding():
    """A won bet of 300 and one of 900 are worth the same deviations: the joint figures'
    rounding to the ten-thousandth must not rank one above the other, or a bettor with no
    knowledge of the cards would look informed (or the opposite)."""
    coups = [_coup(n, [_banker(300 if n % 2 else 900, n % 4 < 2)]) for n in range(80)]
    (box, player) = informed(coups)
    assert 0.05 < player.probability < 0.95, player
