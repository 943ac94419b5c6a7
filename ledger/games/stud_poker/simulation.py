"""Stud Poker as the floor simulator plays it: bets, the deal, decisions, settlement."""

from __future__ import annotations

from typing import Any

from ledger.core.cards import Card
from ledger.games.simulated import JACKPOT_BET, Dealing, bettor_boxes, deal, turn_of
from ledger.games.stud_poker import rules as stud_rules
from ledger.games.stud_poker.odds import raises


def play_round(sim: Dealing, turn: Any) -> bool:
    """One Stud Poker round at a simulated table; True when the round was voided."""
    boxes = sorted(set(bettor_boxes(sim)) | sim.carried)
    antes = {box: sim.bet(box, "ante", covering=3) for box in boxes}  # the raise kept back
    for box in boxes:
        if box not in sim.carried and sim.rng.random() < 0.5:
            sim.bet(box, "jackpot", amount=JACKPOT_BET)
    jackpot_boxes = {box for box in boxes if box in sim.carried} | set(sim.last_jackpot_boxes())
    sim.carried = set()
    hands: dict[str, list[Card]] = {}
    up_card: Card | None = None
    method = stud_rules.DealMethod.SHUFFLER if sim.spec.shuffler else stud_rules.DealMethod.SHOE
    plan = stud_rules.expected_deal(boxes, method)
    stops_at = sim.shuffler_stops_at(len(plan))
    for n, step in enumerate(plan):
        if n == stops_at:  # the shuffler fails: void, jackpot bets carried (art. 11, 4))
            with turn_of(turn):
                sim.shuffler_failure(n)
            sim.carried = jackpot_boxes
            return True
        to = "dealer" if step.to == "dealer" else f"box:{step.to}"
        hands.setdefault(to, []).append(deal(sim, to))
        if step.to == "dealer" and step.face_up:
            up_card = hands[to][-1]
    if sim.rng.random() < sim.irregularity_rate / 3:  # a misdeal: the round is void (art. 11, 1))
        with turn_of(turn):
            sim.act("record_irregularity", table=sim.spec.code, kind="wrong_count",
                     note="a box received six cards", actor=sim.supervisor)
        sim.carried = jackpot_boxes
        return True
    if sim.rng.random() < sim.irregularity_rate:  # one card shown by mistake: play goes on
        sim.act("expose_card", table=sim.spec.code, to=f"box:{boxes[0]}",
                 card=str(hands[f"box:{boxes[0]}"][0]))
    for box in boxes:
        # the best play for the player, seeing the up card: what the ante's edge assumes
        raised = raises(hands[f"box:{box}"], up_card or hands["dealer"][-1])
        if raised:
            sim.add_stake(box, antes[box] * 2)
        sim.act("decide", table=sim.spec.code, box=box, decision="raise" if raised else "fold",
                 amount=antes[box] * 2 if raised else None)
    sim.act("reveal_dealer", table=sim.spec.code)
    sim.settle(turn)
    return False
