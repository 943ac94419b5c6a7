"""Rounds that were opened and never settled or voided: in play, or cut off by a crash.

Read from the events themselves (not a read model), so `verify`, `db status` and `table list`
see them even when projections lag or stopped. A round whose last event is older than
`STALE` is flagged: on a live floor a round takes minutes, so one quiet for half an hour was
most likely cut off (a terminal or server crash) and needs a supervisor to settle or void it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from psycopg import Connection

from ledger.core import clock
from ledger.core.formatting import minute
from ledger.domain.round import Round

STALE = timedelta(minutes=30)

OPEN_ROUNDS = """
SELECT o.originator_id,
       convert_from(o.state, 'UTF8')::jsonb ->> 'table',
       (convert_from(o.state, 'UTF8')::jsonb ->> 'number')::integer,
       (convert_from(o.state, 'UTF8')::jsonb ->> 'timestamp')::timestamptz,
       (SELECT (convert_from(l.state, 'UTF8')::jsonb ->> 'timestamp')::timestamptz
          FROM ledger_events l WHERE l.originator_id = o.originator_id
         ORDER BY l.originator_version DESC LIMIT 1)
  FROM ledger_events o
 WHERE split_part(o.topic, ':', 2) = %(opened)s
   AND NOT EXISTS (SELECT 1 FROM ledger_events e
                    WHERE e.originator_id = o.originator_id
                      AND split_part(e.topic, ':', 2) = ANY(%(ended)s))
 ORDER BY 4
"""

KINDS = {"opened": Round.Opened.event_type,
         "ended": [Round.Settled.event_type, Round.Voided.event_type]}


@dataclass(frozen=True)
class OpenRound:
    round_id: UUID
    table: str
    number: int
    opened_at: datetime
    last_event_at: datetime

    def quiet_for(self, now: datetime | None = None) -> timedelta:
        return (now or clock.now()) - self.last_event_at

    def is_stale(self, now: datetime | None = None) -> bool:
        return self.quiet_for(now) >= STALE

    def describe(self, now: datetime | None = None) -> str:
        quiet = int(self.quiet_for(now).total_seconds() // 60)
        return (f"round {self.number} of {self.table} open since "
                f"{minute(self.opened_at)}, last event "
                f"{quiet:,} min ago" + (": cut off? settle or void it" if self.is_stale(now)
                                         else ""))


def open_rounds(conn: Connection[Any], *, after: int = 0,
                among: list[UUID] | None = None) -> list[OpenRound]:
    """Every open round; with `after`, only those opened after that position or `among` the
    rounds known open there (an incremental verification's carried ones), so the query
    costs what the new events cost, not the history."""
    if not after:
        return [OpenRound(*row) for row in conn.execute(OPEN_ROUNDS, KINDS).fetchall()]
    query = OPEN_ROUNDS.replace(
        " WHERE split_part(o.topic, ':', 2) = %(opened)s",
        " WHERE split_part(o.topic, ':', 2) = %(opened)s AND (o.notification_id > %(after)s "
        "OR o.originator_id = ANY(%(among)s))")
    return [OpenRound(*row) for row in conn.execute(
        query, {**KINDS, "after": after, "among": among or []}).fetchall()]
