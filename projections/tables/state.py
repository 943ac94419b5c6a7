"""Table state: per table, what a pit boss sees on the floor screen.

From the Table stream: open or closed, game, rule set, pit, dealer, linked jackpot pool, jackpot
bets carried from a void round, and the limits. From the round and shoe streams
(`projections.tables.rounds`): the current round, its phase, the bets on the layout, the cards
shown, the shoe's cards remaining and the last results.

The limits are the ones in force on the date of the table's latest opening, settings change or
round start, by the rule every round applies (`settings_in_force`: the latest `effective_from`
not after that date; on the same date, the one recorded later). Those are the moments a
table's limits can take effect: a round records the settings in force on its own date, so a
change dated tomorrow is shown under `upcoming_limits` until the first round from that date,
never applied early. Dates are those the terminals gave (`by.at`), so a rebuild finds the same.

`events_applied` counts the Table events applied to each row (the round and shoe streams' are
counted on their own rows in `table_rounds` and `table_shoes`). It is what a crash test
compares: an event applied twice, or skipped, changes it.

A change to these tables' shape reaches a database that already has them only through
`ledger projections rebuild table_state`.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, ClassVar

from psycopg import Cursor
from psycopg.types.json import Jsonb

from ledger.domain.table import Table
from projections.engine.base import StoredEvent, folds, handles
from projections.tables import state_fold as table_state_fold
from projections.tables.rounds import ROUNDS_DDL, SHOES_DDL, RoundColumns

TABLE_STATE_DDL = """
CREATE TABLE IF NOT EXISTS {table_state} (
    stream_id uuid PRIMARY KEY,
    code text NOT NULL UNIQUE,
    is_open boolean NOT NULL,
    game text NOT NULL,
    rule_set text NOT NULL,
    min_bet numeric(18, 2) NOT NULL,
    max_bet numeric(18, 2) NOT NULL,
    limits_from date,
    upcoming_limits jsonb,
    pit text NOT NULL,
    dealer text,
    jackpot_pool text,
    carried_jackpot_bets jsonb,
    opened_at timestamptz NOT NULL,
    closed_at timestamptz,
    -- the current round (after it ends: the last one, phase settled or void) and shoe
    round_id uuid,
    round_number integer,
    round_phase text,
    bets jsonb,
    cards_shown jsonb,
    shoe_id uuid,
    shoe_cards_remaining integer,
    last_results jsonb,
    -- bookkeeping: the Table stream version last applied, how many Table events made this
    -- row (an event applied twice shows here), the global position that last changed it
    version bigint NOT NULL,
    events_applied bigint NOT NULL,
    updated_position bigint NOT NULL
)
"""

# Every house-settings record of every table: the limits are looked up here by date.
LIMITS_DDL = """
CREATE TABLE IF NOT EXISTS {table_limits} (
    stream_id uuid NOT NULL,
    position bigint NOT NULL,
    effective_from date NOT NULL,
    min_bet numeric(18, 2) NOT NULL,
    max_bet numeric(18, 2) NOT NULL,
    authorisation text,
    PRIMARY KEY (stream_id, effective_from, position)  -- the lookup by date: one index probe
)
"""

TOUCH = "version = %(version)s, events_applied = events_applied + 1, " \
        "updated_position = %(position)s"

RECORD_LIMITS = (
    "INSERT INTO {table_limits} VALUES (%(stream_id)s, %(position)s, %(effective_from)s, "
    "%(min_bet)s, %(max_bet)s, %(authorisation)s)"
)

# The limits in force on %(on)s, and the later ones (the last recorded for each date).
APPLY_LIMITS = """
UPDATE {table_state} t
   SET min_bet = coalesce(f.min_bet, t.min_bet), max_bet = coalesce(f.max_bet, t.max_bet),
       limits_from = coalesce(f.effective_from, t.limits_from),
       upcoming_limits = (
           SELECT jsonb_agg(jsonb_build_object(
                      'effective_from', u.effective_from, 'min_bet', u.min_bet::text,
                      'max_bet', u.max_bet::text, 'authorisation', u.authorisation)
                  ORDER BY u.effective_from)
             FROM (SELECT DISTINCT ON (effective_from) * FROM {table_limits}
                    WHERE stream_id = %(stream_id)s AND effective_from > %(on)s
                    ORDER BY effective_from, position DESC) u)
  FROM (SELECT %(stream_id)s::uuid AS stream_id) k
  LEFT JOIN LATERAL (
       SELECT min_bet, max_bet, effective_from FROM {table_limits}
        WHERE stream_id = k.stream_id AND effective_from <= %(on)s
        ORDER BY effective_from DESC, position DESC LIMIT 1) f ON true
 WHERE t.stream_id = k.stream_id
"""


class TableState(RoundColumns):
    name = "table_state"
    tables: ClassVar[dict[str, str]] = {
        "table_state": TABLE_STATE_DDL, "table_limits": LIMITS_DDL,
        "table_rounds": ROUNDS_DDL, "table_shoes": SHOES_DDL,
    }

    @handles(Table.Opened)
    def opened(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        body = event.body
        cursor.execute(
            self.sql(
                "INSERT INTO {table_state} (stream_id, code, is_open, game, rule_set, min_bet, "
                "max_bet, pit, opened_at, version, events_applied, updated_position) VALUES "
                "(%(stream_id)s, %(code)s, true, %(game)s, %(rule_set)s, %(min_bet)s, "
                "%(max_bet)s, %(pit)s, %(at)s, %(version)s, 1, %(position)s)"
            ),
            {**_opening(body), "code": body["code"], **_envelope(event)},
        )
        self._record_limits(cursor, event)

    @handles(Table.Reopened)
    def reopened(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(
            cursor, event,
            "is_open = true, game = %(game)s, rule_set = %(rule_set)s, pit = %(pit)s, "
            "opened_at = %(at)s",
            _opening(event.body),
        )
        self._record_limits(cursor, event)

    @handles(Table.SettingsChanged)
    def settings_changed(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "", {})
        self._record_limits(cursor, event)

    @handles(Table.Closed)
    def closed(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "is_open = false, closed_at = %(at)s",
                     {"at": event.body["by"]["at"]})

    @handles(Table.DealerSignedIn)
    def dealer_signed_in(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "dealer = %(dealer)s", {"dealer": event.body["dealer_id"]})

    @handles(Table.DealerSignedOut)
    def dealer_signed_out(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "dealer = NULL", {})

    @handles(Table.PoolLinked)
    def pool_linked(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "jackpot_pool = %(pool)s", {"pool": event.body["pool"]})

    @handles(Table.JackpotBetsCarried)
    def jackpot_bets_carried(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "carried_jackpot_bets = %(bets)s",
                     {"bets": Jsonb(event.body["bets"])})

    @handles(Table.ShoeStarted)
    def shoe_started(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "shoe_id = %(shoe)s, shoe_cards_remaining = NULL",
                     {"shoe": event.body["shoe_id"]})
        self.show_shoe(cursor, event.body["shoe_id"], event.position)

    @handles(Table.RoundStarted)
    def round_started(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        """The new round replaces the last on the screen; the carried bets are now its bets."""
        self._update(
            cursor, event,
            "round_id = %(round)s, round_number = %(number)s, round_phase = NULL, bets = NULL, "
            "cards_shown = NULL, carried_jackpot_bets = NULL",
            {"round": event.body["round_id"], "number": event.body["number"]},
        )
        self.show_round(cursor, event.body["round_id"], event.position)
        self._apply_limits(cursor, event)

    @handles(Table.RoundFinished)
    def round_finished(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "", {})  # the round's own Settled or Voided shows its end

    @handles(Table.ShiftOpened, Table.ShiftClosed)
    def shift_changed(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "", {})  # the shift report keeps the shifts

    @folds(Table.Reopened, Table.SettingsChanged, Table.Closed, Table.DealerSignedIn,
           Table.DealerSignedOut, Table.PoolLinked, Table.JackpotBetsCarried,
           Table.ShoeStarted, Table.RoundStarted, Table.RoundFinished,
           Table.ShiftOpened, Table.ShiftClosed)
    def fold_table_events(self, cursor: Cursor[Any], lo: int, hi: int) -> None:
        """The batch's Table events but openings, set-based at its end
        (`projections.tables.state_fold`): what the handlers above leave, in two statements."""
        for statement in table_state_fold.STATEMENTS:
            cursor.execute(self.sql(statement), {"lo": lo, "hi": hi})

    # -- helpers -----------------------------------------------------------------------
    def _update(
        self, cursor: Cursor[Any], event: StoredEvent, assignments: str, params: dict[str, Any]
    ) -> None:
        assignments = f"{assignments}, {TOUCH}" if assignments else TOUCH
        cursor.execute(
            self.sql(
                f"UPDATE {{table_state}} SET {assignments} "
                "WHERE stream_id = %(stream_id)s"
            ),
            {**params, **_envelope(event)},
        )

    def _record_limits(self, cursor: Cursor[Any], event: StoredEvent) -> None:
        settings, on = event.body["settings"], _day(event)
        cursor.execute(self.sql(RECORD_LIMITS), {
            "stream_id": event.stream_id, "position": event.position,
            "effective_from": settings.get("effective_from", on), "min_bet": settings["min_bet"],
            "max_bet": settings["max_bet"], "authorisation": settings.get("authorisation"),
        })
        self._apply_limits(cursor, event)

    def _apply_limits(self, cursor: Cursor[Any], event: StoredEvent) -> None:
        cursor.execute(self.sql(APPLY_LIMITS), {"stream_id": event.stream_id, "on": _day(event)})


def _day(event: StoredEvent) -> date:
    """The date the terminal gave for the event, as a round takes its settings' date."""
    return datetime.fromisoformat(event.body["by"]["at"]).date()


def _opening(body: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": body["game"], "rule_set": body["rule_set"], "min_bet": body["min_bet"],
        "max_bet": body["max_bet"], "pit": body["pit"], "at": body["by"]["at"],
    }


def _envelope(event: StoredEvent) -> dict[str, Any]:
    return {"stream_id": event.stream_id, "version": event.version, "position": event.position}
