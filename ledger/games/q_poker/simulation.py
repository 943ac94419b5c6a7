"""Q Poker as the floor simulator plays it: bets, the deal, decisions, settlement."""

from __future__ import annotations

from typing import Any

from ledger.core.cards import Card, Rank
from ledger.games.q_poker import rules as q_poker_rules
from ledger.games.simulated import Dealing, bettor_boxes, deal, turn_of


def q_poker_plays(cards: tuple[Card, ...]) -> bool:
    """Continue with Q-6-4 or better (the published optimal rule), else surrender."""
    value = q_poker_rules.evaluate(cards)
    if value.category != "high_card":
        return True
    ranks = sorted((card.rank for card in cards), reverse=True)
    return tuple(ranks) >= (Rank.QUEEN, Rank.SIX, Rank.FOUR)


def play_round(sim: Dealing, turn: Any) -> bool:
    """One Q Poker round at a simulated table; True when the round was voided."""
    boxes = bettor_boxes(sim)
    bettors: list[tuple[int, str]] = []
    for box in boxes:
        players = [f"P{box}a"] + ([f"P{box}b"] if sim.rng.random() < 0.25 else [])
        for player in players:
            sim.bet(box, "play", player=player)
            bettors.append((box, player))
            if sim.rng.random() < 0.5:
                sim.bet(box, "bonus", player=player)
    hands: dict[int, list[Card]] = {}
    equipment = q_poker_rules.Equipment.SHUFFLER if sim.spec.shuffler else q_poker_rules.Equipment.SHOE
    order = q_poker_rules.deal_order(boxes, equipment)
    stops_at = sim.shuffler_stops_at(len(order))
    for n, recipient in enumerate(order):
        if n == stops_at:  # the shuffler fails: the round is void (art. 11(5))
            sim.shuffler_failure(n)
            return True
        to = "dealer" if recipient == q_poker_rules.DEALER else f"box:{recipient}"
        hands.setdefault(recipient, []).append(deal(sim, to))
    if sim.rng.random() < sim.irregularity_rate / 3:  # a dealer card shown: void (art. 11(3))
        with turn_of(turn):
            sim.act("expose_card", table=sim.spec.code, to="dealer",
                     card=str(hands[q_poker_rules.DEALER][0]), actor=sim.supervisor)
        return True
    for box, player in bettors:
        plays = q_poker_plays(tuple(hands[box]))
        sim.act("decide", table=sim.spec.code, box=box, player=player,
                 decision="play" if plays else "surrender")
    sim.act("reveal_dealer", table=sim.spec.code)
    sim.settle(turn)
    return False
