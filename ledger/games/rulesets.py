"""The rule sets the ledger knows, as versioned data: which regulation, which settings class.

A table plays one rule set (`stud-poker/2004`); a round is replayed with the rule set and the
house settings in force on its date. Settings classes are named, not imported, so this
registry loads even while a game's module is being written; `RuleSet.settings_class` imports
on first use.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from pydantic import ValidationError

from ledger.core.errors import InvalidInput, NotFound
from ledger.games.settings import HouseSettings


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One version of a game's rules, tied to the regulation that made it law."""

    id: str
    game: str
    version: str
    reference: str  # as RULES.md cites it: "DICJ 55/2004"
    instrument: str  # the order's own title; DICJ proposed it, the Secretary signed it
    signed_on: date
    settings_path: str  # "package.module.ClassName"
    supersedes: str | None = None

    @property
    def settings_class(self) -> type[HouseSettings]:
        module_name, _, class_name = self.settings_path.rpartition(".")
        try:
            settings_class = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError):
            raise NotFound(
                f"the rule set {self.id} needs {self.settings_path}, which this installation "
                f"does not have."
            ) from None
        if not (isinstance(settings_class, type) and issubclass(settings_class, HouseSettings)):
            raise NotFound(f"{self.settings_path} is not a house settings class.")
        return settings_class


_SECRETARY = "Secretário para a Economia e Finanças"
_EXTERNAL = f"Despacho Regulamentar Externo do {_SECRETARY}"

_RULE_SETS: tuple[RuleSet, ...] = (
    RuleSet(
        id="stud-poker/2003", game="stud-poker", version="2003", reference="DICJ 69/2003",
        instrument=f"{_EXTERNAL} n.º 69/2003", signed_on=date(2003, 9, 1),
        settings_path="ledger.games.stud_poker.settings.StudPokerSettings",
    ),
    RuleSet(
        id="stud-poker/2004", game="stud-poker", version="2004", reference="DICJ 61/2004",
        instrument=f"{_EXTERNAL} n.º 61/2004", signed_on=date(2004, 5, 12),
        settings_path="ledger.games.stud_poker.settings.StudPokerSettings", supersedes="stud-poker/2003",
    ),
    RuleSet(
        id="q-poker/2004", game="q-poker", version="2004", reference="DICJ 89/2004",
        instrument="第89/2004号经济财政司司长对外规范性批示", signed_on=date(2004, 12, 31),
        settings_path="ledger.games.q_poker.table.QPokerSettings",
    ),
    RuleSet(
        id="fortune-8/2009", game="fortune-8", version="2009", reference="DICJ 71/2009",
        instrument=f"Despacho do {_SECRETARY} n.º 71/2009", signed_on=date(2009, 6, 25),
        settings_path="ledger.games.fortune8.rules.Fortune8Settings",
    ),
    RuleSet(
        id="baccarat/2004", game="baccarat", version="2004", reference="DICJ 55/2004",
        instrument=f"{_EXTERNAL} n.º 55/2004", signed_on=date(2004, 5, 12),
        settings_path="ledger.games.baccarat.settings.BaccaratSettings",
    ),
)

_BY_ID: dict[str, RuleSet] = {rs.id: rs for rs in _RULE_SETS}
_BY_GAME: dict[str, tuple[str, ...]] = {
    game: tuple(rs.id for rs in _RULE_SETS if rs.game == game)
    for game in dict.fromkeys(rs.game for rs in _RULE_SETS)
}
_LATEST: dict[str, str] = {game: ids[-1] for game, ids in _BY_GAME.items()}

RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(_BY_ID)

GAMES: Mapping[str, tuple[str, ...]] = MappingProxyType(_BY_GAME)
"""Each game's rule set ids, oldest first."""

DEFAULT_RULE_SET: Mapping[str, str] = MappingProxyType(_LATEST)
"""The latest version of each game: what a new table plays unless told otherwise."""


def add_rule_sets(game: str, rule_sets: Sequence[RuleSet]) -> None:
    """A game's rule sets, oldest first, for a game registered outside this list
    (`ledger.games.registry.register`); `remove_rule_sets` takes them away again."""
    if not rule_sets or any(rs.game != game or rs.id in _BY_ID for rs in rule_sets):
        raise InvalidInput(f"the rule sets of {game} must be new and name {game}.")
    _BY_ID.update({rs.id: rs for rs in rule_sets})
    _BY_GAME[game] = tuple(rs.id for rs in rule_sets)
    _LATEST[game] = rule_sets[-1].id


def remove_rule_sets(game: str) -> None:
    for rule_set_id in _BY_GAME.pop(game, ()):
        del _BY_ID[rule_set_id]
    _LATEST.pop(game, None)
    _parse_exact.cache_clear()


def rule_set(rule_set_id: str) -> RuleSet:
    """The rule set with this id (`baccarat/2004`)."""
    try:
        return RULE_SETS[rule_set_id]
    except (KeyError, TypeError):
        known = ", ".join(RULE_SETS)
        raise InvalidInput(f"unknown rule set '{rule_set_id}': known are {known}.") from None


def game_rule_sets(game: str) -> tuple[RuleSet, ...]:
    """A game's rule sets, oldest first."""
    try:
        return tuple(RULE_SETS[rule_set_id] for rule_set_id in GAMES[game])
    except (KeyError, TypeError):
        known = ", ".join(GAMES)
        raise InvalidInput(f"unknown game '{game}': known are {known}.") from None


def default_rule_set(game: str) -> RuleSet:
    """The latest rule set of a game."""
    return game_rule_sets(game)[-1]


def resolve(game: str, rule_set_id: str | None = None) -> RuleSet:
    """The rule set a table of `game` plays: the one named, or the game's latest."""
    if rule_set_id is None:
        return default_rule_set(game)
    known = game_rule_sets(game)
    chosen = rule_set(rule_set_id)
    if chosen not in known:
        raise InvalidInput(
            f"the rule set {chosen.id} is for {chosen.game}, not {game}: "
            f"{game} has {', '.join(rs.id for rs in known)}."
        )
    return chosen


def parse_settings(rule_set_id: str, data: Mapping[str, Any]) -> HouseSettings:
    """House settings for a rule set, validated against its regulation.

    Malformed input raises InvalidInput; a value the regulation forbids raises
    SettingOutsideRegulation (naming the article) straight from the settings class.
    Settings are frozen values, and a round checks its table's at every command: the ones
    validated are kept, by their exact JSON (so `1` and `"1"` are never taken for each other).
    """
    try:
        exact = json.dumps(data, sort_keys=True)
    except (TypeError, ValueError):  # not plain JSON data (a Decimal, a date): not kept
        return _parse_settings(rule_set_id, data)
    return _parse_exact(rule_set_id, exact)


@lru_cache(maxsize=1024)
def _parse_exact(rule_set_id: str, exact: str) -> HouseSettings:
    return _parse_settings(rule_set_id, json.loads(exact))


def _parse_settings(rule_set_id: str, data: Mapping[str, Any]) -> HouseSettings:
    chosen = rule_set(rule_set_id)
    settings_class = chosen.settings_class
    try:
        return settings_class.model_validate(_with_rule_version(chosen, settings_class, data))
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in problem['loc']) or 'settings'}: {problem['msg']}"
            for problem in error.errors()
        )
        raise InvalidInput(f"the settings for {chosen.id} are not valid: {problems}.") from None


def _with_rule_version(
    chosen: RuleSet, settings_class: type[HouseSettings], data: Mapping[str, Any]
) -> dict[str, Any]:
    """Fill in a settings class's `rule_version` (Stud Poker's) from the rule set chosen.

    One class serves both Stud Poker texts; the rule set id decides which, so settings that
    name another version are refused rather than silently applied under the wrong text.
    """
    if "rule_version" not in settings_class.model_fields:
        return dict(data)
    named = str(data.get("rule_version", chosen.version))
    if named != chosen.version:
        raise InvalidInput(
            f"settings for rule version {named} cannot serve the rule set {chosen.id}: "
            f"leave rule_version out or give {chosen.version}."
        )
    return {**data, "rule_version": chosen.version}


def settings_in_force(history: Sequence[HouseSettings], on: date) -> HouseSettings:
    """The settings in force on a date: the latest `effective_from` not after it.

    When two share that date, the one recorded later (later in `history`) wins: recording
    settings again for the same date corrects them.
    """
    in_force: HouseSettings | None = None
    for settings in history:
        if settings.effective_from <= on and (
            in_force is None or settings.effective_from >= in_force.effective_from
        ):
            in_force = settings
    if in_force is None:
        dates = sorted(settings.effective_from for settings in history)
        detail = f"the earliest take effect on {dates[0]}" if dates else "none were recorded"
        raise NotFound(f"no house settings are in force on {on}: {detail}.")
    return in_force
