"""A Merkle tree over the ledger's global order, as RFC 6962 (Certificate Transparency) and
RFC 9162 define it, so that any tool that checks a transparency log can check this one:

    leaf hash      = SHA-256(0x00 || leaf data)
    node hash      = SHA-256(0x01 || left || right)
    MTH(n leaves)  = node(MTH(first k), MTH(the rest)), k the largest power of two below n

Pure functions over bytes, no I/O. `Frontier` extends a tree one leaf at a time keeping only
the roots of its perfect subtrees (at most log2(n) hashes), which is what the sealing follower
stores between batches. `inclusion_proof` and `verify_inclusion` give and check the audit path
of one leaf (RFC 9162 section 2.1.3), which a dispute bundle carries; `consistency_proof` and
`verify_consistency` show that a larger tree only appended to a smaller one (section 2.1.4),
which a witness checks before it cosigns a checkpoint (`consistency_proof_from` gives the same
proof from the smaller tree's frontier and the leaves after it). `inclusion_proof_by` and
`consistency_proof_by` give the same proofs from any source of subtree roots: the stored tiles
(`ledger.audit.log.tiles`) are one, so a proof need not read every leaf.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ledger.audit.bundle_verify import included

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def root_of(leaves: Sequence[bytes]) -> bytes:
    """MTH over leaf hashes (already `leaf_hash`ed)."""
    if not leaves:
        return EMPTY_ROOT
    frontier = Frontier()
    for leaf in leaves:
        frontier.append(leaf)
    return frontier.root()


@dataclass
class Frontier:
    """The right edge of a growing tree: one (height, hash) per perfect subtree, tallest first."""

    size: int = 0
    nodes: list[tuple[int, bytes]] = field(default_factory=list)

    def append(self, leaf: bytes) -> None:
        height, digest = 0, leaf
        while self.nodes and self.nodes[-1][0] == height:
            _, left = self.nodes.pop()
            digest = node_hash(left, digest)
            height += 1
        self.nodes.append((height, digest))
        self.size += 1

    def root(self) -> bytes:
        if not self.nodes:
            return EMPTY_ROOT
        digest = self.nodes[-1][1]
        for _, left in reversed(self.nodes[:-1]):
            digest = node_hash(left, digest)
        return digest

    def hashes(self) -> list[bytes]:
        """What to store: the heights follow from `size` (its binary digits)."""
        return [digest for _, digest in self.nodes]

    @classmethod
    def restore(cls, size: int, hashes: Sequence[bytes]) -> Frontier:
        heights = [bit for bit in range(size.bit_length() - 1, -1, -1) if size >> bit & 1]
        if len(heights) != len(hashes):
            raise ValueError(f"a tree of {size} leaves has {len(heights)} frontier hashes, "
                             f"not {len(hashes)}")
        return cls(size, list(zip(heights, hashes, strict=True)))


def inclusion_proofs(leaves: Sequence[bytes], indices: Sequence[int]) -> dict[int, list[bytes]]:
    """PATH(i, leaves) for each index, sibling hashes from the leaf up to the root; each
    subtree is hashed once, so proofs of many leaves cost one pass over the tree."""
    for index in indices:
        if not 0 <= index < len(leaves):
            raise ValueError(f"leaf {index} is not in a tree of {len(leaves)} leaves")
    proofs: dict[int, list[bytes]] = {index: [] for index in indices}

    def build(lo: int, hi: int, wanted: list[int]) -> bytes:
        if hi - lo == 1:
            return leaves[lo]
        if not wanted:
            return root_of(leaves[lo:hi])
        middle = lo + _split(hi - lo)
        left_wanted = [i for i in wanted if i < middle]
        right_wanted = [i for i in wanted if i >= middle]
        left, right = build(lo, middle, left_wanted), build(middle, hi, right_wanted)
        for index in left_wanted:
            proofs[index].append(right)
        for index in right_wanted:
            proofs[index].append(left)
        return node_hash(left, right)

    if leaves:
        build(0, len(leaves), sorted(set(indices)))
    return proofs


def inclusion_proof(leaves: Sequence[bytes], index: int) -> list[bytes]:
    """PATH(index, leaves): the sibling hashes from the leaf up to the root."""
    return inclusion_proofs(leaves, [index])[index]


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes],
                     root: bytes) -> bool:
    """RFC 9162 2.1.3.2: does `proof` place `leaf` at `index` of the tree of `size` with `root`?
    The standalone verifier's own check (`bundle_verify.included`), so there is one."""
    return included(leaf, index, size, list(proof), root)


def consistency_proof(leaves: Sequence[bytes], old_size: int) -> list[bytes]:
    """PROOF(old_size, leaves), RFC 9162 2.1.4.1: the hashes that take the root of the first
    `old_size` leaves to the root of them all. Empty when `old_size` is 0 (the empty tree is
    consistent with any) or the whole tree (then the roots must simply be equal)."""
    return consistency_proof_by(lambda lo, hi: root_of(leaves[lo:hi]), old_size, len(leaves))


def consistency_proof_from(old: Frontier, appended: Sequence[bytes]) -> list[bytes]:
    """PROOF(old.size, the old tree then `appended`), from the old tree's frontier and the
    leaves after it alone: every hash the proof takes from inside the old tree is one of the
    frontier's perfect subtrees, and every other lies wholly among the appended leaves; so a
    sealer that kept the frontier of its last witnessed checkpoint reads only what came since."""
    if old.size == 0 or not appended:
        return []
    ends: dict[tuple[int, int], bytes] = {}
    start = 0
    for height, digest in old.nodes:
        ends[(start, start + (1 << height))] = digest
        start += 1 << height

    def subtree(lo: int, hi: int) -> bytes:
        if hi <= old.size:
            return ends[(lo, hi)]
        return root_of(appended[lo - old.size:hi - old.size])

    return consistency_proof_by(subtree, old.size, old.size + len(appended))


Subtree = Callable[[int, int], bytes]
"""MTH of the leaves [lo, hi) of one tree, however it is come by: from a list of leaves, a
frontier, or stored tiles (`ledger.audit.log.tiles`). The proofs below ask only for the ranges
RFC 6962's recursion splits the tree into."""


def inclusion_proof_by(subtree: Subtree, index: int, size: int) -> list[bytes]:
    """PATH(index, tree of `size`): the sibling of each range holding `index`, from the leaf
    up to the root, each taken from `subtree`."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
    siblings: list[bytes] = []
    lo, hi = 0, size
    while hi - lo > 1:
        middle = lo + _split(hi - lo)
        if index < middle:
            siblings.append(subtree(middle, hi))
            hi = middle
        else:
            siblings.append(subtree(lo, middle))
            lo = middle
    return siblings[::-1]


def consistency_proof_by(subtree: Subtree, old_size: int, new_size: int) -> list[bytes]:
    """PROOF(old_size, tree of `new_size`), RFC 9162 2.1.4.1, each hash from `subtree`."""
    if not 0 <= old_size <= new_size:
        raise ValueError(f"a tree of {old_size} leaves is not a prefix of one of {new_size}")
    if old_size in (0, new_size):
        return []
    proof: list[bytes] = []

    def subproof(m: int, lo: int, hi: int, whole: bool) -> None:
        if hi - lo == m:
            if not whole:
                proof.append(subtree(lo, hi))
            return
        middle = lo + _split(hi - lo)
        if m <= middle - lo:
            subproof(m, lo, middle, whole)
            proof.append(subtree(middle, hi))
        else:
            subproof(m - (middle - lo), middle, hi, False)
            proof.append(subtree(lo, middle))

    subproof(old_size, 0, new_size, True)
    return proof


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes,
                       proof: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2: does `proof` show the tree of `new_size` leaves with `new_root` to be
    the tree of `old_size` leaves with `old_root` and nothing but leaves appended?"""
    if not 0 <= old_size <= new_size or any(len(digest) != 32 for digest in proof):
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof and old_root == EMPTY_ROOT
    path = list(proof)
    if not path:
        return False
    if old_size & (old_size - 1) == 0:  # a perfect subtree: its root is the first step
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    old_digest = new_digest = path[0]
    for step in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            old_digest = node_hash(step, old_digest)
            new_digest = node_hash(step, new_digest)
            while fn and not fn & 1:
                fn >>= 1
                sn >>= 1
        else:
            new_digest = node_hash(new_digest, step)
        fn >>= 1
        sn >>= 1
    return sn == 0 and old_digest == old_root and new_digest == new_root
