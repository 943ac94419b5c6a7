"""Events of the history a verification checked before, drawn at random and proven again.

An incremental verification reads what came after its record; the history before it is not
read again. Whoever keeps the database could alter an old event in place afterwards: the seal
would name it at the next full verification, or at any replay or export that reads it. To
raise the odds before then, each incremental verification draws some positions of the verified
history at random (from the operating system's randomness, so nobody can tell in advance which)
and proves each event, as stored now, in the tree the newest trusted checkpoint signed, through
the seal's tiles: a few reads each, whatever the history's length. A few altered events among
millions will likely slip past a sample; a history rewritten wholesale will not.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from psycopg import Connection

from ledger.audit.log.tile_store import prove_positions
from ledger.audit.replay.sealed_events import newest_signed


def sample_verified(conn: Connection[Any], size: int, keys: Sequence[str],
                    count: int) -> tuple[int, list[str]]:
    """(how many events were proven, each problem) for `count` events drawn among the first
    `size` sealed ones."""
    if count <= 0 or size <= 0:
        return 0, []
    checkpoint = newest_signed(conn, keys)
    if checkpoint is None or checkpoint.size < size:
        return 0, []
    indices = secrets.SystemRandom().sample(range(size), min(count, size))
    rows = conn.execute("SELECT leaf_index, position FROM ledger_seal_leaves "
                        "WHERE leaf_index = ANY(%s)", (indices,)).fetchall()
    found = {int(index): int(position) for index, position in rows}
    problems = [f"the seal's stored leaf {index:,} is missing" for index in sorted(indices)
                if index not in found]
    problems += prove_positions(conn, checkpoint, found.values())
    return len(found), problems
