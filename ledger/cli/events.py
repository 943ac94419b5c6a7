"""`ledger events tail|show`: the stored events, as people read them."""

from __future__ import annotations

import json
from typing import Annotated, Any
from uuid import UUID

import typer

from ledger.cli.common import console
from ledger.bootstrap import open_ledger
from ledger.domain.table import check_table_code, table_id
from ledger.errors import NotFound
from ledger.render import printable, safe
from ledger.formatting import when

app = typer.Typer(help="Read the stored events.", no_args_is_help=True)

ENVELOPE = {"originator_id", "originator_version", "timestamp", "originator_topic"}
COLUMNS = "position, stream_id, version, event_type, recorded_at, body"


def _render(rows: list[tuple[Any, ...]], title: str) -> None:
    """One header line per event (position, time, type, stream, who), then its body."""
    console.rule(title)
    for position, stream_id, version, event_type, recorded_at, body in rows:
        by = body.get("by") or {}
        who = (
            f" by {safe(by['actor']['role'])} {safe(by['actor']['staff_id'])} at "
            f"{safe(by['terminal'])}"
            if by else ""
        )
        console.print(
            f"[bold]#{position}[/] {when(recorded_at)} [cyan]{safe(event_type)}[/] "
            f"stream {stream_id} v{version}[dim]{who}[/]",
            highlight=False, soft_wrap=True,
        )
        shown = {k: v for k, v in body.items() if k not in ENVELOPE and k != "by"}
        console.print(
            "    " + printable(json.dumps(shown, ensure_ascii=False, separators=(", ", ": "))),
            highlight=False, soft_wrap=True, markup=False,
        )


@app.command()
def tail(count: Annotated[int, typer.Option("-n", "--count", min=1, help="How many.")] = 20) -> None:
    """The last events recorded, oldest first."""
    with open_ledger() as rt, rt.database.connect() as conn:
        rows = conn.execute(
            f"SELECT {COLUMNS} FROM ledger_event_log ORDER BY position DESC LIMIT %s", (count,)
        ).fetchall()
    _render(list(reversed(rows)), f"last {len(rows)} events")


def stream_id_for(reference: str) -> UUID:
    """A stream id, or a table code standing for its table's stream."""
    try:
        return UUID(reference)
    except ValueError:
        return table_id(check_table_code(reference))


@app.command()
def show(stream: Annotated[str, typer.Argument(help="Stream id, or a table code.")]) -> None:
    """Every event of one stream, in order."""
    stream_id = stream_id_for(stream)
    with open_ledger() as rt, rt.database.connect() as conn:
        rows = conn.execute(
            f"SELECT {COLUMNS} FROM ledger_event_log WHERE stream_id = %s ORDER BY version",
            (stream_id,),
        ).fetchall()
    if not rows:
        raise NotFound(f"no stream {stream} in the ledger.")
    _render(rows, f"stream {stream_id}")
