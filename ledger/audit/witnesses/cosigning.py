"""The sealer's side of witnessing: each new checkpoint sent to every witness the trust file
names, with a consistency proof from the checkpoint that witness last cosigned, and the
cosignatures kept with the checkpoint (`ledger_seal_cosignatures`). The consistency proofs
are made from the seal's stored tiles (`ledger.audit.log.tile_store`), a few rows however long
the log.

A witness that is down or slow is a warning and a backlog, never a stop: the sealer goes on
sealing, and the next round sends the newest checkpoint with a proof from whatever the witness
holds (a witness answers 409 with its size when the sealer's idea of it is stale). A witness
that refuses the checkpoint for what it is (another root at the size it holds, a size above it
whose root the log's leaves do not give, or the consistency proof from what it holds) is a
fork alarm (`ledger.audit.witnesses.alarms`): kept, and said as an error. Network calls run
outside any database transaction.

The checkpoint a witness is sent is the C2SP form of the sealer's own tree head: the note
`<origin>\\n<size>\\n<base64 root>\\n`, signed by the sealing key under the origin's name
(`ledger.audit.log.note`); the witness is configured with the origin and that public key.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from psycopg import Connection

from ledger.audit.log.merkle import root_of
from ledger.audit.log.note import (
    Note,
    NoteError,
    checkpoint_body,
    cosigned_at,
    parse_signature_lines,
    sign_note,
)
from ledger.audit.log.tile_store import consistency, stored_leaves
from ledger.audit.log.trust import TrustedWitness, TrustFile
from ledger.audit.witnesses.alarms import Alarm, bad_proof, beyond, record, same_root
from ledger.identity.keys import Credential


@dataclass
class Round:
    """What one round of collecting did."""

    size: int = 0
    cosigned: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    alarms: list[str] = field(default_factory=list)  # witnesses' refusals: forks


class Cosigning:
    def __init__(self, trust: TrustFile, key: Credential, *,
                 timeout: float = 5.0,  # money-safe: seconds
                 warn: Callable[[str], None] = lambda line: None,
                 alarm: Callable[[str], None] = lambda line: None) -> None:
        if trust.seal_public_key != key.public_key:
            raise ValueError("the sealing key is not the one the trust file names")
        self.trust, self.key, self.timeout, self.warn = trust, key, timeout, warn
        self.alarm = alarm
        self.last = Round()  # what the last round of collecting did
        self.resting: dict[str, tuple[float, float]] = {}  # money-safe: monotonic seconds
        """A witness that failed: when to try it again, and the wait after the next failure
        (doubling from 2 s to a minute), so a witness that is down does not slow sealing."""

    def collect(self, conn: Connection[Any]) -> Round:
        """Send the newest checkpoint to every witness that has not cosigned it yet."""
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
            if self._ask(conn, done, witness, int(held.get(witness.name) or 0), size, root,
                         body, str(note)):
                self.resting.pop(witness.name, None)
            else:
                _, wait = self.resting.get(witness.name, (0.0, 1.0))
                wait = min(wait * 2, 60.0)
                self.resting[witness.name] = (time.monotonic() + wait, wait)
        return done

    def _ask(self, conn: Connection[Any], done: Round, witness: TrustedWitness, old: int,
             size: int, root: bytes, body: str, note: str) -> bool:
        """One witness asked to cosign, from the size the sealer believes it holds; a stale
        belief is corrected by its 409. False when it did not cosign (rested a while)."""
        from ledger.audit.witnesses import client as witness_client

        for _ in range(3):
            try:
                proof = self._proof(conn, done, old, size, root)
                lines = witness_client.submit(witness.url or "", old, proof, note,
                                              timeout=self.timeout)
            except witness_client.WitnessConflict as conflict:
                known = conflict.known_size
                if known == old == size:  # it holds this size, and another root
                    self._alarm(conn, done, Alarm(witness.name, size, "root", same_root(
                        witness.name, size), self._latest(witness)))
                    return False
                if known > size:
                    return self._beyond(conn, done, witness, known, size)
                old = known
                continue
            except witness_client.WitnessRefused as refused:
                if refused.status != 422:
                    return self._missed(done, witness, size, refused)
                self._alarm(conn, done, Alarm(witness.name, size, "proof", bad_proof(
                    witness.name, old, size, refused.reason), self._latest(witness)))
                return False
            except (witness_client.WitnessError, ValueError) as error:
                return self._missed(done, witness, size, error)
            if self._keep(conn, witness, body, size, lines):
                done.cosigned.append(witness.name)
            else:
                self._warn(done, f"witness {witness.name} answered the checkpoint at "
                           f"{size:,} events with no cosignature that verifies under its "
                           "trusted key")
            return True
        return self._missed(done, witness, size, ValueError("it kept changing the size it "
                                                            "holds"))

    def _missed(self, done: Round, witness: TrustedWitness, size: int,
                error: Exception) -> bool:
        self._warn(done, f"witness {witness.name} did not cosign the checkpoint at {size:,} "
                   f"events ({error}); it stays in the backlog")
        return False

    def _beyond(self, conn: Connection[Any], done: Round, witness: TrustedWitness, held: int,
                size: int) -> bool:
        """The witness holds more than the newest checkpoint: nothing to send when the log's
        leaves give the root of the checkpoint it cosigned (another sealer's newer one); an
        alarm when they do not, or the log has fewer leaves."""
        from ledger.audit.witnesses.quorum import read_memory

        evidence = self._latest(witness)
        (leaves,) = conn.execute("SELECT size FROM ledger_seal_state").fetchone() or (0,)
        try:
            remembered = read_memory(witness, evidence, self.trust.origin, witness.url or "")
        except NoteError:
            if leaves >= held:  # its checkpoint is needed to tell; asked again next round
                return self._missed(done, witness, size, ValueError(
                    f"it holds {held:,} events and its checkpoint could not be read"))
        else:
            held = remembered.size
            if leaves >= held and root_of(stored_leaves(conn, held)) == remembered.root:
                return True
        self._alarm(conn, done, Alarm(witness.name, size, "beyond", beyond(
            witness.name, held, size, int(leaves)), evidence))
        return False

    def _latest(self, witness: TrustedWitness) -> str:
        """What the witness cosigned last, kept as the alarm's evidence ("" if it will not
        say)."""
        from ledger.audit.witnesses import client as witness_client

        try:
            return witness_client.latest(witness.url or "", self.trust.origin,
                                         timeout=self.timeout) or ""
        except witness_client.WitnessError:
            return ""

    def _alarm(self, conn: Connection[Any], done: Round, alarm: Alarm) -> None:
        record(conn, alarm)
        done.alarms.append(alarm.said)
        self.alarm(alarm.said)

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
