"""Each bet's house edge and variance per unit staked: what a table's hold is expected to be.

Edge = the player's expected loss per unit staked; variance per unit stake squared. Baccarat
and Fortune 8 figures follow from the games' exact probabilities; Stud Poker and Q Poker use
the published figures of their nearest common paytables (Caribbean Stud per ante; three-card
poker ante and 40/30/6/4/1 pair plus), close enough to set a 3-sigma review band. They set the
band a shift's win is expected in; they settle no bet.
"""

from __future__ import annotations

from decimal import Decimal
from typing import NamedTuple


class BetProfile(NamedTuple):
    edge: Decimal
    variance: Decimal


EDGES: dict[tuple[str, str], BetProfile] = {
    # Baccarat, 8 decks: banker with 5% commission, player, tie 8:1, pairs 11:1.
    ("baccarat", "banker"): BetProfile(Decimal("0.0106"), Decimal("0.8600")),
    ("baccarat", "player"): BetProfile(Decimal("0.0124"), Decimal("0.9046")),
    ("baccarat", "tie"): BetProfile(Decimal("0.1436"), Decimal("6.9770")),
    ("baccarat", "player_pair"): BetProfile(Decimal("0.1036"), Decimal("9.9530")),
    ("baccarat", "banker_pair"): BetProfile(Decimal("0.1036"), Decimal("9.9530")),
    # Fortune 8: L and H win on 24 of 52 ranks' worth at 1:1, 8 on 4 of 52 at 11:1.
    ("fortune-8", "L"): BetProfile(Decimal("0.0769"), Decimal("0.9941")),
    ("fortune-8", "H"): BetProfile(Decimal("0.0769"), Decimal("0.9941")),
    ("fortune-8", "8"): BetProfile(Decimal("0.0769"), Decimal("10.2249")),
    # Stud Poker (Caribbean stud style) per ante; the raise's risk is folded into the ante's.
    ("stud-poker", "ante"): BetProfile(Decimal("0.0522"), Decimal("5.0200")),
    ("stud-poker", "raise"): BetProfile(Decimal(0), Decimal(0)),
    # Q Poker (three-card poker) play bet per unit, bonus with 40/30/6/4/1.
    ("q-poker", "play"): BetProfile(Decimal("0.0337"), Decimal("2.6900")),
    ("q-poker", "bonus"): BetProfile(Decimal("0.0232"), Decimal("8.3500")),
}


def profile(game: str, spot: str) -> BetProfile:
    """The bet's profile; an unknown bet counts as even (edge 0, variance 1)."""
    return EDGES.get((game, spot), BetProfile(Decimal(0), Decimal(1)))
