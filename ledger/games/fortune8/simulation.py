"""Fortune 8 as the floor simulator plays it: bets, the deal, decisions, settlement."""

from __future__ import annotations

from typing import Any

from ledger.games.simulated import Dealing, deal


def play_round(sim: Dealing, turn: Any) -> bool:
    """One Fortune 8 round at a simulated table; True when the round was voided."""
    spaces = set()
    for n in range(sim.players + sim.rng.randint(0, 3)):
        space = sim.rng.randint(1, 7)
        spaces.add(space)
        sim.bet(space, sim.rng.choices(("L", "H", "8"), weights=(45, 45, 10))[0], player=f"P{n}")
    sim.buy_in(sim.rng.random() < 0.3)
    mode = "all_spaces" if sim.rng.random() < 0.7 else "spaces_with_bets"
    sim.act("announce_deal_mode", table=sim.spec.code, mode=mode)
    deal(sim, "burn")
    for space in range(1, 8) if mode == "all_spaces" else sorted(spaces):
        deal(sim, f"space:{space}", face_up=True)
    sim.settle(turn)
    return False
