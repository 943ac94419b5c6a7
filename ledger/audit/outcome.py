"""A settled round's outcome in words, as a pit boss says it: "banker wins, player 5 banker 7".

Pure: the outcome is the dict the rules engine recorded with `Round.Settled` (or a void's
reason); the words come from its shape, so every way of showing a round says it alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def describe_outcome(outcome: Mapping[str, Any] | None) -> str:
    """Who won a baccarat coup (with its totals and pairs), whether Q Poker's dealer played,
    Fortune 8's mode, a void's reason; "" for an outcome that says nothing more than its bets."""
    if not outcome:
        return ""
    if "void" in outcome:
        return f"void: {outcome['void']}"
    if "winner" in outcome:
        winner = str(outcome["winner"])
        said = "tie" if winner == "tie" else f"{winner} wins"
        said += f", player {outcome.get('player_total')} banker {outcome.get('banker_total')}"
        pairs = [side for side in ("player", "banker") if outcome.get(f"{side}_pair")]
        return said + ("; " + " and ".join(f"{side} pair" for side in pairs) if pairs else "")
    if "dealer_qualifies" in outcome:
        plays = "qualifies" if outcome["dealer_qualifies"] else "does not qualify"
        return f"dealer {outcome.get('dealer')}: {plays}"
    if outcome.get("mode"):
        return f"dealt {outcome['mode']}"
    return ""
