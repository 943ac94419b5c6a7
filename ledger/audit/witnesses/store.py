"""A witness's memory: per log (origin), the newest checkpoint it cosigned, in one SQLite file.

What a witness promises is that it never cosigns a checkpoint inconsistent with one it cosigned
before, so its memory only moves forward: the row of an origin is replaced, inside one
`BEGIN IMMEDIATE` transaction with the check that allowed it, by a larger tree or the same
tree, never deleted, never shrunk, never given another root at the same size. Triggers refuse
those writes too, so not even a mistaken caller of this module can make them. Commits are
durable before the witness answers (`PRAGMA synchronous=FULL`).

The file also records the witness key it belongs to (its vkey), so that a store is never
served under another key by mistake.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS witnessed (
    origin TEXT PRIMARY KEY,
    size INTEGER NOT NULL CHECK (size >= 0),
    root BLOB NOT NULL CHECK (length(root) = 32),
    note TEXT NOT NULL,
    cosigned_at INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS witnessed_never_deleted BEFORE DELETE ON witnessed
BEGIN SELECT RAISE(ABORT, 'a witnessed checkpoint is never deleted'); END;
CREATE TRIGGER IF NOT EXISTS witnessed_never_rewound BEFORE UPDATE ON witnessed
WHEN NEW.origin != OLD.origin OR NEW.size < OLD.size
     OR (NEW.size = OLD.size AND NEW.root != OLD.root)
BEGIN SELECT RAISE(ABORT, 'a witnessed checkpoint only grows'); END;
CREATE TABLE IF NOT EXISTS witness (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS witness_key_kept BEFORE UPDATE ON witness
BEGIN SELECT RAISE(ABORT, 'a witness store keeps the key it was made for'); END;
CREATE TRIGGER IF NOT EXISTS witness_key_not_deleted BEFORE DELETE ON witness
BEGIN SELECT RAISE(ABORT, 'a witness store keeps the key it was made for'); END;
"""


class StoreError(Exception):
    """The store cannot be opened, or belongs to another witness."""


@dataclass(frozen=True)
class Witnessed:
    """The newest checkpoint cosigned for one log: its note carries the log's signature and the
    witness's cosignature."""

    origin: str
    size: int
    root: bytes
    note: str
    cosigned_at: int


class WitnessStore:
    def __init__(self, path: Path) -> None:
        self.path = path.expanduser()
        try:
            with self._connection() as conn:
                conn.executescript(SCHEMA)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the witness store {self.path}: {error}") from None

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        # one connection per use: the server answers from several threads, and SQLite's own
        # locks (not the interpreter's) order the writers of every process sharing the file
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            yield conn
        finally:
            conn.close()

    def bind(self, vkey: str) -> None:
        """Record the witness's key on first use; refuse a store made for another key."""
        with self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE")
            row = conn.execute("SELECT value FROM witness WHERE name = 'vkey'").fetchone()
            if row is None:
                conn.execute("INSERT INTO witness (name, value) VALUES ('vkey', ?)", (vkey,))
            conn.execute("COMMIT")
        if row is not None and row[0] != vkey:
            raise StoreError(f"the witness store {self.path} belongs to the witness {row[0]}, "
                             f"not {vkey}")

    def vkey(self) -> str | None:
        with self._connection() as conn:
            row = conn.execute("SELECT value FROM witness WHERE name = 'vkey'").fetchone()
        return None if row is None else str(row[0])

    def latest(self, origin: str) -> Witnessed | None:
        with self._connection() as conn:
            return _read(conn, origin)

    def all(self) -> list[Witnessed]:
        with self._connection() as conn:
            rows = conn.execute("SELECT origin, size, root, note, cosigned_at FROM witnessed "
                                "ORDER BY origin").fetchall()
        return [Witnessed(str(o), int(s), bytes(r), str(n), int(t)) for o, s, r, n, t in rows]

    def advance(self, origin: str,
                decide: Callable[[Witnessed | None], Witnessed]) -> Witnessed:
        """Read what is held for `origin`, let `decide` check the newcomer against it (raising
        to refuse) and return what to hold, and write that: all in one transaction, so that two
        submissions can never both pass against the same old state."""
        with self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                new = decide(_read(conn, origin))
                if new.origin != origin:
                    raise ValueError(f"{new.origin} is not {origin}")
                conn.execute(
                    "INSERT INTO witnessed (origin, size, root, note, cosigned_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (origin) DO UPDATE SET "
                    "size = excluded.size, root = excluded.root, note = excluded.note, "
                    "cosigned_at = excluded.cosigned_at",
                    (new.origin, new.size, new.root, new.note, new.cosigned_at))
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        return new


def _read(conn: sqlite3.Connection, origin: str) -> Witnessed | None:
    row = conn.execute("SELECT size, root, note, cosigned_at FROM witnessed WHERE origin = ?",
                       (origin,)).fetchone()
    if row is None:
        return None
    return Witnessed(origin, int(row[0]), bytes(row[1]), str(row[2]), int(row[3]))


def exported(store: WitnessStore) -> dict[str, Any]:
    """What `ledger witness export` writes: the witness's name and vkey, and for each log the
    newest checkpoint it cosigned, as the note a verifier reads with `--witness-state`."""
    vkey = store.vkey()
    found = store.all()
    return {"witness": vkey.split("+", 1)[0] if vkey else None, "vkey": vkey,
            "checkpoints": {w.origin: w.note for w in found},
            "held": [{"origin": w.origin, "size": w.size, "root": w.root.hex(),
                      "cosigned_at": w.cosigned_at} for w in found]}
