"""Catch-up rate of the table-state projection against a plain psycopg read of the same rows;
then every projection's over a simulated floor's own events (`bench_projections_floor`).

The store is filled by a bulk INSERT ... SELECT straight into `ledger_events` (not through the
application: a million commands would take hours). The bodies are those of real events the
ledger records first (Table.Opened, DealerSignedIn, DealerSignedOut, Closed, Reopened and
each command's receipt, signed by a pit boss at a pit workstation as a real one is), copied with the stream id, version and table code replaced; the
database's own trigger computes every row's chain hash, as for any insert. Half the events are
receipts, which table state ignores (as in a real ledger, where every command writes one).

Then, on a warm cache:
- plain read: `SELECT ... FROM ledger_events WHERE notification_id > %s ORDER BY
  notification_id LIMIT n` in batches, rows fetched and nothing else done: the floor;
- projection: `ProjectionRunner.catch_up()` of table state from position 0, with the same
  batch size: read each batch once, staging the Table events it folds into the session's
  temporary table (they never reach Python), fold each run of them set-based in two
  statements, record the position, commit; then again in batches of 5,000 and 1,000 (the
  older defaults) to show what the batch size is worth;
- seal: `Sealer.catch_up()` from position 0, same batch size: read every row whole, hash each
  as a Merkle leaf, store the leaves and the frontier, record the position, commit; a signed
  checkpoint (Ed25519, witness file fsynced) every 10,000 events.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from decimal import Decimal
from uuid import UUID

from benchlib import console, signer, throwaway_database
from psycopg import Connection
from rich.table import Table as RichTable

from ledger.audit.seal.sealer import Cadence, Sealer
from ledger.commands.table import CloseTable, OpenTable, SignInDealer
from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind
from ledger.domain.table import table_id
from ledger.identity.keys import Credential
from ledger.infrastructure.database import Database
from ledger.runtime.bootstrap import open_ledger
from projections.engine.runner import DEFAULT_BATCH_SIZE, ProjectionRunner
from projections.tables.state import TableState

PIT_BOSS, WORKSTATION, DEALER = "PB-1", "PIT-BENCH", "D-101"
SMALLER_BATCHES = (5000, 1000)  # what the batch size is worth
TEMPLATE_TABLE = "TPL-0000"
# version 1 opens; then each table cycles: dealer in, dealer out, closed, re-opened
CYCLE = ("Table.DealerSignedIn", "Table.DealerSignedOut", "Table.Closed", "Table.Reopened")

FILL = """
INSERT INTO ledger_events (originator_id, originator_version, topic, state)
SELECT stream, version, topic, convert_to(body, 'UTF8') FROM (
    SELECT s.id AS stream, v AS version, t.topic, v AS step, s.n, 0 AS receipt,
           replace(replace(replace(t.body, '{stream}', s.id::text), '{version}', v::text),
                   '{code}', s.code) AS body
      FROM bench_streams s CROSS JOIN generate_series(%(first)s::int, %(last)s::int) AS v
      JOIN bench_templates t
        ON t.event_type = CASE WHEN v = 1 THEN 'Table.Opened'
                               ELSE (%(cycle)s::text[])[1 + (v - 2) %% 4] END
    UNION ALL
    SELECT g.id, 1, r.topic, v, s.n, 1,
           replace(replace(replace(r.body, '{stream}', g.id::text), '{version}', '1'),
                   '{code}', s.code)
      FROM bench_streams s CROSS JOIN generate_series(%(first)s::int, %(last)s::int) AS v
     CROSS JOIN LATERAL (SELECT md5('receipt ' || s.n || ' ' || v)::uuid AS id) AS g
      JOIN bench_templates r ON r.event_type = 'CommandReceipt.Accepted'
) AS rows
ORDER BY step, n, receipt  -- each table event followed by its command's receipt
"""


def record_templates(settings, database: Database) -> list[tuple[str, str, str]]:
    """(event type, topic, body with placeholders) of real events the ledger records."""
    with open_ledger(settings) as rt:
        signing = signer(rt)
        signing.staff(PIT_BOSS, Role.PIT_BOSS)
        signing.staff(DEALER, Role.DEALER)
        signing.terminal(WORKSTATION, TerminalKind.PIT_WORKSTATION)
        with database.connect() as conn:  # the registry's events are no templates
            registry_end = conn.execute("SELECT max(notification_id) FROM ledger_events"
                                        ).fetchone()[0]
        for command in (
            OpenTable(table=TEMPLATE_TABLE, game="baccarat", min_bet=Decimal(100),
                      max_bet=Decimal(50000)),
            SignInDealer(table=TEMPLATE_TABLE, dealer_id=DEALER),
            CloseTable(table=TEMPLATE_TABLE),
            OpenTable(table=TEMPLATE_TABLE, game="baccarat", min_bet=Decimal(100),
                      max_bet=Decimal(50000)),
        ):
            rt.ledger.execute(signing.sign(command, staff=PIT_BOSS, terminal=WORKSTATION))
    with database.connect() as conn:
        rows = conn.execute(
            "SELECT DISTINCT ON (split_part(topic, ':', 2)) split_part(topic, ':', 2), topic, "
            "       originator_id, originator_version, convert_from(state, 'UTF8') "
            "  FROM ledger_events WHERE notification_id > %s "
            " ORDER BY split_part(topic, ':', 2), notification_id", (registry_end,),
        ).fetchall()
    return [(kind, topic, _placeholders(body, stream, version))
            for kind, topic, stream, version, body in rows]


def _placeholders(body: str, stream: UUID, version: int) -> str:
    return (body.replace(str(stream), "{stream}")
            .replace(f'"originator_version":{version}', '"originator_version":{version}')
            .replace(TEMPLATE_TABLE, "{code}"))


def fill(conn: Connection, templates: list[tuple[str, str, str]], events: int) -> int:
    """About `events` events: half table events over many tables, half command receipts."""
    tables = max(1, min(2000, events // 2000))
    versions = max(1, events // (2 * tables))
    conn.execute("CREATE TEMP TABLE bench_templates (event_type text, topic text, body text)")
    conn.cursor().executemany("INSERT INTO bench_templates VALUES (%s, %s, %s)", templates)
    conn.execute("CREATE TEMP TABLE bench_streams (n int, id uuid, code text)")
    conn.cursor().executemany(
        "INSERT INTO bench_streams VALUES (%s, %s, %s)",
        [(n, table_id(f"B-{n:04d}"), f"B-{n:04d}") for n in range(tables)],
    )
    step = max(1, 100_000 // (2 * tables))
    started = time.perf_counter()
    for first in range(1, versions + 1, step):
        last = min(versions, first + step - 1)
        conn.execute(FILL, {"first": first, "last": last, "cycle": list(CYCLE)})
        done = 2 * tables * last
        console.print(f"[dim]  filled {done:,} events "
                      f"({done / (time.perf_counter() - started):,.0f}/s)[/]")
    conn.execute("VACUUM (ANALYZE) ledger_events")  # hint bits set: reads measure reading
    return int(conn.execute("SELECT count(*) FROM ledger_events").fetchone()[0])


def plain_read(database: Database, batch_size: int) -> tuple[int, float]:
    rows, after, started = 0, 0, time.perf_counter()
    with database.connect() as conn:
        while True:
            batch = conn.execute(
                "SELECT notification_id, originator_id, originator_version, topic, state "
                "FROM ledger_events WHERE notification_id > %s ORDER BY notification_id "
                "LIMIT %s", (after, batch_size),
            ).fetchall()
            if not batch:
                return rows, time.perf_counter() - started
            rows, after = rows + len(batch), batch[-1][0]


def projection_catch_up(database: Database, batch_size: int) -> tuple[int, float]:
    with database.connect() as conn:  # from position 0 each time
        TableState().drop_tables(conn)
        conn.execute("DELETE FROM ledger_tracking WHERE projection = %s", (TableState.name,))
    started = time.perf_counter()
    with ProjectionRunner(database, [TableState], batch_size=batch_size) as runner:
        events = runner.catch_up()
    return events, time.perf_counter() - started


def seal_catch_up(database: Database, batch_size: int, witness: str) -> tuple[int, float]:
    from pathlib import Path

    sealer = Sealer(database, Credential.generate("seal", "BENCH-SEAL"), Path(witness),
                    Cadence(every_events=10_000, every_seconds=3600), batch_size=batch_size)
    started = time.perf_counter()
    with database.connect() as conn:
        done = sealer.catch_up(conn, checkpoint_at_end=True)
    return sum(batch.events for batch in done), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1_000_000, help="events in the store")
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE,
                        help="events per batch (the runner's default)")
    parser.add_argument("--floor-rounds", type=int, default=10,
                        help="rounds per table of the floor whose events every projection "
                             "catches up over (0: skip)")
    args = parser.parse_args()
    with throwaway_database("ledger_bench_projections") as (settings, database):
        templates = record_templates(settings, database)
        console.print(f"filling ~{args.events:,} events by bulk INSERT ... SELECT into "
                      "ledger_events (bodies copied from real events; the chain trigger "
                      "hashes every row)")
        with database.connect() as conn:
            total = fill(conn, templates, args.events)
        plain_read(database, args.batch_size)  # warm the cache for both
        read_rows, read_seconds = plain_read(database, args.batch_size)
        smaller = [(size, projection_catch_up(database, size))
                   for size in SMALLER_BATCHES if size < args.batch_size]
        applied, projection_seconds = projection_catch_up(database, args.batch_size)
        with tempfile.TemporaryDirectory(prefix="ledger-bench-witness-") as witness:
            sealed = seal_catch_up(database, args.batch_size, witness)
        with database.connect() as conn:
            tables = conn.execute("SELECT count(*), sum(events_applied) FROM table_state"
                                  ).fetchone()
    report(total, args.batch_size, (read_rows, read_seconds), (applied, projection_seconds),
           sealed, smaller)
    console.print(f"[dim]table state after catch-up: {tables[0]:,} tables, "
                  f"{tables[1]:,} table events applied[/]")
    if args.floor_rounds:
        from bench_projections_floor import floor_catch_up
        from bench_projections_floor import report as report_floor

        report_floor(floor_catch_up(args.floor_rounds), args.floor_rounds)


def report(total: int, batch: int, read: tuple[int, float], caught: tuple[int, float],
           sealed: tuple[int, float], smaller: list[tuple[int, tuple[int, float]]]) -> None:
    read_rate, catch_rate = read[0] / read[1], caught[0] / caught[1]
    grid = RichTable(title=f"catch-up over {total:,} events, batches of {batch:,}")
    for column in ("path", "events", "seconds", "events/s", "vs plain read"):
        grid.add_column(column, justify="left" if column == "path" else "right")
    grid.add_row("plain psycopg read", f"{read[0]:,}", f"{read[1]:.1f}", f"{read_rate:,.0f}",
                 "1.00x")
    grid.add_row("table-state projection", f"{caught[0]:,}", f"{caught[1]:.1f}",
                 f"{catch_rate:,.0f}", f"{catch_rate / read_rate:.2f}x")
    for size, (events, seconds) in smaller:
        grid.add_row(f"  the same in batches of {size:,}", f"{events:,}", f"{seconds:.1f}",
                     f"{events / seconds:,.0f}", f"{events / seconds / read_rate:.2f}x")
    seal_rate = sealed[0] / sealed[1]
    grid.add_row("seal (Merkle leaves, signed checkpoints)", f"{sealed[0]:,}", f"{sealed[1]:.1f}",
                 f"{seal_rate:,.0f}", f"{seal_rate / read_rate:.2f}x")
    console.print(grid)
    console.print(f"[dim]the seal keeps up with {seal_rate:,.0f} events/s, "
                  f"{seal_rate / read_rate:.2f}x of reading the rows.[/]")
    console.print(f"[dim]the projection catches up at 1/{read_rate / catch_rate:.1f} of the rate "
                  "of merely reading the rows.[/]")


if __name__ == "__main__":
    main()
