"""Which code built each projection's live tables, and whether it is the code running now.

A projection's version is its `version` number, bumped by hand when its handlers change what
they write, and a digest of its tables' DDL, which changes by itself when a table does: a
forgotten bump after a new column still shows. `ledger_tracking.version` records the version
that built the live tables (`7:3fa2b9c0`); it is written when the tracking row is made and
when a rebuild is swapped in, and is NULL for tables built before versions were recorded.

The runner (`projections.engine.runner`) rebuilds a projection whose recorded version is not the
code's beside the live one and swaps it in when caught up (`projections.engine.shadow`); `ledger db
status` and `ledger verify` name a projection being rebuilt (`being_rebuilt`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from psycopg import Connection

from projections.engine.base import Projection

REBUILD_LOCK = "ledger projection rebuild "
"""The advisory lock a rebuild holds for its whole length, keyed by `hashtext(this || name)`."""


@dataclass(frozen=True)
class Version:
    number: int
    tables: str  # the first 8 hex digits of the sha-256 of the projection's DDL

    def __str__(self) -> str:
        return f"{self.number} (tables {self.tables})"

    @property
    def stored(self) -> str:
        return f"{self.number}:{self.tables}"

    @classmethod
    def parse(cls, stored: str | None) -> Version | None:
        """The version `stored` in `ledger_tracking`; None for NULL or for what this code never
        writes (an altered row is a version the code's is not)."""
        found = re.fullmatch(r"(\d{1,9}):([0-9a-f]{8})", stored or "")
        return cls(int(found[1]), found[2]) if found else None


def code_version(projection: type[Projection]) -> Version:
    """The version of the code running now: its number and its tables' DDL, whitespace aside
    (worked out once a class: the runner asks at every batch)."""
    found = _CODE_VERSIONS.get(projection.__qualname__)
    if found is None or found[0] is not projection:
        ddl = "\n".join(" ".join(projection.tables[name].split())
                        for name in sorted(projection.tables))
        found = projection, Version(projection.version,
                                    hashlib.sha256(ddl.encode()).hexdigest()[:8])
        _CODE_VERSIONS[projection.__qualname__] = found
    return found[1]


_CODE_VERSIONS: dict[str, tuple[type[Projection], Version]] = {}


def recorded(conn: Connection[Any]) -> dict[str, Version | None]:
    """Each tracked projection's recorded version (None: unrecorded); empty before any ran."""
    if not _has_column(conn):
        exists = conn.execute("SELECT to_regclass('ledger_tracking')").fetchone()
        if not exists or exists[0] is None:
            return {}
        names = conn.execute("SELECT projection FROM ledger_tracking").fetchall()
        return {name: None for (name,) in names}
    rows = conn.execute("SELECT projection, version FROM ledger_tracking").fetchall()
    return {name: Version.parse(stored) for name, stored in rows}


def lock_tracking(conn: Connection[Any], name: str) -> tuple[int, Version | None]:
    """The projection's committed position and recorded version, its tracking row locked
    until this transaction ends (`tracking.lock_position`, with the version)."""
    row = conn.execute("SELECT position, version FROM ledger_tracking WHERE projection = %s "
                       "FOR UPDATE", (name,)).fetchone()
    return (int(row[0]), Version.parse(row[1])) if row else (0, None)


def record(conn: Connection[Any], name: str, version: Version) -> None:
    conn.execute("UPDATE ledger_tracking SET version = %s WHERE projection = %s",
                 (version.stored, name))


def stale(conn: Connection[Any], projections: list[type[Projection]]
          ) -> dict[str, tuple[Version, Version | None]]:
    """The projections whose live tables another version built: (the code's, the live one's)."""
    found = recorded(conn)
    stale: dict[str, tuple[Version, Version | None]] = {}
    for projection in projections:
        code = code_version(projection)
        if projection.name in found and found[projection.name] != code:
            stale[projection.name] = (code, found[projection.name])
    return stale


def being_rebuilt(conn: Connection[Any], names: list[str]) -> set[str]:
    """The projections whose rebuild lock a session holds now (a runner's or a person's)."""
    rows = conn.execute(
        "SELECT n FROM unnest(%s::text[]) AS n WHERE EXISTS (SELECT 1 FROM pg_locks "
        "WHERE locktype = 'advisory' AND objsubid = 1 AND granted "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
        "AND ((classid::bigint << 32) | objid::bigint) = hashtext(%s || n)::bigint)",
        (names, REBUILD_LOCK)).fetchall()
    return {name for (name,) in rows}


def difference(code: Version, live: Version | None) -> str:
    """'the code's version 7 (tables 3fa2b9c0), the live tables' 6 (tables 3fa2b9c0)'."""
    was = str(live) if live is not None else "unrecorded (built before versions were recorded)"
    return f"the code's version {code}, the live tables' {was}"


def _has_column(conn: Connection[Any]) -> bool:
    return conn.execute(
        "SELECT 1 FROM information_schema.columns WHERE table_name = 'ledger_tracking' "
        "AND column_name = 'version' AND table_schema = current_schema()").fetchone() is not None
