"""`ledger hand GAME CARDS...`: what the rules engine makes of some cards (no database)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ledger.cards import format_cards, parse_cards
from ledger.cli.console import JsonOption, console, print_json
from ledger.errors import InvalidInput
from ledger.wording import term


def hand(
    game: Annotated[str, typer.Argument(help="stud-poker, q-poker, fortune-8 or baccarat.")],
    cards: Annotated[list[str], typer.Argument(help="Cards, e.g. AS KH TD (10 for T is fine).")],
    as_json: JsonOption = False,
) -> None:
    """Evaluate cards under a game's rules: a poker hand, a baccarat coup, a Fortune 8 card."""
    parsed = parse_cards(cards)
    said: dict[str, Any] = {"game": game, "cards": [str(card) for card in parsed]}
    if game in ("stud-poker", "q-poker"):
        from ledger.games import q_poker, stud_poker

        engine = stud_poker if game == "stud-poker" else q_poker
        value = engine.evaluate(parsed)
        said |= {"category": str(value.category),
                 "dealer_qualifies": engine.dealer_qualifies(parsed)}
        qualifies = "qualifies" if said["dealer_qualifies"] else "does not qualify"
        line = f"{format_cards(parsed)}: {term(value.category)} (as dealer's hand: {qualifies})"
    elif game == "baccarat":
        from ledger.games.baccarat import play_coup

        coup = play_coup(parsed)
        said |= {"player_cards": [str(c) for c in coup.player_cards],
                 "player_total": coup.player_total,
                 "banker_cards": [str(c) for c in coup.banker_cards],
                 "banker_total": coup.banker_total, "winner": str(coup.winner),
                 "player_pair": coup.player_pair, "banker_pair": coup.banker_pair}
        line = (f"player {format_cards(coup.player_cards)} = {coup.player_total}, "
                f"banker {format_cards(coup.banker_cards)} = {coup.banker_total}: "
                + (f"{coup.winner} wins" if coup.winner != "tie" else "tie"))
    elif game == "fortune-8":
        from ledger.games.fortune8 import winning_box

        said["winning_boxes"] = [{"card": str(card), "box": winning_box(card)} for card in parsed]
        line = ", ".join(f"{w['card']}: box {w['box']} wins" for w in said["winning_boxes"])
    else:
        raise InvalidInput(
            f"unknown game '{game}': known are stud-poker, q-poker, fortune-8, baccarat."
        )
    if as_json:
        print_json(said)
    else:
        console.print(line, highlight=False)
