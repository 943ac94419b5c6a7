"""High Card: a game no casino plays, registered only by the tests, that goes through the whole
ledger the way a fifth game would (docs/adding-a-game.md).

One deck, shuffled for each round. Each box with a bet gets one card face up, the dealer one
last; a box whose card outranks the dealer's wins even money, any other loses (a tie is the
house's). `register()` adds it and its rule set to the registry; `unregister()` takes them
away again.
"""

from __future__ import annotations

from datetime import date

from ledger.games import registry
from ledger.games.rulesets import RuleSet

CODE = "high-card"

RULE_SET = RuleSet(
    id="high-card/2026", game=CODE, version="2026", reference="a test's own rules",
    instrument="no regulation: the tests' toy game", signed_on=date(2026, 1, 1),
    settings_path="tests.toy_game.rules.HighCardSettings",
)


def register() -> None:
    from tests.toy_game.game import GAME

    registry.register(GAME, (RULE_SET,))


def unregister() -> None:
    registry.unregister(CODE)
