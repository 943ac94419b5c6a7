"""Jackpot pools, as the progressive controller shows them: amount, seed, liability,
contributions, every hit, every adjustment with who and why.

Kept from the JackpotPool stream's events alone.
"""

from __future__ import annotations

from typing import Any, ClassVar

from psycopg import Cursor

from ledger.domain.jackpot_pool import JackpotPool
from projections.engine.base import Projection, StoredEvent, handles

POOLS_DDL = """
CREATE TABLE IF NOT EXISTS {jackpot_pools} (
    pool_id uuid PRIMARY KEY,
    name text NOT NULL UNIQUE,
    seed numeric(18, 2) NOT NULL,
    amount numeric(18, 2) NOT NULL,
    contributions numeric(18, 2) NOT NULL DEFAULT 0,
    reserve numeric(18, 2) NOT NULL DEFAULT 0,
    prizes numeric(18, 2) NOT NULL DEFAULT 0,
    paid_by_house numeric(18, 2) NOT NULL DEFAULT 0,
    adjustments numeric(18, 2) NOT NULL DEFAULT 0,
    resets integer NOT NULL DEFAULT 0,
    tables text[] NOT NULL DEFAULT '{{}}',
    updated_position bigint NOT NULL
)
"""

HITS_DDL = """
CREATE TABLE IF NOT EXISTS {jackpot_hits} (
    pool_id uuid NOT NULL,
    sequence integer NOT NULL,
    table_code text NOT NULL,
    round_id uuid NOT NULL,
    box integer NOT NULL,
    category text NOT NULL,
    prize numeric(18, 2) NOT NULL,
    pool_before numeric(18, 2) NOT NULL,
    paid_by_pool numeric(18, 2) NOT NULL,
    paid_by_house numeric(18, 2) NOT NULL,
    pool_after numeric(18, 2) NOT NULL,
    recorded_at timestamptz NOT NULL,
    position bigint NOT NULL,
    PRIMARY KEY (pool_id, sequence)
)
"""

ADJUSTMENTS_DDL = """
CREATE TABLE IF NOT EXISTS {jackpot_adjustments} (
    pool_id uuid NOT NULL,
    position bigint NOT NULL,
    amount numeric(18, 2) NOT NULL,
    reason text NOT NULL,
    staff_id text NOT NULL,
    role text NOT NULL,
    pool_after numeric(18, 2) NOT NULL,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (pool_id, position)
)
"""


class JackpotPools(Projection):
    name = "jackpot_pools"
    tables: ClassVar[dict[str, str]] = {
        "jackpot_pools": POOLS_DDL, "jackpot_hits": HITS_DDL,
        "jackpot_adjustments": ADJUSTMENTS_DDL,
    }

    @handles(JackpotPool.Created)
    def created(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        body = event.body
        cursor.execute(
            self.sql("INSERT INTO {jackpot_pools} (pool_id, name, seed, amount, updated_position) "
                     "VALUES (%s, %s, %s, %s, %s)"),
            (event.stream_id, body["name"], body["settings"]["seed"], body["amount"],
             event.position),
        )

    @handles(JackpotPool.TableLinked)
    def linked(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "tables = array_append(tables, %(table)s)",
                     {"table": event.body["table"]})

    @handles(JackpotPool.ContributionReceived)
    def contribution(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        body = event.body
        self._update(cursor, event, "amount = %(after)s, contributions = contributions + "
                     "%(to_pool)s, reserve = reserve + %(to_reserve)s",
                     {"after": body["pool_after"], "to_pool": body["to_pool"],
                      "to_reserve": body["to_reserve"]})

    @handles(JackpotPool.JackpotHit)
    def hit(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        b = event.body
        cursor.execute(
            self.sql(
                "INSERT INTO {jackpot_hits} VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, "
                "%s, %s)"
            ),
            (event.stream_id, b["sequence"], b["table"], b["round_id"], b["box"], b["category"],
             b["prize"], b["pool_before"], b["paid_by_pool"], b["paid_by_house"],
             b["pool_after"], b["timestamp"], event.position),
        )
        self._update(cursor, event, "prizes = prizes + %(prize)s, paid_by_house = paid_by_house "
                     "+ %(house)s", {"prize": b["prize"], "house": b["paid_by_house"]})

    @handles(JackpotPool.JackpotReduced)
    def reduced(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "amount = %(after)s", {"after": event.body["pool_after"]})

    @handles(JackpotPool.ResetToSeed)
    def reset(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._update(cursor, event, "amount = %(after)s, resets = resets + 1",
                     {"after": event.body["pool_after"]})

    @handles(JackpotPool.Adjusted)
    def adjusted(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        b = event.body
        cursor.execute(
            self.sql("INSERT INTO {jackpot_adjustments} VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"),
            (event.stream_id, event.position, b["amount"], b["reason"],
             b["by"]["actor"]["staff_id"], b["by"]["actor"]["role"], b["pool_after"],
             b["timestamp"]),
        )
        self._update(cursor, event, "amount = %(after)s, adjustments = adjustments + %(amount)s",
                     {"after": b["pool_after"], "amount": b["amount"]})

    def _update(self, cursor: Cursor[Any], event: StoredEvent, assignments: str,
                params: dict[str, Any]) -> None:
        cursor.execute(
            self.sql(f"UPDATE {{jackpot_pools}} SET {assignments}, "
                     "updated_position = %(position)s WHERE pool_id = %(pool)s"),
            {**params, "position": event.position, "pool": event.stream_id},
        )
