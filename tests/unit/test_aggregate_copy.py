"""Streams handed out of the library's cache are copies: changing one leaves the cached one
as it was, container by container, while the immutable values inside are shared."""

from __future__ import annotations

from copy import deepcopy
from datetime import UTC, datetime
from decimal import Decimal
from uuid import uuid4

from ledger.core.cards import Card
from ledger.domain.base import Actor, Provenance, Role
from ledger.domain.round import Round
from ledger.domain.shoe import Shoe, ShuffleMethod
from ledger.domain.table import Table

BY = Provenance(command_id=uuid4(), actor=Actor(staff_id="D-1", role=Role.DEALER),
                terminal="t", at=datetime(2026, 11, 22, tzinfo=UTC))


def _state(aggregate: object) -> dict[str, object]:
    return {name: deepcopy(value) for name, value in vars(aggregate).items()}


def test_a_copied_shoe_draws_without_touching_the_original():
    shoe = Shoe(table="BAC-01", game="baccarat", decks=8, method=ShuffleMethod.HAND,
                shuffler_serial=None, commitment=None, by=BY)
    shoe.collect_events()
    before = _state(shoe)
    copied = deepcopy(shoe)
    copied.draw(position=0, card=Card.parse("AS"), round_id=uuid4(), by=BY)
    assert _state(shoe) == before
    assert copied.position == 1 and copied.counts[Card.parse("AS")] == 1
    assert type(copied.counts) is type(shoe.counts)  # a Counter stays a Counter
    assert len(copied.drawn) == 1 and len(copied.rounds_dealt) == 1
    assert copied.version == shoe.version + 1 and len(copied.collect_events()) == 1


def test_a_copied_round_takes_bets_and_cards_without_touching_the_original():
    round_ = Round(table="BAC-01", number=1, game="baccarat", rule_set="baccarat/2004",
                   settings={"decks": 8}, dealing="shoe", shoe_id=uuid4(), pool_id=None,
                   carried_jackpot_bets=[], by=BY)
    round_.collect_events()
    before = _state(round_)
    copied = deepcopy(round_)
    copied.place_bet(box=1, spot="banker", amount=Decimal("100.00"), player=None, by=BY)
    copied.deal(to="player", card=Card.parse("9H"), face_up=True, shoe_position=8, by=BY)
    assert _state(round_) == before
    assert len(copied.bets) == len(copied.cards) == 1 and len(copied.log) == 2


def test_a_copied_table_changes_settings_without_touching_the_original():
    table = Table(code="BAC-01", game="baccarat", rule_set="baccarat/2004",
                  min_bet=Decimal("100.00"), max_bet=Decimal("500.00"), pit="A", settings={},
                  by=BY)
    table.collect_events()
    copied = deepcopy(table)
    copied.change_settings(settings={"decks": 6}, by=BY)
    assert table.settings_history == [{}] and copied.settings_history == [{}, {"decks": 6}]
    assert copied.settings_history[0] is table.settings_history[0]  # values are shared


def test_a_round_checks_every_command_against_the_house_settings_it_opened_with(monkeypatch):
    """A round's house settings are parsed once, when it opens (or is replayed); settings a
    later rule no longer admits are refused at the round's next check, with the reason."""
    import pytest

    import ledger.domain.round as rounds
    from ledger.core.errors import LedgerError
    from ledger.games.rulesets import parse_settings

    settings = {"effective_from": "2024-01-01", "authorisation": "DICJ 123/2024",
                "min_bet": "100", "max_bet": "50000", "decks": 6}
    round_ = Round(table="BAC-01", number=1, game="baccarat", rule_set="baccarat/2004",
                   settings=settings, dealing="shoe", shoe_id=uuid4(), pool_id=None,
                   carried_jackpot_bets=[], by=BY)
    assert round_.facts().settings == parse_settings("baccarat/2004", settings)
    assert deepcopy(round_).facts().settings is round_.facts().settings  # shared, not re-made

    def parsed_again(*_: object) -> None:
        raise AssertionError("a check parsed the round's settings again")

    with monkeypatch.context() as patched:  # a check reads what the round parsed when it opened
        patched.setattr(rounds, "parse_settings", parsed_again)
        assert round_.facts().settings == parse_settings("baccarat/2004", settings)
    odd = Round(table="BAC-01", number=2, game="baccarat", rule_set="baccarat/2004",
                settings=settings | {"demonstration_coups": 9}, dealing="shoe",
                shoe_id=uuid4(), pool_id=None, carried_jackpot_bets=[], by=BY)
    with pytest.raises(LedgerError) as refused:
        odd.facts()
    with pytest.raises(LedgerError) as parsed:
        parse_settings("baccarat/2004", settings | {"demonstration_coups": 9})
    assert str(refused.value) == str(parsed.value)
