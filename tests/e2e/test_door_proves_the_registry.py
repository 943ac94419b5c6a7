"""The door trusts only registry entries proven by the signed commands that made them.

An insider with the application's writer login inserts a registry entry (an enrolment, a role
change, a key replacement, a reinstatement) with a receipt shaped like the real ones: junk
signatures, or a real command's receipt claimed again. A command signed with what the forged
entry brought in is refused at the door, nothing is recorded, and the refusal raises the
alarm; `ledger verify` names the forged entry as it always did.
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest

from ledger.core import clock as ledger_clock
from ledger.domain.receipt import receipt_id
from ledger.domain.registry import staff_stream_id
from ledger.identity.keys import Credential
from tests.e2e.test_database_roles import login  # noqa: F401 - a fixture
from tests.e2e.test_insider_forgeries import POOL, _forged_enrolment, _insert, _junk, _row
from tests.signing import E2E_PIT_BOSS, E2E_WORKSTATION, KEYRING, acting_env

ADJUST = ("jackpot", "adjust", "GRAND", "--reason", "audit", "--", "-900")


def _count(superuser) -> int:
    return superuser.execute("SELECT count(*) FROM ledger_events").fetchone()[0]


def _forged_change(superuser, staff_id: str, event_type: str, command_type: str,
                   fields: dict[str, Any]) -> list[Any]:
    """A `StaffMember.<event_type>` of `staff_id` on top of their stream and its receipt, shaped
    like a real enrolment's, its signatures random."""
    topic, _, _, _ = _row(superuser, "StaffMember.Enrolled")
    receipt_topic, _, _, receipt = _row(
        superuser, "CommandReceipt.Accepted",
        "AND convert_from(state, 'UTF8')::jsonb ->> 'command_type' = 'EnrolStaff'")
    stream = staff_stream_id(staff_id)
    version = superuser.execute("SELECT max(originator_version) FROM ledger_events WHERE "
                                "originator_id = %s", (stream,)).fetchone()[0]
    command_id = str(uuid.uuid4())
    by = {**receipt["by"], "command_id": command_id}
    event = {"originator_id": str(stream), "originator_version": version + 1,
             "timestamp": ledger_clock.now().isoformat(), **fields, "by": by}
    name = {"ChangeStaffRoles": "change_staff_roles", "ReplaceStaffKey": "replace_staff_key",
            "ReinstateStaff": "reinstate_staff"}[command_type]
    command = {**{k: v for k, v in receipt["command"].items()
                  if k in ("command_id", "at", "actor", "terminal", "credentials")},
               "command": name, "command_id": command_id, "staff_id": staff_id, **fields}
    envelope = {**receipt["signed"], "command": {
        k: v for k, v in command.items() if k not in ("actor", "terminal", "credentials")},
        "signatures": [{**s, "value": _junk()} for s in receipt["signed"]["signatures"]]}
    forged_receipt = {**receipt, "originator_id": str(receipt_id(uuid.UUID(command_id))),
                      "command_type": command_type, "command": command,
                      "streams": [str(stream)], "by": by, "signed": envelope}
    return [(topic.replace("Enrolled", event_type), stream, version + 1, event),
            (receipt_topic, receipt_id(uuid.UUID(command_id)), 1, forged_receipt)]


def _refused_with_alarm(cli, superuser, env: dict[str, str], *said: str) -> str:
    """The adjustment is refused (exit 1, one line), nothing is recorded, the alarm is raised,
    and `ledger verify` names the forged entry."""
    before = _count(superuser)
    refused = cli(*ADJUST, extra_env=env)
    assert refused.code == 1, refused.out + refused.err
    for text in (*said, "ALARM", "no signed command proves"):
        assert text in refused.err, f"{text!r} not in {refused.err}"
    assert _count(superuser) == before
    verified = cli("verify")
    assert verified.code == 1, verified.out
    assert any(text in verified.out for text in (
        "would have been refused at the door", "outside that command's run",
        "the receipt is not what its signed envelope says")), verified.out
    return str(refused.err)


@pytest.fixture
def pool(cli):
    assert cli(*POOL).code == 0


def test_a_pit_boss_the_writer_login_enrolled_is_not_enrolled_at_the_door(
        cli, superuser, login, pool, tmp_path):
    forged = Credential.generate("staff", "PB-FORGED")
    forged.save(tmp_path / "forged.key")
    _insert(login("writer"), _forged_enrolment(superuser, "PB-FORGED", forged.public_key))
    env = {**acting_env(E2E_PIT_BOSS, E2E_WORKSTATION),
           "LEDGER_STAFF_CREDENTIAL": str(tmp_path / "forged.key")}
    err = _refused_with_alarm(cli, superuser, env, "PB-FORGED, who is not enrolled")
    assert "StaffMember.Enrolled" in err and "does not verify" in err


def test_a_role_change_the_writer_login_recorded_does_not_promote_a_dealer(
        cli, superuser, login, pool):
    _insert(login("writer"), _forged_change(superuser, "D-1", "RolesChanged",
                                            "ChangeStaffRoles", {"roles": ["pit_boss"]}))
    _refused_with_alarm(cli, superuser, acting_env("D-1", E2E_WORKSTATION),
                        "dealer D-1 cannot", "StaffMember.RolesChanged")


def test_a_key_the_writer_login_put_in_place_signs_nothing(cli, superuser, login, pool,
                                                          tmp_path):
    thief = Credential.generate("staff", E2E_PIT_BOSS)
    thief.save(tmp_path / "thief.key")
    _insert(login("writer"), _forged_change(superuser, E2E_PIT_BOSS, "KeyReplaced",
                                            "ReplaceStaffKey", {"public_key": thief.public_key}))
    env = {**acting_env(E2E_PIT_BOSS, E2E_WORKSTATION),
           "LEDGER_STAFF_CREDENTIAL": str(tmp_path / "thief.key")}
    _refused_with_alarm(cli, superuser, env, "wrong or retired key", "StaffMember.KeyReplaced")
    genuine = cli(*ADJUST, extra_env=acting_env(E2E_PIT_BOSS, E2E_WORKSTATION))
    assert genuine.code == 0, genuine.err  # the registry as proven still holds the real key


def test_a_reinstatement_the_writer_login_recorded_leaves_the_suspension(
        cli, superuser, login, pool, as_admin):
    assert cli("staff", "suspend", E2E_PIT_BOSS, "--reason", "investigation",
               extra_env=as_admin).code == 0
    _insert(login("writer"), _forged_change(superuser, E2E_PIT_BOSS, "Reinstated",
                                            "ReinstateStaff", {"reason": "cleared"}))
    _refused_with_alarm(cli, superuser, acting_env(E2E_PIT_BOSS, E2E_WORKSTATION),
                        "who is suspended (investigation)", "StaffMember.Reinstated")


def test_a_real_promotion_claimed_again_after_the_demotion_promotes_nobody(
        cli, superuser, login, pool, as_admin):
    assert cli("staff", "roles", "D-2", "--role", "pit_boss", extra_env=as_admin).code == 0
    topic, stream, _, promoted = _row(superuser, "StaffMember.RolesChanged")
    assert cli("staff", "roles", "D-2", "--role", "dealer", extra_env=as_admin).code == 0
    version = superuser.execute("SELECT max(originator_version) FROM ledger_events WHERE "
                                "originator_id = %s", (stream,)).fetchone()[0]
    again = {**promoted, "originator_version": version + 1}
    _insert(login("writer"), [(topic, stream, version + 1, again)])
    err = _refused_with_alarm(cli, superuser, acting_env("D-2", E2E_WORKSTATION),
                              "dealer D-2 cannot")
    assert "claimed again" in err


def test_registry_changes_signed_by_an_administrator_are_taken_at_once(cli, superuser, pool,
                                                                       as_admin):
    """The proof does not stand in the way of the real thing: an enrolment, a promotion and a
    reinstatement recorded by the administrator are acted on at the next command."""
    key = KEYRING.credential("staff", "PB-NEW")
    assert cli("staff", "enrol", "PB-NEW", "--name", "New", "--role", "dealer",
               "--public-key", key.public_key, extra_env=as_admin).code == 0
    env = acting_env("PB-NEW", E2E_WORKSTATION)
    assert cli(*ADJUST, extra_env=env).code == 1
    assert cli("staff", "roles", "PB-NEW", "--role", "pit_boss", extra_env=as_admin).code == 0
    assert cli("staff", "suspend", "PB-NEW", "--reason", "check", extra_env=as_admin).code == 0
    assert cli("staff", "reinstate", "PB-NEW", "--reason", "ok", extra_env=as_admin).code == 0
    done = cli(*ADJUST, extra_env=env)
    assert done.code == 0, done.err
    assert "ALARM" not in done.err


def test_an_enrolment_carrying_a_real_enrolments_signed_envelope_is_not_enrolled(
        cli, superuser, login, pool, tmp_path):
    """The receipt keeps the genuine, validly signed envelope of another enrolment: it is that
    command's, not the one the forged entry claims."""
    _, _, _, genuine = _row(
        superuser, "CommandReceipt.Accepted",
        "AND convert_from(state, 'UTF8')::jsonb ->> 'command_type' = 'EnrolStaff'")
    envelope = {**genuine["signed"], "command": {
        k: v for k, v in genuine["command"].items()
        if k not in ("actor", "terminal", "credentials")}}
    forged = Credential.generate("staff", "PB-COPY")
    forged.save(tmp_path / "forged.key")
    _insert(login("writer"), _forged_enrolment(superuser, "PB-COPY", forged.public_key,
                                               signed=envelope))
    env = {**acting_env(E2E_PIT_BOSS, E2E_WORKSTATION),
           "LEDGER_STAFF_CREDENTIAL": str(tmp_path / "forged.key")}
    err = _refused_with_alarm(cli, superuser, env, "PB-COPY, who is not enrolled")
    assert f"is command {genuine['by']['command_id']}'s" in err


@pytest.mark.parametrize("state", [b'{"junk": 1}', b"not JSON"])
def test_a_person_whose_stream_the_writer_damaged_can_still_be_suspended(
        cli, superuser, login, pool, as_admin, state):
    """The writer appends an event no one can read to a pit boss's stream, hoping to keep them
    beyond the administrator's reach: the suspension is recorded on the stream as the door
    reads it (its proven entries), and the pit boss is then refused as suspended."""
    stream = staff_stream_id(E2E_PIT_BOSS)
    (version,) = superuser.execute("SELECT max(originator_version) FROM ledger_events WHERE "
                                   "originator_id = %s", (stream,)).fetchone()
    topic = _row(superuser, "StaffMember.Enrolled")[0].replace("Enrolled", "Suspended")
    with psycopg.connect(login("writer"), autocommit=True) as conn:
        conn.execute("INSERT INTO ledger_events (originator_id, originator_version, topic, "
                     "state) VALUES (%s, %s, %s, %s)", (stream, version + 1, topic, state))
    suspended = cli("staff", "suspend", E2E_PIT_BOSS, "--reason", "investigation",
                    extra_env=as_admin)
    assert suspended.code == 0, suspended.out + suspended.err
    refused = cli("jackpot", "adjust", "GRAND", "--reason", "meter", "--", "5")
    assert refused.code == 1 and "suspended (investigation)" in refused.err, refused.err
