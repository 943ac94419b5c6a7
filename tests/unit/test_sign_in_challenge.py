"""The sign-in's challenge (`ledger.identity.challenge`): issued with its own proof, accepted
once, only until it expires, and only by a server holding the secret it was made under."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ledger.core.errors import CredentialRefused
from ledger.identity.challenge import Challenges

NOW = 1_800_000_000.0  # money-safe: Unix seconds


def refusal(challenges: Challenges, nonce: object, now: float = NOW) -> str:  # money-safe
    with pytest.raises(CredentialRefused) as caught:
        challenges.redeem(nonce, now)
    return str(caught.value)


def test_a_challenge_is_accepted_once():
    challenges = Challenges(b"server secret", 120)
    issued = challenges.issue(NOW)
    assert issued.expires == datetime.fromtimestamp(NOW + 120, UTC)
    challenges.redeem(issued.nonce, NOW + 1)
    assert "was used already" in refusal(challenges, issued.nonce, NOW + 2)


def test_a_challenge_is_refused_once_it_has_expired():
    challenges = Challenges(b"server secret", 120)
    issued = challenges.issue(NOW)
    assert "expired 30 s ago" in refusal(challenges, issued.nonce, NOW + 150)


def test_a_challenge_another_server_made_or_one_changed_is_refused():
    ours, theirs = Challenges(b"server secret", 120), Challenges(b"another secret", 120)
    assert "not one this server issued" in refusal(ours, theirs.issue(NOW).nonce)
    expiry, _, rest = ours.issue(NOW).nonce.partition(".")
    assert "not one this server issued" in refusal(ours, f"{int(expiry) + 3600}.{rest}")
    for made_up in ("", None, 42, "x", "1.2.3", "１２.a.b"):
        assert "challenge" in refusal(ours, made_up)


def test_every_worker_holding_the_secret_checks_the_others_challenges():
    """Nothing is stored to issue one: a second worker with the same secret accepts it."""
    issued = Challenges(b"server secret", 120).issue(NOW)
    Challenges(b"server secret", 120).redeem(issued.nonce, NOW + 1)


def test_the_redeemed_are_forgotten_once_they_expire():
    challenges = Challenges(b"server secret", 120)
    for n in range(50):
        challenges.redeem(challenges.issue(NOW + n).nonce, NOW + n)
    challenges.redeem(challenges.issue(NOW + 1000).nonce, NOW + 1000)
    assert len(challenges._redeemed) == 1


def test_a_sign_in_dated_outside_the_window_is_refused():
    challenges = Challenges(b"server secret", 120)
    now = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
    challenges.check_time(now - timedelta(seconds=119), now)
    challenges.check_time(now + timedelta(seconds=119), now)
    for at in (now - timedelta(hours=30), now - timedelta(seconds=121),
               now + timedelta(seconds=121)):
        with pytest.raises(CredentialRefused, match="more than 120 s from the server's clock"):
            challenges.check_time(at, now)
