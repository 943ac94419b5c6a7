"""The seal's tree stored as tiles, so that a proof reads a few rows, not every leaf.

The shape is C2SP tlog-tiles' (as Trillian's Tessera keeps its logs): the tree is cut into
tiles of height 8. A tile at level L holds 256 consecutive hashes of tree height 8L, each the
root of an aligned perfect subtree of 256^L leaves: tile (L, I) holds the hashes numbered
256 I to 256 I + 255 at that height, and covers the leaves [256^(L+1) I, 256^(L+1) (I+1)).
Level 0's tiles are the leaves themselves (`ledger_seal_leaves`); from level 1 up the sealer
stores each tile once it is **full** (`ledger_seal_tiles`), never a partial one, so the table
only grows. A tile not stored (the one at the tree's right edge, or one missing) is computed
from the level below, itself read from storage or computed the same way.

Any node of the tree is then the root of at most 128 consecutive hashes of one tile, and a
proof (`inclusion_proof_by`, `consistency_proof_by` in `ledger.audit.log.merkle`) needs a node or
two per height: one stored tile per level, and the hashes at the right edge after the last full
tile of each level (at most 65,535 leaves, and 255 stored tiles of each level above), whatever
the tree's size. Pure: the rows come through a `TileSource`. `height` is a parameter only so that
tests can reach several levels with few leaves; the ledger's tiles are of height 8.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from ledger.audit.log.merkle import (
    EMPTY_ROOT,
    consistency_proof_by,
    inclusion_proof_by,
    node_hash,
)

TILE_HEIGHT = 8
HASH_SIZE = 32

Tile = tuple[int, int]
"""(level, index)."""


class TileSource(Protocol):
    def tiles(self, level: int, first: int, last: int) -> Mapping[int, bytes]:
        """The stored full tiles of `level` numbered first to last - 1, by number, as stored
        (256 hashes of 32 bytes, one after the other); tiles not stored are left out."""

    def leaves(self, first: int, last: int) -> Sequence[bytes]:
        """The leaf hashes numbered first to last - 1, in order, stopping at a gap."""


class IncompleteLeaves(ValueError):
    """Some leaves a proof needs are not stored."""


def pack(hashes: Sequence[bytes]) -> bytes:
    return b"".join(hashes)


def unpack(blob: bytes) -> list[bytes]:
    return [blob[at:at + HASH_SIZE] for at in range(0, len(blob), HASH_SIZE)]


def perfect_root(hashes: Sequence[bytes]) -> bytes:
    """The root over a power-of-two number of consecutive hashes of one height."""
    row = list(hashes)
    while len(row) > 1:
        row = [node_hash(row[n], row[n + 1]) for n in range(0, len(row), 2)]
    return row[0]


def full_tiles(size: int, level: int, height: int = TILE_HEIGHT) -> int:
    """How many tiles of `level` a tree of `size` leaves fills."""
    return size >> (height * (level + 1))


def filled_between(old_size: int, new_size: int, height: int = TILE_HEIGHT) -> list[Tile]:
    """The tiles (level 1 up) that become full as the tree grows from old to new size, lower
    levels first: the ones the sealer writes for a batch."""
    filled, level = [], 1
    while full_tiles(new_size, level, height):
        filled += [(level, index) for index in range(full_tiles(old_size, level, height),
                                                       full_tiles(new_size, level, height))]
        level += 1
    return filled


class TiledTree:
    """The tree of the first `size` leaves, read from a `TileSource`: its roots and proofs at
    `size` or at any smaller size. Every tile is read or computed once; `used` names the
    stored tiles read, those a failed proof may blame."""

    def __init__(self, source: TileSource, size: int, height: int = TILE_HEIGHT) -> None:
        self.source, self.size, self.height = source, size, height
        self.width = 1 << height
        self.used: set[Tile] = set()
        self._entries: dict[Tile, list[bytes]] = {}
        self._nodes: dict[tuple[int, int], bytes] = {}  # (height, index) -> root, as hashed

    # -- nodes ------------------------------------------------------------------------------
    def entries(self, level: int, index: int) -> list[bytes]:
        """The hashes of tile (level, index) that are complete in this tree: all of a full
        tile, the first few of the tile at its right edge, none past it."""
        if (level, index) not in self._entries:
            self.load(level, index, index + 1)
        return self._entries[(level, index)]

    def perfect(self, height: int, index: int) -> bytes:
        """The root of the aligned perfect subtree of 2^height leaves numbered `index`."""
        known = self._nodes.get((height, index))
        if known is not None:
            return known
        level, within = divmod(height, self.height)
        if within:  # its two children lie in the same tile: each node is hashed once
            digest = node_hash(self.perfect(height - 1, 2 * index),
                               self.perfect(height - 1, 2 * index + 1))
        else:
            tile, offset = divmod(index, self.width)
            hashes = self.entries(level, tile)
            if offset >= len(hashes):
                raise ValueError(f"the subtree of height {height} numbered {index} is not "
                                 f"complete in a tree of {self.size} leaves")
            digest = hashes[offset]
        self._nodes[(height, index)] = digest
        return digest

    def subtree(self, lo: int, hi: int) -> bytes:
        """MTH of the leaves [lo, hi): the perfect subtrees `hi - lo`'s binary digits give,
        from `lo` (aligned, as every range RFC 6962's recursion asks for), folded from the
        right."""
        if not 0 <= lo <= hi <= self.size:
            raise ValueError(f"leaves {lo} to {hi} are not in a tree of {self.size} leaves")
        if lo == hi:
            return EMPTY_ROOT
        pieces, start = [], lo
        for bit in range((hi - lo).bit_length() - 1, -1, -1):
            if (hi - lo) >> bit & 1:
                if start % (1 << bit):
                    raise ValueError(f"leaves {lo} to {hi} are not an aligned range")
                pieces.append(self.perfect(bit, start >> bit))
                start += 1 << bit
        digest = pieces[-1]
        for left in reversed(pieces[:-1]):
            digest = node_hash(left, digest)
        return digest

    # -- what the seal asks for --------------------------------------------------------------
    def root_at(self, size: int | None = None) -> bytes:
        return self.subtree(0, self.size if size is None else size)

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        return inclusion_proof_by(self.subtree, index, self.size if size is None else size)

    def consistency_proof(self, old_size: int, new_size: int | None = None) -> list[bytes]:
        return consistency_proof_by(self.subtree, old_size,
                                    self.size if new_size is None else new_size)

    # -- reading ----------------------------------------------------------------------------
    def complete(self, level: int, index: int) -> int:
        """How many hashes of tile (level, index) are complete in this tree."""
        done = self.size >> (self.height * level)
        return max(0, min(self.width, done - index * self.width))

    def load(self, level: int, first: int, last: int) -> None:
        """Tiles first to last - 1 of `level`: the stored ones as read (one query), the others
        computed from the level below (one query for all their children)."""
        wanted = [index for index in range(first, last) if (level, index) not in self._entries]
        if not wanted:
            return
        first, last = wanted[0], wanted[-1] + 1
        if level == 0:
            self._load_leaves(first, last)
            return
        stored = self.source.tiles(level, first, last)
        missing = []
        for index in wanted:
            blob = stored.get(index)
            if blob is not None and len(blob) == self.width * HASH_SIZE:
                self._entries[(level, index)] = unpack(blob)[:self.complete(level, index)]
                self.used.add((level, index))
            else:
                missing.append(index)
        self._compute(level, missing)

    def build(self, level: int, indices: list[int]) -> dict[int, list[bytes]]:
        """Tiles of `level` (1 up) computed from the level below, whatever is stored at this
        level: what the sealer writes, and checks a row already there against."""
        for index in indices:
            self._entries.pop((level, index), None)
            self.used.discard((level, index))
        self._compute(level, indices)
        return {index: self._entries[(level, index)] for index in indices}

    def _compute(self, level: int, indices: list[int]) -> None:
        """Each tile's hashes as the roots of its children, read at once for a run of tiles."""
        for run in _runs(indices):
            children = [index * self.width + n for index in run
                        for n in range(self.complete(level, index))]
            if children:
                self.load(level - 1, children[0], children[-1] + 1)
            for index in run:
                self._entries[(level, index)] = [
                    perfect_root(self._entries[(level - 1, index * self.width + n)])
                    for n in range(self.complete(level, index))]

    def _load_leaves(self, first: int, last: int) -> None:
        lo, hi = first * self.width, min(last * self.width, self.size)
        leaves = list(self.source.leaves(lo, hi)) if hi > lo else []
        if len(leaves) != max(0, hi - lo):
            raise IncompleteLeaves(f"leaf {lo + len(leaves)} is not stored")
        for index in range(first, last):
            start = index * self.width - lo
            self._entries[(0, index)] = leaves[start:start + self.complete(0, index)]


def _runs(indices: list[int]) -> Iterable[list[int]]:
    """Consecutive numbers grouped: [1, 2, 5] -> [1, 2], [5]."""
    run: list[int] = []
    for index in indices:
        if run and index != run[-1] + 1:
            yield run
            run = []
        run.append(index)
    if run:
        yield run


class TileBuilder:
    """Full tiles as leaves are appended one by one, for building every tile of a tree in one
    pass over its leaves (repair, and checking stored tiles against the leaves)."""

    def __init__(self, height: int = TILE_HEIGHT) -> None:
        self.width = 1 << height
        self.rows: list[list[bytes]] = [[]]
        self.done: list[int] = [0]

    def append(self, leaf: bytes) -> list[tuple[int, int, bytes]]:
        """The tiles (level 1 up) this leaf fills: (level, index, packed hashes)."""
        filled: list[tuple[int, int, bytes]] = []
        level, digest = 0, leaf
        while True:
            if level == len(self.rows):
                self.rows.append([])
                self.done.append(0)
            row = self.rows[level]
            row.append(digest)
            if len(row) < self.width:
                return filled
            if level:
                filled.append((level, self.done[level], pack(row)))
            self.done[level] += 1
            digest = perfect_root(row)
            self.rows[level] = []
            level += 1


def tiles_of(leaves: Iterable[bytes], height: int = TILE_HEIGHT) -> dict[Tile, bytes]:
    """Every full tile (level 1 up) of the tree of these leaves."""
    builder, tiles = TileBuilder(height), {}
    for leaf in leaves:
        for level, index, blob in builder.append(leaf):
            tiles[(level, index)] = blob
    return tiles


def damaged(stored: Mapping[Tile, bytes], leaves: Sequence[bytes],
            height: int = TILE_HEIGHT) -> list[Tile]:
    """The stored tiles whose hashes complete in the tree of `leaves` are not the ones those
    leaves give (a tile beyond the tree is not judged)."""
    tree = TiledTree(_Leaves(leaves), len(leaves), height)
    wrong = []
    for (level, index), blob in sorted(stored.items()):
        count = tree.complete(level, index)
        if count and (len(blob) != tree.width * HASH_SIZE
                      or unpack(blob)[:count] != tree.entries(level, index)):
            wrong.append((level, index))
    return wrong


class _Leaves:
    """A `TileSource` of leaves alone: every tile computed from them."""

    def __init__(self, leaves: Sequence[bytes]) -> None:
        self._leaves = leaves

    def tiles(self, level: int, first: int, last: int) -> Mapping[int, bytes]:
        return {}

    def leaves(self, first: int, last: int) -> Sequence[bytes]:
        return self._leaves[first:last]
