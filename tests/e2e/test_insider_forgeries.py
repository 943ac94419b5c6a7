"""An insider forges events with the database rights they hold; `ledger verify --trust` proves
every event by the signed, authorised command that recorded it, executed again, and names each
forgery (exit 1), as found and after `ledger projections rebuild`.

The forgeries are inserted as the application's own writer login (INSERT on the events table
is all it needs: the chain trigger hashes the rows), or as superuser where the attack edits in
place. None of the checks reads a transaction id, so a dump and restore changes nothing.
"""

from __future__ import annotations

import base64
import json
import secrets
import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest

from ledger.core import clock as ledger_clock
from ledger.domain.receipt import receipt_id
from ledger.domain.registry import staff_stream_id
from ledger.identity.envelope import sign
from ledger.identity.keys import Credential
from tests.conftest import _create_database, _drop_database
from tests.e2e.test_database_roles import login  # noqa: F401 - a fixture
from tests.e2e.test_seal_attacks import behind_the_ledger, rehash
from tests.signing import ADMIN, CONSOLE, E2E_PIT_BOSS, E2E_WORKSTATION, KEYRING, acting_env

POOL = ("jackpot", "create", "GRAND", "--seed", "1000", "--royal", "50000",
        "--straight-flush", "10000", "--four", "2000", "--full-house", "1500", "--flush",
        "1000", "--rate", "0.1")


@pytest.fixture
def trust(cli, sealed, tmp_path) -> Path:
    """The trust file written right after the sealed shift: this ledger, its sealing key, its
    first administrator (no witnesses here: `test_witnesses` has them)."""
    path = tmp_path / "trust.json"
    done = cli("trust", "init", "--out", str(path))
    assert done.code == 0, done.err
    clean = cli("verify", "--trust", str(path))
    assert clean.code == 0, clean.out + clean.err
    assert "UNTRUSTED" not in clean.out
    return path


def named(cli, trust: Path, *expected: str) -> str:
    """`ledger verify --trust` exits 1 naming the forgery, and again after every projection
    is rebuilt from the forged events."""
    out = ""
    for attempt in ("as found", "after a rebuild"):
        if attempt == "after a rebuild":
            rebuilt = cli("projections", "rebuild")
            assert rebuilt.code == 0, rebuilt.err
        result = cli("verify", "--trust", str(trust))
        assert result.code == 1, f"{attempt}: {result.out}"
        for text in expected:
            assert text in result.out, f"{attempt}: {text!r} not in\n{result.out}"
        out = result.out
    return out


def _row(conn, event_type: str, where: str = "", args: tuple[Any, ...] = ()) -> tuple[Any, ...]:
    found = conn.execute(
        "SELECT topic, originator_id, originator_version, convert_from(state, 'UTF8') "
        f"FROM ledger_events WHERE topic LIKE %s {where} ORDER BY notification_id DESC LIMIT 1",
        (f"%:{event_type}", *args)).fetchone()
    assert found, event_type
    topic, stream, version, state = found
    return topic, stream, version, json.loads(state)


def _insert(url: str, rows: list[tuple[str, uuid.UUID, int, dict[str, Any]]]) -> None:
    """Raw rows, in one transaction, as the login `url` names."""
    with psycopg.connect(url, autocommit=False) as conn:
        for topic, stream, version, body in rows:
            conn.execute("INSERT INTO ledger_events (originator_id, originator_version, topic, "
                         "state) VALUES (%s, %s, %s, %s)",
                         (stream, version, topic, json.dumps(body).encode()))
        conn.commit()


def _junk() -> str:
    return base64.b64encode(secrets.token_bytes(64)).decode()


def _pool_created_richer(superuser) -> None:
    """The grand pool's creation rewritten to 90,000.00 and its chain recomputed (superuser)."""
    _, stream, version, _ = _row(superuser, "JackpotPool.Created")
    with behind_the_ledger(superuser):
        superuser.execute(
            "UPDATE ledger_events SET state = convert_to(replace(convert_from(state, 'UTF8'), "
            "'\"amount\":\"1000.00\"', '\"amount\":\"90000.00\"'), 'UTF8') "
            "WHERE originator_id = %s AND originator_version = %s", (stream, version))
        rehash(superuser, stream)


def _drain_receipt(receipt: dict[str, Any], command_id: uuid.UUID,
                   key: str | None = None) -> dict[str, Any]:
    """A receipt, shaped like `receipt`, of a command that does not exist, with random
    signatures (under `key`, if given, else the genuine keys' names)."""
    command = {"command": "drain_the_cage", "command_id": str(command_id)}
    signatures = [{**s, "value": _junk(), **({"key": key} if key else {})}
                  for s in receipt["signed"]["signatures"]]
    return {**receipt, "originator_id": str(receipt_id(command_id)), "command_type": "Drain",
            "command": command, "streams": [],
            "by": {**receipt["by"], "command_id": str(command_id)},
            "signed": {**receipt["signed"], "command": command, "signatures": signatures}}


def _forged_enrolment(superuser, staff_id: str, public_key: str,
                      signed: dict[str, Any] | None = None) -> list[Any]:
    """A StaffMember.Enrolled of a pit boss and its receipt, shaped like the real ones."""
    topic, _, _, enrolled = _row(superuser, "StaffMember.Enrolled",
                                 "AND convert_from(state, 'UTF8')::jsonb ->> 'staff_id' = %s",
                                 (E2E_PIT_BOSS,))
    receipt_topic, _, _, receipt = _row(
        superuser, "CommandReceipt.Accepted",
        "AND convert_from(state, 'UTF8')::jsonb ->> 'command_type' = 'EnrolStaff'")
    command_id = str(uuid.uuid4())
    stream = staff_stream_id(staff_id)
    by = {**enrolled["by"], "command_id": command_id}
    event = {**enrolled, "originator_id": str(stream), "staff_id": staff_id, "name": "Forged",
             "roles": ["pit_boss"], "public_key": public_key, "by": by}
    command = {**receipt["command"], "command_id": command_id, "staff_id": staff_id,
               "name": "Forged", "roles": ["pit_boss"], "public_key": public_key}
    envelope = signed or {**receipt["signed"], "command": {
        k: v for k, v in command.items() if k not in ("actor", "terminal", "credentials")},
        "signatures": [{**s, "value": _junk()} for s in receipt["signed"]["signatures"]]}
    forged_receipt = {**receipt, "originator_id": str(receipt_id(uuid.UUID(command_id))),
                      "command": command, "streams": [str(stream)], "by": by,
                      "signed": envelope}
    return [(topic, stream, 1, event),
            (receipt_topic, receipt_id(uuid.UUID(command_id)), 1, forged_receipt)]


def test_a_pit_boss_the_writer_login_enrolled_is_named_and_drains_nothing(
        cli, trust, superuser, login, tmp_path):
    assert cli(*POOL).code == 0
    forged = Credential.generate("staff", "PB-FORGED")
    forged.save(tmp_path / "forged.key")
    _insert(login("writer"), _forged_enrolment(superuser, "PB-FORGED", forged.public_key))
    env = {**acting_env(E2E_PIT_BOSS, E2E_WORKSTATION),
           "LEDGER_STAFF_CREDENTIAL": str(tmp_path / "forged.key")}
    drained = cli("jackpot", "adjust", "GRAND", "--reason", "audit", "--", "-900",
                  extra_env=env)
    assert drained.code == 1, drained.out  # the door proves the registry row: it cannot
    assert "PB-FORGED, who is not enrolled" in drained.err and "ALARM" in drained.err
    named(cli, trust, "EnrolStaff", "would have been refused at the door", "does not verify")


@pytest.mark.parametrize("who", ["writer", "owner", "superuser"])
def test_an_event_that_claims_no_command_is_named(cli, trust, superuser, login, database, who):
    assert cli(*POOL).code == 0
    topic, stream, version, created = _row(superuser, "JackpotPool.Created")
    adjusted = {"originator_id": str(stream), "originator_version": version + 1,
                "timestamp": ledger_clock.now().isoformat(), "amount": "-150000.00",
                "reason": "audit", "pool_after": "-149000.00",
                "by": {**created["by"], "command_id": None}}
    url = database.url if who == "superuser" else login(who)
    _insert(url, [(topic.replace("Created", "Adjusted"), stream, version + 1, adjusted)])
    named(cli, trust, "JackpotPool.Adjusted was recorded by no command",
          "jackpot pool GRAND: 1 of its events are not proven by a signed command: its "
          "balance by its proven events is 1000.00")


def test_a_forged_receipt_with_random_signatures_and_an_unknown_command_is_named(
        cli, trust, superuser, login):
    topic, _, _, receipt = _row(superuser, "CommandReceipt.Accepted")
    command_id = uuid.uuid4()
    body = _drain_receipt(receipt, command_id, key="ed25519:0000000000000000")
    _insert(login("writer"), [(topic, receipt_id(command_id), 1, body)])
    named(cli, trust, f"command {command_id} (Drain", "would have been refused at the door")


def test_an_enrolment_signed_by_a_suspended_administrator_is_named(cli, trust, superuser, login,
                                                                   as_admin):
    adm2 = KEYRING.credential("staff", "ADM-2")
    assert cli("staff", "enrol", "ADM-2", "--name", "Second", "--role", "administrator",
               "--public-key", adm2.public_key, extra_env=as_admin).code == 0
    assert cli("staff", "suspend", "ADM-2", "--reason", "left", extra_env=as_admin).code == 0
    late = Credential.generate("staff", "PB-LATE")
    ledger_id = str(superuser.execute("SELECT ledger_id FROM ledger_seal_state").fetchone()[0])
    body = {"command": "enrol_staff", "command_id": str(uuid.uuid4()),
            "at": ledger_clock.now().isoformat(), "staff_id": "PB-LATE", "name": "Late",
            "roles": ["pit_boss"], "public_key": late.public_key}
    signed = sign(body, KEYRING.credential("terminal", CONSOLE), adm2, ledger=ledger_id)
    rows = _forged_enrolment(superuser, "PB-LATE", late.public_key,
                             signed=signed.model_dump(mode="json"))
    rows[0][3]["by"]["command_id"] = rows[1][3]["by"]["command_id"] = body["command_id"]
    rows[1] = (rows[1][0], receipt_id(uuid.UUID(body["command_id"])), 1,
               {**rows[1][3], "originator_id": str(receipt_id(uuid.UUID(body["command_id"])))})
    _insert(login("writer"), rows)
    named(cli, trust, "sent by ADM-2 (Second), who is suspended")


def test_an_event_its_command_could_not_have_recorded_is_named(cli, trust, superuser):
    assert cli(*POOL).code == 0  # after the seal: only the commands' proof covers it
    _pool_created_richer(superuser)
    named(cli, trust, "(JackpotPool.Created): its amount is not what the command records")


def test_a_registry_bootstrapped_by_another_administrator_is_named(cli, trust, superuser,
                                                                   tmp_path):
    other = Credential.generate("staff", ADMIN)
    _, stream, version, _ = _row(superuser, "StaffMember.Enrolled",
                                 "AND convert_from(state, 'UTF8')::jsonb ->> 'staff_id' = %s",
                                 (ADMIN,))
    with behind_the_ledger(superuser):
        superuser.execute(
            "UPDATE ledger_events SET state = convert_to(jsonb_set(convert_from(state, "
            "'UTF8')::jsonb, '{public_key}', to_jsonb(%s::text))::text, 'UTF8') "
            "WHERE originator_id = %s AND originator_version = 1", (other.public_key, stream))
        rehash(superuser, stream)
    named(cli, trust, "the registry's bootstrap", "the trust file names")


def test_an_event_claiming_another_commands_id_is_named_after_a_dump_and_restore(
        cli, trust, superuser, login, server, database, tmp_path):
    if not shutil.which("pg_dump") or not shutil.which("pg_restore"):
        pytest.skip("pg_dump and pg_restore are not installed (Debian: postgresql-client)")
    assert cli(*POOL).code == 0
    assert cli("jackpot", "adjust", "GRAND", "100", "--reason", "float").code == 0
    topic, stream, version, adjusted = _row(superuser, "JackpotPool.Adjusted")
    copy = {**adjusted, "originator_version": version + 1, "amount": "-50000.00"}
    _insert(login("writer"), [(topic, stream, version + 1, copy)])
    said = "outside that command's run of positions"
    named(cli, trust, said)
    dump = tmp_path / "ledger.dump"
    made = subprocess.run(["pg_dump", "-Fc", "-f", str(dump), database.url],
                          capture_output=True, text=True, check=False)
    if made.returncode != 0 and "version mismatch" in made.stderr:
        pytest.skip(f"this pg_dump cannot dump the test server: {made.stderr.strip()}")
    assert made.returncode == 0, made.stderr
    name = f"ledger_restored_{secrets.token_hex(4)}"
    restored = _create_database(server, name)
    try:
        done = subprocess.run(["pg_restore", "--no-owner", "-d", restored.url, str(dump)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        result = cli("verify", "--trust", str(trust), "--no-projections", url=restored.url)
        assert result.code == 1, result.out
        assert said in result.out, result.out
    finally:
        _drop_database(server, name)


def test_an_investigation_note_written_behind_the_ledger_is_named(cli, trust, superuser, login):
    """An insider clears a flagged figure with a finding nobody signed, as the writer login:
    verify names the note as recorded by no command."""
    _, _, _, opened = _row(superuser, "Shift.Opened")
    stream = uuid.uuid4()
    note = {"originator_id": str(stream), "originator_version": 1,
            "timestamp": ledger_clock.now().isoformat(),
            "originator_topic": "ledger.domain.investigation:Investigation",
            "note_id": str(uuid.uuid4()), "first_day": opened["gaming_day"],
            "last_day": opened["gaming_day"], "scope": "floor",
            "subject": "win outside its band", "finding": "nothing wrong",
            "by": {**opened["by"], "command_id": None}}
    _insert(login("writer"), [("ledger.domain.investigation:Investigation.Noted", stream, 1,
                               note)])
    named(cli, trust, "Investigation.Noted was recorded by no command")
