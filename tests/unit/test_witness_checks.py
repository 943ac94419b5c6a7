"""A witness's own checks, without HTTP: the add-checkpoint body and the logs it is given."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.audit.log.merkle import EMPTY_ROOT, consistency_proof, leaf_hash, root_of
from ledger.audit.log.note import (
    NoteError,
    VerifierKey,
    checkpoint_body,
    cosigned_at,
    parse_note,
    sign_note,
)
from ledger.audit.witnesses.client import add_checkpoint_body
from ledger.audit.witnesses.server import Refused, Witness, parse_log, parse_submission
from ledger.audit.witnesses.store import WitnessStore

LOG = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
LOG_PUBLIC = LOG.public_key().public_bytes_raw()
ORIGIN = "round-ledger/test"
LEAVES = [leaf_hash(bytes([i])) for i in range(20)]


def signed(size: int) -> str:
    return str(sign_note(checkpoint_body(ORIGIN, size, root_of(LEAVES[:size])), ORIGIN, LOG))


def test_the_body_a_client_sends_is_the_body_the_witness_reads():
    proof = consistency_proof(LEAVES[:9], 4)
    submission = parse_submission(add_checkpoint_body(4, proof, signed(9)))
    assert (submission.old_size, list(submission.proof), submission.note_text) == (
        4, proof, signed(9))


@pytest.mark.parametrize("body", [
    b"old 1\n", b"old x\n\n", b"old -1\n\n", b"old 01\n\n", b"old 1\nAAAA\n\n",
    b"old 1\n" + b"".join(base64.b64encode(EMPTY_ROOT) + b"\n" for _ in range(64)) + b"\n",
    b"\xff\n\n",
])
def test_a_malformed_body_is_a_bad_request(body):
    with pytest.raises(Refused) as refused:
        parse_submission(body)
    assert refused.value.status == 400


def test_a_log_is_given_as_origin_and_key_or_as_its_vkey():
    key = base64.b64encode(LOG_PUBLIC).decode()
    assert parse_log(f"{ORIGIN}={key}") == (ORIGIN, LOG_PUBLIC)
    assert parse_log(str(VerifierKey(ORIGIN, LOG_PUBLIC))) == (ORIGIN, LOG_PUBLIC)
    for wrong in (f"{ORIGIN}", f"{ORIGIN}=AAAA", f"{ORIGIN}=not base64!", f"a b={key}",
                  str(VerifierKey(ORIGIN, LOG_PUBLIC, 0x04))):
        with pytest.raises(NoteError):
            parse_log(wrong)


def test_a_witness_cosigns_in_one_step_what_extends_its_memory(tmp_path):
    key = Ed25519PrivateKey.generate()
    witness = Witness("W-1", key, {ORIGIN: LOG_PUBLIC}, WitnessStore(tmp_path / "w.sqlite"),
                      clock=lambda: 1_800_000_000.5)
    line = witness.add_checkpoint(add_checkpoint_body(0, [], signed(4)))
    public = key.public_key().public_bytes_raw()
    assert cosigned_at(parse_note(signed(4) + line), "W-1", public) == 1_800_000_000
    witness.add_checkpoint(add_checkpoint_body(4, consistency_proof(LEAVES[:9], 4), signed(9)))
    with pytest.raises(Refused) as refused:
        witness.add_checkpoint(add_checkpoint_body(4, [], signed(9)))
    assert (refused.value.status, refused.value.message) == (409, "9\n")
    assert witness.latest(ORIGIN).startswith(f"{ORIGIN}\n9\n")


def test_an_empty_tree_must_carry_the_empty_root(tmp_path):
    witness = Witness("W-1", Ed25519PrivateKey.generate(), {ORIGIN: LOG_PUBLIC},
                      WitnessStore(tmp_path / "w.sqlite"))
    wrong = str(sign_note(checkpoint_body(ORIGIN, 0, LEAVES[0]), ORIGIN, LOG))
    with pytest.raises(Refused) as refused:
        witness.add_checkpoint(add_checkpoint_body(0, [], wrong))
    assert refused.value.status == 422
    witness.add_checkpoint(add_checkpoint_body(0, [], signed(0)))


def test_another_root_at_the_size_held_is_a_409_carrying_that_size(tmp_path):
    """tlog-witness: a checkpoint of the size the witness holds with another root is a 409
    Conflict whose body is the size it holds (`text/x.tlog.size`), as a stale old size is; a
    client that sent that very size knows it was refused for its root."""
    witness = Witness("W-1", Ed25519PrivateKey.generate(), {ORIGIN: LOG_PUBLIC},
                      WitnessStore(tmp_path / "w.sqlite"))
    witness.add_checkpoint(add_checkpoint_body(0, [], signed(9)))
    other = str(sign_note(checkpoint_body(ORIGIN, 9, root_of(LEAVES[1:10])), ORIGIN, LOG))
    with pytest.raises(Refused) as refused:
        witness.add_checkpoint(add_checkpoint_body(9, [], other))
    assert (refused.value.status, refused.value.message, refused.value.content_type) == (
        409, "9\n", "text/x.tlog.size")
    assert witness.latest(ORIGIN) is not None and witness.latest(ORIGIN).startswith(
        checkpoint_body(ORIGIN, 9, root_of(LEAVES[:9])))
    witness.add_checkpoint(add_checkpoint_body(9, [], signed(9)))  # the same tree: cosigned
