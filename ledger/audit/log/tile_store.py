"""The seal's tiles in the database (`ledger_seal_tiles`), and the proofs made from them.

The sealer writes each tile of level 1 up as it becomes full, in the transaction that stores
the leaves filling it and moves the seal's state past them (`write_tiles`), so after a crash
the tiles are exactly those of the state's size. A ledger sealed before tiles were kept gets
them from the sealer's first batch after it starts (`build_missing_tiles`), or from `ledger
seal repair` (`repair_tiles`), which also names any stored tile the leaves do not give. The
table is append-only and only the sealer role may insert into it, like the leaves.

A tile is a cache of the leaves, not evidence: every proof made from the tiles is checked
against the root the sealing key signed before it counts (`audit_paths`). When the path of a
stored leaf does not reach the signed root, the proofs are made again from every stored leaf,
as they were before tiles: if those leaves give the signed root, each stored tile they do not
give is named ("stored tile level 1 index 3 does not match the leaves") and the proofs hold;
if they do not, the stored leaves were altered and nothing can be proven from them.

Cost: a proof reads a stored tile or two per level and the hashes after the last full tile of
each level (at most 65,535 leaves, and 255 tiles of each level above), however long the log;
only a failed proof reads every leaf.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from psycopg import Connection, sql

from ledger.audit.log.merkle import (
    consistency_proof,
    inclusion_proofs,
    root_of,
    verify_consistency,
)
from ledger.audit.log.merkle import verify_inclusion as included
from ledger.audit.log.tiles import (
    IncompleteLeaves,
    Tile,
    TileBuilder,
    TiledTree,
    damaged,
    filled_between,
    pack,
    unpack,
)
from ledger.core.errors import WrongState
from ledger.infrastructure.database import EVENTS_TABLE

if TYPE_CHECKING:
    from ledger.audit.log.formats import Checkpoint

TILES_DDL = """
    CREATE TABLE IF NOT EXISTS ledger_seal_tiles (
        level smallint NOT NULL CHECK (level >= 1),
        tile_index bigint NOT NULL CHECK (tile_index >= 0),
        hashes bytea NOT NULL,
        PRIMARY KEY (level, tile_index))"""


class StoredTiles:
    """The database as a `TileSource`: full tiles from `ledger_seal_tiles`, leaves from
    `ledger_seal_leaves`."""

    def __init__(self, conn: Connection[Any]) -> None:
        self.conn = conn
        self.rows = 0  # rows read, for the benchmark
        self.kept = has_tiles(conn)

    def tiles(self, level: int, first: int, last: int) -> dict[int, bytes]:
        if not self.kept:
            return {}
        with self.conn.cursor(binary=True) as cursor:
            cursor.execute("SELECT tile_index, hashes FROM ledger_seal_tiles WHERE level = %s "
                           "AND tile_index >= %s AND tile_index < %s", (level, first, last))
            found = {int(index): bytes(blob) for index, blob in cursor}
        self.rows += len(found)
        return found

    def leaves(self, first: int, last: int) -> list[bytes]:
        leaves = stored_leaves(self.conn, last, first)
        self.rows += len(leaves)
        return leaves


def stored_leaves(conn: Connection[Any], size: int, first: int = 0) -> list[bytes]:
    """The stored leaf hashes numbered `first` to `size - 1`, in order; the list stops at the
    first one missing, so a gap shows as too few leaves. Concatenated by the server into one
    value when they are all there (the index is unique), several times faster than a row each
    from the client."""
    with conn.cursor(binary=True) as cursor:
        count, even, joined = cursor.execute(
            "SELECT count(*), coalesce(bool_and(length(leaf) = 32), true), "
            "string_agg(leaf, ''::bytea ORDER BY leaf_index) FROM ledger_seal_leaves "
            "WHERE leaf_index >= %s AND leaf_index < %s", (first, size)).fetchone() or (0, 0, 0)
    if count == max(0, size - first) and even:
        return unpack(bytes(joined or b""))
    leaves: list[bytes] = []
    with conn.cursor(binary=True) as cursor:
        cursor.execute("SELECT leaf_index, leaf FROM ledger_seal_leaves WHERE leaf_index >= %s "
                       "AND leaf_index < %s ORDER BY leaf_index", (first, size))
        for index, leaf in cursor:
            if index != first + len(leaves):
                break
            leaves.append(bytes(leaf))
    return leaves


def has_tiles(conn: Connection[Any]) -> bool:
    """Whether the database keeps tiles: a ledger made before them has no table until `ledger
    db init` runs again, and its proofs are made from the leaves alone meanwhile."""
    found = conn.execute("SELECT to_regclass('ledger_seal_tiles')").fetchone()
    return bool(found and found[0])


def stored_tiles(conn: Connection[Any]) -> dict[Tile, bytes]:
    if not has_tiles(conn):
        return {}
    with conn.cursor(binary=True) as cursor:
        cursor.execute("SELECT level, tile_index, hashes FROM ledger_seal_tiles")
        return {(int(level), int(index)): bytes(blob) for level, index, blob in cursor}


def tile_damage(tiles: Iterable[Tile]) -> list[str]:
    return [f"stored tile level {level} index {index} does not match the leaves"
            for level, index in tiles]


# -- the sealer's side ------------------------------------------------------------------------
def write_tiles(conn: Connection[Any], old_size: int, new_size: int) -> list[str]:
    """Store the tiles that the leaves from `old_size` to `new_size` fill (already stored in
    this transaction); returns the lines naming any row found already there that the leaves
    do not give (inserted ahead of the sealer: kept, as the table is append-only, and read
    past by every proof)."""
    return _insert(conn, TiledTree(StoredTiles(conn), new_size),
                   filled_between(old_size, new_size))


def build_missing_tiles(conn: Connection[Any], size: int) -> int:
    """Store every full tile of the tree of `size` leaves that is not stored (a ledger sealed
    before tiles were kept); returns how many."""
    _require_table(conn)
    have = set(conn.execute("SELECT level, tile_index FROM ledger_seal_tiles").fetchall())
    missing = [tile for tile in filled_between(0, size) if tile not in have]
    if missing:
        _insert(conn, TiledTree(StoredTiles(conn), size), missing)
    return len(missing)


def _require_table(conn: Connection[Any]) -> None:
    if not has_tiles(conn):
        raise WrongState("the seal's tiles table is missing: run `ledger db init`, which adds "
                         "it to a ledger made before tiles were kept.")


def _insert(conn: Connection[Any], tree: TiledTree, tiles: list[Tile]) -> list[str]:
    wrong = []
    for level in sorted({level for level, _ in tiles}):
        built = tree.build(level, [index for lvl, index in tiles if lvl == level])
        there = StoredTiles(conn).tiles(level, min(built), max(built) + 1)
        wrong += [(level, index) for index in built
                  if index in there and there[index] != pack(built[index])]
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO ledger_seal_tiles (level, tile_index, hashes) VALUES (%s, %s, %s)",
                [(level, index, pack(hashes)) for index, hashes in built.items()
                 if index not in there])
    return tile_damage(wrong)


@dataclass(frozen=True)
class TilesRepaired:
    built: int
    damaged: list[str]


def repair_tiles(conn: Connection[Any], size: int) -> TilesRepaired:
    """Every tile of the stored leaves' tree built in one pass: the missing ones stored, and
    each stored one the leaves do not give named (append-only: it is not replaced, and proofs
    read past it to the leaves until its row is removed and repair run again)."""
    _require_table(conn)
    builder, built = TileBuilder(), {}
    for leaf in _stream_leaves(conn, size):
        for level, index, blob in builder.append(leaf):
            built[(level, index)] = blob
    have = stored_tiles(conn)
    wrong = [tile for tile, blob in sorted(have.items()) if tile in built and built[tile] != blob]
    missing = [(level, index, blob) for (level, index), blob in sorted(built.items())
               if (level, index) not in have]
    with conn.cursor() as cursor:
        cursor.executemany("INSERT INTO ledger_seal_tiles (level, tile_index, hashes) "
                           "VALUES (%s, %s, %s)", missing)
    return TilesRepaired(len(missing), [
        f"{line}: it is kept (the table is append-only) and proofs read past it to the "
        "leaves; a superuser may delete its row, and `ledger seal repair` builds it again"
        for line in tile_damage(wrong)])


def _stream_leaves(conn: Connection[Any], size: int) -> Iterable[bytes]:
    with conn.cursor(binary=True) as cursor:
        for (leaf,) in cursor.stream("SELECT leaf FROM ledger_seal_leaves WHERE leaf_index < %s "
                                     "ORDER BY leaf_index", (size,)):
            yield bytes(leaf)


# -- proofs -----------------------------------------------------------------------------------
@dataclass
class Paths:
    """Audit paths under a signed root, each checked with its stored leaf."""

    paths: dict[int, list[bytes]] = field(default_factory=dict)
    stored: dict[int, bytes] = field(default_factory=dict)  # the stored leaf of each index
    damaged_tiles: list[str] = field(default_factory=list)
    altered: tuple[int, bytes] | None = None
    """(how many leaves are stored, their root) when the stored leaves do not give the signed
    root: then no path is given."""


def audit_paths(conn: Connection[Any], size: int, root: bytes,
                indices: Sequence[int]) -> Paths:
    """The audit path of each leaf index in the tree of `size` leaves whose signed root is
    `root`: from the tiles when the stored leaf of every index reaches the root by it, else
    from every stored leaf, naming the stored tiles those leaves do not give."""
    wanted = sorted({index for index in indices if 0 <= index < size})
    with conn.cursor(binary=True) as cursor:
        cursor.execute("SELECT leaf_index, leaf FROM ledger_seal_leaves WHERE "
                       "leaf_index = ANY(%s) AND leaf_index < %s", (wanted, size))
        stored = {int(index): bytes(leaf) for index, leaf in cursor}
    tree = TiledTree(StoredTiles(conn), size)
    try:
        paths = {index: tree.inclusion_proof(index) for index in wanted}
    except IncompleteLeaves:
        paths = {}
    if all(index in stored and index in paths
           and included(stored[index], index, size, paths[index], root) for index in wanted):
        return Paths(paths, stored)
    leaves = stored_leaves(conn, size)
    if len(leaves) != size or root_of(leaves) != root:
        return Paths(stored=stored, altered=(len(leaves), root_of(leaves)))
    return Paths(inclusion_proofs(leaves, wanted), stored,
                 tile_damage(damaged(stored_tiles(conn), leaves)))


def prove_leaves(conn: Connection[Any], checkpoint: Checkpoint,
                 leaves: Mapping[int, bytes]) -> list[str]:
    """Prove leaves (leaf index -> leaf hash, recomputed by the caller from the events) in
    the tree `checkpoint` signed; one line per problem, none when every leaf is proven. The
    checkpoint must be one the caller has verified under a trusted sealing key
    (`ledger.audit.replay.sealed_events.newest_signed`). Reads a few tiles, not the whole log,
    unless a proof fails."""
    outside = [index for index in sorted(leaves) if not 0 <= index < checkpoint.size]
    problems = [f"leaf {index} is not in the tree of checkpoint {checkpoint.size:,} events"
                for index in outside]
    found = audit_paths(conn, checkpoint.size, checkpoint.root,
                        [index for index in leaves if index not in outside])
    if found.altered is not None:
        count, root = found.altered
        altered = (f"the {count:,} stored leaves give root {root.hex()[:16]}, not the root "
                   f"{checkpoint.root.hex()[:16]} signed at checkpoint {checkpoint.size:,} "
                   "events: the seal's stored leaves were altered")
        return [*problems, altered]
    for index, leaf in sorted(leaves.items()):
        if index in outside or included(leaf, index, checkpoint.size, found.paths[index],
                                         checkpoint.root):
            continue
        problems.append(f"leaf {index} is not the leaf sealed there under checkpoint "
                        f"{checkpoint.size:,} events")
    return problems + found.damaged_tiles


def prove_positions(conn: Connection[Any], checkpoint: Checkpoint,
                    positions: Iterable[int]) -> list[str]:
    """Prove the events at these global positions, each leaf recomputed from the event as
    stored now, in the tree `checkpoint` signed (see `prove_leaves`)."""
    from ledger.audit.log.formats import event_leaf

    wanted = sorted(set(positions))
    query = sql.SQL(
        "SELECT e.notification_id, e.originator_id, e.originator_version, e.topic, e.state, "
        "l.leaf_index FROM {} e LEFT JOIN ledger_seal_leaves l ON l.position = "
        "e.notification_id WHERE e.notification_id = ANY(%s)").format(
        sql.Identifier(EVENTS_TABLE))
    with conn.cursor(binary=True) as cursor:
        rows = cursor.execute(query, (wanted,)).fetchall()
    found = {int(row[0]) for row in rows}
    problems = [f"no event at position {position}" for position in wanted
                if position not in found]
    leaves = {}
    for position, stream_id, version, topic, state, index in rows:
        if index is None:
            problems.append(f"the event at position {position} has no sealed leaf")
            continue
        leaves[int(index)] = event_leaf(position, stream_id, version, topic, bytes(state))
    return problems + prove_leaves(conn, checkpoint, leaves)


def consistency(conn: Connection[Any], old_size: int, size: int, old_root: bytes | None,
                root: bytes) -> tuple[list[bytes], list[str]]:
    """PROOF(old_size, size) from the tiles, checked against the roots signed at both sizes
    (`old_root` None: the old checkpoint's row is gone, the tiles' own root stands in); from
    every stored leaf when it fails, with the stored tiles they do not give named."""
    if not 0 < old_size < size:
        return [], []
    tree = TiledTree(StoredTiles(conn), size)
    try:
        proof = tree.consistency_proof(old_size)
        old = tree.root_at(old_size) if old_root is None else old_root
        if verify_consistency(old_size, size, old, root, proof):
            return proof, []
    except IncompleteLeaves:
        pass
    leaves = stored_leaves(conn, size)
    if len(leaves) != size:
        raise ValueError(f"leaf {len(leaves)} is not stored, the checkpoint covers {size:,}")
    return consistency_proof(leaves, old_size), tile_damage(damaged(stored_tiles(conn), leaves))

