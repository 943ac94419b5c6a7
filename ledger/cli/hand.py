"""`ledger hand GAME CARDS...`: what the rules engine makes of some cards (no database)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ledger.cli.console import JsonOption, console, print_json
from ledger.core.cards import faces, parse_cards


def hand(
    game: Annotated[str, typer.Argument(
        help="stud-poker, q-poker, fortune-8 or baccarat, or its name (\"Fortune 8\").")],
    cards: Annotated[list[str], typer.Argument(help="Cards, e.g. AS KH TD (10 for T is fine).")],
    as_json: JsonOption = False,
) -> None:
    """Evaluate cards under a game's rules: a poker hand, a baccarat coup, a Fortune 8 card."""
    from ledger.games.registry import game as game_of
    from ledger.games.registry import game_code

    code = game_code(game)
    parsed = parse_cards(cards)
    said: dict[str, Any] = {"game": code, "cards": [str(card) for card in parsed]}
    named = game_of(code).name_cards(parsed)
    said |= named.said
    line = named.line
    if as_json:
        print_json(said)
    else:
        console.print(faces(line), highlight=False)
