"""The seal's Merkle tree is RFC 6962's: same roots, audit paths any CT tool would accept."""

from __future__ import annotations

import hashlib

import pytest

from ledger.audit.merkle import (
    EMPTY_ROOT, Frontier, inclusion_proof, inclusion_proofs, leaf_hash, node_hash, root_of,
    verify_inclusion,
)


def reference_root(leaves: list[bytes]) -> bytes:
    """RFC 6962 section 2.1, written as the RFC writes it (recursively)."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return node_hash(reference_root(leaves[:k]), reference_root(leaves[k:]))


LEAVES = [leaf_hash(f"event {i}".encode()) for i in range(33)]


def test_a_leaf_and_a_node_are_domain_separated_as_rfc_6962_says():
    assert leaf_hash(b"") == bytes.fromhex(
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d")
    assert EMPTY_ROOT == bytes.fromhex(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")


@pytest.mark.parametrize("size", range(0, 34))
def test_the_root_grown_leaf_by_leaf_equals_the_recursive_definition(size):
    assert root_of(LEAVES[:size]) == reference_root(LEAVES[:size])


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13, 33])
def test_every_leafs_audit_path_proves_it_and_only_it_at_its_index(size):
    root = root_of(LEAVES[:size])
    for index in range(size):
        proof = inclusion_proof(LEAVES[:size], index)
        assert verify_inclusion(LEAVES[index], index, size, proof, root)
        other = leaf_hash(b"forged")
        assert not verify_inclusion(other, index, size, proof, root)
        if size > 1:
            assert not verify_inclusion(LEAVES[index], (index + 1) % size, size, proof, root)


def test_a_frontier_stored_and_restored_goes_on_growing_the_same_tree():
    frontier = Frontier()
    for leaf in LEAVES[:21]:
        frontier.append(leaf)
    restored = Frontier.restore(frontier.size, frontier.hashes())
    for leaf in LEAVES[21:]:
        restored.append(leaf)
    assert restored.root() == reference_root(LEAVES)


def test_a_frontier_with_the_wrong_number_of_hashes_is_refused():
    with pytest.raises(ValueError, match="a tree of 5 leaves has 2 frontier hashes, not 1"):
        Frontier.restore(5, [bytes(32)])


def test_proofs_of_many_leaves_at_once_are_each_leafs_own_path():
    indices = [0, 5, 6, 17, 32]
    proofs = inclusion_proofs(LEAVES, indices)
    root = root_of(LEAVES)
    for index in indices:
        assert verify_inclusion(LEAVES[index], index, len(LEAVES), proofs[index], root)
