"""The sealing follower on the real server: every event sealed once, in global order, signed
checkpoints at the cadence, and a checkpoint signed before a crash adopted, never re-signed."""

from __future__ import annotations

import itertools
import threading

import pytest

from ledger.audit.log.formats import Witness, event_leaf
from ledger.audit.log.merkle import root_of
from ledger.audit.seal.sealer import Cadence, Sealer, ledger_id
from ledger.audit.verification.seal_check import check_seal
from ledger.core.errors import WrongState
from ledger.identity.keys import Credential
from tests.integration.helpers import open_table
from tests.integration.projection_helpers import append_dealer_shifts
from tests.signing import open_ledger

KEY = Credential.generate("seal", "SEAL-T")


def record(settings, tables: int = 3, events: int = 40) -> None:
    with open_ledger(settings) as rt:
        for n in range(tables):
            code = f"SL-{n:02d}"
            rt.ledger.execute(open_table(code))
            append_dealer_shifts(rt.ledger, code, events=events, per_save=10)


def events_root(superuser) -> tuple[int, bytes]:
    rows = superuser.execute("SELECT notification_id, originator_id, originator_version, topic, "
                             "state FROM ledger_events ORDER BY notification_id").fetchall()
    leaves = [event_leaf(p, s, v, t, bytes(state)) for p, s, v, t, state in rows]
    return len(leaves), root_of(leaves)


@pytest.fixture
def sealer(database, tmp_path) -> Sealer:
    return Sealer(database, KEY, tmp_path / "witness", Cadence(every_events=50,
                                                                every_seconds=3600),
                  batch_size=30)


def test_every_event_is_sealed_once_in_global_order_under_a_signed_checkpoint(
        settings, sealer, superuser, tmp_path):
    record(settings)
    with sealer.database.connect() as conn:
        sealer.catch_up(conn, checkpoint_at_end=True)
    size, root = events_root(superuser)
    (last,) = superuser.execute("SELECT size, root FROM ledger_seal_checkpoints "
                                "ORDER BY size DESC LIMIT 1").fetchall()
    assert last == (size, root)
    sizes = [s for (s,) in superuser.execute("SELECT size FROM ledger_seal_checkpoints "
                                             "ORDER BY size")]
    # the cadence: every checkpoint but the one at the end is 50 events or more after the last
    assert all(b - a >= 50 for a, b in itertools.pairwise(sizes[:-1]))
    witness = Witness(tmp_path / "witness" / ledger_id(superuser))
    assert witness.sizes() == sizes
    report = check_seal(superuser, [KEY.public_key], tmp_path / "witness")
    assert report.problems == [] and report.sealed == size and report.unsealed == 0


def test_two_sealers_at_once_take_turns_and_seal_each_event_once(settings, sealer, superuser):
    record(settings, tables=4)
    errors: list[BaseException] = []

    def seal() -> None:
        try:
            with sealer.database.connect() as conn:
                sealer.catch_up(conn)
        except BaseException as error:  # noqa: BLE001 - the failure is the assertion
            errors.append(error)

    threads = [threading.Thread(target=seal) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    size, root = events_root(superuser)
    (leaves, distinct) = superuser.execute(
        "SELECT count(*), count(DISTINCT position) FROM ledger_seal_leaves").fetchone()
    assert leaves == distinct == size


class _CrashAfterWitness(Sealer):
    """Dies after the witness file is written, before the checkpoint's row commits."""

    def _checkpoint(self, conn, ledger, frontier, position):  # type: ignore[override]
        super()._checkpoint(conn, ledger, frontier, position)
        raise RuntimeError("power cut")


def test_a_checkpoint_witnessed_before_a_crash_is_adopted_not_signed_again(
        settings, database, superuser, tmp_path):
    record(settings, tables=1)
    crashing = _CrashAfterWitness(database, KEY, tmp_path / "witness")
    with database.connect() as conn, pytest.raises(RuntimeError, match="power cut"):
        crashing.step(conn, force_checkpoint=True)
    assert superuser.execute("SELECT count(*) FROM ledger_seal_checkpoints").fetchone()[0] == 0
    witness = Witness(tmp_path / "witness" / ledger_id(superuser))
    [size] = witness.sizes()
    before = witness.path(size).read_bytes()
    with database.connect() as conn:
        Sealer(database, KEY, tmp_path / "witness").step(conn, force_checkpoint=True)
    assert witness.path(size).read_bytes() == before
    (statement,) = superuser.execute("SELECT statement FROM ledger_seal_checkpoints").fetchone()
    assert bytes(statement) == witness.read(size).signed_bytes
    assert check_seal(superuser, [KEY.public_key], tmp_path / "witness").problems == []


def test_a_staff_key_cannot_seal(database, tmp_path):
    with pytest.raises(ValueError, match="a staff key cannot seal"):
        Sealer(database, Credential.generate("staff", "D-1"), tmp_path)


def test_the_position_is_the_seals_own_and_a_healthy_state_is_never_rebuilt(
        settings, sealer, superuser):
    record(settings, tables=2)
    rebuilt: list[str] = []
    sealer.on_rebuild = rebuilt.append
    superuser.execute("INSERT INTO ledger_tracking (projection, position) VALUES ('seal', 5)")
    with sealer.database.connect() as conn:
        sealer.catch_up(conn)  # batches of 30, checkpoints every 50: it ends between two
    size, _ = events_root(superuser)
    assert superuser.execute("SELECT size, position = (SELECT max(notification_id) FROM "
                             "ledger_events) FROM ledger_seal_state").fetchone() == (size, True)
    assert rebuilt == []


def test_a_state_damaged_between_checkpoints_is_rebuilt_from_leaves_the_events_vouch_for(
        settings, sealer, superuser, tmp_path):
    record(settings, tables=2)
    rebuilt: list[str] = []
    sealer.on_rebuild = rebuilt.append
    with sealer.database.connect() as conn:
        sealer.catch_up(conn)
    size, checkpointed = superuser.execute(
        "SELECT size, checkpointed_size FROM ledger_seal_state").fetchone()
    assert 0 < checkpointed < size  # leaves past the newest checkpoint
    superuser.execute("UPDATE ledger_seal_state SET frontier = frontier[2:]")
    with open_ledger(settings) as rt:
        append_dealer_shifts(rt.ledger, "SL-00", events=5, per_save=5)
    with sealer.database.connect() as conn:
        sealer.catch_up(conn, checkpoint_at_end=True)
    [line] = rebuilt
    assert line.startswith("the seal's state was damaged (its frontier does not fit its size")
    assert check_seal(superuser, [KEY.public_key], tmp_path / "witness").problems == []


def test_a_forged_leaf_past_the_newest_checkpoint_is_refused(settings, sealer, superuser):
    record(settings, tables=2)
    with sealer.database.connect() as conn:
        sealer.catch_up(conn)
    size, checkpointed = superuser.execute(
        "SELECT size, checkpointed_size FROM ledger_seal_state").fetchone()
    superuser.execute("ALTER TABLE ledger_seal_leaves DISABLE TRIGGER USER")
    superuser.execute("UPDATE ledger_seal_leaves SET leaf = sha256(leaf) WHERE leaf_index = %s",
                      (size - 1,))
    superuser.execute("UPDATE ledger_seal_state SET position = position - 1")
    with sealer.database.connect() as conn, pytest.raises(
            WrongState, match=f"leaf {size - 1}, past the newest checkpoint, is not the event"):
        sealer.step(conn)
    assert superuser.execute("SELECT size FROM ledger_seal_state").fetchone()[0] == size
