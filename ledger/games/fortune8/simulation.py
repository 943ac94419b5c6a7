"""Fortune 8 as the floor simulator plays it: bets, the deal, decisions, settlement."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ledger.games.fortune8 import rules as fortune8_rules
from ledger.games.simulated import MARKED_STAKE, Dealing, deal


def marked_bet(sim: Dealing, mode: str, spaces: set[int]) -> tuple[int, str]:
    """The space and box of a player who knows the cards: a space that will be dealt, and the
    L, H or 8 its card makes win (after the burn, spaces take cards in order)."""
    space = (sim.rng.randint(1, 7) if mode == "all_spaces" or not spaces
             else sim.rng.choice(sorted(spaces)))
    dealt = range(1, 8) if mode == "all_spaces" else sorted(spaces | {space})
    return space, fortune8_rules.winning_box(sim.peek(1 + list(dealt).index(space)))


def play_round(sim: Dealing, turn: Any) -> bool:
    """One Fortune 8 round at a simulated table; True when the round was voided."""
    mode = "all_spaces" if sim.rng.random() < 0.7 else "spaces_with_bets"
    marked = sim.knows_the_cards()
    spaces: set[int] = set()
    bettors = sim.players + sim.rng.randint(0, 3)
    for n in range(bettors):
        amount: Decimal | None = None
        if marked and n == bettors - 1:  # the last to bet knows the cards, and bets big
            (space, box), amount = marked_bet(sim, mode, spaces), sim.spec.min_bet * MARKED_STAKE
        else:
            space = sim.rng.randint(1, 7)
            box = sim.rng.choices(("L", "H", "8"), weights=(45, 45, 10))[0]
        spaces.add(space)
        sim.bet(space, box, amount, player=f"P{n % sim.players}")  # beyond them: a second bet
    sim.act("announce_deal_mode", table=sim.spec.code, mode=mode)
    deal(sim, "burn")
    for space in range(1, 8) if mode == "all_spaces" else sorted(spaces):
        deal(sim, f"space:{space}", face_up=True)
    sim.settle(turn)
    return False
