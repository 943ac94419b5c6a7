"""The sealer never dies on a damaged state: `ledger seal run` names the damage in one line and
rebuilds the state from the stored leaves when the newest checkpoint (signed by its own key)
and the events vouch for them, and otherwise refuses in one line naming `ledger seal repair`.

Each test damages the seal as a superuser would, behind the roles, and runs the CLI.
"""

from __future__ import annotations

import pytest

from tests.signing import UNTRUSTED

OPEN = ("table", "open", "BAC-09", "--game", "baccarat", "--min", "100", "--max", "500")


def _state(superuser) -> tuple[int, int, int]:
    return superuser.execute("SELECT size, position, cardinality(frontier) "
                             "FROM ledger_seal_state").fetchone()


@pytest.fixture
def more(cli, sealed):
    """Two more events than the sealed ones, so the next run has something to seal."""
    assert cli(*OPEN).code == 0
    return sealed


def _rebuilt_then_verified(cli, superuser, names: str) -> None:
    done = cli("seal", "run", "--once")
    assert done.code == 0, done.err
    assert "Traceback" not in done.err
    [line] = done.err.strip().splitlines()
    assert "the seal's state was damaged" in line and names in line and "rebuilt" in line
    assert "sealed 2 new events; checkpoint at" in done.out
    recorded = superuser.execute("SELECT count(*), max(notification_id) "
                                 "FROM ledger_events").fetchone()
    assert _state(superuser)[:2] == recorded
    clean = cli("verify")
    assert clean.code == UNTRUSTED, clean.out + clean.err
    assert "0 events not yet sealed" in clean.out
    again = cli("seal", "run", "--once")  # the state agrees now: nothing said
    assert again.code == 0 and again.err == "", again.err


def test_a_frontier_that_does_not_fit_its_size_is_rebuilt_from_the_leaves(more, cli, superuser):
    superuser.execute("UPDATE ledger_seal_state SET frontier = '{}'")
    _rebuilt_then_verified(cli, superuser, "its frontier does not fit its size")


def test_a_state_behind_its_leaves_is_rebuilt_not_sealed_twice(more, cli, superuser):
    superuser.execute("UPDATE ledger_seal_state SET size = 0, frontier = '{}', position = 0, "
                      "checkpointed_size = 0")
    _rebuilt_then_verified(cli, superuser, "the stored leaves end with leaf")


def test_a_position_moved_ahead_to_skip_events_is_rebuilt(more, cli, superuser):
    superuser.execute("UPDATE ledger_seal_state SET position = position + 2")
    _rebuilt_then_verified(cli, superuser, "up to position")


def test_a_frontier_hash_changed_at_a_checkpoint_is_rebuilt(more, cli, superuser):
    superuser.execute("UPDATE ledger_seal_state SET frontier[1] = sha256(frontier[1])")
    _rebuilt_then_verified(cli, superuser, "is not the root of its checkpoint")


def _forge_leaf(superuser) -> None:
    superuser.execute("ALTER TABLE ledger_seal_leaves DISABLE TRIGGER USER")
    superuser.execute("UPDATE ledger_seal_leaves SET leaf = sha256(leaf) WHERE leaf_index = 3")


def test_leaves_no_checkpoint_vouches_for_are_refused_in_one_line_naming_the_repair(
        more, cli, superuser):
    before = _state(superuser)
    _forge_leaf(superuser)
    superuser.execute("UPDATE ledger_seal_state SET frontier = '{}'")
    refused = cli("seal", "run", "--once")
    assert refused.code == 1, refused.out
    assert "Traceback" not in refused.err
    [line] = refused.err.strip().splitlines()
    assert "the seal's state is damaged and its stored leaves cannot rebuild it" in line
    assert "not the root of the newest checkpoint" in line and "`ledger seal repair`" in line
    assert _state(superuser)[:2] == before[:2]  # nothing sealed, nothing stored
    repair = cli("seal", "repair")  # the leaves are not the events: nothing to repair in place
    assert repair.code == 1, repair.out
    [line] = repair.err.strip().splitlines()
    assert "cannot be repaired in place: leaf 3 is not the event at position" in line


def test_a_checkpoint_signed_by_another_key_is_refused_and_repair_rebuilds_from_the_events(
        more, cli, superuser, tmp_path, monkeypatch):
    rotated = tmp_path / "rotated.key"
    assert cli("key", "new", "seal", "SEAL-2", "--out", str(rotated)).code == 0
    monkeypatch.setenv("LEDGER_SEAL_KEY", str(rotated))
    monkeypatch.delenv("LEDGER_SEAL_PUBLIC_KEY")
    superuser.execute("UPDATE ledger_seal_state SET frontier = '{}'")
    refused = cli("seal", "run", "--once")
    assert refused.code == 1 and "Traceback" not in refused.err
    [line] = refused.err.strip().splitlines()
    assert "is not signed by this sealer's key" in line and "`ledger seal repair`" in line
    repair = cli("seal", "repair")
    assert repair.code == 0, repair.err
    assert "repaired: the seal's state is" in repair.out and repair.err == ""
    done = cli("seal", "run", "--once")
    assert done.code == 0 and done.err == "", done.err
    assert "sealed 2 new events; checkpoint at" in done.out
