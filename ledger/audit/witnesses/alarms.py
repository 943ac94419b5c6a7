"""A witness's refusal is a fork alarm.

A witness cosigns only what extends the newest checkpoint it cosigned before. When it answers
the sealer with another root at the size it holds, with a size above the checkpoint's whose
root this log's leaves do not give, or by refusing the consistency proof from what it holds,
the log has shown it a history that is not the one it cosigned: the log was reset, rewritten or
forked, and no waiting will bring that witness's cosignature. The sealer keeps each such alarm
in `ledger_seal_alarms` (insert only, for the sealer's role, append-only like the rest of the
seal: the writer's login can neither delete nor edit a row), says it as an error, and the
floor page, the HTTP API's alerts and `ledger verify` name it.

A row is the sealer's word; an insider with the database's superuser may delete it. What
does not depend on it is the witness's own memory: `ledger verify` asks each witness for the
checkpoint it cosigned and names, at once, a witness whose memory the newest checkpoint does
not extend (`ledger.audit.verification.seal_check`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from psycopg import Connection

from ledger.core.formatting import TIME_LABEL, clock

ALARMS_DDL = """
    CREATE TABLE IF NOT EXISTS ledger_seal_alarms (
        witness text NOT NULL,
        size bigint NOT NULL,
        kind text NOT NULL,
        said text NOT NULL,
        evidence text NOT NULL DEFAULT '',
        raised_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (witness, size, kind))"""

Kind = Literal["root", "beyond", "proof"]
"""another root at the size the witness holds; a size above the checkpoint's with a root the
log does not give; a consistency proof from what it holds that it refused."""


@dataclass(frozen=True)
class Alarm:
    witness: str
    size: int  # the checkpoint the witness refused
    kind: Kind
    said: str  # one sentence
    evidence: str = ""  # what the witness answered: its cosigned checkpoint, or its reason
    raised_at: datetime | None = None

    def describe(self) -> str:
        when = f" (raised {clock(self.raised_at)} {TIME_LABEL})" if self.raised_at else ""
        return f"fork alarm: {self.said}{when}"


def same_root(witness: str, size: int) -> str:
    return (f"witness {witness} holds another root at {size:,} events than the checkpoint this "
            "log signed at that size: the log's history was rewritten or forked")


def beyond(witness: str, held: int, size: int, leaves: int) -> str:
    gives = (f"the log holds {leaves:,} leaves" if leaves < held
             else f"the log's leaves give another root at {held:,}")
    return (f"witness {witness} holds a checkpoint at {held:,} events, above this log's newest "
            f"({size:,}), and {gives}: the log was truncated, reset or forked")


def bad_proof(witness: str, held: int, size: int, reason: str) -> str:
    return (f"witness {witness} refused the consistency proof from the {held:,} events it holds "
            f"to the checkpoint at {size:,} ({reason}): the log does not extend what it "
            "cosigned; its history was rewritten or forked")


def record(conn: Connection[Any], alarm: Alarm) -> None:
    """Kept once per witness, checkpoint and kind (a refusal met again adds nothing)."""
    with conn.transaction():
        conn.execute("INSERT INTO ledger_seal_alarms (witness, size, kind, said, evidence) "
                     "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                     (alarm.witness, alarm.size, alarm.kind, alarm.said, alarm.evidence))


def _kept(conn: Connection[Any]) -> bool:
    """Whether this ledger keeps alarms (one made before they were has no table for them)."""
    found = conn.execute("SELECT to_regclass('ledger_seal_alarms')").fetchone()
    return bool(found and found[0])


def raised(conn: Connection[Any]) -> list[Alarm]:
    """Every alarm the sealer kept, oldest first; none on a ledger made before they were."""
    if not _kept(conn):
        return []
    rows = conn.execute("SELECT witness, size, kind, said, evidence, raised_at "
                        "FROM ledger_seal_alarms ORDER BY raised_at, witness, size").fetchall()
    return [Alarm(str(w), int(s), k, str(said), str(e), at) for w, s, k, said, e, at in rows]


def standing(conn: Connection[Any]) -> list[tuple[Alarm, int]]:
    """The newest alarm of each witness, with how many it raised in all: what the floor shows
    (a refused witness raises one for each checkpoint it refuses)."""
    if not _kept(conn):
        return []
    rows = conn.execute(
        "SELECT DISTINCT ON (witness) witness, size, kind, said, evidence, raised_at, "
        "count(*) OVER (PARTITION BY witness) FROM ledger_seal_alarms "
        "ORDER BY witness, raised_at DESC, size DESC").fetchall()
    return [(Alarm(str(w), int(s), k, str(said), str(e), at), int(n))
            for w, s, k, said, e, at, n in rows]


UNWITNESSED_AFTER = timedelta(minutes=10)
"""How long a new checkpoint may wait for its witnesses before the floor says so: the grace
`ledger verify` gives a witness that has not answered."""


def unwitnessed(conn: Connection[Any], now: datetime, witnesses: Sequence[str],
                quorum: int) -> list[str]:
    """A sentence when the seal's newest checkpoint has waited past `UNWITNESSED_AFTER` with
    fewer of the trust file's witnesses' cosignatures than its quorum: a sealer run without
    the trust file (never asking the witnesses, so none refused), or witnesses unreachable."""
    if quorum <= 0:
        return []
    newest = conn.execute("SELECT size, sealed_at FROM ledger_seal_checkpoints "
                          "ORDER BY size DESC LIMIT 1").fetchone()
    if newest is None or now - newest[1] <= UNWITNESSED_AFTER:
        return []
    size, sealed_at = int(newest[0]), newest[1]
    cosigned = {str(row[0]) for row in conn.execute(
        "SELECT witness FROM ledger_seal_cosignatures WHERE size = %s", (size,))}
    held = len(cosigned & set(witnesses))
    if held >= quorum:
        return []
    said = (f"seal unwitnessed: the newest checkpoint ({size:,} events, signed "
            f"{clock(sealed_at)} {TIME_LABEL}) has {held} of the {quorum} witnesses' "
            "cosignatures the trust file asks for; is the sealer running with the trust file "
            "and are its witnesses reachable? (`ledger verify --trust` names why)")
    return [said]
