"""The seal's tiles on the real server: the sealer stores each full tile with the leaves that
fill it, exactly once across a crash; proofs read from them equal the proofs from every leaf;
and a stored tile an insider altered is named, never a way for a changed event to pass."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from ledger.audit.log.formats import Checkpoint, event_leaf
from ledger.audit.log.merkle import consistency_proof, inclusion_proofs, root_of
from ledger.audit.log.tile_store import (
    StoredTiles,
    audit_paths,
    consistency,
    prove_positions,
    repair_tiles,
    stored_leaves,
    stored_tiles,
)
from ledger.audit.log.tiles import TiledTree, tiles_of, unpack
from ledger.audit.replay.sealed_events import SealStatus, SealTrust, newest_signed, sealed_events
from ledger.audit.replay.store import RecordedEvent
from ledger.audit.seal import sealer as sealer_module
from ledger.audit.seal.sealer import Cadence, Sealer
from ledger.audit.verification.seal_check import check_seal
from ledger.core.errors import WrongState
from ledger.identity.keys import Credential
from tests.e2e.test_seal_attacks import behind_the_ledger

KEY = Credential.generate("seal", "SEAL-TILES")
EVENTS = 66_000  # one full tile of level 1 (65,536 leaves), then 464 leaves of the next
TAMPERED = "stored tile level 1 index 0 does not match the leaves"


def fill(superuser, total: int) -> None:
    """Events inserted straight into the table (the chain trigger hashes each) until it holds
    `total`, as many as a test of level-1 tiles needs; the sealer reads rows, not aggregates."""
    (count,) = superuser.execute("SELECT count(*) FROM ledger_events").fetchone()
    superuser.execute(
        "INSERT INTO ledger_events (originator_id, originator_version, topic, state) "
        "SELECT gen_random_uuid(), 1, 'tests:Filled', convert_to('{\"n\": ' || n || '}', "
        "'UTF8') FROM generate_series(1, %s) AS n", (total - count,))


def sealer_of(database, tmp_path) -> Sealer:
    return Sealer(database, KEY, tmp_path / "witness",
                  Cadence(every_events=10**9, every_seconds=3600), batch_size=20_000)


@pytest.fixture
def sealed(database, superuser, tmp_path) -> Checkpoint:
    fill(superuser, EVENTS)
    with database.connect() as conn:
        sealer_of(database, tmp_path).catch_up(conn, checkpoint_at_end=True)
    checkpoint = newest_signed(superuser, [KEY.public_key])
    assert checkpoint is not None and checkpoint.size == EVENTS
    return checkpoint


def alter_tile(superuser, level: int, index: int, at: int) -> None:
    (blob,) = superuser.execute("SELECT hashes FROM ledger_seal_tiles WHERE level = %s AND "
                                "tile_index = %s", (level, index)).fetchone()
    hashes = unpack(bytes(blob))
    hashes[at] = bytes(32)
    with behind_the_seal(superuser, "ledger_seal_tiles"):
        superuser.execute("UPDATE ledger_seal_tiles SET hashes = %s WHERE level = %s AND "
                          "tile_index = %s", (b"".join(hashes), level, index))


@contextmanager
def behind_the_seal(superuser, table: str) -> Iterator[None]:
    """What a superuser can do: switch a seal table's append-only triggers off, then on."""
    superuser.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    try:
        yield
    finally:
        for trigger in (f"{table}_no_update_delete", f"{table}_no_truncate"):
            superuser.execute(f"ALTER TABLE {table} ENABLE ALWAYS TRIGGER {trigger}")


def test_the_sealer_stores_each_full_tile_with_the_leaves_that_fill_it(sealed, superuser):
    leaves = stored_leaves(superuser, EVENTS)
    assert len(leaves) == EVENTS
    assert stored_tiles(superuser) == tiles_of(leaves) and len(tiles_of(leaves)) == 1


@pytest.mark.parametrize("size", [65_535, 65_536, 65_537, EVENTS])
def test_proofs_read_from_the_stored_tiles_equal_proofs_from_every_leaf(sealed, superuser,
                                                                        size):
    leaves = stored_leaves(superuser, size)
    root = root_of(leaves)
    indices = sorted({i for i in (0, 1, 255, 256, 40_000, 65_535, size - 2, size - 1)
                      if i < size})
    found = audit_paths(superuser, size, root, indices)
    assert found.altered is None and found.damaged_tiles == []
    assert found.paths == inclusion_proofs(leaves, indices)
    for old in [o for o in (1, 256, 65_535, 65_536, size - 1) if o < size]:
        old_root = root_of(leaves[:old])
        assert consistency(superuser, old, size, old_root, root) == (
            consistency_proof(leaves, old), [])


def test_a_proof_reads_a_tile_and_the_leaves_after_it_not_the_whole_log(sealed, superuser):
    source = StoredTiles(superuser)
    tree = TiledTree(source, EVENTS)
    tree.inclusion_proof(3)
    tree.consistency_proof(1_000)
    assert tree.used == {(1, 0)}
    # the tile, the 256 leaves around leaf 3 and around leaf 1,000, the leaves after the tile
    assert source.rows == 1 + 2 * 256 + (EVENTS - 65_536)


def test_a_sealer_that_dies_after_writing_a_tile_resumes_with_exactly_the_tiles_of_its_leaves(
        database, superuser, tmp_path, monkeypatch):
    fill(superuser, EVENTS)
    written = sealer_module.write_tiles

    def dies_after_a_tile(conn, old_size: int, new_size: int) -> list[str]:
        named = written(conn, old_size, new_size)
        if old_size < 65_536 <= new_size:
            raise RuntimeError("power cut")
        return named

    monkeypatch.setattr(sealer_module, "write_tiles", dies_after_a_tile)
    with database.connect() as conn, pytest.raises(RuntimeError, match="power cut"):
        sealer_of(database, tmp_path).catch_up(conn)
    assert stored_tiles(superuser) == {}
    (size,) = superuser.execute("SELECT size FROM ledger_seal_state").fetchone()
    assert 0 < size < 65_536
    monkeypatch.setattr(sealer_module, "write_tiles", written)
    with database.connect() as conn:
        sealer_of(database, tmp_path).catch_up(conn, checkpoint_at_end=True)
    assert stored_tiles(superuser) == tiles_of(stored_leaves(superuser, EVENTS))


def test_a_tile_forged_ahead_of_the_sealer_neither_stops_it_nor_passes(
        database, superuser, tmp_path):
    fill(superuser, EVENTS)
    superuser.execute("INSERT INTO ledger_seal_tiles VALUES (1, 0, %s)", (bytes(8192),))
    notes: list[str] = []
    sealer = sealer_of(database, tmp_path)
    sealer.on_rebuild = notes.append
    with database.connect() as conn:
        sealer.catch_up(conn, checkpoint_at_end=True)
    assert [note.split(":")[0] for note in notes] == [TAMPERED]
    checkpoint = newest_signed(superuser, [KEY.public_key])
    assert checkpoint is not None and checkpoint.size == EVENTS
    assert prove_positions(superuser, checkpoint, [1, 5_000]) == [TAMPERED]


def test_a_ledger_sealed_before_tiles_gets_them_from_the_sealers_first_batch(
        sealed, database, superuser, tmp_path):
    with behind_the_seal(superuser, "ledger_seal_tiles"):
        superuser.execute("DELETE FROM ledger_seal_tiles")
    with database.connect() as conn:
        sealer_of(database, tmp_path).step(conn)  # nothing new to seal
    assert stored_tiles(superuser) == tiles_of(stored_leaves(superuser, EVENTS))


def test_an_altered_tile_is_named_and_the_events_are_proven_from_the_leaves(sealed, superuser):
    alter_tile(superuser, 1, 0, at=1)
    positions = [p for (p,) in superuser.execute(
        "SELECT position FROM ledger_seal_leaves WHERE leaf_index IN (0, 300, 65999)")]
    assert prove_positions(superuser, sealed, positions) == [TAMPERED]
    events = [RecordedEvent(p, s, v, t, bytes(state), None, None) for p, s, v, t, state in
              superuser.execute("SELECT notification_id, originator_id, originator_version, "
                                "topic, state FROM ledger_events WHERE notification_id = "
                                "ANY(%s)", (positions,))]
    check = sealed_events(superuser, events, {}, SealTrust((KEY.public_key,)))
    assert check.status is SealStatus.SEALED and check.notes == [TAMPERED]
    assert f"(proven from the stored leaves: {TAMPERED}; run `ledger seal repair`)" in (
        check.sentence)


def test_an_altered_tile_does_not_let_a_changed_event_pass(sealed, superuser):
    alter_tile(superuser, 1, 0, at=0)  # the sibling of leaf 300's 256
    (position,) = superuser.execute(
        "SELECT position FROM ledger_seal_leaves WHERE leaf_index = 300").fetchone()
    with behind_the_ledger(superuser):
        superuser.execute("UPDATE ledger_events SET state = convert_to('{\"n\": -1}', 'UTF8') "
                          "WHERE notification_id = %s", (position,))
    assert prove_positions(superuser, sealed, [position]) == [
        f"leaf 300 is not the leaf sealed there under checkpoint {EVENTS:,} events", TAMPERED]


def test_a_changed_event_with_its_leaf_and_tile_rebuilt_to_match_is_still_caught(
        sealed, superuser):
    """The insider changes an event, then its stored leaf and the tile above it so that they
    agree: the path still ends at a root the sealing key never signed."""
    (position,) = superuser.execute(
        "SELECT position FROM ledger_seal_leaves WHERE leaf_index = 300").fetchone()
    with behind_the_ledger(superuser):
        superuser.execute("UPDATE ledger_events SET state = convert_to('{\"n\": -1}', 'UTF8') "
                          "WHERE notification_id = %s", (position,))
    stream, version, topic, state = superuser.execute(
        "SELECT originator_id, originator_version, topic, state FROM ledger_events "
        "WHERE notification_id = %s", (position,)).fetchone()
    forged = event_leaf(position, stream, version, topic, bytes(state))
    with behind_the_seal(superuser, "ledger_seal_leaves"):
        superuser.execute("UPDATE ledger_seal_leaves SET leaf = %s WHERE leaf_index = 300",
                          (forged,))
    rebuilt = tiles_of(stored_leaves(superuser, EVENTS))[(1, 0)]
    with behind_the_seal(superuser, "ledger_seal_tiles"):
        superuser.execute("UPDATE ledger_seal_tiles SET hashes = %s", (rebuilt,))
    [problem] = prove_positions(superuser, sealed, [position])
    assert problem.endswith("the seal's stored leaves were altered")


def test_a_witness_is_sent_a_consistency_proof_from_the_leaves_past_an_altered_tile(
        sealed, superuser):
    alter_tile(superuser, 1, 0, at=200)  # inside the subtree of leaves 32,768 to 65,535
    leaves = stored_leaves(superuser, EVENTS)
    proof, damage = consistency(superuser, 1_000, EVENTS, root_of(leaves[:1_000]), sealed.root)
    assert proof == consistency_proof(leaves, 1_000) and damage == [TAMPERED]


def test_repair_names_an_altered_tile_and_builds_a_missing_one(sealed, superuser):
    alter_tile(superuser, 1, 0, at=200)
    repaired = repair_tiles(superuser, EVENTS)
    assert repaired.built == 0
    assert [line.split(":")[0] for line in repaired.damaged] == [TAMPERED]
    with behind_the_seal(superuser, "ledger_seal_tiles"):
        superuser.execute("DELETE FROM ledger_seal_tiles")
    assert repair_tiles(superuser, EVENTS).built == 1
    assert stored_tiles(superuser) == tiles_of(stored_leaves(superuser, EVENTS))
    assert prove_positions(superuser, sealed, [1, 2, 3]) == []


def test_verify_names_a_stored_tile_the_events_do_not_give(sealed, superuser, tmp_path):
    assert check_seal(superuser, [KEY.public_key], tmp_path / "witness").problems == []
    alter_tile(superuser, 1, 0, at=7)
    [problem] = check_seal(superuser, [KEY.public_key], tmp_path / "witness").problems
    assert problem == ("stored tile level 1 index 0 does not match the events: proofs read past "
                       "it to the leaves (`ledger seal repair` names it)")


def test_a_ledger_whose_init_predates_tiles_proves_from_the_leaves_and_the_sealer_says_why(
        sealed, database, superuser, tmp_path):
    superuser.execute("DROP TABLE ledger_seal_tiles")
    assert prove_positions(superuser, sealed, [1, 5_000, EVENTS]) == []
    with database.connect() as conn, pytest.raises(WrongState, match="run `ledger db init`"):
        sealer_of(database, tmp_path).step(conn)
