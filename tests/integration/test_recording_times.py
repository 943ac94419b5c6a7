"""No command dated after the ledger recorded it: `ledger verify` names one, however it got in.

The door refuses a command dated more than a few minutes ahead of the ledger's clock. These are
the ways around the door: a ledger process whose clock ran hours ahead, and an insider with the
writer login who runs their own process with its clock, and the time it writes into each
receipt, set hours ahead. The first is named against the time the ledger wrote into the
receipt; the second against the signed checkpoint that sealed it, a time the writer cannot set,
even when the verification itself runs after the command's own time.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from ledger.application.config import LedgerSettings
from ledger.audit.seal.sealer import Sealer
from ledger.audit.verification.verify import verify_ledger
from ledger.core.clock import OffsetClock
from ledger.identity.keys import Credential
from tests.integration.helpers import open_table
from tests.signing import open_ledger

AHEAD = timedelta(hours=6)
SEAL = Credential.generate("seal", "SEAL-TIME")


@pytest.fixture
def writer_login(database, superuser, database_roles):
    """The URL of a login holding the writer group role only: the insider's."""
    name = f"ledger_login_writer_{secrets.token_hex(3)}"
    superuser.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(name)))
    superuser.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(database_roles.writer),
                                                      sql.Identifier(name)))
    yield make_conninfo(database.url, user=name)
    superuser.execute(sql.SQL("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE usename = {}").format(sql.Literal(name)))
    superuser.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(name)))
    superuser.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


def _time_failures(database, **checks):
    with database.connect() as conn:
        report = verify_ledger(conn, projections=False, **checks)
    return [failure for failure in report.failures if failure.check == "time"]


def test_a_ledger_whose_clock_ran_hours_ahead_records_commands_verify_names(settings, database):
    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))  # on time: never named
    with open_ledger(settings, clock=OffsetClock(AHEAD)) as rt:
        rt.ledger.execute(open_table("BAC-02", at=rt.ledger.clock.now()))
    (named,) = _time_failures(database)
    assert named.subject.startswith("OpenTable ")
    assert "after it was recorded" in named.reason
    assert "this verification's own time" in named.reason  # its receipt ran ahead with it


def test_an_insider_with_the_writer_login_cannot_date_a_command_after_the_seal_that_took_it(
        settings, database, writer_login, monkeypatch, tmp_path):
    insider = LedgerSettings(database_url=writer_login)
    with open_ledger(insider, clock=OffsetClock(AHEAD)) as rt:  # the receipt's time too
        rt.ledger.execute(open_table("BAC-03", at=rt.ledger.clock.now()))
    witness = tmp_path / "witness"
    with database.connect() as conn:
        Sealer(database, SEAL, witness).catch_up(conn, checkpoint_at_end=True)
    # verified after the command's own time: only the signed checkpoint's time bounds it
    named = _time_failures(database, seal_keys=[SEAL.public_key], witness_root=witness,
                           clock=OffsetClock(AHEAD + timedelta(hours=1)))
    assert any(f.subject.startswith("OpenTable ") for f in named), named
    assert all("the signed checkpoint at position" in f.reason for f in named), named
