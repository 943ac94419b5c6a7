"""A seal whose newest checkpoint waits past its grace for the trust file's witnesses is said on
the floor: a sealer run without the trust file (an insider's, who asks no witness, so none can
refuse) or witnesses out of reach. Within the grace, or with the quorum's cosignatures, the
floor says nothing."""

from __future__ import annotations

from datetime import timedelta

from ledger.audit.log.trust import TrustedWitness, TrustFile
from ledger.audit.seal.sealer import Sealer
from ledger.audit.witnesses.alarms import UNWITNESSED_AFTER, unwitnessed
from ledger.identity.keys import Credential
from ledger.web.floor import floor_alerts
from tests.integration.helpers import open_table
from tests.signing import open_ledger

SEAL = Credential.generate("seal", "SEAL-UNWITNESSED")
WITNESSES = ["W-1", "W-2"]


def _sealed(settings, database, tmp_path):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-00"))
    with database.connect() as conn:
        Sealer(database, SEAL, tmp_path / "witness").catch_up(conn, checkpoint_at_end=True)
        (size, sealed_at) = conn.execute("SELECT size, sealed_at FROM ledger_seal_checkpoints "
                                         "ORDER BY size DESC LIMIT 1").fetchone()
    return size, sealed_at


def test_a_checkpoint_no_witness_cosigned_is_said_on_the_floor_after_its_grace(
        settings, database, tmp_path):
    size, sealed_at = _sealed(settings, database, tmp_path)
    trust = TrustFile.model_construct(
        witnesses=[TrustedWitness.model_construct(name=name) for name in WITNESSES], quorum=2)
    late = sealed_at + UNWITNESSED_AFTER + timedelta(seconds=1)
    with database.connect() as conn:
        assert unwitnessed(conn, sealed_at + timedelta(minutes=1), WITNESSES, 2) == []
        (said,) = unwitnessed(conn, late, WITNESSES, 2)
        assert said.startswith(f"seal unwitnessed: the newest checkpoint ({size:,} events")
        assert "has 0 of the 2 witnesses' cosignatures" in said
        assert said in floor_alerts(conn, late, trust)
        assert not any("unwitnessed" in a for a in floor_alerts(conn, late))  # no trust file
        conn.execute("INSERT INTO ledger_seal_cosignatures (size, witness, cosignature) "
                     "VALUES (%s, 'W-1', 'c1'), (%s, 'ELSEWHERE', 'c2')", (size, size))
        (said,) = unwitnessed(conn, late, WITNESSES, 2)  # a witness the trust file does not
        assert "has 1 of the 2" in said                  # name counts for nothing
        conn.execute("INSERT INTO ledger_seal_cosignatures (size, witness, cosignature) "
                     "VALUES (%s, 'W-2', 'c3')", (size,))
        assert unwitnessed(conn, late, WITNESSES, 2) == []
