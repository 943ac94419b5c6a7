"""The sealer's side of witnessing: each new checkpoint sent to every witness the trust file
names, with a consistency proof from the checkpoint that witness last cosigned, and the
cosignatures kept with the checkpoint (`ledger_seal_cosignatures`). The consistency proofs
are made from the seal's stored tiles (`ledger.audit.tile_store`), a few rows however long
the log.

A witness that is down, slow or refusing is a warning and a backlog, never a stop: the
sealer goes on sealing, and the next round sends the newest checkpoint with a proof from
whatever the witness holds (a witness answers 409 with its size when the sealer's idea of it
is stale). Network calls run outside any database transaction.

The checkpoint a witness is sent is the C2SP form of the sealer's own tree head: the note
`<origin>\\n<size>\\n<base64 root>\\n`, signed by the sealing key under the origin's name
(`ledger.audit.note`); the witness is configured with the origin and that public key.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from psycopg import Connection

from ledger.audit.note import (
    Note,
    NoteError,
    checkpoint_body,
    cosigned_at,
    parse_signature_lines,
    sign_note,
)
from ledger.audit.tile_store import consistency
from ledger.audit.trust import TrustedWitness, TrustFile
from ledger.identity.keys import Credential


@dataclass
class Round:
    """What one round of collecting did."""

    size: int = 0
    cosigned: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class Cosigning:
    def __init__(self, trust: TrustFile, key: Credential, *,
                 timeout: float = 5.0,  # money-safe: seconds
                 warn: Callable[[str], None] = lambda line: None) -> None:
        if trust.seal_public_key != key.public_key:
            raise ValueError("the sealing key is not the one the trust file names")
        self.trust, self.key, self.timeout, self.warn = trust, key, timeout, warn
        self.last = Round()  # what the last round of collecting did
        self.resting: dict[str, tuple[float, float]] = {}  # money-safe: monotonic seconds
        """A witness that failed: when to try it again, and the wait after the next failure
        (doubling from 2 s to a minute), so a witness that is down does not slow sealing."""

    def collect(self, conn: Connection[Any]) -> Round:
        """Send the newest checkpoint to every witness that has not cosigned it yet."""
        from ledger.audit import witness_client

        done = self.last = Round()
        newest = conn.execute("SELECT size, root FROM ledger_seal_checkpoints "
                              "ORDER BY size DESC LIMIT 1").fetchone()
        if newest is None:
            return done
        size, root = int(newest[0]), bytes(newest[1])
        done.size = size
        body = checkpoint_body(self.trust.origin, size, root)
        note = sign_note(body, self.trust.origin, self.key.private_key)
        held = dict(conn.execute("SELECT witness, max(size) FROM ledger_seal_cosignatures "
                                 "GROUP BY witness").fetchall())
        for witness in self.trust.witnesses:
            if held.get(witness.name, 0) >= size or not witness.url:
                continue
            again, _ = self.resting.get(witness.name, (0.0, 0.0))
            if time.monotonic() < again:
                continue
            old = int(held.get(witness.name) or 0)
            for _ in range(3):  # a stale idea of what the witness holds is corrected once
                try:
                    proof = self._proof(conn, done, old, size, root)
                    lines = witness_client.submit(witness.url, old, proof, str(note),
                                                  timeout=self.timeout)
                except witness_client.WitnessConflict as conflict:
                    old = conflict.known_size
                    if old >= size:
                        break
                    continue
                except (witness_client.WitnessError, ValueError) as error:
                    self._warn(done, f"witness {witness.name} did not cosign the checkpoint at "
                               f"{size:,} events ({error}); it stays in the backlog")
                    _, wait = self.resting.get(witness.name, (0.0, 1.0))
                    wait = min(wait * 2, 60.0)
                    self.resting[witness.name] = (time.monotonic() + wait, wait)
                    break
                self.resting.pop(witness.name, None)
                if self._keep(conn, witness, body, size, lines):
                    done.cosigned.append(witness.name)
                else:
                    self._warn(done, f"witness {witness.name} answered the checkpoint at "
                               f"{size:,} events with no cosignature that verifies under its "
                               "trusted key")
                break
        return done

    def _proof(self, conn: Connection[Any], done: Round, old: int, size: int,
               root: bytes) -> list[bytes]:
        """PROOF(old, size) from the stored tiles, checked against the signed roots; a stored
        tile it had to read past to the leaves is warned of."""
        row = conn.execute("SELECT root FROM ledger_seal_checkpoints WHERE size = %s",
                           (old,)).fetchone()
        proof, damage = consistency(conn, old, size, bytes(row[0]) if row else None, root)
        for line in damage:
            self._warn(done, f"{line}: the consistency proof was made from the stored leaves "
                       "(run `ledger seal repair`)")
        return proof

    def _keep(self, conn: Connection[Any], witness: TrustedWitness, body: str, size: int,
              lines: list[str]) -> bool:
        try:
            signatures = parse_signature_lines("".join(lines))
        except NoteError:
            return False
        mine = [s for s in signatures if s.name == witness.name]
        if cosigned_at(Note(body, tuple(mine)), witness.name, witness.public_key) is None:
            return False
        with conn.transaction():
            for signature in mine:
                conn.execute("INSERT INTO ledger_seal_cosignatures (size, witness, cosignature, "
                             "received_at) VALUES (%s, %s, %s, now()) ON CONFLICT DO NOTHING",
                             (size, witness.name, signature.line))
        return True

    def _warn(self, done: Round, line: str) -> None:
        done.warnings.append(line)
        self.warn(line)
