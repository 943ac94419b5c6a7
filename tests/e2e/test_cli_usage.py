"""A command typed wrong is refused as every other refusal is: one red line naming the command
and what was wrong, exit code 1, nothing recorded (Typer's own usage box exited 2)."""

from __future__ import annotations

import pytest

from tests.signing import event_count


@pytest.mark.parametrize(("args", "says"), [
    (("round", "show", "BAC-01", "three"), "ledger round show: invalid value for 'number'"),
    (("round", "bet", "BAC-01", "NaN", "banker", "100"), ("ledger round bet: invalid value for "
                                                         "'box'")),
    (("events", "tail", "--count", "0"), ("ledger events tail: invalid value for '-n' / "
                                         "'--count'")),
    (("table", "show"), "ledger table show: missing argument 'table'."),
    (("round", "show", "--bogus"), "ledger round show: no such option: --bogus"),
    (("nonsense",), "ledger: no such command 'nonsense'."),
])
def test_a_usage_error_is_one_red_line_with_exit_1_and_records_nothing(
        cli, superuser, args, says):
    before = event_count(superuser)
    result = cli(*args)
    assert result.code == 1, result
    line = result.err.strip()
    assert "\n" not in line and line.startswith("error: "), result.err
    assert says.lower() in line.lower(), line
    assert "--help` lists what it takes" in line
    assert event_count(superuser) == before


def test_version_is_printed_and_exits_0(cli):
    result = cli("--version")
    assert result.code == 0 and result.out.startswith("round-ledger "), result


def test_a_database_the_server_does_not_have_is_named_with_how_to_make_it(cli, database):
    """The README's demo URL names a database a fresh server does not have yet: one line that
    says which, and how to make it, not the driver's connection error."""
    result = cli("db", "status", url=database.with_dbname("ledger_not_made_yet").url)
    assert result.code == 1, result
    line = result.err.strip()
    assert "\n" not in line and line.startswith("error: the server at "), line
    assert line.endswith("has no database ledger_not_made_yet: make it (`createdb "
                         "ledger_not_made_yet`, or CREATE DATABASE as its owner), then run "
                         "again"), line
