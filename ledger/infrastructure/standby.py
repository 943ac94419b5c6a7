"""A hot standby, recognised: a node of the cluster that replays the primary's WAL and may only
be read. The read models there are the primary's (maintained by its projection runner and
replicated with everything else), so a reader there reads them as they are and never tries to
create or bring them up to date; what it shows is the primary's as of the last transaction
replayed, which is said."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ledger.core.formatting import clock


@dataclass(frozen=True)
class Standby:
    replayed_at: datetime | None  # the primary's commit time of the last transaction replayed
    behind: timedelta | None  # how long ago that was, by the standby's clock
    pending_bytes: int  # WAL received and not yet replayed

    def describe(self) -> str:
        if self.replayed_at is None:
            return ("reading a hot standby that has replayed no transaction of the primary's "
                    "yet: it shows the ledger as of its base backup")
        seconds = max(self.behind.total_seconds(), 0.0) if self.behind else 0.0
        waiting = (f", {self.pending_bytes:,} bytes received and not yet replayed"
                   if self.pending_bytes else "")
        return (f"reading a hot standby: it shows the primary's ledger as of "
                f"{clock(self.replayed_at)} Macau time ({seconds:.0f} s ago{waiting})")


STATUS = """
SELECT pg_is_in_recovery(), pg_last_xact_replay_timestamp(),
       now() - pg_last_xact_replay_timestamp(),
       coalesce(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()), 0)
"""


def standby(conn: Any) -> Standby | None:
    """The standby's state, or None on a primary (or a server that is not replicated)."""
    row = conn.execute(STATUS).fetchone()
    values = list(row.values()) if isinstance(row, dict) else list(row)
    if not values[0]:
        return None
    return Standby(values[1], values[2], max(int(values[3]), 0))
