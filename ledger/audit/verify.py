"""`ledger verify`: every check of the whole ledger, each failure named, none stopping the others.

Hash chains and versions (`chain`), the seal against its signed checkpoints and witness
(`seal_check`), every event recorded with its command (`receipts_check`), streams that name
each other agreeing (`cross_checks`), then shoes, money, pools and projections (`checks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from psycopg import Connection

from ledger.audit.open_rounds import open_rounds
from ledger.audit.chain import verify_chains
from ledger.audit.checks import check_streams
from ledger.audit.projection_check import check_projections
from ledger.audit.cross_checks import cross_stream_problems
from ledger.audit.findings import Failure, LedgerReport
from ledger.audit.receipts_check import misplaced_events
from ledger.audit.seal_check import check_seal

__all__ = ["Failure", "LedgerReport", "verify_ledger"]


def verify_ledger(conn: Connection[Any], *, projections: bool = True,
                  seal_keys: Sequence[str] = (), witness_root: Path | None = None
                  ) -> LedgerReport:
    """Every check `ledger verify` runs; each failure named, none stopping the others.
    `seal_keys` are the sealing public keys trusted (from outside the database)."""
    report = LedgerReport(chains=verify_chains(conn),
                          seal=check_seal(conn, list(seal_keys), witness_root))
    commands, misplaced = misplaced_events(conn)
    report.checked["commands"] = commands
    report.failures.extend(Failure("command", m.subject, m.reason) for m in misplaced)
    report.failures.extend(Failure("streams", subject, reason)
                           for subject, reason in cross_stream_problems(conn))
    check_streams(conn, report)
    report.notes.extend(r.describe() for r in open_rounds(conn))
    if projections:
        check_projections(conn, report)
    return report
