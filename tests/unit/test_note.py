"""Checkpoints, signed notes and cosignatures are C2SP's, byte for byte: a note signed here
verifies anywhere, and the signed-note specification's own example verifies here."""

from __future__ import annotations

import base64
import hashlib
import struct

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.audit.log.note import (
    COSIGNATURE_V1,
    DASH,
    ED25519,
    NoteError,
    Signature,
    TreeHead,
    VerifierKey,
    checkpoint_body,
    cosign,
    cosignature_message,
    cosigned_at,
    key_id,
    origin_of,
    parse_checkpoint,
    parse_note,
    parse_signature_lines,
    parse_vkey,
    sign,
    sign_note,
    verifies,
)

SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
SPEC_NOTE = ("This is an example message.\n\n"
             f"{DASH} example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1"
             "ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n")
ROOT = hashlib.sha256(b"a root").digest()
LOG = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
LOG_PUBLIC = LOG.public_key().public_bytes_raw()
WITNESS = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
WITNESS_PUBLIC = WITNESS.public_key().public_bytes_raw()
ORIGIN = origin_of("0b6f0c52-1d0e-4c8e-9d36-6b2d1f3a7e10")


def test_the_signed_note_specifications_example_verifies_under_its_vkey():
    vkey = parse_vkey(SPEC_VKEY)
    note = parse_note(SPEC_NOTE)
    assert (vkey.name, vkey.kind, vkey.key_id.hex()) == ("example.com/foo", ED25519, "530d903a")
    assert str(vkey) == SPEC_VKEY
    assert note.text == "This is an example message.\n"
    assert verifies(note, vkey.name, vkey.public_key)
    assert str(note) == SPEC_NOTE


def test_a_changed_text_fails_the_signature():
    vkey = parse_vkey(SPEC_VKEY)
    note = parse_note(SPEC_NOTE.replace("example message", "example massage"))
    assert not verifies(note, vkey.name, vkey.public_key)


def test_a_ledgers_origin_names_the_ledger():
    assert ORIGIN == "round-ledger/0b6f0c52-1d0e-4c8e-9d36-6b2d1f3a7e10"


def test_a_checkpoint_is_origin_size_and_base64_root_one_a_line():
    body = checkpoint_body(ORIGIN, 1234, ROOT)
    assert body == f"{ORIGIN}\n1234\n{base64.b64encode(ROOT).decode()}\n"
    assert parse_checkpoint(body) == TreeHead(ORIGIN, 1234, ROOT)
    assert TreeHead(ORIGIN, 1234, ROOT).body == body


@pytest.mark.parametrize("text", [
    "round-ledger/x\n012\nAAAA\n", "round-ledger/x\n-1\n" + base64.b64encode(ROOT).decode() + "\n",
    "round-ledger/x\n12\n", "round-ledger/x\n12\nAAAA\n", "round-ledger/x\n12\n"
    + base64.b64encode(ROOT).decode(), "\n12\n" + base64.b64encode(ROOT).decode() + "\n",
])
def test_a_malformed_checkpoint_is_refused(text):
    with pytest.raises(NoteError):
        parse_checkpoint(text)


def test_a_log_key_id_is_the_first_four_bytes_of_name_newline_type_and_key():
    expected = hashlib.sha256(ORIGIN.encode() + b"\n\x01" + LOG_PUBLIC).digest()[:4]
    assert key_id(ORIGIN, LOG_PUBLIC) == expected
    assert sign(checkpoint_body(ORIGIN, 1, ROOT), ORIGIN, LOG).key_id == expected


def test_a_note_signed_by_the_log_verifies_under_its_name_and_key_only():
    note = sign_note(checkpoint_body(ORIGIN, 7, ROOT), ORIGIN, LOG)
    again = parse_note(str(note))
    assert again == note
    assert verifies(again, ORIGIN, LOG_PUBLIC)
    assert not verifies(again, ORIGIN, WITNESS_PUBLIC)  # another key: not its signature
    assert not verifies(again, "round-ledger/other", LOG_PUBLIC)


def test_a_bad_signature_line_of_a_known_key_rejects_the_note_though_another_verifies():
    note = sign_note(checkpoint_body(ORIGIN, 7, ROOT), ORIGIN, LOG)
    good = note.signatures[0]
    forged = Signature(good.name, good.key_id, bytes(64))
    assert not verifies(note.with_signatures(forged), ORIGIN, LOG_PUBLIC)


def test_signature_lines_of_unknown_keys_are_ignored():
    note = sign_note(checkpoint_body(ORIGIN, 7, ROOT), ORIGIN, LOG)
    stranger = Signature("someone.example/else", b"\x00\x00\x00\x00", bytes(64))
    assert verifies(note.with_signatures(stranger), ORIGIN, LOG_PUBLIC)


def test_a_cosignature_signs_the_header_the_time_and_the_checkpoint():
    body = checkpoint_body(ORIGIN, 7, ROOT)
    cosignature = cosign(body, "witness.example/w1", WITNESS, 1_700_000_000)
    assert cosignature.key_id == hashlib.sha256(
        b"witness.example/w1\n\x04" + WITNESS_PUBLIC).digest()[:4]
    assert cosignature.value[:8] == struct.pack(">Q", 1_700_000_000)
    assert cosignature_message(body, 1_700_000_000) == (
        b"cosignature/v1\ntime 1700000000\n" + body.encode())
    WITNESS.public_key().verify(cosignature.value[8:],
                                cosignature_message(body, 1_700_000_000))
    assert len(base64.b64decode(cosignature.line.split()[2])) == 4 + 8 + 64


def test_a_cosigned_checkpoint_names_the_time_its_witness_signed_it():
    note = sign_note(checkpoint_body(ORIGIN, 7, ROOT), ORIGIN, LOG)
    line = cosign(note.text, "witness.example/w1", WITNESS, 1_700_000_000).line
    cosigned = parse_note(str(note) + line)
    assert cosigned.with_signatures() == cosigned
    assert parse_signature_lines(line)[0] == cosigned.signatures[1]
    assert cosigned_at(cosigned, "witness.example/w1", WITNESS_PUBLIC) == 1_700_000_000
    assert verifies(cosigned, ORIGIN, LOG_PUBLIC)  # the log's own signature still verifies
    assert cosigned_at(note, "witness.example/w1", WITNESS_PUBLIC) is None
    assert cosigned_at(cosigned, "witness.example/w2", WITNESS_PUBLIC) is None


def test_a_cosignature_moved_to_another_checkpoint_fails():
    line = cosign(checkpoint_body(ORIGIN, 7, ROOT), "w1", WITNESS, 1_700_000_000).line
    other = sign_note(checkpoint_body(ORIGIN, 8, ROOT), ORIGIN, LOG)
    assert cosigned_at(parse_note(str(other) + line), "w1", WITNESS_PUBLIC) is None


def test_a_cosignature_is_not_a_plain_note_signature_of_the_same_key():
    note = sign_note(checkpoint_body(ORIGIN, 7, ROOT), ORIGIN, LOG)
    cosigned = note.with_signatures(cosign(note.text, "w1", WITNESS, 1_700_000_000))
    assert not verifies(cosigned, "w1", WITNESS_PUBLIC)


def test_a_vkey_round_trips_and_a_wrong_key_id_is_refused():
    vkey = VerifierKey("witness.example/w1", WITNESS_PUBLIC, COSIGNATURE_V1)
    assert parse_vkey(str(vkey)) == vkey
    name, _, material = str(vkey).split("+", 2)
    with pytest.raises(NoteError, match="key ID"):
        parse_vkey(f"{name}+00000000+{material}")
    with pytest.raises(NoteError):
        parse_vkey("no-plus-signs")


@pytest.mark.parametrize("data", [
    "text\n",  # no signatures
    "text\n\n",  # an empty signature block
    "text\n\n- w1 AAAAAAAA\n",  # not an em dash
    f"text\n\n{DASH} w1 not-base64!\n",
    f"text\n\n{DASH} w1 AAAA\n",  # shorter than a key ID and a byte
    f"te\x07xt\n\n{DASH} w1 AAAAAAAA\n",  # a control character
    f"text\n\n{DASH} w1 AAAAAAAA",  # no final newline
])
def test_a_malformed_note_is_refused(data):
    with pytest.raises(NoteError):
        parse_note(data)


def test_a_key_name_with_a_space_or_a_plus_is_refused():
    with pytest.raises(NoteError):
        sign("text\n", "a name", LOG)
    with pytest.raises(NoteError):
        checkpoint_body("a+b", 1, ROOT)
