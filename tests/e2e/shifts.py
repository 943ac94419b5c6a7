"""The shift a CLI test opens before its first round: nothing is played outside the books."""

from __future__ import annotations

from typing import Any

from tests.signing import key_file


def open_shift(cli: Any, table: str, dealer: str = "D-101") -> None:
    """Today's day shift at `table`, its opening count signed by `dealer` and supervisor S-1."""
    opened = cli("shift", "open", table, "--chips", "1000=50,100=40", "--dealer", dealer,
                 "--supervisor", "S-1", "--cosigner", key_file("S-1"))
    assert opened.code == 0, opened.err
