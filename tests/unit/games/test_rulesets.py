"""The registry of rule sets: ids, regulations, settings classes, settings in force."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from decimal import Decimal

import pytest

from ledger.core.errors import InvalidInput, NotFound, SettingOutsideRegulation
from ledger.games.baccarat.rules import BaccaratSettings
from ledger.games.rulesets import (
    DEFAULT_RULE_SET,
    GAMES,
    RuleSet,
    default_rule_set,
    game_rule_sets,
    parse_settings,
    resolve,
    rule_set,
    settings_in_force,
)

BACCARAT = {
    "effective_from": "2024-01-01", "authorisation": "DICJ 123/2024",
    "min_bet": "100", "max_bet": "50000", "decks": 8,
}


@pytest.mark.parametrize(
    ("rule_set_id", "game", "reference"),
    [
        ("stud-poker/2003", "stud-poker", "DICJ 69/2003"),
        ("stud-poker/2004", "stud-poker", "DICJ 61/2004"),
        ("q-poker/2004", "q-poker", "DICJ 89/2004"),
        ("fortune-8/2009", "fortune-8", "DICJ 71/2009"),
        ("baccarat/2004", "baccarat", "DICJ 55/2004"),
    ],
)
def test_each_rule_set_names_its_game_and_regulation(
    rule_set_id: str, game: str, reference: str
) -> None:
    chosen = rule_set(rule_set_id)
    assert (chosen.id, chosen.game, chosen.reference) == (rule_set_id, game, reference)
    assert reference.removeprefix("DICJ ") in chosen.instrument


def test_stud_poker_2004_supersedes_2003() -> None:
    assert rule_set("stud-poker/2004").supersedes == "stud-poker/2003"


def test_games_list_their_rule_sets_oldest_first_and_default_to_the_latest() -> None:
    assert GAMES == {
        "stud-poker": ("stud-poker/2003", "stud-poker/2004"),
        "q-poker": ("q-poker/2004",),
        "fortune-8": ("fortune-8/2009",),
        "baccarat": ("baccarat/2004",),
    }
    assert DEFAULT_RULE_SET["stud-poker"] == "stud-poker/2004"
    assert default_rule_set("baccarat") == rule_set("baccarat/2004")
    assert [rs.id for rs in game_rule_sets("stud-poker")] == list(GAMES["stud-poker"])


def test_an_unknown_rule_set_is_refused_with_the_known_ones() -> None:
    with pytest.raises(InvalidInput) as refusal:
        rule_set("baccarat/1975")
    assert str(refusal.value) == (
        "unknown rule set 'baccarat/1975': known are stud-poker/2003, stud-poker/2004, "
        "q-poker/2004, fortune-8/2009, baccarat/2004."
    )


def test_an_unknown_game_is_refused_with_the_known_ones() -> None:
    with pytest.raises(InvalidInput, match="unknown game 'blackjack': known are stud-poker, "):
        default_rule_set("blackjack")


def test_resolve_gives_the_named_rule_set_or_the_games_latest() -> None:
    assert resolve("stud-poker").id == "stud-poker/2004"
    assert resolve("stud-poker", None).id == "stud-poker/2004"
    assert resolve("stud-poker", "stud-poker/2003").id == "stud-poker/2003"
    with pytest.raises(InvalidInput, match="baccarat/2004 is for baccarat, not stud-poker"):
        resolve("stud-poker", "baccarat/2004")


def test_the_registry_is_read_only() -> None:
    with pytest.raises(TypeError):
        GAMES["blackjack"] = ()  # type: ignore[index]


def test_baccarat_settings_class_is_imported_by_name() -> None:
    assert rule_set("baccarat/2004").settings_class is BaccaratSettings


def test_a_missing_settings_module_is_a_readable_error() -> None:
    missing = RuleSet(
        id="x/1", game="x", version="1", reference="DICJ 0/0", instrument="none",
        signed_on=date(2000, 1, 1), settings_path="ledger.games.no_such_game.Settings",
    )
    with pytest.raises(NotFound, match="x/1 needs ledger.games.no_such_game.Settings"):
        _ = missing.settings_class


@pytest.mark.parametrize(
    ("rule_set_id", "module", "class_name"),
    [
        ("stud-poker/2003", "ledger.games.stud_poker.settings", "StudPokerSettings"),
        ("stud-poker/2004", "ledger.games.stud_poker.settings", "StudPokerSettings"),
        ("q-poker/2004", "ledger.games.q_poker.table", "QPokerSettings"),
        ("fortune-8/2009", "ledger.games.fortune8.rules", "Fortune8Settings"),
    ],
)
def test_other_games_settings_classes_resolve_once_written(
    rule_set_id: str, module: str, class_name: str
) -> None:
    game_module = pytest.importorskip(module)
    assert rule_set(rule_set_id).settings_class is getattr(game_module, class_name)


def test_parse_settings_builds_the_games_settings() -> None:
    parsed = parse_settings("baccarat/2004", BACCARAT | {"tie_handling": "kept"})
    assert isinstance(parsed, BaccaratSettings)
    assert (parsed.decks, parsed.tie_handling, parsed.min_bet) == (8, "kept", Decimal(100))


def test_parse_settings_refuses_malformed_input_as_invalid_input() -> None:
    with pytest.raises(InvalidInput, match=r"settings for baccarat/2004 are not valid: decks: "):
        parse_settings("baccarat/2004", BACCARAT | {"decks": "many"})
    with pytest.raises(InvalidInput, match="tie_handling"):
        parse_settings("baccarat/2004", BACCARAT | {"tie_handling": "split"})
    with pytest.raises(InvalidInput, match="colour"):
        parse_settings("baccarat/2004", BACCARAT | {"colour": "green"})


def test_parse_settings_lets_the_regulation_name_its_article() -> None:
    with pytest.raises(SettingOutsideRegulation, match=r"art\. 1\(1\)"):
        parse_settings("baccarat/2004", BACCARAT | {"decks": 4})


def test_parse_settings_refuses_an_unknown_rule_set() -> None:
    with pytest.raises(InvalidInput, match="unknown rule set 'bacarat/2004'"):
        parse_settings("bacarat/2004", BACCARAT)


@pytest.mark.parametrize("version", ["2003", "2004"])
def test_parse_settings_gives_stud_poker_the_rule_sets_version(version: str) -> None:
    pytest.importorskip("ledger.games.stud_poker.rules")
    data = BACCARAT | {"max_payout": "1000000"}
    del data["decks"]
    parsed = parse_settings(f"stud-poker/{version}", data)
    assert parsed.rule_version == version  # type: ignore[attr-defined]
    with pytest.raises(InvalidInput, match=f"version 1999 cannot serve .*stud-poker/{version}"):
        parse_settings(f"stud-poker/{version}", data | {"rule_version": "1999"})


def _baccarat_from(day: date, authorisation: str) -> BaccaratSettings:
    data = BACCARAT | {"effective_from": day, "authorisation": authorisation}
    return BaccaratSettings.model_validate(data)


HISTORY = [
    _baccarat_from(date(2024, 3, 1), "B"),
    _baccarat_from(date(2024, 1, 1), "A"),
    _baccarat_from(date(2024, 6, 1), "C"),
    _baccarat_from(date(2024, 3, 1), "B2"),  # recorded later for the same day: a correction
]


@pytest.mark.parametrize(
    ("on", "authorisation"),
    [
        (date(2024, 1, 1), "A"),
        (date(2024, 2, 29), "A"),
        (date(2024, 3, 1), "B2"),
        (date(2024, 5, 31), "B2"),
        (date(2024, 6, 1), "C"),
        (date(2030, 1, 1), "C"),
    ],
)
def test_settings_in_force_are_the_latest_effective_on_that_day(
    on: date, authorisation: str
) -> None:
    assert settings_in_force(HISTORY, on).authorisation == authorisation


def test_no_settings_in_force_before_the_first_is_a_readable_error() -> None:
    with pytest.raises(NotFound) as refusal:
        settings_in_force(HISTORY, date(2023, 12, 31))
    assert str(refusal.value) == (
        "no house settings are in force on 2023-12-31: the earliest take effect on 2024-01-01."
    )
    with pytest.raises(NotFound, match="none were recorded"):
        settings_in_force([], date(2024, 1, 1))


def test_rulesets_imports_no_game_module_until_a_settings_class_is_asked_for() -> None:
    probe = (
        "import sys, ledger.games.rulesets as r; "
        "games = [m for m in sys.modules if m.split('.')[-1] in "
        "('stud_poker', 'q_poker', 'fortune8', 'baccarat')]; "
        "r.rule_set('baccarat/2004').settings_class; "
        "print(games, 'ledger.games.baccarat.settings' in sys.modules)"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert shown.strip() == "[] True"
