"""Stud Poker's rules in one namespace: hand values, settings, settlement and the deal."""

from __future__ import annotations

from ledger.games.stud_poker.deal import (
    DEALER,
    DealError,
    DealMethod,
    DealStep,
    Irregularity,
    Position,
    check_next_card,
    classify_irregularity,
    expected_deal,
)
from ledger.games.stud_poker.hands import (
    ANTE,
    BOXES,
    HAND_SIZE,
    JACKPOT,
    RAISE,
    HandCategory,
    HandValue,
    Patterns,
    dealer_qualifies,
    evaluate,
    prepare,
)
from ledger.games.stud_poker.settings import (
    CAPPED,
    RAISE_ODDS,
    RuleVersion,
    StudPokerSettings,
    raise_odds,
)
from ledger.games.stud_poker.settlement import (
    Decision,
    StudBox,
    StudPokerRound,
    check_jackpot_bet,
    check_raise,
    settle,
    settle_void,
)

__all__ = [
    "ANTE",
    "BOXES",
    "CAPPED",
    "DEALER",
    "HAND_SIZE",
    "JACKPOT",
    "RAISE",
    "RAISE_ODDS",
    "DealError",
    "DealMethod",
    "DealStep",
    "Decision",
    "HandCategory",
    "HandValue",
    "Irregularity",
    "Patterns",
    "Position",
    "RuleVersion",
    "StudBox",
    "StudPokerRound",
    "StudPokerSettings",
    "check_jackpot_bet",
    "check_next_card",
    "check_raise",
    "classify_irregularity",
    "dealer_qualifies",
    "evaluate",
    "expected_deal",
    "prepare",
    "raise_odds",
    "settle",
    "settle_void",
]
