"""`ledger verify`: every check of the whole ledger, each failure named, none stopping the others.

Hash chains and versions (`chain`), the seal against its signed checkpoints, the witnesses'
memory and their cosignatures (`seal_check`, `witnessed`), every event proven by a signed,
authorised command executed again (`authorship`), streams that name each other agreeing
(`cross_checks`), then shoes, money, pools and projections (`checks`).

What it trusts comes from outside the database: the trust file (`ledger.audit.trust`) names
the ledger, the sealing key, the first administrator and the witnesses. Without one, every
check still runs, but against keys and an identity the database itself holds: that proves
nothing against whoever keeps the database, and the report says so first.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from psycopg import Connection

from ledger.audit.authorship import check_authorship
from ledger.audit.chain import verify_chains
from ledger.audit.checks import check_streams
from ledger.audit.cross_checks import cross_stream_problems
from ledger.audit.findings import Failure, LedgerReport
from ledger.audit.open_rounds import open_rounds
from ledger.audit.projection_check import check_projections
from ledger.audit.seal import recorded_ledger_id
from ledger.audit.seal_check import check_seal
from ledger.audit.trust import TrustFile
from ledger.audit.witnessed import Memories, gather

__all__ = ["Failure", "LedgerReport", "verify_ledger"]

UNTRUSTED = ("no trust file: this verification checks the ledger against keys and an identity "
             "the database itself holds, which proves nothing against whoever keeps the "
             "database (give --trust FILE, written by `ledger trust init` at deployment)")


def verify_ledger(conn: Connection[Any], *, projections: bool = True,
                  seal_keys: Sequence[str] = (), witness_root: Path | None = None,
                  trust: TrustFile | None = None, witness_state: Sequence[Path] = (),
                  ask_witnesses: bool = True) -> LedgerReport:
    """Every check `ledger verify` runs; each failure named, none stopping the others.
    `seal_keys` are the sealing public keys trusted (from outside the database); a trust
    file, when given, names them instead, and the witnesses to consult."""
    memories = Memories()
    if trust is not None:
        seal_keys = [trust.seal_public_key]
        memories = gather(trust, list(witness_state), live=ask_witnesses)
    report = LedgerReport(chains=verify_chains(conn),
                          seal=check_seal(conn, list(seal_keys), witness_root, trust=trust,
                                          memories=memories))
    if trust is None:
        report.notes.insert(0, UNTRUSTED)
    ledger_id = recorded_ledger_id(conn)
    if trust is not None and ledger_id is not None and ledger_id != str(trust.ledger):
        report.failures.append(Failure(
            "trust", "the ledger's id", f"the database says {ledger_id}, the trust file "
            f"{trust.ledger}: the seal was reset, or this is another ledger"))
    authorship = check_authorship(
        conn, administrator_key=trust.administrator_public_key if trust else None,
        ledger_id=str(trust.ledger) if trust else ledger_id)
    report.checked["commands"] = authorship.commands
    report.failures.extend(Failure("command", subject, reason)
                           for subject, reason in authorship.failures)
    report.notes.extend(authorship.notes)
    report.failures.extend(Failure("streams", subject, reason)
                           for subject, reason in cross_stream_problems(conn))
    check_streams(conn, report)
    report.notes.extend(r.describe() for r in open_rounds(conn))
    if projections:
        check_projections(conn, report)
    return report

