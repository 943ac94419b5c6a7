"""Surveillance matches the ledger against CCTV on Macau clocks: every time the CLI shows is
Macau time to the second, labelled, whatever zone the server or the terminal keeps; money reads
`MOP 1,000.00` in sentences and under a `(MOP)` heading in tables."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from ledger.core import clock as ledger_clock
from ledger.core.formatting import MACAU
from tests.e2e.shifts import open_shift


def ok(cli, *args: str, env: dict[str, str] | None = None) -> str:
    result = cli(*args, extra_env=env)
    assert result.code == 0, result.err
    return result.out


def _shown_times(text: str) -> list[datetime]:
    return [datetime.strptime(found, "%Y-%m-%d %H:%M:%S").replace(tzinfo=MACAU)
            for found in re.findall(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) Macau time", text)]


def test_events_recorded_through_the_cli_are_shown_in_macau_time_not_the_servers_utc(
        cli):
    before = ledger_clock.now().astimezone(MACAU).replace(microsecond=0)
    ok(cli, "table", "open", "BAC-07", "--game", "baccarat", "--min", "100", "--max", "50000")
    after = ledger_clock.now().astimezone(MACAU) + timedelta(seconds=1)
    shown = ok(cli, "events", "show", "BAC-07", env={"PGTZ": "UTC"})  # the server's zone
    times = _shown_times(shown)
    assert times, shown
    assert all(before - timedelta(seconds=1) <= moment <= after for moment in times), shown
    assert "+00:00" not in shown and "UTC" not in shown


def test_round_show_and_jackpot_figures_read_mop_with_thousands(cli):
    ok(cli, "table", "open", "BAC-08", "--game", "baccarat", "--min", "100", "--max", "50000")
    listing = ok(cli, "table", "list")
    assert "limits (MOP)" in listing and "100.00-50,000.00" in listing, listing
    open_shift(cli, "BAC-08")
    ok(cli, "table", "sign-in", "BAC-08", "D-101")
    ok(cli, "shoe", "shuffle", "BAC-08")
    ok(cli, "shoe", "cut", "BAC-08", "--by", "player P-3", "--at", "404")
    ok(cli, "shoe", "burn", "BAC-08", "--count", "8")
    ok(cli, "round", "open", "BAC-08")
    ok(cli, "round", "bet", "BAC-08", "1", "banker", "12000", "--player", "P-1")
    refused = cli("round", "bet", "BAC-08", "2", "player", "60000")
    assert refused.code == 1
    assert "MOP 60,000.00 is above the table maximum MOP 50,000.00." in refused.err
    shown = ok(cli, "round", "show", "BAC-08")
    assert "stake (MOP)" in shown and "12,000.00" in shown, shown


def test_events_tail_shows_every_time_in_one_format_macau_time_labelled_never_z_or_an_offset(
        cli):
    """A signed command's own time (`at`, as its terminal wrote it, in any zone) is shown as
    the header's recording time is: `2026-11-29 14:32:34 Macau time`."""
    ok(cli, "table", "open", "BAC-09", "--game", "baccarat", "--min", "100", "--max", "50000")
    for columns in ("80", "120"):
        shown = ok(cli, "events", "tail", "-n", "5", env={"PGTZ": "UTC", "COLUMNS": columns})
        flat = " ".join(shown.split())
        assert not re.search(r"\d\d:\d\d(:\d\d)?(\.\d+)?(Z|[+-]\d\d:\d\d)", flat), shown
        assert not re.search(r"\d{4}-\d\d-\d\dT\d\d", flat), shown
        assert "at: " in flat and re.search(r"at: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d Macau time",
                                              flat), shown
