"""Card ranks in words, as a dealer says them: `queen`, `sevens`."""

from __future__ import annotations

WORDS = {2: ("two", "twos"), 3: ("three", "threes"), 4: ("four", "fours"), 5: ("five", "fives"),
         6: ("six", "sixes"), 7: ("seven", "sevens"), 8: ("eight", "eights"),
         9: ("nine", "nines"), 10: ("ten", "tens"), 11: ("jack", "jacks"),
         12: ("queen", "queens"), 13: ("king", "kings"), 14: ("ace", "aces")}


def one(rank: int) -> str:
    return WORDS[int(rank)][0]


def many(rank: int) -> str:
    return WORDS[int(rank)][1]
