"""Table state: per table, what a pit boss sees on the floor screen.

Kept from the Table stream's events: open or closed, game, rule set, limits, pit, dealer.
The round columns (current round and its phase, bets on the layout, cards shown, shoe cards
remaining, last results) are there, nullable, for the round and shoe events to fill: each of
those event types becomes one more `@handles` method here (then `ledger projections rebuild
table_state` applies it to the history already recorded).

`events_applied` counts the events applied to each row. It is what a crash test compares: an
event applied twice, or skipped, changes it.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor

from projections.base import Projection, StoredEvent, handles

TABLE_STATE_DDL = """
CREATE TABLE IF NOT EXISTS {table_state} (
    stream_id uuid PRIMARY KEY,
    code text NOT NULL UNIQUE,
    is_open boolean NOT NULL,
    game text NOT NULL,
    rule_set text NOT NULL,
    min_bet numeric(14, 2) NOT NULL,
    max_bet numeric(14, 2) NOT NULL,
    pit text NOT NULL,
    dealer text,
    opened_at timestamptz NOT NULL,
    closed_at timestamptz,
    -- filled by round and shoe events once they are projected
    round_id uuid,
    round_number integer,
    round_phase text,
    bets jsonb,
    cards_shown jsonb,
    shoe_id uuid,
    shoe_cards_remaining integer,
    last_results jsonb,
    -- bookkeeping: the stream version and global position last applied, and how many
    -- events made this row (an event applied twice shows here)
    version bigint NOT NULL,
    events_applied bigint NOT NULL,
    updated_position bigint NOT NULL
)
"""

TOUCH = "version = %(version)s, events_applied = events_applied + 1, " \
        "updated_position = %(position)s"


class TableState(Projection):
    name = "table_state"
    tables = {"table_state": TABLE_STATE_DDL}

    @handles("Table.Opened")
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

    @handles("Table.Reopened")
    def reopened(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(
            cursor, event,
            "is_open = true, game = %(game)s, rule_set = %(rule_set)s, "
            "min_bet = %(min_bet)s, max_bet = %(max_bet)s, pit = %(pit)s, opened_at = %(at)s",
            _opening(event.body),
        )

    @handles("Table.Closed")
    def closed(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "is_open = false, closed_at = %(at)s",
                     {"at": event.body["by"]["at"]})

    @handles("Table.DealerSignedIn")
    def dealer_signed_in(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "dealer = %(dealer)s", {"dealer": event.body["dealer_id"]})

    @handles("Table.DealerSignedOut")
    def dealer_signed_out(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "dealer = NULL", {})

    def _update(
        self, cursor: Cursor[Any], event: StoredEvent, assignments: str, params: dict[str, Any]
    ) -> None:
        cursor.execute(
            self.sql(
                f"UPDATE {{table_state}} SET {assignments}, {TOUCH} "
                "WHERE stream_id = %(stream_id)s"
            ),
            {**params, **_envelope(event)},
        )


def _opening(body: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": body["game"], "rule_set": body["rule_set"], "min_bet": body["min_bet"],
        "max_bet": body["max_bet"], "pit": body["pit"], "at": body["by"]["at"],
    }


def _envelope(event: StoredEvent) -> dict[str, Any]:
    return {"stream_id": event.stream_id, "version": event.version, "position": event.position}
