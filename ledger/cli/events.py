"""`ledger events tail|show`: the stored events, as people read them."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import typer

from ledger.cli.common import JsonOption, console, print_json, reading
from ledger.core.errors import NotFound
from ledger.core.formatting import amount, iso, when
from ledger.domain.table import check_table_code, table_id
from ledger.infrastructure.event_log import events_of, last_events
from ledger.presentation.render import printable, safe
from ledger.presentation.wording import kind_words, label, shown, term

app = typer.Typer(help="Read the stored events.", no_args_is_help=True)

ENVELOPE = {"originator_id", "originator_version", "timestamp", "originator_topic"}


def _entry(row: tuple[Any, ...]) -> dict[str, Any]:
    """One stored event as `events tail|show` print it: where it stands, when it was recorded
    (Macau time), who recorded it, and its body as stored (the envelope and `by` apart)."""
    position, stream_id, version, event_type, recorded_at, body = row
    by = body.get("by") or {}
    return {
        "position": position, "stream_id": stream_id, "version": version,
        "event_type": event_type, "recorded_at": iso(recorded_at),
        "by": {"role": by["actor"]["role"], "staff_id": by["actor"]["staff_id"],
               "terminal": by["terminal"]} if by else None,
        "body": {k: v for k, v in body.items() if k not in ENVELOPE and k != "by"},
    }


def _print(rows: list[tuple[Any, ...]], title: str, as_json: bool) -> None:
    entries = [_entry(row) for row in rows]
    if as_json:
        print_json(entries)
    else:
        _render(entries, title)


def _render(entries: list[dict[str, Any]], title: str) -> None:
    """One header line per event (position, time, what it was in words and its type, stream,
    who), then its body in words: fields by their labels, amounts and counts separated, codes
    as words (`--json` has the body as stored)."""
    console.rule(title)
    for e in entries:
        by = e["by"]
        who = (f" by {safe(term(by['role']))} {safe(by['staff_id'])} at {safe(by['terminal'])}"
               if by else "")
        kind = e["event_type"]
        console.print(
            f"[bold]#{e['position']}[/] {when(datetime.fromisoformat(e['recorded_at']))} "
            f"[cyan]{safe(kind_words(kind))}[/] ({safe(kind)}) stream {e['stream_id']} "
            f"v{e['version']}[dim]{who}[/]",
            highlight=False, soft_wrap=True,
        )
        if e["body"]:
            console.print("    " + printable(plain(e["body"])), highlight=False, soft_wrap=True,
                          markup=False)


DECIMAL = re.compile(r"-?\d+\.\d\d")
MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?")
"""A moment as a terminal or the ledger wrote it (`2026-11-29T06:32:34Z`, `...+08:00`)."""


def plain(value: Any) -> str:
    """A stored value as a person reads it: `{"max_bet": "10000.00", "is_open": true}` is
    `max bet: 10,000.00; open: yes`, a nested one in brackets; a moment, in whatever zone it
    was written, as every time is shown, in Macau time and labelled so.

    >>> plain({"at": "2026-11-29T06:32:34Z", "amount": "1000.00"})
    'at: 2026-11-29 14:32:34 Macau time; amount: 1,000.00'
    """
    if isinstance(value, dict):
        return "; ".join(f"{_key(str(k))}: {_nested(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        return ", ".join(_nested(item) for item in value) or "none"
    if isinstance(value, str) and DECIMAL.fullmatch(value):
        return amount(value)
    if isinstance(value, str) and MOMENT.fullmatch(value):
        return when(datetime.fromisoformat(value))
    return shown(value)


def _key(key: str) -> str:
    return amount(key) if DECIMAL.fullmatch(key) else label(key)


def _nested(value: Any) -> str:
    return f"({plain(value)})" if isinstance(value, dict) and value else plain(value)


@app.command()
def tail(count: Annotated[int, typer.Option("-n", "--count", min=1, help="How many.")] = 20,
         as_json: JsonOption = False) -> None:
    """The last events recorded, oldest first."""
    with reading() as rt, rt.database.connect() as conn:
        rows = last_events(conn, count)
    _print(list(reversed(rows)), f"last {len(rows)} events", as_json)


def stream_id_for(reference: str) -> UUID:
    """A stream id, or a table code standing for its table's stream."""
    try:
        return UUID(reference)
    except ValueError:
        return table_id(check_table_code(reference))


@app.command()
def show(stream: Annotated[str, typer.Argument(help="Stream id, or a table code.")],
         as_json: JsonOption = False) -> None:
    """Every event of one stream, in order."""
    stream_id = stream_id_for(stream)
    with reading() as rt, rt.database.connect() as conn:
        rows = events_of(conn, stream_id)
    if not rows:
        raise NotFound(f"no stream {stream} in the ledger.")
    _print(rows, f"stream {stream_id}", as_json)
