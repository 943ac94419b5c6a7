"""`ledger archive`: closed, sealed, witnessed ranges of the ledger moved to an archive
database, still read in place (`ledger.infrastructure.archive`, `ledger.audit.verification.archiving`)."""

from __future__ import annotations

import re
from calendar import monthrange
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer

from ledger.cli.common import reading
from ledger.cli.console import console
from ledger.core import clock
from ledger.core.errors import InvalidInput, WrongState
from ledger.core.formatting import TIME_LABEL, macau
from ledger.presentation.render import safe


def _through(text: str) -> date:
    """YYYY-MM (its last day) or YYYY-MM-DD."""
    if re.fullmatch(r"\d{4}-\d{2}", text):
        year, month = (int(part) for part in text.split("-"))
        if 1 <= month <= 12:
            return date(year, month, monthrange(year, month)[1])
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InvalidInput(f"--through '{text[:40]}' is not a month (YYYY-MM) or a day "
                           "(YYYY-MM-DD)") from None


def _none_closed(conn: Any, rt: Any) -> str:
    from ledger.infrastructure.event_log import event_count

    _, newest = event_count(conn)
    return (f"no range of positions is closed yet: the floor appends within the first one still "
            f"on the primary (ranges of {rt.settings.partition_events:,} positions, "
            f"LEDGER_PARTITION_EVENTS; the newest position is {newest or 0:,})")


def archive(
    to: Annotated[str, typer.Option(
        "--to", metavar="URL", help="The archive database's URL (postgresql://...): a login that may create "
        "its tables; the primary reads it back through postgres_fdw.")],
    through: Annotated[str, typer.Option(
        "--through", metavar="YYYY-MM | YYYY-MM-DD", help="The last month (YYYY-MM) or day (YYYY-MM-DD), Macau time, whose "
        "events may leave the primary.")],
    trust: Annotated[Path, typer.Option(
        "--trust", help="The trust file: its witnesses must have cosigned the seal over "
        "what is moved.")],
) -> None:
    """Move closed, sealed, witnessed ranges of events to an archive database, read in place.

    Events younger than LEDGER_ARCHIVE_AFTER_DAYS days stay on the primary, and nothing is ever
    dropped from the archive. `ledger verify`, `replay`, `recall` and `export` read archived
    events as they read the rest."""
    import psycopg

    from ledger.audit.log.formats import recorded_ledger_id
    from ledger.audit.log.trust import load_trust
    from ledger.audit.verification.archiving import plan
    from ledger.infrastructure.archive import can_read_archives, copy_out, swap_in
    from ledger.infrastructure.database import EVENTS_TABLE

    last_day = _through(through)
    trusted = load_trust(trust)
    with reading() as rt, rt.database.connect() as conn:
        ledger_id = recorded_ledger_id(conn)
        if ledger_id is None or ledger_id != str(trusted.ledger):
            raise WrongState(f"the trust file {trust} is for ledger {trusted.ledger}, and this "
                             f"database holds {ledger_id}: nothing archived")
        if not can_read_archives(conn):
            raise WrongState(f"{rt.database.describe()} has no postgres_fdw, through which an "
                             "archive is read (the embedded server is built without it): "
                             "archive on a full PostgreSQL")
        today = macau(clock.now()).date()
        chosen = plan(conn, EVENTS_TABLE, trusted, rt.settings.witness_root / ledger_id,
                      through=last_day, keep_days=rt.settings.archive_after_days, today=today)
        if not chosen.ranges:
            raise WrongState(f"nothing archived: {chosen.stopped or _none_closed(conn, rt)}")
        try:
            target = psycopg.connect(to, autocommit=True, connect_timeout=10)
        except psycopg.Error as error:
            raise WrongState(f"cannot reach the archive: {str(error).splitlines()[0]}") from None
        with target:
            for piece in chosen.ranges:
                digest = copy_out(conn, target, ledger_id, piece)
                with conn.transaction():
                    swap_in(conn, EVENTS_TABLE, to, ledger_id, piece)
                when = (f", the newest recorded {macau(piece.newest_at):%Y-%m-%d %H:%M} "
                        f"({TIME_LABEL})" if piece.newest_at else "")
                console.print(f"archived positions {piece.first:,}-{piece.end - 1:,}: "
                              f"{piece.rows:,} events{when}; digest {digest[:16]}",
                              highlight=False)
    if chosen.stopped:
        console.print(f"kept on the primary: {safe(chosen.stopped)}", highlight=False)
