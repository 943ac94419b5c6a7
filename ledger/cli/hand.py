"""`ledger hand GAME CARDS...`: what the rules engine makes of some cards (no database)."""

from __future__ import annotations

from typing import Annotated

import typer

from ledger.cards import format_cards, parse_cards
from ledger.cli.console import console
from ledger.errors import InvalidInput


def hand(
    game: Annotated[str, typer.Argument(help="stud-poker, q-poker, fortune-8 or baccarat.")],
    cards: Annotated[list[str], typer.Argument(help="Cards, e.g. AS KH TD (10 for T is fine).")],
) -> None:
    """Evaluate cards under a game's rules: a poker hand, a baccarat coup, a Fortune 8 card."""
    parsed = parse_cards(cards)
    if game in ("stud-poker", "q-poker"):
        from ledger.games import q_poker, stud_poker

        engine = stud_poker if game == "stud-poker" else q_poker
        value = engine.evaluate(parsed)
        qualifies = "qualifies" if engine.dealer_qualifies(parsed) else "does not qualify"
        console.print(f"{format_cards(parsed)}: {value.category} (as dealer's hand: {qualifies})")
    elif game == "baccarat":
        from ledger.games.baccarat import play_coup

        coup = play_coup(parsed)
        console.print(
            f"player {format_cards(coup.player_cards)} = {coup.player_total}, "
            f"banker {format_cards(coup.banker_cards)} = {coup.banker_total}: {coup.winner} wins"
            if coup.winner != "tie" else
            f"player {format_cards(coup.player_cards)} = {coup.player_total}, "
            f"banker {format_cards(coup.banker_cards)} = {coup.banker_total}: tie"
        )
    elif game == "fortune-8":
        from ledger.games.fortune8 import winning_box

        console.print(", ".join(f"{card}: box {winning_box(card)} wins" for card in parsed))
    else:
        raise InvalidInput(
            f"unknown game '{game}': known are stud-poker, q-poker, fortune-8, baccarat."
        )
