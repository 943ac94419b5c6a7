"""Q Poker's rules in one namespace: hand values, the table and the round, settlement."""

from __future__ import annotations

from ledger.games.q_poker.hands import (
    QUEEN_HIGH,
    Category,
    HandValue,
    dealer_qualifies,
    evaluate,
)
from ledger.games.q_poker.settlement import (
    BONUS_ODDS,
    DEALER_NOT_QUALIFIED_ODDS,
    PLAY_ODDS,
    SURRENDER_KEEPS,
    settle,
    settle_bonus,
    settle_play,
)
from ledger.games.q_poker.table import (
    DEALER,
    HAND_SIZE,
    MIN_BOXES,
    Bet,
    Decision,
    Equipment,
    Irregularity,
    QPokerRound,
    QPokerSettings,
    Spot,
    classify_irregularity,
    deal_order,
)

__all__ = [
    "BONUS_ODDS",
    "DEALER",
    "DEALER_NOT_QUALIFIED_ODDS",
    "HAND_SIZE",
    "MIN_BOXES",
    "PLAY_ODDS",
    "QUEEN_HIGH",
    "SURRENDER_KEEPS",
    "Bet",
    "Category",
    "Decision",
    "Equipment",
    "HandValue",
    "Irregularity",
    "QPokerRound",
    "QPokerSettings",
    "Spot",
    "classify_irregularity",
    "deal_order",
    "dealer_qualifies",
    "evaluate",
    "settle",
    "settle_bonus",
    "settle_play",
]
