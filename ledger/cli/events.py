"""`ledger events tail|show`: the stored events, as people read them."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import typer

from ledger.cli.common import JsonOption, console, print_json, reading
from ledger.commands import wire_name
from ledger.core.errors import NotFound
from ledger.core.formatting import TIME_LABEL, amount, iso, when
from ledger.domain.table import Table, check_table_code, table_id
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


RECORDED = (f"each stamped with the time the ledger recorded it, {TIME_LABEL}; a command's own "
            "time is its `at`")
"""Said under the title: the time beside an event is when it was stored, which replay and
recall do not show (they date a round by its commands' own times)."""


def _render(entries: list[dict[str, Any]], title: str) -> None:
    """One header line per event (position, when it was recorded, what it was in words,
    stream, who), then its body in words: fields by their labels, amounts and counts separated,
    codes and commands as words (`--json` has the event's type and its body as stored)."""
    console.rule(title)
    console.print(f"[dim]{RECORDED}[/]", highlight=False)
    for e in entries:
        by = e["by"]
        who = (f" by {safe(term(by['role']))} {safe(by['staff_id'])} at {safe(by['terminal'])}"
               if by else "")
        console.print(
            f"[bold]#{e['position']}[/] recorded "
            f"{when(datetime.fromisoformat(e['recorded_at']))}: "
            f"[cyan]{safe(kind_words(e['event_type']))}[/], stream {e['stream_id']} "
            f"v{e['version']}[dim]{who}[/]",
            highlight=False, soft_wrap=True,
        )
        if e["body"]:
            console.print("    " + printable(plain(_worded(e["body"]))), highlight=False,
                          soft_wrap=True, markup=False)


def _worded(body: dict[str, Any]) -> dict[str, Any]:
    """A receipt's command named as it is typed and sent (`close shift`), not by its class."""
    if isinstance(body.get("command_type"), str):
        return {**body, "command_type": term(wire_name(body["command_type"]))}
    return body


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
    """The last events recorded, in the order recorded, each with the time it was recorded
    (Macau time)."""
    with reading() as rt, rt.database.connect() as conn:
        rows = last_events(conn, count)
    _print(list(reversed(rows)), f"last {len(rows)} events, in the order recorded", as_json)


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
        try:
            UUID(stream)
        except ValueError:  # a table code: said as every command says an unknown table
            raise Table.missing(f"table {check_table_code(stream)}") from None
        raise NotFound(f"no stream {stream} in the ledger: `ledger events tail` shows the "
                       "newest events with their streams.")
    _print(rows, f"stream {stream_id}", as_json)
