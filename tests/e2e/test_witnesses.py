"""Trust rooted outside the database: two witnesses (`ledger witness serve`, processes of
their own with their own keys and memory) cosign the sealer's checkpoints, the trust file
names them with a quorum of 2, and `ledger verify --trust` holds the database's history to
what they remember.

An insider who resets the seal, deletes the newest checkpoint with its witness file, rewrites
and re-seals history, or wipes one witness's memory is named (exit 1): the witnesses still
hold the checkpoint the database no longer extends. A witness that is down is a backlog, never
a stop: the floor records, the sealer seals, and the witness catches up when it is back.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ledger.audit.log.note import COSIGNATURE_V1, VerifierKey, origin_of
from ledger.core import clock as ledger_clock
from ledger.identity.keys import Credential
from tests.e2e.conftest import LEDGER
from tests.e2e.test_seal_attacks import behind_the_ledger, rehash
from tests.integration.test_witness import Running, free_port

SEAL_TABLES = ("ledger_seal_leaves", "ledger_seal_tiles", "ledger_seal_checkpoints",
               "ledger_seal_keys", "ledger_seal_cosignatures", "ledger_seal_state")


@dataclass
class Witnesses:
    trust: Path
    running: dict[str, Running]
    keys: dict[str, Path]
    stores: dict[str, Path]
    ports: dict[str, int]
    log: str  # ORIGIN=PUBLIC KEY


def _start(name: str, key: Path, store: Path, port: int, log: str) -> Running:
    process = subprocess.Popen([LEDGER, "witness", "serve", "--key", str(key), "--store",
                                str(store), "--port", str(port), "--log", log],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    import urllib.request

    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            raise AssertionError(process.communicate()[1].decode())
        try:
            with urllib.request.urlopen(url + "/vkey", timeout=1):
                break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    raw = Credential.load(key, "witness").private_key.public_key().public_bytes_raw()
    return Running(url, name, raw, process)


def _stop(running: Running) -> None:
    running.process.terminate()
    running.process.wait(timeout=10)


@pytest.fixture
def witnesses(cli, sealed, superuser, tmp_path, monkeypatch) -> Iterator[Witnesses]:
    """Two witnesses of this ledger, the trust file naming them (quorum 2) in the environment
    of every `ledger` run here, and the sealed shift's checkpoint cosigned by both."""
    ledger_id = str(superuser.execute("SELECT ledger_id FROM ledger_seal_state").fetchone()[0])
    log = f"{origin_of(ledger_id)}={sealed.public_key}"
    found = Witnesses(tmp_path / "trust.json", {}, {}, {}, {}, log)
    arguments = []
    for name in ("W-1", "W-2"):
        key = tmp_path / f"{name}.key"
        Credential.generate("witness", name).save(key)
        found.keys[name], found.stores[name] = key, tmp_path / f"{name}.sqlite"
        found.ports[name] = free_port()
        found.running[name] = _start(name, key, found.stores[name], found.ports[name], log)
        vkey = VerifierKey(name, found.running[name].public_key, COSIGNATURE_V1)
        arguments += ["--witness", f"{name}={vkey}@{found.running[name].url}"]
    made = cli("trust", "init", "--out", str(found.trust), *arguments, "--quorum", "2")
    assert made.code == 0, made.err
    assert "2 witnesses, quorum 2" in made.out, made.out
    monkeypatch.setenv("LEDGER_TRUST_FILE", str(found.trust))
    sealing = cli("seal", "run", "--once")
    assert sealing.code == 0, sealing.err + sealing.out
    yield found
    for running in found.running.values():
        if running.process.poll() is None:
            _stop(running)


def _verified(cli) -> str:
    result = cli("verify", "--trust", os.environ["LEDGER_TRUST_FILE"])
    assert result.code == 0, result.out + result.err
    return result.out


def _named(cli, *expected: str) -> str:
    result = cli("verify", "--trust", os.environ["LEDGER_TRUST_FILE"])
    assert result.code == 1, result.out
    for text in expected:
        assert text in result.out, f"{text!r} not in\n{result.out}"
    return result.out


def test_a_checkpoint_both_witnesses_cosigned_verifies_under_the_trust_file(cli, witnesses,
                                                                             superuser):
    rows = superuser.execute("SELECT witness FROM ledger_seal_cosignatures ORDER BY witness"
                             ).fetchall()
    assert [r[0] for r in rows] == ["W-1", "W-2"]
    out = _verified(cli)
    (size,) = superuser.execute("SELECT max(size) FROM ledger_seal_checkpoints").fetchone()
    assert f"{size:,} under a checkpoint its witnesses' quorum cosigned, 2 witnesses " \
           "consulted" in out


def test_trust_show_says_when_the_file_was_written_in_macau_time_and_counts_its_witnesses(
        cli, witnesses):
    for columns in ("80", "120"):
        shown = cli("trust", "show", str(witnesses.trust), extra_env={"COLUMNS": columns})
        assert shown.code == 0, shown.err
        flat = " ".join(shown.out.split())
        assert re.search(r"written \d{4}-\d\d-\d\d \d\d:\d\d:\d\d Macau time", flat), flat
        assert not re.search(r"\d\d:\d\d:\d\dZ", flat), flat


def _cosigned_by(superuser, size: int) -> set[str]:
    return {w for (w,) in superuser.execute(
        "SELECT witness FROM ledger_seal_cosignatures WHERE size = %s", (size,))}


def _wait_for_a_checkpoint_without(superuser, witness: str) -> None:
    """Until the sealer has sealed every event recorded so far under a checkpoint the witness
    did not cosign: commands run in the test's process take milliseconds, and restarting the
    witness before the sealer's next round would leave it nothing to miss."""
    (recorded,) = superuser.execute("SELECT count(*) FROM ledger_events").fetchone()
    deadline = time.monotonic() + 60
    while True:
        (newest,) = superuser.execute(
            "SELECT coalesce(max(size), 0) FROM ledger_seal_checkpoints").fetchone()
        if newest >= recorded and witness not in _cosigned_by(superuser, newest):
            return
        assert time.monotonic() < deadline, (recorded, newest, _cosigned_by(superuser, newest))
        time.sleep(0.2)


def test_a_witness_down_midway_is_a_backlog_and_catches_up(cli, witnesses, superuser, settings):
    """The sealer follows the floor; W-2 is killed after three commands and restarted after
    six: every command is recorded, every event sealed, and W-2 cosigns the newest checkpoint
    with a consistency proof from the one it last cosigned."""
    env = {**os.environ, "LEDGER_DATABASE_URL": settings.database_url,
           "LEDGER_SEAL_EVERY_EVENTS": "2", "LEDGER_SEAL_EVERY_SECONDS": "1"}
    sealer = subprocess.Popen([LEDGER, "seal", "run"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert cli("jackpot", "create", "GRAND", "--seed", "1000", "--royal", "50000",
                   "--straight-flush", "10000", "--four", "2000", "--full-house", "1500",
                   "--flush", "1000", "--rate", "0.1").code == 0
        for n in range(9):
            if n == 3:
                _stop(witnesses.running["W-2"])
            if n == 6:
                _wait_for_a_checkpoint_without(superuser, "W-2")
                witnesses.running["W-2"] = _start("W-2", witnesses.keys["W-2"],
                                                  witnesses.stores["W-2"],
                                                  witnesses.ports["W-2"], witnesses.log)
            done = cli("jackpot", "adjust", "GRAND", "10", "--reason", f"float {n}")
            assert done.code == 0, done.err
        deadline = time.monotonic() + 120
        while True:
            (recorded,) = superuser.execute("SELECT count(*) FROM ledger_events").fetchone()
            (newest,) = superuser.execute(
                "SELECT coalesce(max(size), 0) FROM ledger_seal_checkpoints").fetchone()
            if newest == recorded and _cosigned_by(superuser, newest) == {"W-1", "W-2"}:
                break
            assert time.monotonic() < deadline, (recorded, newest,
                                                 _cosigned_by(superuser, newest))
            time.sleep(0.5)
    finally:
        sealer.send_signal(signal.SIGINT)
        out, err = sealer.communicate(timeout=60)
    assert "W-2" in out + err  # the backlog was said, as a warning
    assert "Traceback" not in err
    (amount,) = superuser.execute(
        "SELECT count(*) FROM ledger_event_log WHERE event_type = 'JackpotPool.Adjusted'"
    ).fetchone()
    assert amount == 9
    out = _verified(cli)
    assert f"{recorded:,} under a checkpoint its witnesses' quorum cosigned" in out


def _reset_the_seal(superuser) -> None:
    """As superuser: every checkpoint, leaf, tile and cosignature gone, a new ledger id, the
    sealer's position back to the start."""
    for table in SEAL_TABLES:
        superuser.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    try:
        for table in SEAL_TABLES[:-1]:
            superuser.execute(f"DELETE FROM {table}")
        superuser.execute("UPDATE ledger_seal_state SET ledger_id = gen_random_uuid(), size = 0, "
                          "frontier = '{}', checkpointed_size = 0, checkpointed_at = NULL")
        columns = {c for (c,) in superuser.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = 'ledger_seal_state'")}
        if "position" in columns:
            superuser.execute("UPDATE ledger_seal_state SET position = 0")
    finally:
        for table in SEAL_TABLES:
            superuser.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")


def _raise_the_closing_count(superuser, position: int, stream) -> None:
    superuser.execute(
        "UPDATE ledger_events SET state = convert_to(jsonb_set(convert_from(state, 'UTF8')"
        "::jsonb, '{total}', '\"999999.00\"')::text, 'UTF8') WHERE notification_id = %s",
        (position,))
    rehash(superuser, stream)


def test_a_seal_reset_and_a_rewritten_history_sealed_afresh_are_named(cli, witnesses,
                                                                      superuser, monkeypatch):
    (position, stream) = superuser.execute(
        "SELECT position, stream_id FROM ledger_event_log WHERE event_type = 'Shift.Closed' "
        "ORDER BY position LIMIT 1").fetchone()
    _reset_the_seal(superuser)
    with behind_the_ledger(superuser):
        _raise_the_closing_count(superuser, position, stream)
    assert cli("projections", "rebuild").code == 0
    monkeypatch.delenv("LEDGER_TRUST_FILE")  # the insider's sealer knows no witness
    assert cli("seal", "run", "--once").code == 0
    monkeypatch.setenv("LEDGER_TRUST_FILE", str(witnesses.trust))
    _named(cli, "the seal was reset, or this is another ledger",
           "witness W-1 cosigned", "witness W-2 cosigned")


def test_the_newest_checkpoint_deleted_with_its_witness_file_is_named(cli, witnesses,
                                                                      superuser, sealed):
    (size,) = superuser.execute("SELECT max(size) FROM ledger_seal_checkpoints").fetchone()
    superuser.execute("ALTER TABLE ledger_seal_checkpoints DISABLE TRIGGER USER")
    try:
        superuser.execute("DELETE FROM ledger_seal_checkpoints WHERE size = %s", (size,))
    finally:
        superuser.execute("ALTER TABLE ledger_seal_checkpoints ENABLE TRIGGER USER")
    for path in sealed.witness.rglob(f"checkpoint-{size:012d}.json"):
        path.unlink()
    _named(cli, f"witness W-1 cosigned a checkpoint at {size:,} events",
           "that the database does not hold")


def test_a_witness_whose_memory_was_wiped_cannot_vouch_for_a_rewritten_history(
        cli, witnesses, superuser, sealed):
    """W-1's memory file deleted, history rewritten and re-sealed: W-1 cosigns the forgery as
    if new, W-2 refuses it (it is not consistent with what it cosigned): the quorum is not
    met and W-2's memory is not extended by the events: the sealer's fork alarm, and verify
    names W-2 as a witness that will not cosign."""
    _stop(witnesses.running["W-1"])
    shutil.rmtree(sealed.witness)  # the sealing host's own folder goes too
    for suffix in ("", "-wal", "-shm"):
        Path(f"{witnesses.stores['W-1']}{suffix}").unlink(missing_ok=True)
    witnesses.running["W-1"] = _start("W-1", witnesses.keys["W-1"], witnesses.stores["W-1"],
                                      witnesses.ports["W-1"], witnesses.log)
    (position, stream) = superuser.execute(
        "SELECT position, stream_id FROM ledger_event_log WHERE event_type = 'Shift.Closed' "
        "ORDER BY position LIMIT 1").fetchone()
    ledger_id = superuser.execute("SELECT ledger_id FROM ledger_seal_state").fetchone()[0]
    _reset_the_seal(superuser)
    superuser.execute("ALTER TABLE ledger_seal_state DISABLE TRIGGER USER")
    superuser.execute("UPDATE ledger_seal_state SET ledger_id = %s", (ledger_id,))
    superuser.execute("ALTER TABLE ledger_seal_state ENABLE TRIGGER USER")
    with behind_the_ledger(superuser):
        _raise_the_closing_count(superuser, position, stream)
    sealing = cli("seal", "run", "--once")  # with the trust file: sent to both witnesses
    assert sealing.code == 1, sealing.err  # W-2's refusal is a fork alarm
    assert "error: witness W-2 holds another root at" in sealing.err
    assert {w for (w,) in superuser.execute("SELECT witness FROM ledger_seal_cosignatures")} \
        == {"W-1"}
    _named(cli, "witness W-2 cosigned", "the history was rewritten or forked",
           "has 1 of the 2 cosignatures its quorum needs: witness W-2 holds another root",
           "fork alarm: witness W-2")


def test_a_cosignature_forged_in_the_database_does_not_count_toward_the_quorum(
        cli, witnesses, superuser):
    """As superuser: W-2's cosignature replaced by one made with a key of the insider's own,
    under W-2's name. It does not verify under the key the trust file gives W-2, so the
    checkpoint has one cosignature of the two its quorum needs."""
    from ledger.audit.log.note import checkpoint_body, cosign

    size, root = superuser.execute("SELECT size, root FROM ledger_seal_checkpoints "
                                   "ORDER BY size DESC LIMIT 1").fetchone()
    ledger_id = str(superuser.execute("SELECT ledger_id FROM ledger_seal_state").fetchone()[0])
    forged = cosign(checkpoint_body(origin_of(ledger_id), size, bytes(root)), "W-2",
                    Credential.generate("witness", "W-2").private_key, int(ledger_clock.now().timestamp()))
    superuser.execute("ALTER TABLE ledger_seal_cosignatures DISABLE TRIGGER USER")
    try:
        superuser.execute("UPDATE ledger_seal_cosignatures SET cosignature = %s "
                          "WHERE size = %s AND witness = 'W-2'", (forged.line, size))
    finally:
        superuser.execute("ALTER TABLE ledger_seal_cosignatures ENABLE TRIGGER USER")
    result = cli("verify", "--trust", os.environ["LEDGER_TRUST_FILE"])
    assert f"({size:,} events, sealed" in result.out
    assert " Macau time) has 1 of the 2 cosignatures" in " ".join(result.out.split())  # not UTC
    assert "has 1 of the 2 cosignatures its quorum needs" in result.out, result.out
    assert "0 under a checkpoint its witnesses' quorum cosigned" in result.out, result.out
