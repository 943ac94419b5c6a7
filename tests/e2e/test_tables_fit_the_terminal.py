"""Every table of money or counts, at any terminal width, shows each figure whole: never cut,
never ellipsised, never broken over lines. Columns the terminal cannot hold are left out by the
table's own ranking and named under it; `--wide` shows them all; `--json` is unchanged.

A shift of four tables (one of each game) is simulated once for the module; each command is
run in the test's process at 80 and 120 columns and its text held against its own JSON."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

import pytest

from ledger.core.formatting import amount
from ledger.presentation.wording import line_name
from tests.signing import clock_after

DAY = "2026-11-02"
AMOUNT = re.compile(r"(?<![\d,.])-?\d{1,3}(?:,\d{3})*\.\d{2}(?![\d,])")
"""A figure as the terminal prints money (`-1,250,712.00`), whole: not part of a longer one."""
AS_JSON = re.compile(r"^-?\d+\.\d{2}$")


@pytest.fixture
def played(cli, as_admin, tmp_path) -> Any:
    env = {**as_admin, "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys"), **clock_after(DAY)}
    done = cli("simulate", "--tables", "4", "--rounds", "12", "--seed", "7", "--day", DAY,
               "--shift", "day", "--irregularity-rate", "0", extra_env=env)
    assert done.code == 0, done.err + done.out

    def run(*args: str, columns: int) -> Any:
        return cli(*args, extra_env={**env, "COLUMNS": str(columns)})

    return run


def _amounts(data: Any) -> set[str]:
    """Every exact decimal of two places in a command's JSON, as the terminal prints it."""
    found: set[str] = set()
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending += item.values()
        elif isinstance(item, list):
            pending += item
        elif isinstance(item, str) and AS_JSON.match(item):
            found.add(amount(Decimal(item)))
    return found


def _json(result: Any) -> Any:
    assert result.code == 0, result.err
    return json.loads(result.out)


REPORTS = {
    "shift report": ("report", "shift", "--day", DAY, "--shift", "day"),
    "gaming day": ("report", "day", "--day", DAY),
    "month to date": ("report", "month", "--through", DAY),
    "statistics": ("report", "statistics", "--period", "day", "--through", DAY),
    "recall": ("recall", "BAC-01", "--last", "5"),
    "replay": ("replay", "BAC-01", "3"),
    "round": ("round", "show", "BAC-01", "3"),
    "shift": ("shift", "show", "BAC-01", "--day", DAY, "--shift", "day"),
    "tables": ("table", "list"),
    "jackpot pools": ("jackpot", "list"),
    "projections": ("projections", "status"),
    "edges": ("edges", "--game", "baccarat"),
}


def test_every_amount_stays_whole_at_80_and_120_columns(played):
    for name, args in REPORTS.items():
        amounts = _amounts(_json(played(*args, "--json", columns=80)))
        for columns in (80, 120):
            result = played(*args, columns=columns)
            assert result.code == 0, (name, result.err)
            assert "…" not in result.out, (name, columns, result.out)
            printed = AMOUNT.findall(result.out)
            cut = [figure for figure in printed if figure not in amounts]
            assert not cut, (name, columns, cut, result.out)
            lines = result.out.splitlines()
            if name == "replay":  # its sentences (the shoe's proof, the seal) soft-wrap
                lines = [line for line in lines if line.startswith(("│", "┃", "┏", "┗", "┡"))]
            assert all(len(line) <= columns for line in lines), (name, columns, result.out)


def test_wide_shows_every_column_however_narrow_the_terminal(played):
    """At 80 columns, `--wide` prints every figure a terminal of 300 columns shows."""
    for name, args in REPORTS.items():
        whole = played(*args, columns=300)
        result = played(*args, "--wide", columns=80)
        assert result.code == 0, (name, result.err)
        assert "…" not in result.out and "left out" not in result.out, (name, result.out)
        assert "left out" not in whole.out, (name, whole.out)
        assert AMOUNT.findall(result.out) == AMOUNT.findall(whole.out), (name, result.out)


def test_a_column_left_out_is_named_with_what_shows_it(played):
    result = played("report", "statistics", "--period", "day", "--through", DAY, columns=80)
    said = " ".join(result.out.split())
    assert ("left out to fit 80 columns: band, hold on handle, drop, win-to-drop, base, "
            "change (interval), chance; "
            "`--wide` or `--json` shows them.") in said, result.out


def test_a_statistics_row_is_one_line_at_120_columns(played):
    data = _json(played("report", "statistics", "--period", "day", "--through", DAY, "--json",
                        columns=120))
    out = played("report", "statistics", "--period", "day", "--through", DAY, columns=120).out
    for line in data["lines"]:
        label = line_name(line["level"], line["name"])
        row = next((text for text in out.splitlines() if text.strip().startswith(label + " ")),
                   None)
        assert row is not None and amount(Decimal(line["handle"])) in row, (label, out)
        assert amount(Decimal(line["actual_win"])) in row, (label, out)


def test_the_shift_report_keeps_every_amount_at_80_and_leaves_out_rounds_first(played):
    args = ("report", "shift", "--day", DAY, "--shift", "day")
    data = _json(played(*args, "--json", columns=80))
    whole = played(*args, columns=80).out
    floor = next(line for line in whole.splitlines() if line.strip().startswith("FLOOR"))
    for figure in ("handle", "ledger_win", "accounting_win", "variance", "drop"):
        shown = str(data["floor"][figure])
        assert (amount(Decimal(shown)) if "." in shown else shown) in floor, (figure, whole)
    assert "left out" not in whole or "left out to fit 80 columns: rounds" in whole, whole
    narrow = played(*args, columns=60).out
    floor = next(line for line in narrow.splitlines() if line.strip().startswith("FLOOR"))
    for figure in ("ledger_win", "accounting_win", "variance"):
        assert amount(Decimal(data["floor"][figure])) in floor, (figure, narrow)
    assert "left out to fit 60 columns: rounds" in narrow, narrow


def _words(out: str) -> set[str]:
    """The words a terminal shows, rules and box lines aside, punctuation trimmed."""
    cleaned = re.sub(r"[│┃┏┓┗┛┡┩━─┼╇╋╭╮╰╯┬┴├┤┌┐└┘╞╡═╪]", " ", out)
    return {word.strip(",;:()") for word in cleaned.split()} - {""}


def test_recall_at_an_80_column_terminal_breaks_no_word_and_squeezes_no_column(played):
    """A round's status, hands and jackpot wrap at whole words in one column, its figures stand
    one under the other in another: every word at 80 columns is one a 300-column terminal
    shows whole, and each figure keeps its name beside it."""
    for table in ("BAC-01", "SP-01", "QP-01", "F8-01"):
        wide = played("recall", table, "--last", "5", columns=300)
        narrow = played("recall", table, "--last", "5", columns=80)
        assert narrow.code == 0 and wide.code == 0, (table, narrow.err, wide.err)
        assert "left out" not in narrow.out, narrow.out
        assert all(len(line) <= 80 for line in narrow.out.splitlines()), narrow.out
        broken = _words(narrow.out) - _words(wide.out)
        assert not broken, (table, broken, narrow.out)
        assert re.search(r"│ stakes +[\d,]+\.\d\d", narrow.out), narrow.out
        assert re.search(r"│ table win +-?[\d,]+\.\d\d", narrow.out), narrow.out
        assert AMOUNT.findall(narrow.out) != [], narrow.out
