"""`ledger verify --full --workers N` spreads the proof of every event by its signed command over
worker processes, and names exactly what the single process names: the same failures, in the
same words and order, the same counts, the same state carried to a boundary, on a clean floor
and after an insider's forgeries; a command that reads what other tables' commands wrote (the
pool two Stud Poker tables share, the gaming day every table's shifts enter) verifies."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from ledger.audit.log.trust import load_trust
from ledger.audit.verification.authorship import Authorship, check_authorship
from ledger.audit.verification.parallel import check_authorship_parallel
from ledger.core import clock as ledger_clock
from ledger.domain.receipt import receipt_id
from ledger.identity.keys import Credential
from tests.e2e.test_database_roles import login  # noqa: F401 - a fixture
from tests.e2e.test_insider_forgeries import (  # noqa: F401 - trust: a fixture
    _forged_enrolment,
    _insert,
    _junk,
    _row,
    trust,
)
from tests.e2e.test_seal_attacks import behind_the_ledger, rehash
from tests.signing import E2E_PIT_BOSS, E2E_WORKSTATION, acting_env, credential_env


def _floor(cli, keys: Path) -> None:
    """Two Stud Poker tables paying into the pool they share, their shifts opened and closed
    in the gaming day's stream."""
    env = {**credential_env(), "LEDGER_SIMULATOR_KEYS": str(keys)}
    done = cli("simulate", "--tables", "2", "--rounds", "3", "--seed", "11",
               "--games", "stud-poker,stud-poker", extra_env=env)
    assert done.code == 0, done.out + done.err


def _both(database, trust_file: Path, boundary: int | None = None,
          workers: int = 2) -> tuple[Authorship, Authorship]:
    trusted = load_trust(trust_file)
    checks: dict[str, Any] = {"administrator_key": trusted.administrator_public_key,
                              "ledger_id": str(trusted.ledger), "boundary": boundary}
    with database.connect(long=True) as conn:
        return (check_authorship(conn, **checks),
                check_authorship_parallel(conn, workers=workers, **checks))


def _same(one: Authorship, many: Authorship) -> None:
    assert many.failures == one.failures
    assert (many.commands, many.events, many.notes) == (one.commands, one.events, one.notes)
    if one.carried is None:
        assert many.carried is None
        return
    assert many.carried is not None
    assert (many.carried.after, many.carried.unproven, many.carried.unbound) == (
        one.carried.after, one.carried.unproven, one.carried.unbound)
    assert list(many.carried.streams) == list(one.carried.streams)
    for stream, aggregate in one.carried.streams.items():
        assert vars(many.carried.streams[stream]) == vars(aggregate), stream


def _middle(superuser) -> int:
    """A position inside a command's run, among the floor's rounds."""
    (position,) = superuser.execute(
        "SELECT min(notification_id) FROM ledger_events WHERE topic LIKE '%:JackpotPool.Contri"
        "butionReceived'").fetchone()
    assert position is not None
    return int(position)


def _failures(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("FAIL")]


def test_a_clean_floor_whose_commands_read_other_tables_streams_verifies_on_two_workers(
        cli, trust, superuser, tmp_path, database):
    _floor(cli, tmp_path / "keys")
    (day,) = superuser.execute(
        "SELECT convert_from(state, 'UTF8')::jsonb ->> 'gaming_day' FROM ledger_events WHERE "
        "topic LIKE '%:Shift.Opened' ORDER BY notification_id DESC LIMIT 1").fetchone()
    closed = cli("shift", "close-day", "--day", day)
    assert closed.code == 0, closed.out + closed.err
    assert cli("seal", "run", "--once").code == 0
    (contributions,) = superuser.execute(
        "SELECT count(DISTINCT convert_from(state, 'UTF8')::jsonb ->> 'table') FROM ledger_events "
        "WHERE topic LIKE '%:JackpotPool.ContributionReceived'").fetchone()
    assert contributions == 2  # both tables paid into the one pool
    for boundary in (None, _middle(superuser)):
        one, many = _both(database, trust, boundary)
        assert not one.failures and one.commands > 100
        _same(one, many)
    result = cli("verify", "--trust", str(trust), "--full", "--workers", "2")
    assert result.code == 0, result.out
    assert "all hold" in result.out


def test_every_forgery_the_single_process_names_the_workers_name_alike(
        cli, trust, superuser, login, database, tmp_path):
    _floor(cli, tmp_path / "keys")
    forged = Credential.generate("staff", "PB-FORGED")
    forged.save(tmp_path / "forged.key")
    # a pit boss the writer login enrolled (the door refuses what their key signs)
    _insert(login("writer"), _forged_enrolment(superuser, "PB-FORGED", forged.public_key))
    env = {**acting_env(E2E_PIT_BOSS, E2E_WORKSTATION),
           "LEDGER_STAFF_CREDENTIAL": str(tmp_path / "forged.key")}
    assert cli("jackpot", "adjust", _pool(superuser),
               "--reason", "audit", "--", "-900", extra_env=env).code == 1
    assert cli("jackpot", "adjust", _pool(superuser), "--reason", "audit", "--", "-900",
               extra_env=acting_env(E2E_PIT_BOSS, E2E_WORKSTATION)).code == 0
    # an adjustment that claims no command
    topic, stream, version, created = _row(superuser, "JackpotPool.Adjusted")
    _insert(login("writer"), [(topic, stream, version + 1, {
        **created, "originator_version": version + 1, "amount": "-150000.00",
        "timestamp": ledger_clock.now().isoformat(), "by": {**created["by"],
                                                          "command_id": None}})])
    # a receipt of a command nobody signed
    receipt_topic, _, _, receipt = _row(superuser, "CommandReceipt.Accepted")
    command_id = uuid.uuid4()
    drain = {"command": "drain_the_cage", "command_id": str(command_id)}
    _insert(login("writer"), [(receipt_topic, receipt_id(command_id), 1, {
        **receipt, "originator_id": str(receipt_id(command_id)), "command_type": "Drain",
        "command": drain, "streams": [], "by": {**receipt["by"], "command_id": str(command_id)},
        "signed": {**receipt["signed"], "command": drain, "signatures": [
            {**s, "value": _junk()} for s in receipt["signed"]["signatures"]]}})])
    # a card turned face up or down behind the ledger, its chain hashed again
    _, dealt, dealt_version, _ = _row(superuser, "Round.CardDealt")
    with behind_the_ledger(superuser):
        superuser.execute(
            "UPDATE ledger_events SET state = convert_to(jsonb_set(convert_from(state, 'UTF8')"
            "::jsonb, '{face_up}', to_jsonb(NOT (convert_from(state, 'UTF8')::jsonb ->> "
            "'face_up')::boolean))::text, 'UTF8') WHERE originator_id = %s AND "
            "originator_version = %s", (dealt, dealt_version))
        rehash(superuser, dealt)
    # a second receipt of the first enrolment
    topic, stream, version, enrolment = _row(
        superuser, "CommandReceipt.Accepted",
        "AND convert_from(state, 'UTF8')::jsonb ->> 'command_type' = 'EnrolStaff'")
    _insert(login("writer"), [(topic, stream, version + 1,
                               {**enrolment, "originator_version": version + 1})])
    for boundary in (None, _middle(superuser)):
        one, many = _both(database, trust, boundary)
        said = "\n".join(f"{subject}: {reason}" for subject, reason in one.failures)
        for text in ("would have been refused at the door", "EnrolStaff",
                     "JackpotPool.Adjusted was recorded by no command",
                     f"command {command_id} (Drain", "is not what the command records",
                     "a second receipt of command", "not proven by a signed command"):
            assert text in said, f"{text!r} not in\n{said}"
        _same(one, many)
        _same(one, _both(database, trust, boundary, workers=3)[1])
    alone = cli("verify", "--trust", str(trust), "--full", "--workers", "1", "--no-projections")
    spread = cli("verify", "--trust", str(trust), "--full", "--workers", "2", "--no-projections")
    assert alone.code == spread.code == 1, spread.out
    assert _failures(spread.out) == _failures(alone.out) and _failures(alone.out)


def _pool(superuser) -> str:
    (name,) = superuser.execute(
        "SELECT convert_from(state, 'UTF8')::jsonb ->> 'name' FROM ledger_events WHERE topic "
        "LIKE '%:JackpotPool.Created' LIMIT 1").fetchone()
    return str(name)


@pytest.mark.parametrize("workers", ["0", "-1"])
def test_verify_refuses_fewer_than_one_worker(cli, workers):
    refused = cli("verify", "--full", "--workers", workers)
    assert refused.code == 1, refused.out
    assert "Invalid value for '--workers'" in refused.err
