"""A witness that cannot be reached (the demo's stop when it ends) is named in one line with its
address and what to do instead, never with the system's errno."""

from __future__ import annotations

import socket
from uuid import uuid4

from ledger.audit.log.trust import TrustedWitness, TrustFile
from ledger.audit.witnesses.quorum import gather


def _closed_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


def test_verify_names_the_witness_it_could_not_reach_its_address_and_the_witness_state_option():
    url = f"http://127.0.0.1:{_closed_port()}"
    witness = TrustedWitness.model_construct(name="DEMO-W1", vkey="", url=url)
    trust = TrustFile.model_construct(ledger=uuid4(), origin="ledger", witnesses=[witness],
                                      quorum=1)
    [note] = gather(trust, [], timeout=2.0).notes
    assert note == (f"witness DEMO-W1 could not be reached at {url} (connection refused): its "
                    "memory was not compared; start it, or give its exported memory "
                    "(`ledger witness export`) with --witness-state FILE"), note
    assert "Errno" not in note and "\n" not in note
