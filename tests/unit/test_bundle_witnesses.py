"""The standalone bundle verifier checks witness cosignatures by its own code (it imports
nothing of the ledger): it must agree with the ledger's C2SP implementation line for line."""

from __future__ import annotations

import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.audit.bundle_verify import (
    Witnesses,
    cosigners,
    given_witnesses,
    witness_key,
)
from ledger.audit.log.note import (
    COSIGNATURE_V1,
    ED25519,
    VerifierKey,
    checkpoint_body,
    cosign,
)

ORIGIN = "round-ledger/0b6f0c52-1d0e-4c8e-9d36-6b2d1f3a7e10"
ROOT = hashlib.sha256(b"a root").digest()
W1 = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
W2 = Ed25519PrivateKey.from_private_bytes(bytes(range(2, 34)))


def public(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes_raw()


def line(name: str, key: Ed25519PrivateKey, size: int = 7, root: bytes = ROOT) -> str:
    return cosign(checkpoint_body(ORIGIN, size, root), name, key, 1_700_000_000).line


def test_a_cosignature_made_by_the_ledger_verifies_in_the_standalone_check():
    witnesses = Witnesses({"w1": public(W1), "w2": public(W2)}, quorum=2)
    assert cosigners(witnesses, ORIGIN, 7, ROOT, [line("w1", W1), line("w2", W2)]) == ["w1", "w2"]


def test_a_cosignature_of_another_size_root_or_key_does_not_count():
    witnesses = Witnesses({"w1": public(W1)}, quorum=1)
    assert cosigners(witnesses, ORIGIN, 7, ROOT, [line("w1", W1, size=8)]) == []
    assert cosigners(witnesses, ORIGIN, 7, ROOT, [line("w1", W1, root=bytes(32))]) == []
    assert cosigners(witnesses, ORIGIN, 7, ROOT, [line("w1", W2)]) == []
    assert cosigners(witnesses, "round-ledger/other", 7, ROOT, [line("w1", W1)]) == []


def test_a_witness_with_one_bad_line_beside_a_good_one_does_not_count():
    witnesses = Witnesses({"w1": public(W1)}, quorum=1)
    good = line("w1", W1)
    prefix, _, value = good.rstrip("\n").rpartition(" ")
    bad = f"{prefix} {value[:-8]}AAAAAAA="
    assert cosigners(witnesses, ORIGIN, 7, ROOT, [good, bad]) == []


@pytest.mark.parametrize("kind", [ED25519, COSIGNATURE_V1])
def test_a_vkey_is_read_as_the_ledger_writes_it(kind):
    vkey = str(VerifierKey("w1", public(W1), kind))
    assert witness_key(vkey) == ("w1", public(W1))
    with pytest.raises(ValueError, match="key ID"):
        witness_key(vkey.replace("w1+", "w2+", 1))


def test_witnesses_given_by_name_default_to_all_of_them_as_the_quorum():
    pairs = [f"w1={VerifierKey('w1', public(W1))}", f"w2={VerifierKey('w2', public(W2))}"]
    assert given_witnesses(None, pairs, None) == Witnesses(
        {"w1": public(W1), "w2": public(W2)}, 2)
    assert given_witnesses(None, [], None) is None
    with pytest.raises(ValueError, match="needs 3 witnesses"):
        given_witnesses(None, pairs, 3)
    with pytest.raises(ValueError, match="the vkey's name"):
        given_witnesses(None, [f"w9={VerifierKey('w1', public(W1))}"], None)
