"""The seal's Merkle tree is RFC 6962's: same roots, audit paths any CT tool would accept."""

from __future__ import annotations

import hashlib

import pytest

from ledger.audit.log.merkle import (
    EMPTY_ROOT,
    Frontier,
    consistency_proof,
    consistency_proof_from,
    inclusion_proof,
    inclusion_proofs,
    leaf_hash,
    node_hash,
    root_of,
    verify_consistency,
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


@pytest.mark.parametrize("size", range(34))
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


GROWN = [leaf_hash(f"event {i}".encode()) for i in range(41)]
ROOTS = [reference_root(GROWN[:size]) for size in range(len(GROWN) + 1)]


def test_every_smaller_tree_is_proven_a_prefix_of_every_larger_one():
    for new_size in range(len(GROWN) + 1):
        for old_size in range(new_size + 1):
            proof = consistency_proof(GROWN[:new_size], old_size)
            assert verify_consistency(old_size, new_size, ROOTS[old_size], ROOTS[new_size],
                                      proof), (old_size, new_size)


def test_the_proof_from_the_old_frontier_and_the_new_leaves_is_the_proof_from_all_leaves():
    for old_size in range(len(GROWN) + 1):
        frontier = Frontier()
        for leaf in GROWN[:old_size]:
            frontier.append(leaf)
        kept = Frontier.restore(frontier.size, frontier.hashes())
        for new_size in range(old_size, len(GROWN) + 1):
            assert consistency_proof_from(kept, GROWN[old_size:new_size]) == consistency_proof(
                GROWN[:new_size], old_size), (old_size, new_size)


def test_a_consistency_proof_takes_at_most_a_hash_per_level_and_two():
    for new_size in range(2, len(GROWN) + 1):
        for old_size in range(1, new_size):
            proof = consistency_proof(GROWN[:new_size], old_size)
            assert 1 <= len(proof) <= (new_size - 1).bit_length() + 1


@pytest.mark.parametrize(("old_size", "new_size"), [(1, 2), (3, 7), (4, 8), (6, 8), (7, 40),
                                                    (16, 33), (32, 41), (21, 22)])
def test_a_consistency_proof_fails_against_a_rewritten_history(old_size, new_size):
    proof = consistency_proof(GROWN[:new_size], old_size)
    assert verify_consistency(old_size, new_size, ROOTS[old_size], ROOTS[new_size], proof)
    forged = root_of([leaf_hash(b"forged")] + GROWN[1:old_size])
    assert not verify_consistency(old_size, new_size, forged, ROOTS[new_size], proof)
    assert not verify_consistency(old_size, new_size, ROOTS[old_size], ROOTS[new_size - 1],
                                  proof)
    for index in range(len(proof)):
        wrong = list(proof)
        wrong[index] = hashlib.sha256(wrong[index]).digest()
        assert not verify_consistency(old_size, new_size, ROOTS[old_size], ROOTS[new_size],
                                      wrong), index
    assert not verify_consistency(old_size, new_size, ROOTS[old_size], ROOTS[new_size],
                                  proof[:-1])
    assert not verify_consistency(old_size, new_size, ROOTS[old_size], ROOTS[new_size],
                                  proof + [EMPTY_ROOT])


def test_a_proof_from_the_empty_tree_is_empty_and_anything_else_fails():
    assert consistency_proof(GROWN[:9], 0) == []
    assert verify_consistency(0, 9, EMPTY_ROOT, ROOTS[9], [])
    assert not verify_consistency(0, 9, EMPTY_ROOT, ROOTS[9], [ROOTS[9]])
    assert not verify_consistency(0, 9, ROOTS[3], ROOTS[9], [])


def test_a_tree_is_consistent_with_itself_only_with_the_same_root_and_no_proof():
    assert consistency_proof(GROWN[:9], 9) == []
    assert verify_consistency(9, 9, ROOTS[9], ROOTS[9], [])
    assert not verify_consistency(9, 9, ROOTS[9], ROOTS[8], [])
    assert not verify_consistency(9, 9, ROOTS[9], ROOTS[9], [ROOTS[9]])


def test_a_tree_cannot_shrink_nor_be_proven_against_one_it_does_not_reach():
    assert not verify_consistency(9, 8, ROOTS[9], ROOTS[8], [])
    with pytest.raises(ValueError, match="not a prefix"):
        consistency_proof(GROWN[:8], 9)


def test_a_proof_with_a_hash_of_the_wrong_length_fails():
    proof = consistency_proof(GROWN[:10], 3)
    assert not verify_consistency(3, 10, ROOTS[3], ROOTS[10], [proof[0] + b"\x00"] + proof[1:])
