"""Which closed ranges of the ledger may leave the primary: the checks `ledger archive` makes
before it moves anything.

A range (one partition of positions) may be archived when, in order:

1. every position of it has been drawn (the floor appends past it);
2. its newest event was recorded on or before the last day asked for (`--through`, Macau
   time) and before the retention: `LEDGER_ARCHIVE_AFTER_DAYS` days before today;
3. the seal covers it: a signed checkpoint stands at or past its last position;
4. that checkpoint, or a later one, is witnessed: cosigned by the trust file's quorum of
   witnesses, or, where the trust file names none, held by the seal's own witness folder
   outside the database;
5. no shift opened within it is still open: an accounting period leaves the primary closed.

Ranges are taken oldest first; the first that fails stops the plan, and its reason is told in
one line: the archive always holds a prefix of the ledger.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any

from psycopg import Connection

from ledger.audit.log.formats import Witness
from ledger.audit.log.trust import TrustFile
from ledger.audit.witnesses.quorum import cosignatures, cosigners
from ledger.core.formatting import MACAU
from ledger.infrastructure.archive import Range, open_shift_in, ranges_on_primary


@dataclass(frozen=True)
class Plan:
    ranges: list[Range]
    stopped: str | None  # why the next range stays, if one does


def end_of_day(day: date) -> datetime:
    """The first moment after `day`, Macau time."""
    return datetime.combine(day + timedelta(days=1), time(), MACAU)


def plan(conn: Connection[Any], table: str, trust: TrustFile, witness_folder: Path, *,
         through: date, keep_days: int, today: date) -> Plan:
    if keep_days and through > today - timedelta(days=keep_days):
        return Plan([], f"--through {through} is inside the retention: events of the last "
                        f"{keep_days} days (LEDGER_ARCHIVE_AFTER_DAYS) stay on the primary, so "
                        f"the latest day that may be archived is "
                        f"{today - timedelta(days=keep_days)}")
    checkpoints = conn.execute("SELECT size, position, root FROM ledger_seal_checkpoints "
                               "ORDER BY size").fetchall()
    lines = cosignatures(conn)
    held = max(Witness(witness_folder).sizes(), default=0)
    chosen: list[Range] = []
    for piece in ranges_on_primary(conn, table):
        why = _held_back(conn, table, piece, through, checkpoints, lines, trust, held)
        if why:
            return Plan(chosen, why)
        chosen.append(piece)
    return Plan(chosen, None)


def _held_back(conn: Connection[Any], table: str, piece: Range, through: date,
               checkpoints: list[tuple[int, int, bytes]], lines: dict[int, list[str]],
               trust: TrustFile, held: int) -> str | None:
    where = f"positions {piece.first:,}-{piece.end - 1:,}"
    if piece.newest_at is not None and piece.newest_at >= end_of_day(through):
        day = piece.newest_at.astimezone(MACAU).date()
        return f"{where} hold events of {day} (Macau time), after --through {through}"
    if piece.last_position is None:
        return None  # positions drawn and never committed: nothing to prove
    covering = [(size, root) for size, position, root in checkpoints
                if position >= piece.last_position]
    if not covering:
        return f"{where} are not sealed yet: run `ledger seal run --once`, then archive"
    if trust.quorum:
        witnessed = any(len(cosigners(trust, trust.origin, size, bytes(root),
                                      lines.get(size, []))) >= trust.quorum
                        for size, root in covering)
        if not witnessed:
            return (f"{where} are sealed but no checkpoint over them is cosigned by "
                    f"{trust.quorum} of the trust file's witnesses yet: archive later")
    elif held < covering[0][0]:
        return (f"{where} are sealed but the seal's witness folder holds no checkpoint over "
                "them: run `ledger seal run --once` where the folder is, then archive")
    shift = open_shift_in(conn, table, piece.first, piece.end)
    if shift is not None:
        return f"{where} open shift {shift}, still open: close it, then archive"
    return None
