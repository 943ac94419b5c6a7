"""A surveillance officer exports a round's evidence; anyone checks it with no database."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

from ledger.audit import bundle_verify as standalone

VERIFIER = Path(standalone.__file__)


def exported(cli, tmp_path) -> Path:
    out = tmp_path / "BAC-R1-1.evidence.json"
    result = cli("export", "round", "BAC-R1", "1", "--out", str(out))
    assert result.code == 0, result.err
    assert "replay MATCH, signed by PB-E2E" in result.out
    return out


def offline(path: Path, public_key: str) -> subprocess.CompletedProcess[str]:
    """The verifier as a regulator runs it: the one file, by itself, no ledger settings."""
    return subprocess.run([sys.executable, "-I", str(VERIFIER), str(path), "--seal-public-key",
                           public_key], capture_output=True, text=True, timeout=60,
                          check=False, cwd=path.parent, env={})


def test_a_bundle_verifies_offline_as_match(cli, sealed, tmp_path):
    bundle = exported(cli, tmp_path)
    checked = offline(bundle, sealed.public_key)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip().splitlines()[-1] == "MATCH"
    assert "events each proven in the sealed log" in checked.stdout
    assert cli("verify-bundle", str(bundle)).code == 0  # the same check through the CLI


def test_a_bundle_checked_only_against_its_own_key_is_untrusted_exit_3_not_match(
        cli, sealed, tmp_path):
    """With nothing trusted, the bundle was checked against the key it carries and said MATCH,
    exit 0: a self-consistent forgery passed. It says UNTRUSTED and exits 3, as `ledger verify`
    without a trust file does; with the key you trust it is MATCH."""
    bundle = exported(cli, tmp_path)
    nothing = {"LEDGER_SEAL_PUBLIC_KEY": None, "LEDGER_SEAL_KEY": None}  # no key of one's own
    untrusted = cli("verify-bundle", str(bundle), extra_env=nothing)
    assert untrusted.code == 3, untrusted.out + untrusted.err
    assert untrusted.out.strip().splitlines()[-1].startswith("UNTRUSTED checked only against "
                                                             "the sealing key the bundle"), \
        untrusted.out
    assert "MATCH" not in untrusted.out, untrusted.out
    alone = subprocess.run([sys.executable, "-I", str(VERIFIER), str(bundle)],
                           capture_output=True, text=True, timeout=60, check=False,
                           cwd=bundle.parent, env={})
    assert alone.returncode == 3, alone.stdout + alone.stderr
    assert alone.stdout.strip().splitlines()[-1].startswith("UNTRUSTED "), alone.stdout
    trusted = cli("verify-bundle", str(bundle), "--seal-public-key", sealed.public_key,
                  extra_env=nothing)
    assert trusted.code == 0 and trusted.out.strip().splitlines()[-1] == "MATCH", trusted.out


def test_one_byte_changed_in_an_event_makes_the_bundle_tampered(cli, sealed, tmp_path):
    bundle = exported(cli, tmp_path)
    data = json.loads(bundle.read_text())
    event = data["content"]["events"][0]
    state = bytearray(__import__("base64").b64decode(event["state"]))
    state[len(state) // 2] ^= 0x01
    event["state"] = __import__("base64").b64encode(bytes(state)).decode()
    bundle.write_text(json.dumps(data))
    checked = offline(bundle, sealed.public_key)
    assert checked.returncode == 2
    assert checked.stdout.strip().splitlines()[-2:] == [
        (f"  event at position {event['position']} (stream {event['stream_id']} version "
        f"{event['version']}) is not in the sealed log"), "TAMPERED"]


def test_one_byte_changed_in_the_replay_page_makes_the_bundle_tampered(cli, sealed, tmp_path):
    bundle = exported(cli, tmp_path)
    raw = bundle.read_bytes()
    at = raw.index(b"Replay of BAC-R1 round 1")
    bundle.write_bytes(raw[:at] + b"r" + raw[at + 1:])
    checked = offline(bundle, sealed.public_key)
    assert checked.returncode == 2
    assert "the content is not as PB-E2E signed it" in checked.stdout


def test_a_bundle_checked_under_another_sealing_key_is_tampered(cli, sealed, tmp_path):
    bundle = exported(cli, tmp_path)
    other = tmp_path / "other.key"
    assert cli("key", "new", "seal", "OTHER", "--out", str(other)).code == 0
    public = next(line.split()[-1] for line in cli("key", "show", str(other)).out.splitlines()
                  if line.startswith("public key"))
    checked = offline(bundle, public)
    assert checked.returncode == 2 and "is not signed by the sealing key" in checked.stdout


def test_nothing_is_exported_before_the_events_are_sealed(cli, sealed, superuser):
    before = superuser.execute("SELECT count(*) FROM ledger_seal_checkpoints").fetchone()
    superuser.execute("ALTER TABLE ledger_seal_checkpoints DISABLE TRIGGER USER")
    superuser.execute("DELETE FROM ledger_seal_checkpoints")
    result = cli("export", "round", "BAC-R1", "1", "--out", "/dev/null")
    assert before[0] > 0 and result.code == 1
    assert "are not sealed under a checkpoint yet: run `ledger seal run --once`" in result.err


def test_the_offline_verifier_needs_only_the_standard_library_and_cryptography():
    tree = ast.parse(VERIFIER.read_text())
    roots = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names}
    roots |= {node.module.split(".")[0] for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.module}
    assert roots - set(sys.stdlib_module_names) == {"cryptography"}


def test_replay_and_the_evidence_bundle_of_a_round_say_the_same_events_and_checkpoint(
        cli, sealed, tmp_path):
    """`ledger replay` said 127 events and checkpoint 14,103, the bundle of the same round 88
    events and checkpoint 8,163, and nothing said why: the bundle carries every event the
    replay used, counted and named as the replay names them, proven under the checkpoint the
    replay proved them under (the newest a trusted key signed), even once the ledger has
    sealed more after the round."""
    opened = cli("table", "open", "BAC-77", "--game", "baccarat", "--min", "100", "--max",
                 "50000")
    assert opened.code == 0, opened.err
    assert cli("seal", "run", "--once").code == 0  # a newer checkpoint than the round's first
    replayed = " ".join(cli("replay", "BAC-R1", "1").out.split())
    seal = re.search(r"seal: sealed under checkpoint ([\d,]+) events, .*?: all ([\d,]+) events "
                     r"of the round and its shoe proven", replayed)
    assert seal, replayed
    assert f"hash chain holds for all {seal[2]} events of the round and its shoe" in replayed
    out = tmp_path / "bundle.json"
    export = " ".join(cli("export", "round", "BAC-R1", "1", "--out", str(out)).out.split())
    said = re.search(rf"{seal[2]} events of the round and its shoe \(every event its replay "
                     rf"used\) and (\d+) events? of the exporter's key, proven under checkpoint "
                     rf"{seal[1]} events \(the newest a trusted key signed, as the replay says;",
                     export)
    assert said, export
    content = json.loads(out.read_text())["content"]
    assert content["checkpoint"]["statement"]["size"] == int(seal[1].replace(",", ""))
    assert len(content["events"]) == int(seal[2].replace(",", "")) + int(said[1])
    assert cli("verify-bundle", str(out)).code == 0
