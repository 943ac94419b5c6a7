"""`ledger replay` and `ledger recall`: a round back for a dispute, a table's last rounds."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any
from uuid import UUID

import typer
from psycopg import Connection
from rich.markup import escape

from ledger.audit.log.trust import load_trust
from ledger.audit.replay.recall import recall as recall_rounds
from ledger.audit.replay.round import RoundReplay, Verdict, find_round, replay_round
from ledger.audit.replay.sealed_events import SealStatus, SealTrust
from ledger.audit.replay.terminal import render_recall, render_replay
from ledger.cli.common import console, reading, say_practice
from ledger.cli.console import WideOption
from ledger.core.errors import InvalidInput

USAGE = ("name the round by its id, by table and number (ledger replay BAC-01 42), or by "
         "table and time (--table BAC-01 --at 2025-03-14T14:06)")


def _parse_time(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise InvalidInput(
            f"'{text}' is not an ISO time: write 2025-03-14T14:06 or 2025-03-14T14:06+08:00."
        ) from None


def which_round(conn: Connection[Any], ref: list[str], table: str | None, at: str | None) -> UUID:
    if table is not None or at is not None:
        if table is None or at is None or ref:
            raise InvalidInput(f"--table and --at go together, without a round: {USAGE}.")
        return find_round(conn, table, at=_parse_time(at))
    if len(ref) == 1:
        try:
            return UUID(ref[0])
        except ValueError:
            raise InvalidInput(f"'{ref[0]}' is not a round id: {USAGE}.") from None
    if len(ref) == 2:
        if not ref[1].isdigit():
            raise InvalidInput(f"'{ref[1]}' is not a round number: {USAGE}.")
        return find_round(conn, ref[0], number=int(ref[1]))
    raise InvalidInput(f"{USAGE}.")


def replay(
    ref: Annotated[list[str] | None, typer.Argument(
        help="ROUND (a round id), or TABLE ROUND_NUMBER.", show_default=False)] = None,
    table: Annotated[str | None, typer.Option(help="Table code, with --at.")] = None,
    at: Annotated[str | None, typer.Option(
        metavar="YYYY-MM-DDTHH:MM:SS", help="ISO time (no offset: Macau time, Asia/Macau, as the shifts and CCTV): the round "
        "in play then.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the replay as JSON.")] = False,
    html: Annotated[Path | None, typer.Option(
        help="Also write a self-contained HTML page for the dispute file.")] = None,
    dispute: Annotated[str | None, typer.Option(
        help="The dispute's reference, printed at the head of the --html page.")] = None,
    schema: Annotated[bool, typer.Option(
        "--schema", help="Print the JSON Schema of --json and stop.")] = False,
    trust: Annotated[Path | None, typer.Option(
        "--trust", envvar="LEDGER_TRUST_FILE",
        help="The trust file (`ledger trust init`): the sealing key whose checkpoints count, "
        "the witnesses and the quorum. Default: the sealing key from LEDGER_SEAL_PUBLIC_KEY "
        "or LEDGER_SEAL_KEY, witnesses not checked.")] = None,
    wide: WideOption = False,
) -> None:
    """Rebuild a round from the event store and check it; exit 1 on DISCREPANCY.

    Every event it uses is proven against the newest checkpoint a trusted sealing key signed."""
    if schema:
        sys.stdout.write(json.dumps(RoundReplay.model_json_schema(), indent=2) + "\n")
        return
    # loaded only once a round is replayed: a reader's start loads no signing
    from ledger.runtime.bootstrap import trusted_seal_keys

    trusted = load_trust(trust) if trust is not None else None
    with reading() as rt, rt.database.connect() as conn:
        seal = SealTrust.of(trusted, trusted_seal_keys(rt.settings))
        replayed = replay_round(conn, which_round(conn, ref or [], table, at), seal)
    if html is not None:
        from ledger.pages.replay import to_html  # Jinja2 only when a page is asked for

        html.write_text(to_html(replayed, rt.settings.property_name, dispute), encoding="utf-8")
    if as_json:
        sys.stdout.write(replayed.model_dump_json(indent=2) + "\n")
    else:
        say_practice(rt.practice)
        render_replay(replayed, console, wide=wide)
        if replayed.seal is not None:
            colour = {SealStatus.SEALED: "green", SealStatus.DIFFERS: "red"}.get(
                replayed.seal.status, "yellow")
            console.print(f"[{colour}]seal:[/] {escape(replayed.seal.sentence)}",
                          highlight=False, soft_wrap=True)
        if html is not None:
            console.print(f"wrote {html}", highlight=False)
    if replayed.check.verdict is Verdict.DISCREPANCY:
        raise typer.Exit(1)


def recall(
    table: Annotated[str, typer.Argument(help="Table code, e.g. BAC-01.")],
    last: Annotated[int, typer.Option(min=1, help="How many rounds, newest first.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
    wide: WideOption = False,
) -> None:
    """The last rounds of a table, with hands, results and payouts, from the event store."""
    with reading() as rt, rt.database.connect() as conn:
        recalled = recall_rounds(conn, table, last)
    if as_json:
        sys.stdout.write(recalled.model_dump_json(indent=2) + "\n")
    else:
        render_recall(recalled, console, wide=wide)
