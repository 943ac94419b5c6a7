"""High Card as the floor simulator plays it: a bet on some boxes, a card to each, the dealer's."""

from __future__ import annotations

from typing import Any

from ledger.games.simulated import Dealing, bettor_boxes, deal
from tests.toy_game.rules import SPOT


def play_round(sim: Dealing, turn: Any) -> bool:
    boxes = bettor_boxes(sim)
    for box in boxes:
        sim.bet(box, SPOT)
    for box in boxes:
        deal(sim, f"box:{box}", face_up=True)
    deal(sim, "dealer", face_up=True)
    sim.settle(turn)
    return False
