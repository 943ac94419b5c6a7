"""Which witnesses `ledger verify` waits for: only one that has not answered. A witness whose
memory the newest checkpoint does not extend will never cosign it, and is named at once."""

from __future__ import annotations

from ledger.audit.log.formats import Checkpoint
from ledger.audit.witnesses.quorum import Memory, refusal

ROOT, OTHER = bytes(32), bytes([1]) * 32


def newest(size: int = 100, root: bytes = ROOT) -> Checkpoint:
    return Checkpoint("ledger", size, size, root, "2026-11-29T03:00:00Z", "ed25519:0", "")


def held(size: int, root: bytes = ROOT) -> Memory:
    return Memory("W-2", size, root, 0, "live at http://w2")


def test_another_root_at_the_newest_checkpoints_size_is_a_refusal():
    assert "holds another root at 100 events" in refusal(held(100, OTHER), newest(), set())


def test_more_events_than_the_newest_checkpoint_is_a_refusal():
    assert "holds 120 events" in refusal(held(120), newest(), set())


def test_a_memory_the_events_part_from_is_a_refusal():
    assert "that the events part from" in refusal(held(80, OTHER), newest(), {"W-2"})


def test_a_witness_behind_whose_memory_the_events_extend_is_waited_for():
    assert refusal(held(80), newest(), set()) == ""
    assert refusal(held(100), newest(), set()) == ""
