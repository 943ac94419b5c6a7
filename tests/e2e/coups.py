"""A baccarat coup opened through the CLI as a floor opens one: the table, its shift, a dealer
signed in at a dealer terminal, a shoe shuffled, cut and burnt, the round opened and a banker
bet of MOP 1,000 on box 1; what a test then does to it is the test's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.domain.registry import TerminalKind
from tests.e2e.shifts import open_shift

Ok = Callable[..., str]


def opened_coup(cli: Any, as_staff: Any, game: str = "baccarat") -> tuple[Ok, dict[str, str]]:
    """BAC-01's first coup, open with its banker bet: `ok(*args, env=...)` runs a command that
    must succeed and gives its output; the dealer's environment to send as them."""
    dealer = as_staff("D-101", "dealer", terminal="BAC-01-DT", kind=TerminalKind.DEALER_TERMINAL)

    def ok(*args: str, env: dict[str, str] | None = None) -> str:
        done = cli(*args, extra_env=env)
        assert done.code == 0, done.err
        return str(done.out)

    ok("table", "open", "BAC-01", "--game", game, "--min", "100", "--max", "50000")
    open_shift(cli, "BAC-01")
    ok("table", "sign-in", "BAC-01", "D-101")
    ok("shoe", "shuffle", "BAC-01", env=dealer)
    ok("shoe", "cut", "BAC-01", "--by", "player P-3", "--at", "404")
    ok("shoe", "burn", "BAC-01", "--count", "8", env=dealer)
    ok("round", "open", "BAC-01", env=dealer)
    ok("round", "bet", "BAC-01", "1", "banker", "1000", "--player", "P-1", env=dealer)
    return ok, dealer
