"""`ledger verify`: every check of the whole ledger, each failure named, none stopping the others.

Hash chains and versions (`chain`), every position one the database gave and the events up to
a checkpoint exactly its leaves (`positions`), the seal against its signed checkpoints, the
witnesses' memory and their cosignatures (`verification.seal_check`, `witnesses.quorum`), every event proven by a
signed, authorised command executed again (`authorship`), no command dated after it was
recorded (`recording_times`), streams that name each other agreeing
(`cross_checks`), then shoes, money, pools and projections (`checks`).

What it trusts comes from outside the database: the trust file (`ledger.audit.log.trust`) names
the ledger, the sealing key, the first administrator and the witnesses. Without one, every
check still runs, but against keys and an identity the database itself holds: that proves
nothing against whoever keeps the database, and the report says so first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

from psycopg import Connection

from ledger.audit.log.formats import recorded_ledger_id
from ledger.audit.log.trust import TrustFile
from ledger.audit.replay.chain import verify_chains
from ledger.audit.verification.authorship import check_authorship
from ledger.audit.verification.checks import check_streams
from ledger.audit.verification.cross_checks import cross_stream_problems
from ledger.audit.verification.findings import Boundary, Failure, LedgerReport
from ledger.audit.verification.open_rounds import open_rounds
from ledger.audit.verification.parallel import check_authorship_parallel, prepare
from ledger.audit.verification.positions import position_failures
from ledger.audit.verification.projection_check import check_projections
from ledger.audit.verification.record import VerificationRecord
from ledger.audit.verification.recording_times import recorded_after
from ledger.audit.verification.seal_check import SealReport, check_seal
from ledger.audit.witnesses.alarms import raised
from ledger.audit.witnesses.quorum import Memories, gather
from ledger.core.clock import THE_CLOCK, Clock
from ledger.domain.round import Round
from ledger.infrastructure.practice import is_practice

__all__ = ["Failure", "LedgerReport", "verify_ledger"]

UNTRUSTED = ("no trust file: this verification checks the ledger against keys and an identity "
             "the database itself holds, which proves nothing against whoever keeps the "
             "database (give --trust FILE, written by `ledger trust init` at deployment)")


def verify_ledger(conn: Connection[Any], *, projections: bool = True,
                  seal_keys: Sequence[str] = (), witness_root: Path | None = None,
                  trust: TrustFile | None = None, witness_state: Sequence[Path] = (),
                  ask_witnesses: bool = True,
                  since: VerificationRecord | None = None, sample: int = 0,
                  workers: int = 1, clock: Clock = THE_CLOCK,
                  ahead: timedelta = timedelta(minutes=5)) -> LedgerReport:
    """Every check `ledger verify` runs; each failure named, none stopping the others.
    `seal_keys` are the sealing public keys trusted (from outside the database); a trust
    file, when given, names them instead, and the witnesses to consult.

    `since`: the verifier's record of a verification that held: only what came after the
    checkpoint it reached is checked, from the state it carried (`verification.record`);
    the projections, read models rebuilt from every event, are compared only in full.
    `report.boundary` is what the next record carries. `workers`: processes the proof of
    every event by its command is spread over when the log is checked from its start
    (`ledger.audit.verification.parallel`); from a record it is checked in this one. `clock` gives the
    verification's own time and `ahead` how far a command's time may run ahead of its
    recording (`recording_times`)."""
    memories = Memories()
    if trust is not None:
        seal_keys = [trust.seal_public_key]
        memories = gather(trust, list(witness_state), live=ask_witnesses)
    if since is None:
        prepare(workers)  # the workers' server starts while the chains and seal are checked
    carried: dict[str, Any] = since.carried() if since is not None else {}
    after = carried["authorship"].after if carried else 0
    report = LedgerReport(chains=verify_chains(conn, after=after),
                          seal=check_seal(conn, list(seal_keys), witness_root, trust=trust,
                                          memories=memories,
                                          since=since.reached if since else None,
                                          witnesses_saw=since.witnesses if since else None))
    if report.seal is not None:  # the sealer's word; the witnesses' memory is asked above
        report.seal.problems.extend(alarm.describe() for alarm in raised(conn))
    report.failures.extend(position_failures(conn, since.reached if since else None))
    reached = report.seal.reached if report.seal is not None else None
    if since is not None and report.seal is not None and not report.seal.problems:
        _sample(conn, report.seal, since.reached.size, seal_keys, sample)
    if trust is None:
        report.notes.insert(0, UNTRUSTED)
    ledger_id = recorded_ledger_id(conn)
    if trust is not None and ledger_id is not None and ledger_id != str(trust.ledger):
        report.failures.append(Failure(
            "trust", "the ledger's id", f"the database says {ledger_id}, the trust file "
            f"{trust.ledger}: the seal was reset, or this is another ledger"))
    administrator_key = trust.administrator_public_key if trust else None
    boundary = reached.position if reached else None
    if workers > 1 and not carried:
        authorship = check_authorship_parallel(
            conn, workers=workers, administrator_key=administrator_key,
            ledger_id=str(trust.ledger) if trust else ledger_id, boundary=boundary)
    else:
        authorship = check_authorship(
            conn, administrator_key=administrator_key,
            ledger_id=str(trust.ledger) if trust else ledger_id,
            resume=carried.get("authorship"), boundary=boundary)
    report.checked["commands"] = authorship.commands
    report.failures.extend(Failure("command", subject, reason)
                           for subject, reason in authorship.failures)
    report.notes.extend(authorship.notes)
    report.failures.extend(Failure("time", subject, reason) for subject, reason in
                           recorded_after(conn, now=clock.now(), ahead=ahead, after=after))
    report.practice = is_practice(conn)
    if trust is not None and trust.practice is not None and trust.practice != report.practice:
        report.failures.append(Failure(
            "trust", "practice", f"the trust file says this is {_kind(trust.practice)}, the "
            f"database {_kind(not trust.practice)}"))
    resume = authorship.carried.after if authorship.carried is not None else None
    problems, context = cross_stream_problems(conn, after=after, context=carried.get("cross"),
                                              boundary=resume)
    report.failures.extend(Failure("streams", subject, reason) for subject, reason in problems)
    pools = check_streams(conn, report, after=after, pools=carried.get("pools"),
                          boundary=resume)
    known_open = [UUID(e.stream) for e in carried.get("cross", [])
                  if e.kind == Round.Opened.event_type]
    report.notes.extend(r.describe() for r in open_rounds(conn, after=after, among=known_open))
    if projections and since is None:
        check_projections(conn, report)
    if reached is not None and authorship.carried is not None:
        report.boundary = Boundary(reached, authorship.carried.after, VerificationRecord.pack(
            {"authorship": authorship.carried, "pools": pools, "cross": context}))
    return report


def _kind(practice: bool) -> str:
    return "a practice ledger" if practice else "a property's real ledger"


def _sample(conn: Connection[Any], seal: SealReport, size: int, keys: Sequence[str],
            count: int) -> None:
    """Some events of the history verified before, drawn at random, proven again."""
    from ledger.audit.verification.sampling import sample_verified

    proven, problems = sample_verified(conn, size, keys, count)
    seal.problems += [f"an event of the history verified before: {p}" for p in problems]
    if proven and not problems:
        seal.notes.append(f"{proven:,} events of the history verified before, drawn at random, "
                          "proven again against the newest checkpoint: they are what was sealed")
