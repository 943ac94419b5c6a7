"""A game outside the product's list is registered with its rule sets, played, and forgotten
again; the ledger's own games cannot be registered twice or taken away."""

from __future__ import annotations

import pytest

from ledger.core.errors import InvalidInput
from ledger.games import registry
from ledger.games.rulesets import DEFAULT_RULE_SET, RULE_SETS, parse_settings
from tests import toy_game
from tests.toy_game.procedure import HighCardProcedure


def test_a_registered_game_is_known_by_its_code_with_its_rule_set_until_unregistered() -> None:
    toy_game.register()
    try:
        assert registry.game("high-card").name == "High Card"
        assert DEFAULT_RULE_SET["high-card"] == "high-card/2026"
        settings = parse_settings("high-card/2026", {"effective_from": "2026-01-01",
                                                     "authorisation": "test",
                                                     "min_bet": "100", "max_bet": "2000"})
        assert isinstance(registry.procedure_for("high-card"), HighCardProcedure)
        assert settings.min_bet == 100
        with pytest.raises(InvalidInput, match="already registered"):
            toy_game.register()
    finally:
        toy_game.unregister()
    assert "high-card" not in registry.GAMES and "high-card/2026" not in RULE_SETS
    with pytest.raises(InvalidInput, match="unknown game 'high-card'"):
        registry.game("high-card")


def test_the_ledgers_own_games_stay_registered() -> None:
    with pytest.raises(InvalidInput, match="one of the ledger's own"):
        registry.unregister("baccarat")
    assert "baccarat" in registry.GAMES
