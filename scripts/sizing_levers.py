"""What else would shrink the events table (`scripts/sizing-levers`), measured, not built: a
baccarat floor played on a throw-away database, then its events copied, in their order, into
tables of the events table's shape and indexes, each body changed as one lever would change
it, and each table's bytes an event (heap, TOAST and indexes, after VACUUM) set beside the
rows as stored. The levers are cumulative down the table but for the last two:

- the receipt's envelope whole, as receipts kept it before (the command's body twice);
- the receipt's envelope reduced to each signature's signer and value (who signed it, where,
  under which keys and for which ledger said by the receipt's `by` and the database);
- every event's provenance (`by`) reduced to its command id (the rest is the receipt's);
- the stream id and version out of the body (the row's columns hold them);
- the body as stored, compressed by the application (raw deflate with a preset dictionary of
  the floor's own events): PostgreSQL compresses a value only in a row over about 2 KB
  (`TOAST_TUPLE_THRESHOLD`, fixed when the server is built; `toast_tuple_target` lowers the
  target once a row is over it, not the threshold), so an event of 0.5-1.5 KB is never
  compressed by the server, with pglz or lz4;
- the table as stored with `toast_tuple_target = 128` and lz4 (where the server has it)."""

from __future__ import annotations

import argparse
import json
import zlib
from collections.abc import Callable
from datetime import date
from typing import Any

from benchlib import console, signer, throwaway_database
from rich.table import Table

from ledger.commands.base import sent_body
from ledger.runtime.bootstrap import open_ledger
from ledger.simulation.floor import floor_plan, run_floor

Body = dict[str, Any]
COLUMNS = "originator_id, originator_version, topic, state, notification_id, chain_hash"


def _json(body: Body) -> bytes:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def whole(body: Body) -> Body:
    signed = body.get("signed")
    if signed is None or "command" in signed:
        return body
    return {**body, "signed": {**signed, "command": sent_body(body["command"])}}


def signatures_only(body: Body) -> Body:
    signed = body.get("signed")
    if signed is None or "command" in signed:
        return body
    return {**body, "signed": {"signatures": [
        s if s["signer"] == "cosigner" else {"signer": s["signer"], "value": s["value"]}
        for s in signed["signatures"]]}}


def command_id_by(body: Body) -> Body:
    if "by" not in body or "command_type" in body:  # a receipt keeps its provenance
        return body
    return {**body, "by": {"command_id": body["by"]["command_id"]}}


def no_ids(body: Body) -> Body:
    return {k: v for k, v in body.items() if k not in ("originator_id", "originator_version")}


def measure(conn: Any, rows: list[tuple[Any, ...]], change: Callable[[bytes], bytes],
            compression: str | None = None) -> tuple[float, float]:
    conn.execute("DROP TABLE IF EXISTS sizing_lever")
    conn.execute("CREATE TABLE sizing_lever (LIKE ledger_events INCLUDING INDEXES)")
    if compression:
        conn.execute("ALTER TABLE sizing_lever SET (toast_tuple_target = 128)")
        conn.execute(f"ALTER TABLE sizing_lever ALTER COLUMN state SET COMPRESSION {compression}")
    with conn.cursor().copy(f"COPY sizing_lever ({COLUMNS}) FROM STDIN") as copy:
        for stream, version, topic, state, position, chain in rows:
            copy.write_row((stream, version, topic, change(bytes(state)), position, chain))
    conn.execute("VACUUM ANALYZE sizing_lever")
    total, body = conn.execute("SELECT pg_total_relation_size('sizing_lever'), "
                               "avg(octet_length(state)) FROM sizing_lever").fetchone()
    conn.execute("DROP TABLE sizing_lever")
    return total / len(rows), float(body)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=2, help="baccarat tables")
    parser.add_argument("--rounds", type=int, default=30, help="rounds per table")
    args = parser.parse_args()
    with throwaway_database("ledger_sizing_levers") as (settings, database):
        with open_ledger(settings) as rt:
            result = run_floor(rt.ledger, signer(rt).floor_staff(),
                               floor_plan(args.tables, ("baccarat",)), rounds=args.rounds,
                               seed=3, day=date(2026, 11, 22))
        if result.errors:
            raise SystemExit(f"the floor failed: {result.errors[0]}")
        with database.connect() as conn:
            rows = conn.execute(f"SELECT {COLUMNS} FROM ledger_events "
                                "ORDER BY notification_id").fetchall()
            sample = b"".join(bytes(row[3]) for row in rows[len(rows) // 10:][:60])[-32768:]

            def deflate(state: bytes) -> bytes:
                packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY,
                                          sample)
                return packer.compress(state) + packer.flush()

            def body(*changes: Callable[[Body], Body]) -> Callable[[bytes], bytes]:
                def change(state: bytes) -> bytes:
                    value = json.loads(state)
                    for one in changes:
                        value = one(value)
                    return _json(value)
                return change

            lz4 = conn.execute("SELECT count(*) FROM pg_settings WHERE name = "
                               "'default_toast_compression' AND 'lz4' = ANY(enumvals)"
                               ).fetchone()[0]
            compression = "lz4" if lz4 else "pglz"
            levers: list[tuple[str, Callable[[bytes], bytes], str | None]] = [
                ("receipts keep the envelope whole (before)", body(whole), None),
                ("as stored: the envelope without the body", bytes, None),
                ("+ the envelope's signatures only", body(signatures_only), None),
                ("+ each event's by: its command id only", body(signatures_only, command_id_by),
                 None),
                ("+ no stream id and version in the body",
                 body(signatures_only, command_id_by, no_ids), None),
                ("as stored, deflated with a dictionary", deflate, None),
                (f"as stored, toast_tuple_target 128, {compression}", bytes, compression),
            ]
            table = Table(title=f"{len(rows):,} events of {args.tables} baccarat tables, "
                                f"{args.rounds} rounds each")
            for column in ("the bodies", "body bytes an event",
                           "bytes an event (table, TOAST, indexes)", "÷ before"):
                table.add_column(column, justify="right")
            before = 0.0
            for name, change, storage in levers:
                per_event, per_body = measure(conn, rows, change, storage)
                before = before or per_event
                table.add_row(name, f"{per_body:,.0f}", f"{per_event:,.0f}",
                              f"{per_event / before:.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
