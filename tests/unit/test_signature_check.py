"""The door's Ed25519 check: what `cryptography` signs, it accepts; anything else it refuses,
a signature whose scalar is not reduced and a key of small order too (OpenSSL takes the
neutral point as a key, and then an all-zero "signature" verifies for any message)."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.identity.keys import Credential, verify

ORDER = 2**252 + 27742317777372353535851937790883648493  # of the group Ed25519 signs in


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def test_a_signature_made_by_the_key_is_accepted_and_any_other_bytes_are_not():
    credential = Credential.generate("staff", "D-101")
    signature = _b64(credential.private_key.sign(b"the command"))
    assert verify(credential.public_key, signature, b"the command")
    assert not verify(credential.public_key, signature, b"the command!")
    other = Credential.generate("staff", "D-102")
    assert not verify(other.public_key, signature, b"the command")


def test_a_signature_whose_scalar_is_not_reduced_is_refused():
    key = Ed25519PrivateKey.generate()
    public = _b64(key.public_key().public_bytes_raw())
    signature = key.sign(b"pay 100")
    scalar = int.from_bytes(signature[32:], "little") + ORDER  # the same point, another form
    assert scalar < 2**256
    malleated = signature[:32] + scalar.to_bytes(32, "little")
    assert verify(public, _b64(signature), b"pay 100")
    assert not verify(public, _b64(malleated), b"pay 100")


def test_a_key_of_small_order_verifies_nothing():
    identity = _b64(b"\x01" + bytes(31))  # the neutral point: every message "signed" by it
    forged = _b64(b"\x01" + bytes(31) + bytes(32))
    assert not verify(identity, forged, b"drain the pool")


def test_keys_and_signatures_that_are_not_base64_of_the_right_length_are_refused():
    credential = Credential.generate("terminal", "T-1")
    signature = _b64(credential.private_key.sign(b"x"))
    assert not verify(credential.public_key[:-4], signature, b"x")
    assert not verify(credential.public_key, signature[:-4], b"x")
    assert not verify("not base64!", signature, b"x")
    assert not verify(credential.public_key, "%%%", b"x")


def test_the_regulators_offline_check_refuses_keys_of_small_order_too():
    from ledger.audit.bundle_verify import _small_order, _verify

    neutral, order_two, zero = b"\x01" + bytes(31), b"\xec" + b"\xff" * 30 + b"\x7f", bytes(32)
    for raw in (neutral, order_two, zero):
        assert _small_order(raw)
        assert not _verify(_b64(raw), _b64(b"\x01" + bytes(31) + bytes(32)), b"drain the pool")
    for _ in range(20):
        credential = Credential.generate("staff", "D-101")
        assert not _small_order(base64.b64decode(credential.public_key))
        signed = _b64(credential.private_key.sign(b"the content"))
        assert _verify(credential.public_key, signed, b"the content")
