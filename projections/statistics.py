"""What the statistics reports read: each table's handle and win by shift, dealer, the rule set
and settings its rounds were played under, and bet; the shifts' drop; the investigation notes.

Reads only the `shift_report` projection's tables (`report_stakes`, `report_terms`,
`report_investigations`, and through `projections.reports` the shifts), so a report's cost
follows the number of table shifts in its period, never the length of the history.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

from psycopg import Cursor
from pydantic import BaseModel

from ledger.games.odds import BetOdds
from ledger.games.registry import game as game_of
from ledger.games.registry import standard_settings
from ledger.games.rulesets import parse_settings

UNKNOWN = BetOdds("?", Decimal(0), Decimal(1), "no odds known for this bet: counted as even")


class StakeLine(BaseModel):
    """The bets of one kind a dealer took in one table's shift under one set of terms."""

    gaming_day: date
    table: str
    game: str
    pit: str
    shift: str
    dealer: str
    terms: str
    spot: str
    bets: int
    handle: Decimal
    sum_of_squares: Decimal
    table_win: Decimal


class Note(BaseModel):
    """An investigation's note on a figure of a period."""

    first_day: date
    last_day: date
    scope: str
    subject: str
    finding: str
    noted_by: str
    noted_at: datetime


class Terms(BaseModel):
    """A rule set and the house settings a round was played under."""

    game: str
    rule_set: str
    settings: dict[str, Any]


def stake_lines(cursor: Cursor[dict[str, Any]], first_day: date,
                last_day: date) -> list[StakeLine]:
    """Every table's bets of these gaming days, by shift, dealer, terms and bet."""
    return [StakeLine(**row) for row in cursor.execute(
        "SELECT s.gaming_day, s.table_code AS table, coalesce(s.game, '?') AS game, "
        "coalesce(s.pit, '?') AS pit, s.shift, k.dealer, k.terms, k.spot, k.bets, k.handle, "
        "k.sum_of_squares, k.table_win "
        "FROM report_stakes k JOIN report_shifts s ON s.shift_id = k.shift_id "
        "WHERE s.gaming_day BETWEEN %s AND %s "
        "ORDER BY s.gaming_day, s.table_code, s.shift, k.dealer, k.terms, k.spot",
        (first_day, last_day)).fetchall()]


def terms(cursor: Cursor[dict[str, Any]], digests: set[str]) -> dict[str, Terms]:
    return {row.pop("terms"): Terms(**row) for row in cursor.execute(
        "SELECT terms, game, rule_set, settings FROM report_terms WHERE terms = ANY(%s)",
        (sorted(digests),)).fetchall()}


def notes(cursor: Cursor[dict[str, Any]], first_day: date, last_day: date) -> list[Note]:
    """The investigation notes on any part of these gaming days, oldest first."""
    return [Note(**row) for row in cursor.execute(
        "SELECT first_day, last_day, scope, subject, finding, noted_by, noted_at "
        "FROM report_investigations WHERE first_day <= %s AND last_day >= %s "
        "ORDER BY noted_at, note_id", (last_day, first_day)).fetchall()]


def odds(game: str, rule_set: str, settings: dict[str, Any]) -> dict[str, BetOdds]:
    """Each bet's odds under these terms, by spot (computed once per terms: `_odds`)."""
    return _odds(game, rule_set, json.dumps(settings, sort_keys=True))


def odds_of_line(game: str, rule_set: str | None, settings: dict[str, Any] | None,
                 ) -> dict[str, BetOdds]:
    """The odds of a report line's terms; the game's standard ones where the ledger that
    recorded its rounds kept no terms."""
    if rule_set is None or settings is None:
        return default_odds(game)
    return odds(game, rule_set, settings)


@lru_cache(maxsize=16)
def default_odds(game: str) -> dict[str, BetOdds]:
    """The odds under the game's standard settings: for rounds whose terms an older version of
    the ledger did not keep."""
    return {bet.spot: bet for bet in game_of(game).bet_odds(standard_settings(game))}


@lru_cache(maxsize=256)
def _odds(game: str, rule_set: str, settings: str) -> dict[str, BetOdds]:
    parsed = parse_settings(rule_set, json.loads(settings))
    return {bet.spot: bet for bet in game_of(game).bet_odds(parsed)}
