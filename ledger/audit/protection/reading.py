"""A period's rounds read from the stored events themselves (`ledger_events`), as the audit
reads them: never through the projections the signals would be judging."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from psycopg import Connection

from ledger.audit.protection.coups import Coup, coup_of
from ledger.audit.replay.store import read_streams
from ledger.domain.round import Round

BODY = "convert_from(state, 'UTF8')::jsonb"
OPENED = (f"SELECT originator_id FROM ledger_events "
          f"WHERE split_part(topic, ':', 2) = %(opened)s "
          f"AND ({BODY} ->> 'gaming_day')::date BETWEEN %(first)s AND %(last)s "
          f"AND ({BODY} -> 'by' ->> 'at')::timestamptz >= %(starts)s "
          f"AND ({BODY} -> 'by' ->> 'at')::timestamptz < %(ends)s")
BATCH = 2000  # rounds read in one statement


def period_coups(conn: Connection[Any], first: date, last: date, starts: datetime,
                 ends: datetime) -> list[Coup]:
    """The finished rounds of gaming days `first` to `last` opened from `starts` to before
    `ends`, in table and round order (demonstration coups and rounds in play left out)."""
    ids = [row[0] for row in conn.execute(OPENED, {"opened": Round.Opened.event_type,
                                                   "first": first, "last": last,
                                                   "starts": starts, "ends": ends}).fetchall()]
    coups = []
    for at in range(0, len(ids), BATCH):
        for events in read_streams(conn, ids[at:at + BATCH]).values():
            coup = coup_of(e.event for e in events)
            if coup is not None:
                coups.append(coup)
    return sorted(coups, key=lambda c: (c.table, c.number))
