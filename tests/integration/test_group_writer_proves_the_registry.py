"""The group writer's door reads the registry from memory, and what it holds there is proven:
an entry inserted behind the ledger's back is ignored when its stream is read again, the
command meeting it is refused with the alarm, and its holder's real credentials still work."""

from __future__ import annotations

import logging

import pytest

from ledger.application.administration import Administrator
from ledger.commands.registry import SuspendStaff
from ledger.core.errors import LedgerError
from ledger.domain.base import Role
from tests.e2e.test_door_proves_the_registry import _forged_change
from tests.e2e.test_insider_forgeries import _insert
from tests.integration.helpers import open_table
from tests.signing import ADMIN, CONSOLE, KEYRING, event_count, open_ledger


def test_a_promotion_inserted_behind_the_writer_is_ignored_and_raises_the_alarm(
        settings, database, superuser, caplog):
    with open_ledger(settings) as rt:
        inner = rt.ledger.inner
        assert inner.writer is not None
        rt.ledger.execute(open_table("BAC-00"))  # enrols PB-7 and the pit's terminal
        Administrator(inner, KEYRING, ADMIN, CONSOLE).ensure_staff("D-9", "D-9", [Role.DEALER])
        as_dealer = KEYRING.sign(open_table("BAC-01").model_dump(
            exclude={"actor", "terminal", "credentials"}, mode="json"),
            staff="D-9", terminal="PIT-1", ledger=inner.ledger_id)
        with pytest.raises(LedgerError, match="dealer D-9 cannot"):
            inner.execute(as_dealer)  # D-9 now in the writer's memory
        _insert(database.url, _forged_change(superuser, "D-9", "RolesChanged",
                                             "ChangeStaffRoles", {"roles": ["pit_boss"]}))
        before = event_count(superuser)
        with caplog.at_level(logging.ERROR, logger="ledger.alarm"), \
                pytest.raises(LedgerError, match="dealer D-9 cannot.* ALARM: .*RolesChanged"):
            inner.execute(as_dealer)
        assert event_count(superuser) == before
        assert any("no signed command proves" in r.getMessage() for r in caplog.records)


def test_a_forged_entry_on_top_of_a_stream_does_not_stop_its_holder(settings, database,
                                                                   superuser):
    """The door reads the stream at its stored version, the forged event skipped, so the
    writer's check of what it read holds and the holder's real key signs on."""
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-00"))
        _insert(database.url, _forged_change(superuser, "PB-7", "KeyReplaced",
                                             "ReplaceStaffKey",
                                             {"public_key": KEYRING.credential(
                                                 "staff", "D-8").public_key}))
        recorded = rt.ledger.execute(open_table("BAC-02"))
        assert recorded.events and not recorded.duplicate


def test_a_forged_entry_does_not_void_the_real_suspension_recorded_after_it(
        settings, database, superuser):
    with open_ledger(settings) as rt:
        inner = rt.ledger.inner
        rt.ledger.execute(open_table("BAC-00"))
        _insert(database.url, _forged_change(superuser, "PB-7", "RolesChanged",
                                             "ChangeStaffRoles", {"roles": ["pit_boss"]}))
        Administrator(inner, KEYRING, ADMIN, CONSOLE).send(
            SuspendStaff(staff_id="PB-7", reason="investigation"))
        with pytest.raises(LedgerError, match="who is suspended \\(investigation\\)"):
            rt.ledger.execute(open_table("BAC-03"))
