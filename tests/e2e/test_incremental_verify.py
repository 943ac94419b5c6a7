"""`ledger verify` with the verifier's key checks only what came after the last verification
that held (its signed record, beside the trust file), and still names every insider's attack
made after it; `--full` checks everything again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_insider_forgeries import trust  # noqa: F401 - a fixture
from tests.signing import credential_env


@pytest.fixture
def verifier(cli, tmp_path) -> Path:
    key = tmp_path / "verifier.key"
    assert cli("key", "new", "verifier", "V-1", "--out", str(key)).code == 0
    return key


def verified(cli, trust_file: Path, key: Path, *more: str):
    return cli("verify", "--trust", str(trust_file), "--key", str(key), *more)


def play(cli, keys: Path, rounds: int = 2, seed: int = 5) -> None:
    """A floor of two tables (baccarat and Stud Poker, its pool), then the seal."""
    env = {**credential_env(), "LEDGER_SIMULATOR_KEYS": str(keys)}
    done = cli("simulate", "--tables", "2", "--rounds", str(rounds), "--seed", str(seed),
               "--games", "baccarat,stud-poker", extra_env=env)
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
    full = verified(cli, trust, verifier, "--full")
    assert full.code == 0, full.out
    assert "since the last verification" not in full.out
    print(first.out, second.out, full.out)
