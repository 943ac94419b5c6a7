"""A witness (`ledger witness serve`, a process of its own over HTTP, its memory in SQLite)
cosigns a log's checkpoint only when the log signed it and it extends, by appending only, the
last checkpoint the witness cosigned; it never forgets, even across a restart, and what it
answers verifies with `ledger.audit.log.note` alone."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.audit.log.merkle import consistency_proof, leaf_hash, root_of
from ledger.audit.log.note import (
    checkpoint_body,
    cosigned_at,
    origin_of,
    parse_checkpoint,
    parse_note,
    parse_vkey,
    sign_note,
    verifies,
)
from ledger.audit.witnesses import client as witness_client
from ledger.audit.witnesses.client import (
    WitnessConflict,
    WitnessRefused,
    WitnessUnreachable,
    add_checkpoint_body,
    submit,
)
from ledger.audit.witnesses.store import Witnessed, WitnessStore
from ledger.core import clock as ledger_clock
from ledger.identity.keys import Credential
from tests.clock import ENV, stamp

LEDGER = [sys.executable, "-c", "from ledger.cli.main import main; main()"]


@dataclass
class Log:
    """A log that signs checkpoints of its own growing tree, as the sealer would."""

    key: Ed25519PrivateKey
    origin: str = field(default_factory=lambda: origin_of(str(uuid.uuid4())))
    leaves: list[bytes] = field(default_factory=list)
    label: str = "event"

    def grow(self, size: int) -> None:
        while len(self.leaves) < size:
            self.leaves.append(leaf_hash(f"{self.label} {len(self.leaves)}".encode()))

    def checkpoint(self, size: int) -> str:
        self.grow(size)
        body = checkpoint_body(self.origin, size, root_of(self.leaves[:size]))
        return str(sign_note(body, self.origin, self.key))

    def proof(self, old: int, new: int) -> list[bytes]:
        self.grow(new)
        return consistency_proof(self.leaves[:new], old)

    @property
    def public_key(self) -> bytes:
        return self.key.public_key().public_bytes_raw()


@dataclass
class Running:
    url: str
    name: str
    public_key: bytes
    process: subprocess.Popen[bytes]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


STARTUP_SECONDS = 30
"""At most how long a witness process takes to start on a loaded machine."""


def start(key: Path, store: Path, logs: list[Log]) -> Running:
    port = free_port()
    arguments = ["witness", "serve", "--key", str(key), "--store", str(store),
                 "--port", str(port)]
    for log in logs:
        arguments += ["--log", f"{log.origin}={Credential('seal', 'S', log.key).public_key}"]
    process = subprocess.Popen(LEDGER + arguments, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env={**os.environ, ENV: stamp()})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(process.communicate()[1].decode())
        try:
            with urllib.request.urlopen(url + "/vkey", timeout=1) as answer:
                answer.read()
            break
        except OSError:
            time.sleep(0.1)
    credential = Credential.load(key, "witness")
    raw = credential.private_key.public_key().public_bytes_raw()
    return Running(url, credential.id, raw, process)


def stop(running: Running) -> None:
    running.process.terminate()
    running.process.wait(timeout=10)


@pytest.fixture
def witness_key(tmp_path: Path) -> Path:
    path = tmp_path / "w1.key"
    Credential.generate("witness", "W-1").save(path)
    return path


@pytest.fixture
def logs() -> list[Log]:
    key = Ed25519PrivateKey.generate()
    return [Log(key) for _ in range(2)]


@pytest.fixture
def witness(witness_key: Path, tmp_path: Path, logs: list[Log]) -> Iterator[Running]:
    running = start(witness_key, tmp_path / "w1.sqlite", logs)
    yield running
    stop(running)


def cosigned(witness: Running, note: str, lines: list[str]) -> int | None:
    return cosigned_at(parse_note(note + "".join(lines)), witness.name, witness.public_key)


def post(witness: Running, body: bytes) -> tuple[int, str, str]:
    request = urllib.request.Request(witness.url + "/add-checkpoint", data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


def test_a_witness_cosigns_the_first_checkpoint_of_a_log(witness, logs):
    log = logs[0]
    note = log.checkpoint(5)
    before = int(ledger_clock.now().timestamp())
    lines = submit(witness.url, 0, [], note)
    assert len(lines) == 1
    # the witness's own clock: the run's, from the moment its process started (its start-up
    # behind this one's), never the host's
    started = before - STARTUP_SECONDS
    assert started <= cosigned(witness, note, lines) <= int(ledger_clock.now().timestamp()) + 1
    latest = witness_client.latest(witness.url, log.origin)
    assert latest == note + "".join(lines)
    assert verifies(parse_note(latest), log.origin, log.public_key)
    assert parse_checkpoint(parse_note(latest).text).size == 5
    for path in ("/latest/" + urllib.parse.quote(log.origin, safe=""), "/latest/" + log.origin):
        with urllib.request.urlopen(witness.url + path, timeout=10) as answer:
            assert answer.read().decode() == latest
    with urllib.request.urlopen(witness.url + "/vkey", timeout=10) as answer:
        vkey = parse_vkey(answer.read().decode())
    assert (vkey.name, vkey.public_key, vkey.kind) == ("W-1", witness.public_key, 0x04)


def test_a_witness_cosigns_a_grown_tree_proven_consistent_with_the_last(witness, logs):
    log = logs[0]
    submit(witness.url, 0, [], log.checkpoint(5))
    note = log.checkpoint(12)
    lines = submit(witness.url, 5, log.proof(5, 12), note)
    assert cosigned(witness, note, lines) is not None
    lines = submit(witness.url, 12, log.proof(12, 40), log.checkpoint(40))
    assert parse_checkpoint(parse_note(witness_client.latest(witness.url, log.origin)).text
                            ).size == 40


def test_each_log_is_remembered_on_its_own(witness, logs):
    submit(witness.url, 0, [], logs[0].checkpoint(9))
    submit(witness.url, 0, [], logs[1].checkpoint(3))
    assert witness_client.latest(witness.url, logs[1].origin).startswith(
        f"{logs[1].origin}\n3\n")


def test_a_witness_refuses_a_checkpoint_that_rewinds_the_log(witness, logs):
    log = logs[0]
    submit(witness.url, 0, [], log.checkpoint(12))
    with pytest.raises(WitnessRefused) as refused:
        submit(witness.url, 12, [], log.checkpoint(5))
    assert refused.value.status == 400
    with pytest.raises(WitnessConflict) as conflict:  # from its own stale view
        submit(witness.url, 5, log.proof(5, 12), log.checkpoint(5))
    assert conflict.value.known_size == 12


def test_a_witness_refuses_another_root_at_the_size_it_cosigned(witness, logs):
    log = logs[0]
    submit(witness.url, 0, [], log.checkpoint(12))
    fork = Log(log.key, log.origin, label="rewritten")
    status, content_type, body = post(witness, add_checkpoint_body(12, [], fork.checkpoint(12)))
    assert (status, content_type, body) == (409, "text/x.tlog.size", "12\n")  # tlog-witness
    with pytest.raises(WitnessConflict) as conflict:  # the size sent is the one it holds
        submit(witness.url, 12, [], fork.checkpoint(12))
    assert conflict.value.known_size == 12
    submit(witness.url, 12, [], log.checkpoint(12))  # the same tree again: cosigned again


def test_a_witness_refuses_a_consistency_proof_that_fails(witness, logs):
    log = logs[0]
    submit(witness.url, 0, [], log.checkpoint(12))
    fork = Log(log.key, log.origin, label="rewritten")
    with pytest.raises(WitnessRefused) as refused:  # the fork's own proof, not from 12 of ours
        submit(witness.url, 12, fork.proof(12, 20), fork.checkpoint(20))
    assert refused.value.status == 422
    proof = log.proof(12, 20)
    with pytest.raises(WitnessRefused) as refused:
        submit(witness.url, 12, proof[:-1], log.checkpoint(20))
    assert refused.value.status == 422
    with pytest.raises(WitnessRefused) as refused:
        submit(witness.url, 12, [proof[0][::-1]] + proof[1:], log.checkpoint(20))
    assert refused.value.status == 422
    status, _, body = post(witness, add_checkpoint_body(0, proof, log.checkpoint(20)))
    assert status == 409 and body == "12\n"


def test_a_first_checkpoint_with_a_proof_is_refused(witness, logs):
    log = logs[0]
    with pytest.raises(WitnessRefused) as refused:
        submit(witness.url, 0, log.proof(5, 12), log.checkpoint(12))
    assert refused.value.status == 422


def test_a_witness_answers_a_wrong_old_size_with_the_size_it_holds(witness, logs):
    log = logs[0]
    submit(witness.url, 0, [], log.checkpoint(12))
    status, content_type, body = post(
        witness, add_checkpoint_body(7, log.proof(7, 20), log.checkpoint(20)))
    assert (status, content_type, body) == (409, "text/x.tlog.size", "12\n")
    with pytest.raises(WitnessConflict) as conflict:
        submit(witness.url, 7, log.proof(7, 20), log.checkpoint(20))
    assert conflict.value.known_size == 12
    submit(witness.url, conflict.value.known_size, log.proof(12, 20), log.checkpoint(20))


def test_of_simultaneous_submissions_from_one_state_the_witness_cosigns_one(witness, logs):
    """The check against what it holds and the write that moves it on are one transaction:
    never two cosignatures from the same old size (tlog-witness's rollback race)."""
    from concurrent.futures import ThreadPoolExecutor

    log = logs[0]
    notes = [log.checkpoint(size) for size in range(3, 11)]

    def send(note: str) -> str:
        try:
            submit(witness.url, 0, [], note)
        except WitnessConflict:
            return "conflict"
        return "cosigned"

    with ThreadPoolExecutor(len(notes)) as pool:
        results = list(pool.map(send, notes))
    assert sorted(results) == ["conflict"] * (len(notes) - 1) + ["cosigned"]
    held = parse_checkpoint(parse_note(witness_client.latest(witness.url, log.origin)).text)
    assert notes[results.index("cosigned")].startswith(f"{log.origin}\n{held.size}\n")


def test_a_witness_refuses_a_log_it_does_not_witness(witness):
    stranger = Log(Ed25519PrivateKey.generate())
    with pytest.raises(WitnessRefused) as refused:
        submit(witness.url, 0, [], stranger.checkpoint(3))
    assert refused.value.status == 404  # as tlog-witness answers an unknown origin


def test_a_witness_refuses_a_checkpoint_the_logs_key_did_not_sign(witness, logs):
    impostor = Log(Ed25519PrivateKey.generate(), logs[0].origin)
    with pytest.raises(WitnessRefused) as refused:
        submit(witness.url, 0, [], impostor.checkpoint(3))
    assert refused.value.status == 403
    note = logs[0].checkpoint(3)
    text, _, signatures = note.partition("\n\n")
    altered = text.replace("\n3\n", "\n4\n", 1) + "\n\n" + signatures
    with pytest.raises(WitnessRefused) as refused:
        submit(witness.url, 0, [], altered)
    assert refused.value.status == 403
    assert witness_client.latest(witness.url, logs[0].origin) is None


def test_a_malformed_submission_is_a_bad_request(witness, logs):
    for body in (b"new 3\n\n" + logs[0].checkpoint(3).encode(), b"old 03\n\n",
                 b"old 0\nnot base64!\n\n" + logs[0].checkpoint(3).encode(),
                 b"old 0\n\nno signatures\n"):
        assert post(witness, body)[0] == 400, body


def test_a_witness_remembers_across_a_restart(witness_key, tmp_path, logs):
    log, store = logs[0], tmp_path / "restart.sqlite"
    running = start(witness_key, store, logs)
    try:
        submit(running.url, 0, [], log.checkpoint(5))
    finally:
        stop(running)
    running = start(witness_key, store, logs)
    try:
        with pytest.raises(WitnessConflict) as conflict:
            submit(running.url, 0, [], log.checkpoint(2))
        assert conflict.value.known_size == 5
        assert witness_client.latest(running.url, log.origin).startswith(f"{log.origin}\n5\n")
        note = log.checkpoint(9)
        assert cosigned(running, note, submit(running.url, 5, log.proof(5, 9), note))
    finally:
        stop(running)


def test_the_export_holds_each_logs_cosigned_checkpoint_verifiable_offline(witness, logs,
                                                                            tmp_path):
    submit(witness.url, 0, [], logs[0].checkpoint(7))
    done = subprocess.run(LEDGER + ["witness", "export", "--store",
                                    str(tmp_path / "w1.sqlite")],
                          capture_output=True, text=True, check=True)
    exported = json.loads(done.stdout)
    assert exported["witness"] == "W-1"
    note = parse_note(exported["checkpoints"][logs[0].origin])
    assert cosigned_at(note, "W-1", witness.public_key) is not None
    assert verifies(note, logs[0].origin, logs[0].public_key)
    assert list(exported["checkpoints"]) == [logs[0].origin]


def test_a_witness_that_does_not_answer_is_unreachable():
    with pytest.raises(WitnessUnreachable):
        submit(f"http://127.0.0.1:{free_port()}", 0, [], "x\n", timeout=2)


def test_the_store_itself_refuses_to_forget_or_rewind(tmp_path):
    import sqlite3

    store = WitnessStore(tmp_path / "w.sqlite")
    held = Witnessed("round-ledger/x", 5, bytes(32), "note\n", 1)
    store.advance("round-ledger/x", lambda _: held)
    with sqlite3.connect(store.path) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute("DELETE FROM witnessed")
    with sqlite3.connect(store.path) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE witnessed SET size = 4")
    with sqlite3.connect(store.path) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE witnessed SET root = ?", (bytes([1]) * 32,))
    with pytest.raises(sqlite3.IntegrityError):
        store.advance("round-ledger/x", lambda _: Witnessed("round-ledger/x", 4, bytes(32),
                                                            "note\n", 2))
    assert store.latest("round-ledger/x") == held


def test_a_store_is_served_under_the_key_it_was_made_for_only(tmp_path):
    from ledger.audit.witnesses.store import StoreError

    store = WitnessStore(tmp_path / "w.sqlite")
    store.bind("W-1+00000000+AA")
    store.bind("W-1+00000000+AA")
    with pytest.raises(StoreError, match="belongs to the witness W-1"):
        store.bind("W-2+00000000+AA")


@pytest.mark.parametrize(("arguments", "says"), [
    (["--key", "missing.key", "--log", "round-ledger/x=" + "A" * 43 + "="],
     "cannot read the witness credential missing.key"),
    (["--key", "w1.key"], "a witness needs at least one log"),
    (["--key", "w1.key", "--log", "round-ledger/x=AAAA"], "is not 32 bytes"),
    (["--key", "w1.key", "--logs", "missing.txt"], "cannot read the logs file missing.txt"),
])
def test_a_witness_given_bad_input_says_why_in_one_line_and_exits_1(tmp_path, arguments, says):
    Credential.generate("witness", "W-1").save(tmp_path / "w1.key")
    done = subprocess.run(LEDGER + ["witness", "serve", "--store", "w.sqlite"] + arguments,
                          capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          check=False)
    assert done.returncode == 1
    assert says in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "w.sqlite").exists()
