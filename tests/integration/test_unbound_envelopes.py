"""An envelope that names no ledger is one the door has refused since the ledger's commands
began naming it: recorded by an insider's process that skipped that check (a command replayed
from another ledger where the same people are enrolled, or signed for none), it proves no
registry entry at the door, and `ledger verify` names it, in one process and spread over
several; receipts recorded before envelopes named their ledger still verify."""

from __future__ import annotations

import pytest

from ledger.audit.verification.verify import verify_ledger
from ledger.commands.registry import EnrolStaff
from ledger.core.errors import LedgerError
from ledger.domain.base import Actor, Role
from ledger.identity import door
from ledger.identity.envelope import sign
from ledger.infrastructure.registry_rows import bound_from
from tests.integration.helpers import open_table
from tests.signing import ADMIN, CONSOLE, KEYRING, event_count, open_ledger

ADMINISTRATOR = Actor(staff_id=ADMIN, role=Role.ADMINISTRATOR)


def _enrol_unbound(rt, staff_id: str) -> None:
    """The insider's process: its door lets an envelope naming no ledger through."""
    command = EnrolStaff(staff_id=staff_id, name="Not Through The Door", roles=[Role.PIT_BOSS],
                         public_key=KEYRING.credential("staff", staff_id).public_key)
    unbound = sign(command, KEYRING.credential("terminal", CONSOLE),
                   KEYRING.credential("staff", ADMIN), ledger=None)  # type: ignore[arg-type]
    original = door.check_ledger
    door.check_ledger = lambda signed, ledger_id: None
    try:
        rt.ledger.inner.execute(unbound)
    finally:
        door.check_ledger = original


def test_a_registry_entry_whose_envelope_names_no_ledger_is_not_trusted_at_the_door(
        settings, database, superuser):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-00"))  # the ledger's commands name it from here
        with database.connect() as conn:
            assert bound_from(conn) is not None
        _enrol_unbound(rt, "PB-UNBOUND")
        as_them = KEYRING.sign(open_table("BAC-01").model_dump(
            exclude={"actor", "terminal", "credentials"}, mode="json"),
            staff="PB-UNBOUND", terminal="PIT-1", ledger=rt.ledger.ledger_id)
        before = event_count(superuser)
        with pytest.raises(LedgerError, match="not enrolled.*ALARM: .*names no ledger"):
            rt.ledger.inner.execute(as_them)
        assert event_count(superuser) == before


@pytest.mark.parametrize("workers", [1, 2])
def test_verify_names_an_envelope_naming_no_ledger_after_the_commands_began_to(
        settings, database, workers):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-00"))
        _enrol_unbound(rt, "PB-UNBOUND")
    with database.connect() as conn:
        report = verify_ledger(conn, projections=False, workers=workers)
    named = [f for f in report.failures if "it names no ledger, though every command since "
             "position" in f.reason]
    assert named and named[0].subject.startswith("command "), report.failures
    assert not any("signed before envelopes named their ledger" in n for n in report.notes)
