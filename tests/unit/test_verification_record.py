"""The verifier's record: signed, refused when altered or foreign; the witnesses' memory
compared with what they held at the last verification."""

from __future__ import annotations

import base64

import pytest

from ledger.audit.log.formats import Checkpoint
from ledger.audit.log.merkle import Frontier
from ledger.audit.verification.record import (
    Reached,
    Unusable,
    VerificationRecord,
    WitnessSaw,
    code_digest,
    load_record,
    now,
    save_record,
)
from ledger.audit.verification.seal_check import SealReport, _since
from ledger.audit.witnesses.quorum import Memory
from ledger.identity.keys import Credential


def _tree(size: int) -> Frontier:
    frontier = Frontier()
    for n in range(size):
        frontier.append(bytes([n % 256]) * 32)
    return frontier


def _record(verifier: Credential, ledger: str = "L-1") -> VerificationRecord:
    return VerificationRecord(
        ledger=ledger, reached=Reached.of(_tree(10), 40), resume_after=38, events=10,
        code=code_digest(), verified_at=now(), full_at=now(),
        state=VerificationRecord.pack({"anything": [1, 2]})).signed(verifier)


def test_a_record_reads_back_as_signed_and_carries_its_state(tmp_path):
    verifier = Credential.generate("verifier", "V-1")
    save_record(tmp_path / "r.json", _record(verifier))
    record = load_record(tmp_path / "r.json", verifier, "L-1")
    assert record is not None and record.carried() == {"anything": [1, 2]}
    assert record.reached.restore().root() == _tree(10).root()
    assert load_record(tmp_path / "none.json", verifier, "L-1") is None


@pytest.mark.parametrize("change, reason", [
    (lambda text: text.replace('"resume_after": 38', '"resume_after": 99'), "altered after"),
    (lambda text: text.replace('"ledger": "L-1"', '"ledger": "L-2"'), "altered after"),
    (lambda text: "not json", "is not a verification record"),
])
def test_an_altered_record_is_not_used(tmp_path, change, reason):
    verifier = Credential.generate("verifier", "V-1")
    path = tmp_path / "r.json"
    save_record(path, _record(verifier))
    path.write_text(change(path.read_text()))
    with pytest.raises(Unusable, match=reason):
        load_record(path, verifier, "L-1")


def test_another_ledgers_or_another_verifiers_record_is_not_used(tmp_path):
    verifier = Credential.generate("verifier", "V-1")
    save_record(tmp_path / "r.json", _record(verifier, ledger="L-2"))
    with pytest.raises(Unusable, match="record of ledger L-2"):
        load_record(tmp_path / "r.json", verifier, "L-1")
    with pytest.raises(Unusable, match="not by this verifier's key"):
        load_record(tmp_path / "r.json", Credential.generate("verifier", "V-2"), "L-2")


def _memory(witness: str, size: int) -> Memory:
    return Memory(witness, size, _tree(size).root(), 0, "exported")


def test_a_witness_that_holds_less_than_at_the_last_verification_is_named():
    since = Reached.of(_tree(10), 40)
    checkpoint = Checkpoint("L-1", 10, 40, _tree(10).root(), "2026-11-27T00:00:00Z", "k", "s")
    saw = {"W-1": WitnessSaw(size=10, root=base64.b64encode(_tree(10).root()).decode()),
           "W-2": WitnessSaw(size=8, root=base64.b64encode(_tree(8).root()).decode())}
    report = SealReport()
    later = _since(since, {10: checkpoint}, [_memory("W-1", 6), _memory("W-2", 8),
                                            _memory("W-3", 12)], saw, report)
    assert [m.witness for m in later] == ["W-3"]
    assert len(report.problems) == 1 and "W-1 now holds 6 events" in report.problems[0]
    assert "rolled back" in report.problems[0]


def test_a_witness_with_another_root_at_the_verified_size_is_named():
    since = Reached.of(_tree(10), 40)
    checkpoint = Checkpoint("L-1", 10, 40, _tree(10).root(), "2026-11-27T00:00:00Z", "k", "s")
    forked = Memory("W-1", 10, b"\x01" * 32, 0, "live")
    report = SealReport()
    assert _since(since, {10: checkpoint}, [forked], {}, report) == []
    assert "rewritten or forked" in report.problems[0]
    report = SealReport()
    _since(since, {}, [], {}, report)
    assert "no longer held" in report.problems[0]


def test_a_record_made_by_other_code_is_not_used(tmp_path):
    """Its carried state is that code's objects: the verification runs in full instead."""
    verifier = Credential.generate("verifier", "V-1")
    other = _record(verifier).model_copy(update={"code": "0" * 32, "signature": ""})
    save_record(tmp_path / "r.json", other.signed(verifier))
    with pytest.raises(Unusable, match="another version of the ledger's code"):
        load_record(tmp_path / "r.json", verifier, "L-1")
