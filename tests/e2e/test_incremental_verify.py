"""`ledger verify` with the verifier's key checks only what came after the last verification
that held (its signed record, beside the trust file), and still names every insider's attack
made after it; `--full` checks everything again."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest

from ledger.audit.verification.record import VerificationRecord
from ledger.core import clock as ledger_clock
from ledger.domain.receipt import receipt_id
from ledger.identity.keys import Credential
from tests.e2e.test_database_roles import login  # noqa: F401 - a fixture
from tests.e2e.test_insider_forgeries import (  # noqa: F401 - trust: a fixture
    POOL,
    _drain_receipt,
    _forged_enrolment,
    _insert,
    _pool_created_richer,
    _row,
    trust,
)
from tests.signing import E2E_PIT_BOSS, E2E_WORKSTATION, acting_env, clock_after, credential_env


@pytest.fixture
def verifier(cli, tmp_path) -> Path:
    key = tmp_path / "verifier.key"
    assert cli("key", "new", "verifier", "V-1", "--out", str(key)).code == 0
    return key


def verified(cli, trust_file: Path, key: Path, *more: str):
    return cli("verify", "--trust", str(trust_file), "--key", str(key), *more)


def play(cli, keys: Path, rounds: int = 2, seed: int = 5, *, day: str | None = None,
         shift: str = "day") -> None:
    """A floor of two tables (baccarat and Stud Poker, its pool), then the seal: the shift in
    force, or `shift` of the past gaming `day` (the ledger's clock set after it), whatever the
    time of day the test runs at."""
    env = {**credential_env(), "LEDGER_SIMULATOR_KEYS": str(keys)}
    when: tuple[str, ...] = ()
    if day is not None:
        env, when = {**env, **clock_after(day)}, ("--day", day, "--shift", shift)
    done = cli("simulate", "--tables", "2", "--rounds", str(rounds), "--seed", str(seed),
               "--games", "baccarat,stud-poker", *when, extra_env=env)
    assert done.code == 0, done.out + done.err
    sealed = cli("seal", "run", "--once")
    assert sealed.code == 0, sealed.err


def test_a_second_verification_checks_only_what_came_after_the_first(cli, trust, verifier,
                                                                     tmp_path):
    first = verified(cli, trust, verifier)
    assert first.code == 0, first.out
    assert "recorded: verified up to the checkpoint" in first.out
    assert "since the last verification" not in first.out
    play(cli, tmp_path / "keys")
    second = verified(cli, trust, verifier)
    assert second.code == 0, second.out
    assert "since the last verification" in second.out, second.out
    again = verified(cli, trust, verifier)  # nothing new since the second
    assert again.code == 0, again.out
    assert ("no stream changed since the signed record of the last verification: no chain is "
            "new to check" in " ".join(again.out.split())), again.out
    assert "0 streams" not in again.out
    full = verified(cli, trust, verifier, "--full")
    assert full.code == 0, full.out
    assert "since the last verification" not in full.out
    print(first.out, second.out, full.out)


def _seal_up_to(database, key: Path, witness: Path, position: int) -> None:
    """Seal every event up to `position` and sign a checkpoint exactly there."""
    from ledger.audit.seal.sealer import Sealer
    from ledger.identity.keys import Credential

    with database.connect() as conn:
        (size,) = conn.execute("SELECT size FROM ledger_seal_state").fetchone()
        (target,) = conn.execute("SELECT count(*) FROM ledger_events WHERE notification_id <= %s",
                                 (position,)).fetchone()
        assert target > size
        Sealer(database, Credential.load(key, "seal"), witness,
               batch_size=target - size).step(conn, force_checkpoint=True)


def _verify_in_process(database, trust_file: Path, key: Path, **more):
    from ledger.audit.log.trust import load_trust
    from ledger.audit.verification.incremental import verify
    from ledger.identity.keys import Credential

    with database.connect(long=True) as conn:
        return verify(conn, trust=load_trust(trust_file), trust_path=trust_file,
                      verifier=Credential.load(key, "verifier"),
                      witness_root=Path(os.environ["LEDGER_WITNESS_DIR"]), **more)


def test_rounds_shoes_shifts_pools_and_commands_cut_by_the_boundary_verify_from_it(
        cli, trust, verifier, database, tmp_path, monkeypatch):
    """The floor is sealed, and verified, a piece at a time, each checkpoint falling inside a
    command's events, a round in play, an open shoe, an open shift and a pool being paid into;
    each verification resumes from the last one's record and finds everything holds, as the
    whole ledger verified in full does."""
    from ledger.domain.round import Phase, Round
    from ledger.domain.shoe import Shoe

    with database.connect() as conn:
        (start,) = conn.execute("SELECT max(position) FROM ledger_event_log").fetchone()
    env = {**credential_env(), "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys")}
    done = cli("simulate", "--tables", "2", "--rounds", "3", "--seed", "8",
               "--games", "stud-poker,baccarat", extra_env=env)
    assert done.code == 0, done.out + done.err

    def first(event_type: str, after: int = start) -> int:
        with database.connect() as conn:
            found = conn.execute("SELECT min(position) FROM ledger_event_log WHERE position > %s "
                                 "AND event_type = %s", (after, event_type)).fetchone()[0]
        assert found is not None, event_type
        return int(found)

    dealt = first("Round.CardDealt", first("Round.Opened"))  # inside the deal's events
    contributed = first("JackpotPool.ContributionReceived")
    paid_again = first("JackpotPool.ContributionReceived", contributed)
    closing = first("Shift.Closed") - 1
    with database.connect() as conn:
        (end,) = conn.execute("SELECT max(position) FROM ledger_event_log").fetchone()
    boundaries = sorted({dealt, contributed, paid_again - 1, closing, end})
    key = Path(os.environ["LEDGER_SEAL_KEY"])
    witness = Path(os.environ["LEDGER_WITNESS_DIR"])
    seen: dict[str, bool] = {"cut inside a command": False, "round in play": False,
                             "open shoe": False, "pool": False, "open shift": False}
    first_check = _verify_in_process(database, trust, verifier)
    assert first_check.report.ok and first_check.written is not None
    for boundary in boundaries:
        _seal_up_to(database, key, witness, boundary)
        checked = _verify_in_process(database, trust, verifier)
        assert checked.since is not None, checked.notes
        assert checked.report.ok, [str(f) for f in checked.report.failures]
        assert not (checked.report.seal and checked.report.seal.problems)
        record = checked.written
        assert record is not None and record.reached.position == boundary
        carried = record.carried()
        streams = carried["authorship"].streams.values()
        seen["cut inside a command"] |= record.resume_after < boundary
        seen["round in play"] |= any(isinstance(s, Round) and s.phase not in (
            Phase.SETTLED, Phase.VOID) for s in streams)
        seen["open shoe"] |= any(isinstance(s, Shoe) and not s.is_closed for s in streams)
        seen["pool"] |= bool(carried["pools"])
        seen["open shift"] |= any(e.kind == "Shift.Opened" and not any(
            c.kind == "Shift.Closed" and c.stream == e.stream for c in carried["cross"])
            for e in carried["cross"])
    assert all(seen.values()), seen
    full = verified(cli, trust, verifier, "--full")
    assert full.code == 0, full.out


# -- each insider's attack made after the last verification, named by the next one ----------


@pytest.fixture
def recorded(cli, trust, verifier) -> Path:
    """A verification that held, recorded; the grand pool created after it."""
    first = verified(cli, trust, verifier)
    assert first.code == 0 and "recorded:" in first.out, first.out
    assert cli(*POOL).code == 0
    return trust.with_name("trust.verified.json")


def named_since(cli, trust_file: Path, key: Path, record: Path, *expected: str) -> str:
    """The next verification resumes from the record, names the attack (exit 1), and leaves
    the record as it was: the one after starts from the same place and names it again."""
    before = record.read_bytes()
    for _ in range(2):
        result = verified(cli, trust_file, key)
        assert result.code == 1, result.out
        assert "since the last verification" in result.out, result.out
        for text in expected:
            assert text in result.out, f"{text!r} not in\n{result.out}"
        assert record.read_bytes() == before
    full = verified(cli, trust_file, key, "--full")
    assert full.code == 1, full.out
    return result.out


def test_a_pit_boss_enrolled_by_the_writer_login_after_the_last_verification_is_named(
        cli, trust, verifier, recorded, superuser, login, tmp_path):
    forged = Credential.generate("staff", "PB-FORGED")
    forged.save(tmp_path / "forged.key")
    _insert(login("writer"), _forged_enrolment(superuser, "PB-FORGED", forged.public_key))
    env = {**acting_env(E2E_PIT_BOSS, E2E_WORKSTATION),
           "LEDGER_STAFF_CREDENTIAL": str(tmp_path / "forged.key")}
    refused = cli("jackpot", "adjust", "GRAND", "--reason", "audit", "--", "-900",
                  extra_env=env)
    assert refused.code == 1 and "ALARM" in refused.err, refused.out  # the door proves it
    named_since(cli, trust, verifier, recorded, "EnrolStaff",
                "would have been refused at the door", "does not verify")


def test_an_event_claiming_no_command_after_the_last_verification_is_named(
        cli, trust, verifier, recorded, superuser, login):
    topic, stream, version, created = _row(superuser, "JackpotPool.Created")
    adjusted = {"originator_id": str(stream), "originator_version": version + 1,
                "timestamp": ledger_clock.now().isoformat(), "amount": "-150000.00",
                "reason": "audit", "pool_after": "-149000.00",
                "by": {**created["by"], "command_id": None}}
    _insert(login("writer"), [(topic.replace("Created", "Adjusted"), stream, version + 1,
                               adjusted)])
    named_since(cli, trust, verifier, recorded,
                "JackpotPool.Adjusted was recorded by no command",
                "1 of its events are not proven by a signed command")


def test_a_second_receipt_of_a_command_verified_before_is_named(
        cli, trust, verifier, recorded, superuser, login):
    """The first receipt is under the record; a copy at its stream's next version is not."""
    topic, stream, version, receipt = _row(
        superuser, "CommandReceipt.Accepted",
        "AND convert_from(state, 'UTF8')::jsonb ->> 'command_type' = 'EnrolStaff'")
    _insert(login("writer"), [(topic, stream, version + 1,
                               {**receipt, "originator_version": version + 1})])
    named_since(cli, trust, verifier, recorded, "a second receipt of command")


def test_a_forged_receipt_after_the_last_verification_is_named(
        cli, trust, verifier, recorded, superuser, login):
    topic, _, _, receipt = _row(superuser, "CommandReceipt.Accepted")
    command_id = uuid.uuid4()
    _insert(login("writer"), [(topic, receipt_id(command_id), 1,
                               _drain_receipt(receipt, command_id))])
    named_since(cli, trust, verifier, recorded, f"command {command_id} (Drain",
                "would have been refused at the door")


def test_an_event_rewritten_and_rehashed_after_it_was_sealed_is_named(
        cli, trust, verifier, recorded, superuser):
    assert cli("seal", "run", "--once").code == 0
    _pool_created_richer(superuser)
    named_since(cli, trust, verifier, recorded, "the events part from the checkpoint",
                "its amount is not what the command records")


def test_the_checkpoint_the_last_verification_reached_deleted_is_named(
        cli, trust, verifier, recorded, superuser):
    """The seal reset from inside the database: its checkpoints gone, a new history sealed."""
    record = VerificationRecord.model_validate_json(recorded.read_text())
    triggers = [name for (name,) in superuser.execute(
        "SELECT tgname FROM pg_trigger WHERE tgrelid = 'ledger_seal_checkpoints'::regclass "
        "AND NOT tgisinternal")]
    superuser.execute("ALTER TABLE ledger_seal_checkpoints DISABLE TRIGGER USER")
    superuser.execute("DELETE FROM ledger_seal_checkpoints WHERE size = %s",
                      (record.reached.size,))
    for name in triggers:
        superuser.execute(f"ALTER TABLE ledger_seal_checkpoints ENABLE ALWAYS TRIGGER {name}")
    witness = Path(os.environ["LEDGER_WITNESS_DIR"]) / record.ledger
    for path in witness.glob(f"*{record.reached.size:012d}.json"):
        path.unlink()
    named_since(cli, trust, verifier, recorded, f"the checkpoint at {record.reached.size:,} "
                "events, which the last verification reached, is no longer held")


def test_a_record_altered_or_signed_by_another_verifier_is_not_used(
        cli, trust, verifier, recorded, tmp_path):
    text = json.loads(recorded.read_text())
    text["reached"]["size"] += 1000
    recorded.write_text(json.dumps(text))
    altered = verified(cli, trust, verifier)
    assert altered.code == 0, altered.out
    assert "altered after signing" in altered.out and "verified in full" in altered.out
    other = tmp_path / "other.key"
    assert cli("key", "new", "verifier", "V-2", "--out", str(other)).code == 0
    foreign = verified(cli, trust, other)
    assert foreign.code == 0 and "not by this verifier's key" in foreign.out, foreign.out


def test_an_event_of_the_verified_history_altered_afterwards_is_named_by_the_sample(
        cli, trust, verifier, recorded, superuser):
    """The record's history is not read again, but events drawn from it at random are proven
    against the seal: here the sample covers the whole (short) history."""
    assert cli("seal", "run", "--once").code == 0
    assert verified(cli, trust, verifier).code == 0  # the pool is now in the verified history
    _pool_created_richer(superuser)
    unsampled = verified(cli, trust, verifier, "--sample", "0")
    assert unsampled.code == 0, unsampled.out  # not read again: what --full is for
    named_since(cli, trust, verifier, recorded, "an event of the history verified before",
                "is not the leaf sealed there")
