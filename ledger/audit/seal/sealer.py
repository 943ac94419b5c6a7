"""The sealing follower: extends the Merkle tree over every event in global order and, every
N events or S seconds, signs a checkpoint, writes it to the witness and to the database.

It reads as the projections do (`projections.engine.runner`): one batch is one transaction that locks
the row of `ledger_seal_state`, reads the next events after the committed position kept there,
stores their leaves and the tree's new frontier, and moves the position, so after a crash it
resumes exactly where the last commit left it; two sealers take turns on that row. The position
lives in the seal's own state, which only the sealer role may update, not in `ledger_tracking`,
which the writer updates for the projections. A state that does not agree with itself or with
the stored leaves is rebuilt from them when they can be trusted (`ledger.audit.seal.state`).

A checkpoint is written to the witness *before* its row is committed. If the process dies
between the two, the next checkpoint at that size finds the witness file, checks that it is
signed by this key over the same root, and adopts it instead of signing another.

What the database holds (created by `ledger db init`, append-only like the events):

- `ledger_seal_leaves`: each event's leaf hash, with its position, stream and version (so a
  verifier can name what moved or went missing);
- `ledger_seal_tiles`: the tree's interior hashes, each tile of height 8 once it is full, so
  that a proof reads a few rows (`ledger.audit.log.tiles`); written in the batch that fills it.
  The sealer's first batch after it starts stores any full tile missing (a ledger sealed
  before tiles were kept);
- `ledger_seal_state`: the tree's size and frontier, the sealer's position, and when it was
  last checkpointed;
- `ledger_seal_checkpoints`: each checkpoint's exact signed bytes and signature;
- `ledger_seal_keys`: the sealing public keys. Only public halves: the private key is a file
  named by `LEDGER_SEAL_KEY` on the sealing host;
- `ledger_seal_cosignatures`: witnesses' cosignatures of checkpoints;
- `ledger_seal_alarms`: each witness's refusal of a checkpoint, a fork alarm
  (`ledger.audit.witnesses.alarms`).
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from psycopg import Connection, sql

from ledger.audit.log.formats import Checkpoint, Witness, event_leaf, recorded_ledger_id
from ledger.audit.log.merkle import Frontier
from ledger.audit.log.tile_store import TILES_DDL, build_missing_tiles, write_tiles
from ledger.audit.seal.state import damage, rebuild, store
from ledger.audit.witnesses.alarms import ALARMS_DDL
from ledger.audit.witnesses.cosigning import Cosigning
from ledger.core import clock
from ledger.core.errors import WrongState
from ledger.identity.keys import Credential
from ledger.infrastructure.database import EVENTS_TABLE, Database
from projections.engine.runner import CHANNEL

SEAL = "seal"  # its row in ledger_tracking, where ledgers made before kept its position

SEAL_TABLES = {
    "ledger_seal_leaves": """
        CREATE TABLE IF NOT EXISTS ledger_seal_leaves (
            leaf_index bigint PRIMARY KEY,
            position bigint NOT NULL UNIQUE,
            stream_id uuid NOT NULL,
            version bigint NOT NULL,
            leaf bytea NOT NULL)""",
    "ledger_seal_checkpoints": """
        CREATE TABLE IF NOT EXISTS ledger_seal_checkpoints (
            size bigint PRIMARY KEY,
            position bigint NOT NULL,
            root bytea NOT NULL,
            sealed_at timestamptz NOT NULL,
            key_fingerprint text NOT NULL,
            statement bytea NOT NULL,
            signature bytea NOT NULL)""",
    "ledger_seal_keys": """
        CREATE TABLE IF NOT EXISTS ledger_seal_keys (
            fingerprint text PRIMARY KEY,
            public_key text NOT NULL,
            added_at timestamptz NOT NULL DEFAULT now())""",
    "ledger_seal_cosignatures": """
        CREATE TABLE IF NOT EXISTS ledger_seal_cosignatures (
            size bigint NOT NULL,
            witness text NOT NULL,
            cosignature text NOT NULL,
            received_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (size, witness))""",
    "ledger_seal_tiles": TILES_DDL,
    "ledger_seal_alarms": ALARMS_DDL,
}
STATE_DDL = """
    CREATE TABLE IF NOT EXISTS ledger_seal_state (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        ledger_id uuid NOT NULL DEFAULT gen_random_uuid(),
        size bigint NOT NULL,
        frontier bytea[] NOT NULL,
        position bigint NOT NULL DEFAULT 0,
        checkpointed_size bigint NOT NULL,
        checkpointed_at timestamptz)"""

READ = sql.SQL(
    "SELECT notification_id, originator_id, originator_version, topic, state FROM {} "
    "WHERE notification_id > %s ORDER BY notification_id LIMIT %s"
).format(sql.Identifier(EVENTS_TABLE))


def create_seal_tables(conn: Connection[Any]) -> list[str]:
    """The seal's tables and its tracking row; returns the append-only ones."""
    for ddl in SEAL_TABLES.values():
        conn.execute(ddl)
    conn.execute(STATE_DDL)
    conn.execute("INSERT INTO ledger_seal_state (size, frontier, checkpointed_size) "
                 "VALUES (0, '{}', 0) ON CONFLICT DO NOTHING")
    _carry_position_over(conn)
    return list(SEAL_TABLES)


def _carry_position_over(conn: Connection[Any]) -> None:
    """A ledger made before the position moved into `ledger_seal_state`: it takes the tracking
    row's, and the row goes (the writer may update `ledger_tracking`, not the seal's state)."""
    added = conn.execute(
        "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = 'ledger_seal_state' AND column_name = 'position'").fetchone()
    if added:
        return
    conn.execute("ALTER TABLE ledger_seal_state ADD COLUMN position bigint NOT NULL DEFAULT 0")
    tracked = conn.execute("SELECT to_regclass('ledger_tracking')").fetchone()
    if tracked and tracked[0]:
        conn.execute("UPDATE ledger_seal_state SET position = t.position FROM ledger_tracking t "
                     "WHERE t.projection = %s", (SEAL,))
        conn.execute("DELETE FROM ledger_tracking WHERE projection = %s", (SEAL,))


@dataclass(frozen=True)
class Cadence:
    every_events: int = 1000
    every_seconds: float = 60.0  # money-safe: a wait


@dataclass(frozen=True)
class Sealed:
    """What one batch did."""

    events: int
    size: int
    position: int
    checkpoint: Checkpoint | None


class Sealer:
    def __init__(self, database: Database, key: Credential, witness_root: Path,
                 cadence: Cadence = Cadence(), batch_size: int = 1000) -> None:
        if key.kind != "seal":
            raise ValueError(f"a {key.kind} key cannot seal: make one with `ledger key new seal`")
        self.database, self.key, self.witness_root = database, key, witness_root
        self.cadence, self.batch_size = cadence, batch_size
        self.on_rebuild: Callable[[str], None] = lambda line: None  # told of a state rebuilt
        self.cosigning: Cosigning | None = None
        """Sends each new checkpoint to the trust file's witnesses (`ledger.audit.witnesses.cosigning`)."""
        self.trusted_ledger: str | None = None
        """The ledger id the trust file names: a database holding another is not sealed."""
        self.tiles_checked = False
        """Whether this sealer's first batch has stored every full tile missing (a ledger
        sealed before tiles were kept)."""

    def witness_of(self, ledger_id: str) -> Witness:
        return Witness(self.witness_root / ledger_id)

    # -- one transaction --------------------------------------------------------------------
    def step(self, conn: Connection[Any], *, force_checkpoint: bool = False) -> Sealed:
        """Seal the next batch of events; checkpoint when the cadence (or `force`) says so."""
        with conn.transaction():
            ledger_id, frontier, position, done, done_at = self._state(conn)
            old_size = frontier.size
            if not self.tiles_checked:
                build_missing_tiles(conn, old_size)
            with conn.cursor(binary=True) as cursor:
                rows = cursor.execute(READ, (position, self.batch_size)).fetchall()
            leaves = []
            for notification_id, stream_id, version, topic, state in rows:
                leaf = event_leaf(notification_id, stream_id, version, topic, bytes(state))
                leaves.append((frontier.size, notification_id, stream_id, version, leaf))
                frontier.append(leaf)
            if rows:
                position = rows[-1][0]
                with conn.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO ledger_seal_leaves (leaf_index, position, stream_id, "
                        "version, leaf) VALUES (%s, %s, %s, %s, %s)", leaves)
                for line in write_tiles(conn, old_size, frontier.size):
                    self.on_rebuild(f"{line}: it was stored ahead of the sealer and is kept "
                                    "(append-only); proofs read past it to the leaves")
            checkpoint = None
            if frontier.size > done and (
                    force_checkpoint or frontier.size - done >= self.cadence.every_events
                    or done_at is None
                    or clock.now().timestamp() - done_at.timestamp() >= self.cadence.every_seconds):
                checkpoint = self._checkpoint(conn, ledger_id, frontier, position)
            conn.execute(
                "UPDATE ledger_seal_state SET size = %s, frontier = %s, position = %s, "
                "checkpointed_size = coalesce(%s, checkpointed_size), "
                "checkpointed_at = coalesce(%s, checkpointed_at)",
                (frontier.size, frontier.hashes(), position, checkpoint and checkpoint.size,
                 checkpoint and checkpoint.when))
        self.tiles_checked = True  # committed with the batch
        return Sealed(len(rows), frontier.size, position, checkpoint)

    def _state(self, conn: Connection[Any]) -> tuple[str, Frontier, int, int, datetime | None]:
        """The state, its row locked until this transaction ends (two sealers take turns);
        rebuilt from the stored leaves, and said so, when it does not agree with them."""
        row = conn.execute("SELECT ledger_id, size, frontier, position, checkpointed_size, "
                           "checkpointed_at FROM ledger_seal_state FOR UPDATE").fetchone()
        if row is None:
            raise WrongState("the seal's tables are missing: run `ledger db init`.")
        ledger_id, size, hashes, position, done, done_at = row
        if self.trusted_ledger is not None and str(ledger_id) != self.trusted_ledger:
            raise WrongState(f"this database's ledger id is {ledger_id}, and the trust file "
                             f"names {self.trusted_ledger}: the seal was reset, or this is "
                             "another ledger; nothing sealed or signed.")
        hashes = [bytes(h) for h in hashes]
        problem = damage(conn, size, hashes, position, done)
        if problem is None:
            return str(ledger_id), Frontier.restore(size, hashes), position, done, done_at
        state = rebuild(conn, str(ledger_id), self.key.public_key)
        store(conn, state)
        self.on_rebuild(f"the seal's state was damaged ({problem}): rebuilt from its "
                        f"{state.frontier.size:,} stored leaves, which the newest checkpoint "
                        "and the events vouch for")
        return (state.ledger_id, state.frontier, state.position, state.checkpointed_size,
                state.checkpointed_at)

    def _checkpoint(self, conn: Connection[Any], ledger_id: str, frontier: Frontier,
                    position: int) -> Checkpoint:
        root = frontier.root()
        witness = self.witness_of(ledger_id)
        adopted = witness.read(frontier.size)
        if adopted is not None and adopted.root == root and adopted.position == position \
                and adopted.verifies(self.key.public_key):
            checkpoint = adopted  # signed before a crash that lost the row: the same statement
        else:
            sealed_at = clock.now().strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            unsigned = Checkpoint(ledger_id, frontier.size, position, root, sealed_at,
                                  self.key.fingerprint, "")
            checkpoint = Checkpoint(**{**unsigned.__dict__,
                                       "signature": self.key.sign(unsigned.signed_bytes)})
            witness.write(checkpoint)
        conn.execute("INSERT INTO ledger_seal_keys (fingerprint, public_key) VALUES (%s, %s) "
                     "ON CONFLICT DO NOTHING", (self.key.fingerprint, self.key.public_key))
        conn.execute(
            "INSERT INTO ledger_seal_checkpoints (size, position, root, sealed_at, "
            "key_fingerprint, statement, signature) VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (checkpoint.size, checkpoint.position, checkpoint.root, checkpoint.when,
             checkpoint.key, checkpoint.signed_bytes, base64.b64decode(checkpoint.signature)))
        return checkpoint

    # -- loops ------------------------------------------------------------------------------
    def catch_up(self, conn: Connection[Any], *, checkpoint_at_end: bool = False,
                 stop: threading.Event | None = None) -> list[Sealed]:
        done = []
        while not (stop and stop.is_set()):
            sealed = self.step(conn)
            done.append(sealed)
            if sealed.events < self.batch_size:
                break
        if checkpoint_at_end:
            done.append(self.step(conn, force_checkpoint=True))
        if self.cosigning is not None:
            self.cosigning.collect(conn)
        return done

    def follow(self, stop: threading.Event,
               poll_seconds: float = 1.0) -> None:  # money-safe: a wait
        """Catch up, then seal new events as they are recorded, until `stop` is set; signs a
        last checkpoint on the way out so nothing recorded before the stop is left unsealed."""
        with self.database.connect() as conn, self.database.connect() as listener:
            conn.execute("SET application_name = 'ledger seal'")
            listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
            while not stop.is_set():
                self.catch_up(conn, stop=stop)
                deadline = time.monotonic() + poll_seconds
                while not stop.is_set() and time.monotonic() < deadline:
                    if any(True for _ in listener.notifies(timeout=0.25, stop_after=1)):
                        break
            self.catch_up(conn, checkpoint_at_end=True)


@dataclass(frozen=True)
class SealStatus:
    ledger_id: str
    recorded: int
    sealed: int
    checkpointed: int
    checkpoints: list[Checkpoint]  # the newest few, oldest first
    signed: int = 0  # every signed checkpoint stored


def ledger_id(conn: Connection[Any]) -> str:
    found = recorded_ledger_id(conn)
    if found is None:
        raise WrongState("the seal's tables are missing: run `ledger db init`.")
    return found



def seal_status(conn: Connection[Any], last: int = 5) -> SealStatus:
    recorded = conn.execute(sql.SQL("SELECT count(*) FROM {}").format(
        sql.Identifier(EVENTS_TABLE))).fetchone()
    size, done = conn.execute(
        "SELECT size, checkpointed_size FROM ledger_seal_state").fetchone() or (0, 0)
    rows = conn.execute("SELECT statement, signature FROM ledger_seal_checkpoints "
                        "ORDER BY size DESC LIMIT %s", (last,)).fetchall()
    checkpoints = [Checkpoint.from_statement(bytes(s), bytes(sig)) for s, sig in rows][::-1]
    signed = conn.execute("SELECT count(*) FROM ledger_seal_checkpoints").fetchone()
    return SealStatus(ledger_id(conn), int(recorded[0]) if recorded else 0, size, done,
                      checkpoints, int(signed[0]) if signed else 0)
