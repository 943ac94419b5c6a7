"""An insider with superuser rights rewrites the events; `ledger verify` names it, even after
`ledger projections rebuild` has made the read models agree with the rewritten events.

Each test seals a closed shift (a signed checkpoint in the database and in the witness), then
attacks the way someone who keeps the database would: triggers switched off, hash chains
recomputed exactly as the trigger computes them, so the per-stream chains hold.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager

import pytest

from ledger.audit.replay.chain import GENESIS, chain_hash
from tests.signing import UNTRUSTED

TRIGGERS = ("ledger_events_chain", "ledger_events_no_update_delete", "ledger_events_no_truncate")


@contextmanager
def behind_the_ledger(superuser):
    """What a superuser can do: switch the append-only and chain triggers off, then on."""
    superuser.execute("ALTER TABLE ledger_events DISABLE TRIGGER USER")
    try:
        yield
    finally:
        for trigger in TRIGGERS:
            superuser.execute(f"ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER {trigger}")


def rehash(superuser, stream_id) -> None:
    """Recompute one stream's chain the way the trigger does, so its chain holds again."""
    previous = GENESIS
    rows = superuser.execute(
        "SELECT originator_version, topic, state FROM ledger_events WHERE originator_id = %s "
        "ORDER BY originator_version", (stream_id,)).fetchall()
    for version, topic, state in rows:
        previous = chain_hash(previous, stream_id, version, topic, bytes(state))
        superuser.execute("UPDATE ledger_events SET chain_hash = %s WHERE originator_id = %s "
                          "AND originator_version = %s", (previous, stream_id, version))


def first(superuser, event_type: str) -> tuple[int, object, int]:
    return superuser.execute(
        "SELECT position, stream_id, version FROM ledger_event_log WHERE event_type = %s "
        "ORDER BY position LIMIT 1", (event_type,)).fetchone()


def detected(cli, *expected: str) -> None:
    """`ledger verify` exits 1 naming the damage, and again after every projection is rebuilt
    from the damaged events."""
    for attempt in ("as found", "after a rebuild"):
        if attempt == "after a rebuild":
            rebuilt = cli("projections", "rebuild")  # every projection, from the first event
            assert rebuilt.code == 0, rebuilt.err
        result = cli("verify")
        assert result.code == 1, f"{attempt}: {result.out}"
        for text in expected:
            assert text in result.out, f"{attempt}: {text!r} not in\n{result.out}"


@pytest.mark.parametrize("event_type", ["Round.Settled", "Shift.Closed"],
                         ids=["a rounds settled event", "a shifts closing event"])
def test_deleting_the_last_event_of_a_stream_is_named_as_missing(cli, sealed, superuser,
                                                                 event_type):
    position, stream, version = first(superuser, event_type)
    with behind_the_ledger(superuser):
        superuser.execute("DELETE FROM ledger_events WHERE notification_id = %s", (position,))
    detected(cli, f"missing: position {position} (stream {stream} version {version}) is gone")


def test_cutting_off_the_last_commands_at_the_end_of_the_table_is_named(cli, sealed, superuser):
    tail = superuser.execute("SELECT notification_id FROM ledger_events "
                             "ORDER BY notification_id DESC LIMIT 6").fetchall()
    with behind_the_ledger(superuser):
        superuser.execute("DELETE FROM ledger_events WHERE notification_id >= %s",
                          (tail[-1][0],))
    detected(cli, "missing: position", "is gone")


def test_a_forged_adjustment_appended_with_the_chain_recomputed_is_named(cli, sealed, superuser):
    """The trigger itself computes the forgery's hash: the round's chain holds. The event
    claims the settling command, but lies outside that command's run of positions."""
    position, stream, version = superuser.execute(
        "SELECT position, stream_id, version FROM ledger_event_log WHERE stream_id = "
        "(SELECT stream_id FROM ledger_event_log WHERE event_type = 'Round.Settled' LIMIT 1) "
        "ORDER BY version DESC LIMIT 1").fetchone()
    topic, state = superuser.execute(
        "SELECT topic, state FROM ledger_events WHERE notification_id = %s",
        (position,)).fetchone()
    body = json.loads(bytes(state))
    forged = {"originator_id": body["originator_id"], "originator_version": version + 1,
              "timestamp": body["timestamp"], "box": 1, "spot": "player", "player": None,
              "amount": "5000.00", "reason": "goodwill", "dispute": "DSP-X", "by": body["by"]}
    superuser.execute(
        "INSERT INTO ledger_events (originator_id, originator_version, topic, state) "
        "VALUES (%s, %s, %s, %s)",
        (stream, version + 1, topic.replace("Settled", "Adjusted"),
         json.dumps(forged).encode()))
    detected(cli, f"stream {stream} version {version + 1}",
             "outside that command's run of positions")


def test_a_payout_and_the_house_win_changed_together_are_named_as_changed(
        cli, sealed, superuser):
    position, stream, version = first(superuser, "Round.Settled")
    (state,) = superuser.execute("SELECT state FROM ledger_events WHERE notification_id = %s",
                                 (position,)).fetchone()
    altered = bytes(state).replace(b'"1000.00"', b'"100.00"')
    assert altered != bytes(state)
    with behind_the_ledger(superuser):
        superuser.execute("UPDATE ledger_events SET state = %s WHERE notification_id = %s",
                          (altered, position))
        rehash(superuser, stream)
    detected(cli, f"changed: position {position} (stream {stream} version {version}) differs")


def test_two_events_of_different_streams_swapped_in_the_global_order_are_named_as_moved(
        cli, sealed, superuser):
    a, stream_a, version_a = first(superuser, "Round.Opened")
    b, _, _ = first(superuser, "Shift.FillRecorded")
    with behind_the_ledger(superuser):
        superuser.execute("UPDATE ledger_events SET notification_id = -1 "
                          "WHERE notification_id = %s", (a,))
        superuser.execute("UPDATE ledger_events SET notification_id = %s "
                          "WHERE notification_id = %s", (a, b))
        superuser.execute("UPDATE ledger_events SET notification_id = %s "
                          "WHERE notification_id = -1", (b,))
    detected(cli, f"moved: position {a} holds stream", f"sealed at position {b}")


def test_deleting_a_whole_stream_is_named(cli, sealed, superuser):
    position, stream, version = first(superuser, "Round.Opened")
    with behind_the_ledger(superuser):
        superuser.execute("DELETE FROM ledger_events WHERE originator_id = %s", (stream,))
    detected(cli, f"missing: position {position} (stream {stream} version {version}) is gone")


def test_an_event_inserted_in_the_middle_with_recomputed_hashes_is_named(cli, sealed, superuser):
    """A bet slipped into a settled round: the versions after it moved up one, every hash of
    the stream recomputed; the new row takes a position the seal never saw."""
    position, stream, version = first(superuser, "Round.BetPlaced")
    topic, state = superuser.execute(
        "SELECT topic, state FROM ledger_events WHERE notification_id = %s",
        (position,)).fetchone()
    with behind_the_ledger(superuser):
        superuser.execute("UPDATE ledger_events SET originator_version = -originator_version "
                          "WHERE originator_id = %s AND originator_version > %s",
                          (stream, version))
        superuser.execute("UPDATE ledger_events SET originator_version = -originator_version + 1 "
                          "WHERE originator_id = %s AND originator_version < 0", (stream,))
        superuser.execute(
            "INSERT INTO ledger_events (notification_id, originator_id, originator_version, "
            "topic, state) VALUES (%s, %s, %s, %s, %s)",
            (position * 1000 + 1, stream, version + 1, topic, bytes(state)))
        rehash(superuser, stream)
    detected(cli, "the events part from the checkpoint", f"stream {stream}")


def test_an_edited_checkpoint_row_is_named(cli, sealed, superuser):
    superuser.execute("ALTER TABLE ledger_seal_checkpoints DISABLE TRIGGER USER")
    superuser.execute("UPDATE ledger_seal_checkpoints SET root = %s", (bytes(32),))
    size, position = superuser.execute(
        "SELECT size, position FROM ledger_seal_checkpoints").fetchone()  # the whole shift
    detected(cli, f"checkpoint row at {size} events: its columns (position {position}, root "
             "0000000000000000",
             "differ from the statement it signed", "row edited")


def test_a_sealing_key_replaced_in_the_database_is_named(cli, sealed, superuser, tmp_path):
    forged = tmp_path / "forged.key"
    assert cli("key", "new", "seal", "FORGER", "--out", str(forged)).code == 0
    public = next(line.split()[-1] for line in cli("key", "show", str(forged)).out.splitlines()
                  if line.startswith("public key"))
    superuser.execute("ALTER TABLE ledger_seal_keys DISABLE TRIGGER USER")
    superuser.execute("UPDATE ledger_seal_keys SET public_key = %s", (public,))
    detected(cli, "which is not the trusted one")


def test_deleting_the_witness_newest_file_is_named(cli, sealed, superuser):
    newest = max(sealed.witness.glob("*/checkpoint-*.json"))
    newest.unlink()
    detected(cli, "is missing from the witness", newest.name)


def test_events_after_the_last_checkpoint_are_reported_as_not_yet_sealed(
        cli, sealed, as_admin, tmp_path):
    key = tmp_path / "D-900.key"
    assert cli("key", "new", "staff", "D-900", "--out", str(key)).code == 0
    public = next(line.split()[-1] for line in cli("key", "show", str(key)).out.splitlines()
                  if line.startswith("public key"))
    enrolled = cli("staff", "enrol", "D-900", "--name", "New Dealer", "--role", "dealer",
                   "--public-key", public, extra_env=as_admin)
    assert enrolled.code == 0, enrolled.err
    result = cli("verify")
    assert result.code == UNTRUSTED, result.out
    assert re.search(r"\b[1-9]\d* events? not yet sealed", result.out), result.out


def test_replaying_a_round_with_two_events_swapped_names_the_damage_not_a_traceback(
        cli, sealed, superuser):
    stream, = superuser.execute("SELECT stream_id FROM ledger_event_log "
                                "WHERE event_type = 'Round.Settled' LIMIT 1").fetchone()
    with behind_the_ledger(superuser):
        superuser.execute("UPDATE ledger_events SET originator_version = -1 "
                          "WHERE originator_id = %s AND originator_version = 2", (stream,))
        superuser.execute("UPDATE ledger_events SET originator_version = 2 "
                          "WHERE originator_id = %s AND originator_version = 3", (stream,))
        superuser.execute("UPDATE ledger_events SET originator_version = 3 "
                          "WHERE originator_id = %s AND originator_version = -1", (stream,))
        rehash(superuser, stream)
    result = cli("replay", str(stream))
    assert result.code == 1
    assert "Traceback" not in result.err + result.out
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and f"DISCREPANCY: round stream {stream} version 2" in lines[0]


def test_replaying_a_round_whose_event_body_was_garbled_names_the_damage(cli, sealed, superuser):
    position, stream, version = first(superuser, "Round.BetPlaced")
    with behind_the_ledger(superuser):
        superuser.execute("UPDATE ledger_events SET state = %s WHERE notification_id = %s",
                          (b'{"box": "two"}', position))
    result = cli("replay", str(stream))
    assert result.code == 1 and "Traceback" not in result.err + result.out
    [line] = result.err.strip().splitlines()
    assert f"DISCREPANCY: stream {stream} version {version} (position {position})" in line
