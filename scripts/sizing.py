"""Sizing figures for an operator (`scripts/sizing`): each game's floor played by the simulator
on a throw-away database, one game at a time, and measured: events per round (everything a
round writes: its own stream, the table's, the shoe's, the shift's, the pool's, the receipts of
every command), bytes per event on disk (the events table with its indexes and TOAST, and the
database as a whole with the seal's and the projections' tables once they are run), and from
those, a table's events and bytes for an eight-hour shift of continuous play at the
simulator's pace, and a year of three shifts a day.

Each floor is played a second time, the same seed, with every receipt keeping its signed
envelope whole (the command's body twice, as the ledger kept it before receipts kept the
envelope without it): the bytes an event of both, and their ratio, measured in the same run,
as written, compacted (the events table written again by one writer in the log's order) and
of the bodies alone (the JSON stored). The table as written moves by several per cent from run
to run (concurrent writers leave pages part filled); compacted and the bodies do not."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from contextlib import nullcontext
from datetime import date
from pathlib import Path
from typing import Any
from unittest import mock

from benchlib import console, signer, throwaway_database
from rich.table import Table

from ledger.games import registry
from ledger.runtime.bootstrap import open_ledger
from ledger.simulation.floor import floor_plan, run_floor

LEDGER = str(Path(sys.executable).with_name("ledger"))
SHIFT_SECONDS = 8 * 3600


def _whole(signed: Any, command: Any) -> dict[str, Any]:
    """The envelope as a receipt kept it before: whole, its body beside the command."""
    kept: dict[str, Any] = signed.model_dump(mode="json")
    return kept


def measure(game: str, tables: int, rounds: int, *, whole: bool = False) -> dict[str, Any]:
    with throwaway_database(f"ledger_sizing_{game.replace('-', '_')}") as (settings, database):
        with database.connect() as conn:
            before = _sizes(conn)
        envelopes = (mock.patch("ledger.application.ledger.kept_in_receipt", _whole) if whole
                     else nullcontext())
        with envelopes, open_ledger(settings) as rt:
            result = run_floor(rt.ledger, signer(rt).floor_staff(),
                               floor_plan(tables, (game,)), rounds=rounds, seed=3,
                               day=date(2026, 11, 22))
        if result.errors:
            raise SystemExit(f"the {game} floor failed: {result.errors[0]}")
        subprocess.run([LEDGER, "projections", "run", "--once"], check=True,
                       capture_output=True, env={**os.environ,
                                                 "LEDGER_DATABASE_URL": settings.database_url})
        with database.connect() as conn:
            conn.execute("VACUUM ANALYZE")
            after = _sizes(conn)
            compacted = _compacted(conn)
    played = sum(t.rounds + t.voids for t in result.tables.values())
    events = after["events"] - before["events"]
    return {"game": game, "rounds": played, "events": events,
            "events_bytes": after["events_bytes"] - before["events_bytes"],
            "body_bytes": after["body_bytes"] - before["body_bytes"],
            "compacted_bytes": compacted,
            "database_bytes": after["database_bytes"] - before["database_bytes"]}


def _compacted(conn: Any) -> float:
    """Bytes an event of the events table written again by one writer in the log's order (heap,
    TOAST and indexes): what its pages would hold without the gaps concurrent writers leave."""
    conn.execute("CREATE TABLE sizing_copy (LIKE ledger_events, PRIMARY KEY (originator_id, "
                 "originator_version), UNIQUE (notification_id))")  # a partition's indexes
    conn.execute("INSERT INTO sizing_copy SELECT * FROM ledger_events ORDER BY notification_id")
    conn.execute("VACUUM ANALYZE sizing_copy")
    row = conn.execute("SELECT pg_total_relation_size('sizing_copy'), count(*) "
                       "FROM sizing_copy").fetchone()
    conn.execute("DROP TABLE sizing_copy")
    values = list(row.values()) if isinstance(row, dict) else list(row)
    return int(values[0]) / int(values[1])


def _sizes(conn: Any) -> dict[str, int]:
    row = conn.execute("SELECT (SELECT count(*) FROM ledger_events), "
                       "(SELECT sum(pg_total_relation_size(relid)) FROM "
                       "pg_partition_tree('ledger_events') WHERE isleaf), "
                       "pg_database_size(current_database()), "
                       "(SELECT coalesce(sum(octet_length(state)), 0) FROM ledger_events)"
                       ).fetchone()
    values = list(row.values()) if isinstance(row, dict) else list(row)
    return {"events": int(values[0]), "events_bytes": int(values[1]),
            "database_bytes": int(values[2]), "body_bytes": int(values[3])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=4, help="tables of each game")
    parser.add_argument("--rounds", type=int, default=40, help="rounds per table")
    parser.add_argument("--property-tables", type=int, default=100,
                        help="tables of the property the yearly total is for (an equal mix)")
    args = parser.parse_args()
    runs = [measure(game, args.tables, args.rounds) for game in registry.floor_order()]
    wholes = [measure(game, args.tables, args.rounds, whole=True) for game in registry.floor_order()]
    table = Table(title=f"{args.tables} tables of each game, {args.rounds} rounds each")
    for column in ("game", "rounds", "events/round", "bytes/event (events table)",
                   "bytes/event (database)", "rounds/shift", "events/table/shift",
                   "MB/table/shift", "GB/table/year"):
        table.add_column(column, justify="right")
    yearly = 0.0
    for run in runs:
        per_round = run["events"] / run["rounds"]
        per_event = run["database_bytes"] / run["events"]
        rounds_shift = SHIFT_SECONDS / registry.game(run["game"]).table_plan.round_seconds
        shift_events = per_round * rounds_shift
        shift_bytes = shift_events * per_event
        year = shift_bytes * 3 * 365
        yearly += year * args.property_tables / len(runs)
        table.add_row(run["game"], f"{run['rounds']:,}", f"{per_round:.1f}",
                      f"{run['events_bytes'] / run['events']:,.0f}", f"{per_event:,.0f}",
                      f"{rounds_shift:.0f}", f"{shift_events:,.0f}",
                      f"{shift_bytes / 1e6:.1f}", f"{year / 1e9:.2f}")
    console.print(table)
    envelopes = Table(title="bytes an event (events table), receipts keeping the signed "
                            "envelope whole or without the body their command holds")
    for column in ("game", "as written: whole (before)", "without the body (now)", "÷",
                   "compacted: before", "now", "÷", "bodies: before", "now", "÷"):
        envelopes.add_column(column, justify="right")
    for run, whole in zip(runs, wholes, strict=True):
        cells = [run["game"]]
        for then, now in ((whole["events_bytes"] / whole["events"],
                           run["events_bytes"] / run["events"]),
                          (whole["compacted_bytes"], run["compacted_bytes"]),
                          (whole["body_bytes"] / whole["events"],
                           run["body_bytes"] / run["events"])):
            cells += [f"{then:,.0f}", f"{now:,.0f}", f"{now / then:.2f}"]
        envelopes.add_row(*cells)
    console.print(envelopes)
    console.print(f"a property of {args.property_tables} tables (an equal mix of the four "
                  f"games), every table in continuous play three shifts a day: "
                  f"{yearly / 1e12:.2f} TB a year on the primary, and as much on each standby "
                  "and in the WAL archive's base backups.", highlight=False)


if __name__ == "__main__":
    main()
