"""What the statistics reports read: each table's handle and win by shift, dealer, the rule set
and settings its rounds were played under, and bet; how the stakes of its rounds lay together
(`projections.shifts.round_pairs`); the shifts' drop; the investigation notes.

Reads only the `shift_report` projection's tables (`report_stakes`, `report_pairs`,
`report_terms`, `report_investigations`, and through `projections.shifts.read` the shifts), so a
report's cost follows the number of table shifts in its period, never the length of the history.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import date, datetime
from decimal import Decimal
from functools import lru_cache
from typing import Any

from psycopg import Cursor
from pydantic import BaseModel

from ledger.games.odds import BetOdds, RoundOdds
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


class PairLine(BaseModel):
    """Of one table's shift, dealer and terms, an ordered pair of spots: the sums over its
    finished rounds of stake x stake over the pairs of bets on one box and over all pairs."""

    gaming_day: date
    table: str
    game: str
    pit: str
    shift: str
    dealer: str
    terms: str
    spot_a: str
    spot_b: str
    within: Decimal
    whole: Decimal


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


def pair_lines(cursor: Cursor[dict[str, Any]], first_day: date,
               last_day: date) -> list[PairLine]:
    """Every table's pairs of spots of these gaming days, by shift, dealer and terms."""
    return [PairLine(**row) for row in cursor.execute(
        "SELECT s.gaming_day, s.table_code AS table, coalesce(s.game, '?') AS game, "
        "coalesce(s.pit, '?') AS pit, s.shift, p.dealer, p.terms, p.spot_a, p.spot_b, "
        "p.within, p.whole "
        "FROM report_pairs p JOIN report_shifts s ON s.shift_id = p.shift_id "
        "WHERE s.gaming_day BETWEEN %s AND %s "
        "ORDER BY s.gaming_day, s.table_code, s.shift, p.dealer, p.terms, p.spot_a, p.spot_b",
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


def win_variance(odds: RoundOdds, pairs: list[tuple[str, str, Decimal, Decimal]]) -> Decimal:
    """The variance of the win of some rounds played under one set of terms, from their pairs
    of spots (spot a, spot b, within, whole): each round's bets taken together. A spot the odds
    do not know is counted as an even bet on its own (variance 1 per unit staked)."""
    within: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    whole: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for a, b, one_box, together in pairs:  # several shifts' or dealers' lines add up
        within[a, b] += one_box
        whole[a, b] += together
    unknown = sum((together for (a, b), together in whole.items()
                   if a == b and a not in odds.edge), Decimal(0))
    return odds.variance_of_sums(within, whole) + unknown


def round_odds(game: str, rule_set: str | None,
               settings: dict[str, Any] | None) -> RoundOdds:
    """How the bets of a round played under these terms move together; the game's standard
    terms where the ledger that recorded its rounds kept none."""
    if rule_set is None or settings is None:
        return _default_round_odds(game)
    return _round_odds(game, rule_set, json.dumps(settings, sort_keys=True))


@lru_cache(maxsize=16)
def _default_round_odds(game: str) -> RoundOdds:
    return game_of(game).round_odds(standard_settings(game))


@lru_cache(maxsize=256)
def _round_odds(game: str, rule_set: str, settings: str) -> RoundOdds:
    return game_of(game).round_odds(parse_settings(rule_set, json.loads(settings)))


def first_gaming_day(cursor: Cursor[dict[str, Any]]) -> date | None:
    """The ledger's first gaming day with a table's shift: where its operations begin."""
    row = cursor.execute("SELECT min(gaming_day) AS first FROM report_shifts").fetchone()
    return row["first"] if row else None
