"""`ledger verify` from where the last verification that held left off.

The verifier keeps a signed record of each verification that found nothing wrong
(`ledger.audit.verification.record`), beside the trust file. The next verification reads it,
checks that it is this verifier's and this ledger's and made by this code, and checks only
what came after it: the new events extend the tree that was verified, every newer signed
checkpoint's root is recomputed from them (a consistency proof of its own), no witness holds
less than it did, and every command after the boundary is proven by its signed envelope and
executed again on the streams as they stood there. `--full` (or a missing, foreign or
unusable record) checks everything again. Nothing is recorded after a verification that
found something wrong: the next one starts from the same place and names it again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from psycopg import Connection

from ledger.audit.log.trust import TrustFile
from ledger.audit.verification.findings import LedgerReport
from ledger.audit.verification.record import (
    Unusable,
    VerificationRecord,
    code_digest,
    default_path,
    load_record,
    now,
    save_record,
)
from ledger.audit.verification.verify import verify_ledger
from ledger.identity.keys import Credential


@dataclass
class Verification:
    """What was verified, from where, and what was recorded for the next verification."""

    report: LedgerReport
    since: VerificationRecord | None = None  # resumed from this record (None: in full)
    record: Path | None = None
    written: VerificationRecord | None = None
    notes: list[str] = field(default_factory=list)


def verify(conn: Connection[Any], *, trust: TrustFile | None, trust_path: Path | None,
           verifier: Credential | None, record_path: Path | None = None, full: bool = False,
           **checks: Any) -> Verification:
    """Incremental when a usable record is on file, else in full; the record is rewritten
    after a verification that held. `checks` go to `verify_ledger`."""
    path = record_path or (default_path(trust_path) if trust_path is not None else None)
    notes: list[str] = []
    since = None
    if trust is None or verifier is None or path is None:
        if trust is not None:
            notes.append("no verifier key (--key or LEDGER_VERIFIER_KEY): verified in full, "
                         "and no record kept for the next verification")
    elif not full:
        try:
            since = load_record(path, verifier, str(trust.ledger))
        except Unusable as reason:
            notes.append(f"the verification record is not used: {reason}; verified in full")
    if since is not None and checks.get("projections", True):
        notes.append("the projections (read models, not evidence) are compared with a rebuild "
                     "from every event only in full: `ledger verify --full`")
    found = Verification(report=verify_ledger(conn, trust=trust, since=since, **checks),
                         since=since, record=path, notes=notes)
    boundary = found.report.boundary
    if (found.report.ok and boundary is not None and trust is not None
            and verifier is not None and path is not None):
        seal = found.report.seal
        previous = dict(since.witnesses) if since is not None else {}
        record = VerificationRecord(
            ledger=str(trust.ledger), reached=boundary.reached, resume_after=boundary.after,
            events=boundary.reached.size, witnesses={**previous, **(seal.held if seal else {})},
            code=code_digest(), verified_at=now(),
            full_at=since.full_at if since is not None else now(), state=boundary.state)
        found.written = record.signed(verifier)
        save_record(path, found.written)
    return found
