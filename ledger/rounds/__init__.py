"""Each game's procedure over a recorded round: pure checks and settlement, no I/O.

The Round aggregate keeps the facts of a round (bets, cards, decisions, irregularities) the
same way for every game; a procedure turns those facts into the game engine's terms
(`ledger.games.*`) to check the next action and to settle.
"""

from __future__ import annotations

from ledger.rounds.facts import BetFact, CardFact, DecisionFact, Procedure, RoundFacts


def procedure_for(game: str) -> Procedure:
    from ledger.rounds import baccarat, fortune8, q_poker, stud_poker

    procedures: dict[str, Procedure] = {
        "stud-poker": stud_poker.PROCEDURE,
        "q-poker": q_poker.PROCEDURE,
        "fortune-8": fortune8.PROCEDURE,
        "baccarat": baccarat.PROCEDURE,
    }
    return procedures[game]


__all__ = ["BetFact", "CardFact", "DecisionFact", "Procedure", "RoundFacts", "procedure_for"]
