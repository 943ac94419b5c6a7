"""What every registered game must do: the `Game` protocol's contract, one run per game.

A new game's package passes these before the ledger plays it (docs/adding-a-game.md).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from ledger.application.bus import EVERY_AREA, Bus
from ledger.application.ledger import Ledger, LedgerApplication
from ledger.core.cards import DECK
from ledger.core.errors import InvalidInput
from ledger.domain.round import Phase, Round, SettledBet, round_id
from ledger.domain.table import table_id
from ledger.games.common import ZERO
from ledger.games.protocol import Game
from ledger.games.registry import GAMES, floor_order, game, procedure_for
from ledger.games.rulesets import parse_settings, rule_set
from ledger.games.settings import HouseSettings
from ledger.presentation.wording import game as game_name
from ledger.simulation.floor import floor_plan, run_floor
from tests.signing import floor_staff, playing_other_days

# its module fixture is built once: the file runs in one process when the run is spread
pytestmark = pytest.mark.xdist_group("every-game")

EVERY_GAME = list(GAMES.values())
ROUNDS = 12


def _ids(g: Game) -> str:
    return g.code


every_game = pytest.mark.parametrize("g", EVERY_GAME, ids=_ids)


def _house_settings(g: Game) -> HouseSettings:
    plan = g.table_plan
    data: dict[str, Any] = {
        "effective_from": date(2026, 1, 1), "authorisation": "DICJ test",
        "min_bet": plan.min_bet, "max_bet": plan.max_bet, **g.default_settings,
    }
    return parse_settings(g.rule_sets[-1], data)


@pytest.fixture(scope="module")
def played() -> dict[str, list[Round]]:
    """A short shift at one table of each game on an in-memory ledger, through the commands:
    every bet, card and decision the simulator sends is checked by the game's procedure."""
    app = LedgerApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    ledger = Ledger(app, bus=Bus(EVERY_AREA))
    playing_other_days(ledger)  # a fixed day, whatever today is
    plan = floor_plan(len(GAMES), floor_order())
    result = run_floor(ledger, floor_staff(ledger), plan, rounds=ROUNDS, seed=7,
                       day=date(2026, 11, 22))
    assert not result.errors, result.errors
    return {spec.game: [ledger.load(Round, round_id(table_id(spec.code), n), "round")
                        for n in range(1, ROUNDS + 1)] for spec in plan}


def test_the_registry_knows_each_game_once_by_its_code() -> None:
    assert list(GAMES) == [g.code for g in EVERY_GAME]
    assert sorted(floor_order()) == sorted(GAMES)
    with pytest.raises(InvalidInput, match="unknown game 'roulette': known are "):
        game("roulette")


@every_game
def test_the_game_is_its_packages_game_and_has_a_name(g: Game) -> None:
    assert game(g.code) is g
    module = importlib.import_module(f"{type(g).__module__}")
    assert module.GAME is g
    assert g.name and g.name[0].isupper() and game_name(g.code) == g.name


@every_game
def test_the_game_has_rule_sets_whose_settings_validate(g: Game) -> None:
    assert g.rule_sets, f"{g.code} has no rule set"
    for rule_set_id in g.rule_sets:
        assert rule_set(rule_set_id).game == g.code
    assert issubclass(g.settings_class, HouseSettings)
    settings = _house_settings(g)
    assert isinstance(settings, g.settings_class)
    assert settings.min_bet == g.table_plan.min_bet


@every_game
def test_the_procedure_is_the_games(g: Game) -> None:
    assert getattr(g.procedure, "game", None) == g.code
    assert procedure_for(g.code) is g.procedure


@every_game
def test_the_shoe_policy_agrees_with_the_decks(g: Game) -> None:
    shoe, plan = g.shoe, g.table_plan
    decks = shoe.decks(_house_settings(g))
    assert decks == plan.decks
    assert shoe.single_deck == (decks == 1)
    assert not (shoe.single_deck and shoe.cut_card), "one deck has its blank card at the bottom"
    if shoe.cards_behind_cut is not None:
        assert shoe.cut_card and 0 < shoe.cards_behind_cut < 52 * decks
    if plan.cut_card_behind is not None:
        assert shoe.cut_card and 0 < plan.cut_card_behind < 52 * decks
        assert shoe.cards_behind_cut in (None, plan.cut_card_behind)
    if shoe.burns_at_shoe_start:
        assert shoe.burn_refusal is None
    assert plan.fresh_shoe_each_round == shoe.single_deck
    assert shoe.coups_after_cut_card(_house_settings(g)) >= 0


@every_game
def test_the_jackpot_flags_go_together(g: Game) -> None:
    assert not g.void_carries_jackpot or g.takes_jackpot_bets
    assert g.bet_place.count("{}") == 2


@every_game
def test_the_simulated_play_is_legal_and_the_procedure_settles_it(
    g: Game, played: dict[str, list[Round]]
) -> None:
    rounds = played[g.code]
    settled = [r for r in rounds if r.phase is Phase.SETTLED and not r.demonstration]
    assert len(settled) >= ROUNDS // 2, f"{g.code}: {len(settled)} of {ROUNDS} rounds settled"
    assert all(r.phase in (Phase.SETTLED, Phase.VOID) for r in rounds)
    for r in settled:
        facts = replace(r.facts(), revealed=True)  # as it stood when it was settled
        again = [SettledBet.of(result) for result in g.procedure.settle(facts)]
        assert again == list(r.results), f"{g.code} round {r.number} settles otherwise"
        assert sum((b.stake for b in r.results), ZERO) > ZERO


@every_game
def test_a_recorded_hand_and_a_sample_of_cards_are_named(
    g: Game, played: dict[str, list[Round]]
) -> None:
    r = next(r for r in played[g.code] if r.phase is Phase.SETTLED and not r.demonstration)
    facts = r.facts()
    hands = {card.to for card in facts.dealt}
    values = [g.hand_value(target, facts.hand(target)) for target in hands]
    assert any(value.value and value.name for value in values), values
    sample = facts.hand("dealer") or tuple(card.card for card in facts.dealt)
    named = g.name_cards(sample)
    assert named.line
    json.dumps(named.said)


@every_game
def test_the_table_plan_is_a_table_the_house_may_open(g: Game) -> None:
    plan = g.table_plan
    assert plan.prefix.isupper() and Decimal(0) < plan.min_bet <= plan.max_bet
    assert plan.round_seconds > 0 and 1 <= plan.decks <= len(DECK)
    assert isinstance(g.simulated_settings(True), dict)
    assert callable(g.simulated_round)
