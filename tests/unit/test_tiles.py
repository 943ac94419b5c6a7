"""The seal's tree read from tiles gives the same roots and proofs as the whole leaf list, and
a proof reads about as many rows in a tree sixteen times larger."""

from __future__ import annotations

import pytest

from ledger.audit.log.merkle import (
    consistency_proof,
    inclusion_proofs,
    leaf_hash,
    root_of,
    verify_inclusion,
)
from ledger.audit.log.tiles import (
    TileBuilder,
    TiledTree,
    damaged,
    filled_between,
    tiles_of,
    unpack,
)

# its module fixture is built once: the file runs in one process when the run is spread
pytestmark = pytest.mark.xdist_group("tiles")


class Source:
    """Tiles and leaves in memory, counting the rows read."""

    def __init__(self, leaves: list[bytes], tiles: dict[tuple[int, int], bytes]) -> None:
        self._leaves, self._tiles, self.rows = leaves, tiles, 0

    def tiles(self, level: int, first: int, last: int) -> dict[int, bytes]:
        found = {index: self._tiles[(level, index)] for index in range(first, last)
                 if (level, index) in self._tiles}
        self.rows += len(found)
        return found

    def leaves(self, first: int, last: int) -> list[bytes]:
        self.rows += last - first
        return self._leaves[first:last]


def leaves(count: int) -> list[bytes]:
    return [leaf_hash(f"event {n}".encode()) for n in range(count)]


SMALL = leaves(150)


@pytest.mark.parametrize("height", [1, 2, 3])
def test_proofs_from_tiles_equal_proofs_from_the_whole_leaf_list_at_every_size(height):
    """Tiles of height 1 to 3 reach five levels and more with 150 leaves: full and partial tiles
    at every level, sizes that are and are not multiples of a tile."""
    stored = tiles_of(SMALL, height)
    for size in [*range(70), 127, 128, 129, 149, 150]:
        tree = TiledTree(Source(SMALL, stored), size, height)
        assert tree.root_at() == root_of(SMALL[:size])
        expected = inclusion_proofs(SMALL[:size], range(size))
        assert {index: tree.inclusion_proof(index) for index in range(size)} == expected
        for old in range(size + 1):
            assert tree.consistency_proof(old) == consistency_proof(SMALL[:size], old), old
            assert tree.root_at(old) == root_of(SMALL[:old])


@pytest.fixture(scope="module")
def big() -> tuple[list[bytes], dict[tuple[int, int], bytes]]:
    hashes = leaves(70_001)
    return hashes, tiles_of(hashes)


@pytest.mark.parametrize("size", [1, 255, 256, 257, 65_535, 65_536, 65_537, 66_049, 70_001])
def test_past_65536_leaves_proofs_from_tiles_of_height_8_equal_those_from_the_leaves(size, big):
    hashes, stored = big
    tree = TiledTree(Source(hashes, stored), size)
    root = root_of(hashes[:size])
    assert tree.root_at() == root
    indices = sorted({i for i in (0, 1, 255, 256, 4_097, 65_535, 65_536, 65_537, 69_999, 70_000,
                                  size - 2, size - 1) if 0 <= i < size})
    expected = inclusion_proofs(hashes[:size], indices)
    for index in indices:
        proof = tree.inclusion_proof(index)
        assert proof == expected[index]
        assert verify_inclusion(hashes[index], index, size, proof, root)
    for old in sorted({o for o in (1, 2, 255, 256, 300, 65_535, 65_536, 65_537, size - 1)
                       if 0 < o <= size}):
        assert tree.consistency_proof(old) == consistency_proof(hashes[:size], old)


def test_a_tile_that_is_not_stored_is_computed_from_the_level_below():
    stored = tiles_of(SMALL, 2)
    for tile in [(1, 3), (1, 8), (2, 1)]:
        del stored[tile]
    tree = TiledTree(Source(SMALL, stored), 150, 2)
    assert tree.root_at() == root_of(SMALL)
    assert tree.inclusion_proof(70) == inclusion_proofs(SMALL, [70])[70]


def test_a_proof_reads_about_as_many_rows_in_a_tree_sixteen_times_larger():
    """Tiles of height 4 (16 hashes): a tree of 3 x 16^3 + 37 leaves and one of 3 x 16^4 + 37;
    the larger has one level more, so one tile more per proof, and no more leaves."""
    rows = []
    for size in (3 * 16**3 + 37, 3 * 16**4 + 37):
        hashes = leaves(size)
        source = Source(hashes, tiles_of(hashes, 4))
        tree = TiledTree(source, size, 4)
        for index in (0, size // 2, size - 1):
            assert verify_inclusion(hashes[index], index, size, tree.inclusion_proof(index),
                                    root_of(hashes))
        rows.append(source.rows)
    small, large = rows
    assert large <= small + 3 * 16, rows
    assert large < (3 * 16**4) // 100, rows  # not the whole tree


def test_a_proof_through_an_altered_tile_fails_and_the_leaves_name_that_tile():
    stored = tiles_of(SMALL, 2)
    hashes = unpack(stored[(2, 1)])
    hashes[2] = leaf_hash(b"forged")
    stored[(2, 1)] = b"".join(hashes)
    tree = TiledTree(Source(SMALL, stored), 150, 2)
    root = root_of(SMALL)
    assert not verify_inclusion(SMALL[3], 3, 150, tree.inclusion_proof(3), root)
    assert damaged(stored, SMALL, 2) == [(2, 1)]
    assert damaged(tiles_of(SMALL, 2), SMALL, 2) == []


def test_a_tile_cut_short_is_damaged_and_not_read():
    stored = tiles_of(SMALL, 2)
    stored[(1, 0)] = stored[(1, 0)][:-1]
    assert TiledTree(Source(SMALL, stored), 150, 2).root_at() == root_of(SMALL)
    assert damaged(stored, SMALL, 2) == [(1, 0)]


def test_the_tiles_a_batch_fills_are_those_the_tree_gains():
    for old in range(0, 150, 11):
        for new in range(old, 151, 13):
            before, after = set(tiles_of(SMALL[:old], 2)), set(tiles_of(SMALL[:new], 2))
            assert filled_between(old, new, 2) == sorted(after - before)


def test_the_builder_gives_each_tile_once_as_it_fills():
    builder, seen = TileBuilder(2), []
    for leaf in SMALL:
        seen += [(level, index) for level, index, _ in builder.append(leaf)]
    assert seen == sorted(set(seen), key=seen.index) and set(seen) == set(tiles_of(SMALL, 2))
