"""`ledger replay` proves every event it uses against the newest checkpoint a trusted sealing key
signed, so a sealed event rewritten by the database's keeper, its stream's hash chain
recomputed, is a DISCREPANCY named by stream, version and position; and evidence bundles carry
the witnesses' cosignatures of their checkpoint, checked against the witness keys given.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledger.audit import bundle_verify as standalone
from ledger.audit.log.note import ED25519, VerifierKey, checkpoint_body, cosign
from ledger.core import clock as ledger_clock
from tests.e2e.test_seal_attacks import behind_the_ledger, first, rehash
from tests.integration import replay_rounds as rounds
from tests.signing import open_ledger

WITNESSES = {name: Ed25519PrivateKey.generate() for name in ("W-1", "W-2")}


def vkey(name: str, key: Ed25519PrivateKey) -> str:
    return str(VerifierKey(name, key.public_key().public_bytes_raw(), ED25519))


def trust_file(cli, tmp_path: Path, quorum: int = 2) -> tuple[Path, str]:
    """A trust file naming both witnesses; and the ledger's origin."""
    path = tmp_path / f"trust-{quorum}.json"
    args = [f"--witness={name}={vkey(name, key)}" for name, key in WITNESSES.items()]
    written = cli("trust", "init", "--out", str(path), *args, "--quorum", str(quorum))
    assert written.code == 0, written.out + written.err
    return path, json.loads(path.read_text())["origin"]


def cosigned(superuser, origin: str, *names: str) -> int:
    """The newest checkpoint cosigned by these witnesses, rows inserted as the sealer would."""
    size, root = superuser.execute("SELECT size, root FROM ledger_seal_checkpoints "
                                   "ORDER BY size DESC LIMIT 1").fetchone()
    body = checkpoint_body(origin, size, bytes(root))
    for name in names:
        line = cosign(body, name, WITNESSES[name], int(ledger_clock.now().timestamp())).line
        superuser.execute("INSERT INTO ledger_seal_cosignatures (size, witness, cosignature) "
                          "VALUES (%s, %s, %s)", (size, name, line))
    return int(size)


def test_a_clean_sealed_round_says_under_which_checkpoint_and_how_many_witnesses(
        cli, sealed, superuser, tmp_path):
    trust, origin = trust_file(cli, tmp_path)
    size = cosigned(superuser, origin, "W-1", "W-2")
    result = cli("replay", "BAC-R1", "1", "--trust", str(trust))
    assert result.code == 0, result.out + result.err
    assert f"seal: sealed under checkpoint {size:,} events, signed " in result.out
    assert "Macau time, cosigned by 2 of 2 witnesses (quorum 2)" in result.out
    data = json.loads(cli("replay", "BAC-R1", "1", "--trust", str(trust), "--json").out)
    assert data["seal"]["status"] == "sealed"
    assert data["seal"]["checkpoint"]["cosigned_by"] == ["W-1", "W-2"]
    page = tmp_path / "replay.html"
    assert cli("replay", "BAC-R1", "1", "--html", str(page)).code == 0
    assert f"sealed under checkpoint {size:,} events" in page.read_text()


def test_without_a_trust_file_the_seal_key_from_settings_is_used_and_witnesses_not_checked(
        cli, sealed):
    result = cli("replay", "BAC-R1", "1")
    assert result.code == 0, result.out + result.err
    assert "seal: sealed under checkpoint" in result.out
    assert "witnesses not checked (no trust file)" in result.out


def test_no_trusted_sealing_key_is_said(cli, sealed):
    result = cli("replay", "BAC-R1", "1", extra_env={"LEDGER_SEAL_KEY": None,
                                                     "LEDGER_SEAL_PUBLIC_KEY": None})
    assert result.code == 0, result.out + result.err
    assert "seal not checked: no trusted sealing key was given" in result.out


def reattribute(superuser, position: int, stream, player: str) -> None:
    """The bet at `position`, and its result, given to `player`, the triggers off and the
    round's hash chain recomputed: the round adds up and its chain holds."""
    bet = json.loads(bytes(superuser.execute(
        "SELECT state FROM ledger_events WHERE notification_id = %s", (position,)).fetchone()[0]))
    settled_at, settled = superuser.execute(
        "SELECT position, state FROM ledger_event_log JOIN ledger_events "
        "ON notification_id = position WHERE stream_id = %s AND event_type = 'Round.BetSettled' "
        "AND body -> 'bet' ->> 'box' = %s AND body -> 'bet' ->> 'spot' = %s",
        (stream, str(bet["box"]), bet["spot"])).fetchone()
    result = json.loads(bytes(settled))
    result["bet"]["player"] = bet["player"] = player
    with behind_the_ledger(superuser):
        for at, body in ((position, bet), (settled_at, result)):
            superuser.execute("UPDATE ledger_events SET state = %s WHERE notification_id = %s",
                              (json.dumps(body).encode(), at))
        rehash(superuser, stream)


def test_a_sealed_bet_reattributed_with_its_chain_recomputed_is_a_discrepancy(
        cli, sealed, superuser):
    position, stream, version = first(superuser, "Round.BetPlaced")
    reattribute(superuser, position, stream, "P-ELSEWHERE")
    result = cli("replay", str(stream))
    assert result.code == 1, result.out + result.err
    assert "DISCREPANCY" in result.out
    assert "hash chain holds" in result.out  # the chain was recomputed: it proves nothing here
    named = f"round stream {stream} version {version} (position {position}, Round.BetPlaced)"
    assert named in result.out
    assert "differs from what was sealed under checkpoint" in result.out
    data = json.loads(cli("replay", str(stream), "--json").out)
    assert data["check"]["verdict"] == "DISCREPANCY"
    problems = data["seal"]["problems"]
    assert (str(stream), version, position) in [
        (p["stream_id"], p["version"], p["position"]) for p in problems]
    assert all(d["field"] == "sealed leaf" for d in data["check"]["differences"]), \
        "the rewrite adds up: only the seal names it"


def test_a_sealed_bet_moved_past_the_checkpoint_does_not_pass_for_not_yet_sealed(
        cli, sealed, superuser):
    position, stream, version = first(superuser, "Round.BetPlaced")
    with behind_the_ledger(superuser):
        superuser.execute("UPDATE ledger_events SET notification_id = 10000000 "
                          "WHERE notification_id = %s", (position,))
    result = cli("replay", str(stream))
    assert result.code == 1, result.out + result.err
    assert (f"round stream {stream} version {version} (position 10000000, Round.BetPlaced) "
            f"was sealed at position {position} and has moved") in result.out


def test_altered_stored_leaves_are_named(cli, sealed, superuser):
    superuser.execute("ALTER TABLE ledger_seal_leaves DISABLE TRIGGER USER")
    superuser.execute("UPDATE ledger_seal_leaves SET leaf = %s WHERE leaf_index = 0",
                      (bytes(32),))
    result = cli("replay", "BAC-R1", "1")
    assert result.code == 1, result.out + result.err
    assert "the seal's stored leaves were altered" in result.out


def test_a_round_played_after_the_newest_checkpoint_is_not_yet_sealed(cli, sealed, settings):
    with open_ledger(settings) as rt:
        rounds.baccarat_round(rt.ledger)
    result = cli("replay", "BAC-01", "1")
    assert result.code == 0, result.out + result.err
    assert "seal: not yet sealed: all" in result.out
    assert ") came after the newest checkpoint (" in result.out


def test_an_adjustment_after_the_checkpoint_is_named_as_not_yet_sealed(cli, sealed, settings):
    with open_ledger(settings) as rt:
        rounds.adjust(rt.ledger, "BAC-R1", 1, 1, "player", "50.00", "goodwill")
    result = cli("replay", "BAC-R1", "1", "--json")
    assert result.code == 0, result.out + result.err
    seal = json.loads(result.out)["seal"]
    assert seal["status"] == "partly sealed" and len(seal["not_yet_sealed"]) == 1
    assert seal["sentence"].startswith(f"{seal['checked'] - 1} of {seal['checked']} events "
                                       "of the round and its shoe sealed under the newest "
                                       "checkpoint a trusted key signed, checkpoint")
    assert seal["sentence"].endswith(f"1 not yet sealed (positions {seal['not_yet_sealed'][0]})")


def test_a_checkpoint_short_of_its_quorum_is_said_not_yet_witnessed(
        cli, sealed, superuser, tmp_path):
    trust, origin = trust_file(cli, tmp_path)
    cosigned(superuser, origin, "W-2")
    result = cli("replay", "BAC-R1", "1", "--trust", str(trust))
    assert result.code == 0, result.out + result.err
    assert "cosigned by 1 of 2 witnesses (quorum 2): not yet witnessed" in result.out


# -- evidence bundles carry the witnesses' cosignatures ----------------------------------------


def exported(cli, tmp_path: Path) -> Path:
    out = tmp_path / "BAC-R1-1.evidence.json"
    result = cli("export", "round", "BAC-R1", "1", "--out", str(out))
    assert result.code == 0, result.err
    return out


def offline(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", str(Path(standalone.__file__)), str(path),
                           *args], capture_output=True, text=True, timeout=60, check=False,
                          cwd=path.parent, env={})


def test_a_bundle_cosigned_by_the_quorum_verifies_with_the_trust_file(
        cli, sealed, superuser, tmp_path):
    trust, origin = trust_file(cli, tmp_path)
    cosigned(superuser, origin, "W-1", "W-2")
    bundle = exported(cli, tmp_path)
    assert len(json.loads(bundle.read_text())["content"]["cosignatures"]) == 2
    checked = offline(bundle, "--trust", str(trust))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "cosigned by 2 of 2 trusted witnesses (W-1, W-2), quorum 2" in checked.stdout
    through_cli = cli("verify-bundle", str(bundle), "--trust", str(trust))
    assert through_cli.code == 0, through_cli.out
    witnesses = [f"--witness=W-1={vkey('W-1', WITNESSES['W-1'])}", "--quorum", "1"]
    assert offline(bundle, "--seal-public-key", sealed.public_key, *witnesses).returncode == 0


def test_a_bundle_short_of_the_quorum_is_tampered_as_unwitnessed(
        cli, sealed, superuser, tmp_path):
    trust, origin = trust_file(cli, tmp_path)
    cosigned(superuser, origin, "W-1")
    bundle = exported(cli, tmp_path)
    checked = offline(bundle, "--trust", str(trust))
    assert checked.returncode == 2, checked.stdout
    assert "UNWITNESSED: cosigned by 1 of 2 trusted witnesses (W-1), quorum 2" in checked.stdout
    assert checked.stdout.strip().splitlines()[-1] == "TAMPERED"


def test_a_cosignature_checked_under_a_wrong_witness_key_does_not_count(
        cli, sealed, superuser, tmp_path):
    _, origin = trust_file(cli, tmp_path)
    cosigned(superuser, origin, "W-1", "W-2")
    bundle = exported(cli, tmp_path)
    wrong = vkey("W-1", Ed25519PrivateKey.generate())
    checked = offline(bundle, "--seal-public-key", sealed.public_key, f"--witness=W-1={wrong}")
    assert checked.returncode == 2, checked.stdout
    assert "cosigned by 0 of 1 trusted witnesses, quorum 1" in checked.stdout
