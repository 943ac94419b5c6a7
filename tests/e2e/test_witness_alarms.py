"""A witness's refusal is a fork alarm. Two witnesses (processes of their own) cosigned the
sealed shift; an insider then rewrites or truncates the history, resets the seal under the same
ledger id and seals it afresh with the trust file. Each witness refuses, in one of the three
ways a witness can (another root at the size it holds; a size above the checkpoint's that the
log's leaves do not give; a consistency proof from what it holds that fails), and the refusal
is said everywhere at once: `ledger seal run --once` prints an error and exits 1, the floor
page and `GET /v1/alerts` show it in words, and `ledger verify` names it without waiting out
the grace a witness that has not answered gets.

The sealer keeps the alarm in `ledger_seal_alarms`, which the writer's login cannot delete;
a superuser who deletes it still meets the witnesses' own memory in `ledger verify`.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.e2e.served import Served
from tests.e2e.test_database_roles import login  # noqa: F401 - the fixture
from tests.e2e.test_seal_attacks import behind_the_ledger
from tests.e2e.test_witnesses import (  # noqa: F401 - the fixture
    _raise_the_closing_count,
    _reset_the_seal,
    witnesses,
)
from tests.e2e.test_wording_scan import sign_in
from tests.signing import E2E_PIT_BOSS

SAID = {"root": "holds another root at", "beyond": "holds a checkpoint at",
        "proof": "refused the consistency proof"}
"""How each kind of refusal's sentence begins, after `witness W-n `."""
JACKPOT = ("jackpot", "create", "GRAND", "--seed", "1000", "--royal", "50000",
           "--straight-flush", "10000", "--four", "2000", "--full-house", "1500", "--flush",
           "1000", "--rate", "0.1")


def forge_and_reset(kind: str, cli, superuser, sealed) -> str:
    """As superuser and on the sealing host, after both witnesses cosigned every event: the
    seal reset under the same ledger id (the sealing host's checkpoint files gone too), and
    the history made one the witnesses refuse. `root`: the shift's closing
    count raised (the same number of events, another root); `beyond`: the newest event
    deleted (fewer events than the witnesses hold); `proof`: an event recorded past what they
    hold, then the closing count raised (no proof from their root reaches the new one)."""
    if kind == "beyond":  # the newest event a pool's, not the registration a sign-in needs
        assert cli(*JACKPOT).code == 0
    assert cli("seal", "run", "--once").code == 0  # what the fixtures recorded: cosigned too
    if kind == "proof":
        assert cli(*JACKPOT).code == 0
    (ledger_id,) = superuser.execute("SELECT ledger_id FROM ledger_seal_state").fetchone()
    (position, stream) = superuser.execute(
        "SELECT position, stream_id FROM ledger_event_log WHERE event_type = 'Shift.Closed' "
        "ORDER BY position LIMIT 1").fetchone()
    with behind_the_ledger(superuser):
        if kind == "beyond":
            superuser.execute("DELETE FROM ledger_events WHERE notification_id = "
                              "(SELECT max(notification_id) FROM ledger_events)")
        else:
            _raise_the_closing_count(superuser, position, stream)
    _reset_the_seal(superuser)
    shutil.rmtree(sealed.witness)
    superuser.execute("ALTER TABLE ledger_seal_state DISABLE TRIGGER USER")
    superuser.execute("UPDATE ledger_seal_state SET ledger_id = %s", (ledger_id,))
    superuser.execute("ALTER TABLE ledger_seal_state ENABLE TRIGGER USER")
    return SAID[kind]


def _verify(cli):
    return cli("verify", "--trust", os.environ["LEDGER_TRUST_FILE"])


def _floor_alerts(served: Served, token: str, expected: str) -> str:
    """The floor page's alerts once the feed has read the alarm (it reads every second)."""
    deadline = time.monotonic() + 30
    while True:
        page = httpx.get(f"{served.url}/floor", cookies={"ledger_session": token}, timeout=30)
        assert page.status_code == 200, page.text
        if expected in page.text or time.monotonic() > deadline:
            return page.text
        time.sleep(0.5)


@pytest.mark.parametrize("kind", list(SAID))
def test_a_witness_that_refuses_a_checkpoint_is_a_fork_alarm_everywhere_at_once(
        kind, cli, witnesses, superuser, sealed, served_floor):
    said = forge_and_reset(kind, cli, superuser, sealed)
    sealing = cli("seal", "run", "--once")
    assert sealing.code == 1, sealing.out + sealing.err
    errors = [line for line in sealing.err.splitlines() if line.startswith("error:")]
    assert {w for w in ("W-1", "W-2") if any(f"witness {w} {said}" in e for e in errors)} == {
        "W-1", "W-2"}, sealing.err
    rows = superuser.execute("SELECT witness, kind FROM ledger_seal_alarms ORDER BY witness"
                             ).fetchall()
    assert [tuple(r) for r in rows] == [("W-1", kind), ("W-2", kind)]

    token = sign_in(served_floor, E2E_PIT_BOSS, "FLOOR-1")
    page = _floor_alerts(served_floor, token, "witness W-2")
    assert f"fork alarm: witness W-1 {said}" in page and f"fork alarm: witness W-2 {said}" \
        in page, page
    alerts = served_floor.get("/v1/alerts", token=token)
    assert alerts.status_code == 200, alerts.text
    assert sum(f"fork alarm: witness W-1 {said}" in line for line in alerts.json()["alerts"]) \
        == 1, alerts.json()
    assert {(a["witness"], a["kind"]) for a in alerts.json()["fork_alarms"]} == {
        ("W-1", kind), ("W-2", kind)}

    verified = _verify(cli)  # the checkpoint is seconds old: no grace for a witness that refused
    assert verified.code == 1, verified.out
    assert "awaiting its witnesses" not in verified.out, verified.out
    assert "fork alarm: witness W-1" in verified.out
    quorum = next(line for line in verified.out.splitlines()
                  if "cosignatures its quorum needs" in line)
    assert "witness W-1" in quorum and "will not cosign it" in quorum, verified.out


def test_a_fork_alarm_the_writer_cannot_delete_and_the_superuser_deletes_is_still_named(
        cli, witnesses, superuser, sealed, login):
    said = forge_and_reset("root", cli, superuser, sealed)
    assert cli("seal", "run", "--once").code == 1
    with psycopg.connect(login("writer"), autocommit=True) as writer:
        for statement in ("DELETE FROM ledger_seal_alarms", "TRUNCATE ledger_seal_alarms",
                          "UPDATE ledger_seal_alarms SET said = 'all well'"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                writer.execute(statement)
    superuser.execute("ALTER TABLE ledger_seal_alarms DISABLE TRIGGER USER")
    superuser.execute("DELETE FROM ledger_seal_alarms")
    superuser.execute("ALTER TABLE ledger_seal_alarms ENABLE TRIGGER USER")
    verified = _verify(cli)
    assert verified.code == 1
    assert "fork alarm" not in verified.out  # the row is gone; the witnesses remember
    quorum = next(line for line in verified.out.splitlines()
                  if "cosignatures its quorum needs" in line)
    assert f"witness W-1 {said}" in quorum and "will not cosign it" in quorum, verified.out


def test_the_sealer_refuses_a_database_whose_ledger_id_is_not_its_trust_files(
        cli, witnesses, superuser):
    (size,) = superuser.execute("SELECT max(size) FROM ledger_seal_checkpoints").fetchone()
    assert cli(*JACKPOT).code == 0
    superuser.execute("ALTER TABLE ledger_seal_state DISABLE TRIGGER USER")
    superuser.execute("UPDATE ledger_seal_state SET ledger_id = gen_random_uuid()")
    superuser.execute("ALTER TABLE ledger_seal_state ENABLE TRIGGER USER")
    refused = cli("seal", "run", "--once")
    assert refused.code == 1, refused.out
    assert "the trust file names" in refused.err and "nothing sealed or signed" in refused.err
    assert superuser.execute("SELECT max(size) FROM ledger_seal_checkpoints").fetchone() == (
        size,)
    without = cli("seal", "run", "--once", extra_env={"LEDGER_TRUST_FILE": None})
    assert without.code == 0, without.err  # without the trust file it seals, unwitnessed


def test_seal_run_takes_the_trust_file_from_its_option(cli, witnesses, superuser,
                                                       monkeypatch):
    trust = os.environ["LEDGER_TRUST_FILE"]
    monkeypatch.delenv("LEDGER_TRUST_FILE")
    assert cli(*JACKPOT).code == 0
    done = cli("seal", "run", "--once", "--trust", trust)
    assert done.code == 0, done.err
    assert "cosigned by W-1, W-2" in done.out
    (size,) = superuser.execute("SELECT max(size) FROM ledger_seal_checkpoints").fetchone()
    assert {w for (w,) in superuser.execute(
        "SELECT witness FROM ledger_seal_cosignatures WHERE size = %s", (size,))} == {"W-1", "W-2"}
    assert "--trust" in cli("seal", "run", "--help").out


def test_trust_init_refuses_a_witness_named_other_than_its_vkey(cli, sealed, tmp_path):
    from ledger.audit.log.note import COSIGNATURE_V1, VerifierKey
    from ledger.identity.keys import Credential

    key = Credential.generate("witness", "W-1").private_key.public_key().public_bytes_raw()
    vkey = VerifierKey("W-1", key, COSIGNATURE_V1)
    refused = cli("trust", "init", "--out", str(tmp_path / "trust.json"),
                  "--witness", f"W-2={vkey}@http://127.0.0.1:1")
    assert refused.code == 1
    [line] = refused.err.strip().splitlines()
    assert "--witness W-2: the vkey is W-1's" in line
    assert not (tmp_path / "trust.json").exists()
    done = cli("trust", "init", "--out", str(tmp_path / "trust.json"),
               "--witness", f"W-1={vkey}@http://127.0.0.1:1")
    assert done.code == 0, done.err



def test_a_witness_ahead_of_the_sealers_newest_checkpoint_on_the_same_history_is_no_alarm(
        cli, witnesses, superuser, settings):
    """Two sealers take turns: one sends the checkpoint it read as newest after the other's
    newer one was cosigned. The witness holds more than it was sent (409, a size above), and
    the log's leaves give the root the witness cosigned there: nothing to send, no alarm. The
    older sealer's view is made with temporary tables standing in for the seal's own."""
    from ledger.audit.log.trust import load_trust
    from ledger.audit.witnesses.cosigning import Cosigning
    from ledger.identity.keys import Credential

    (first,) = superuser.execute("SELECT max(size) FROM ledger_seal_checkpoints").fetchone()
    assert cli(*JACKPOT).code == 0
    assert cli("seal", "run", "--once").code == 0
    (newest,) = superuser.execute("SELECT max(size) FROM ledger_seal_checkpoints").fetchone()
    assert newest > first
    cosigning = Cosigning(load_trust(witnesses.trust),
                          Credential.load(Path(os.environ["LEDGER_SEAL_KEY"]), "seal"))
    with psycopg.connect(settings.database_url, autocommit=True) as conn:
        for table in ("ledger_seal_checkpoints", "ledger_seal_cosignatures",
                      "ledger_seal_alarms"):
            conn.execute(f"CREATE TEMP TABLE {table} (LIKE public.{table} INCLUDING ALL)")
        conn.execute("INSERT INTO ledger_seal_checkpoints SELECT * FROM "
                     "public.ledger_seal_checkpoints WHERE size = %s", (first,))
        done = cosigning.collect(conn)
        assert done.size == first
        assert (done.alarms, done.warnings, done.cosigned) == ([], [], [])
        assert conn.execute("SELECT count(*) FROM ledger_seal_alarms").fetchone() == (0,)
