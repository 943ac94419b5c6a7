"""Baccarat art. 15: "standing players may not place their bets in the space on the layout
reserved for the seated players". Boxes 1 to the house's `seats` (seven or more, art. 1(5))
are the seated players'; a standing player's bet goes on the boxes after them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.commands.round import OpenRound, PlaceBet
from ledger.core.errors import RuleViolation, SettingOutsideRegulation
from ledger.games.baccarat.rules import BaccaratSettings
from tests.integration.round_helpers import baccarat_table, event_bodies, refused
from tests.signing import open_ledger


def test_a_standing_players_bet_in_a_seated_players_box_is_refused_and_nothing_recorded(
        settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)  # seven seats: boxes 1 to 7
        bac.send(OpenRound)
        refused(bac, superuser, RuleViolation,
                r"box 3 is a seated player's space: a standing player may not bet there \(art. "
                r"15 of DICJ 55/2004\); standing players bet on boxes 8 to 14",
                PlaceBet, box=3, spot="banker", amount="1000", player="P-9", standing=True)
        bac.send(PlaceBet, box=8, spot="banker", amount="1000", player="P-9", standing=True)
        bac.send(PlaceBet, box=3, spot="player", amount="500", player="P-3")  # seated: fine
    placed = event_bodies(superuser, "Round.BetPlaced")
    assert [(b["box"], b["standing"]) for b in placed] == [(8, True), (3, False)]


def test_a_layout_whose_every_box_is_seated_has_no_space_for_standing_players(
        settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger, seats=14)
        bac.send(OpenRound)
        refused(bac, superuser, RuleViolation, "this layout has no space for standing players",
                PlaceBet, box=12, spot="player", amount="500", standing=True)


@pytest.mark.parametrize("seats", [6, 15])
def test_a_table_has_seven_or_more_seats_and_no_more_than_its_boxes(seats):
    with pytest.raises(SettingOutsideRegulation, match=f"{seats} seats: art. 1\\(5\\)"):
        BaccaratSettings(decks=8, seats=seats, effective_from="2026-01-01",
                         authorisation="DICJ test", min_bet=Decimal(100),
                         max_bet=Decimal(50000))
