"""`ledger report shift` as accounting runs it: the table printed, CSV, JSON and HTML written."""

from __future__ import annotations

import csv
import json
import re
from decimal import Decimal

from ledger.core import clock as ledger_clock
from ledger.core.formatting import PRACTICE_MARK
from ledger.presentation.csv_table import heading
from ledger.reports import period, shift
from tests.integration import replay_rounds as rounds
from tests.integration.test_shift_reconciliation import _shift_with
from tests.signing import GAMING_DAY, open_ledger


def _csv(path, columns):
    """The rows of an export, after the practice ledger's mark (its first line), each value
    under its column's code (the file heads them in words)."""
    first, *lines = path.read_text().splitlines(keepends=True)
    assert first == f"# {PRACTICE_MARK}\n"
    codes = {heading(column): column for column in ("level", *columns)}
    return [{codes[words]: value for words, value in row.items()}
            for row in csv.DictReader(lines)]


def test_the_shift_report_prints_and_writes_csv_json_and_html(cli, settings, tmp_path):
    _shift_with(settings, record_fill=True)
    result = cli("report", "shift", "--day", str(GAMING_DAY), "--shift", "day", "--format", "csv",
                 "--format", "json", "--format", "html", "--output", str(tmp_path))
    assert result.code == 0, result.err
    assert "BAC-R1" in result.out and "FLOOR" in result.out
    assert "the gaming day is open" in result.out  # the report says whether the day is locked
    rows = _csv(tmp_path / f"shift-{GAMING_DAY}-day.csv", shift.COLUMNS)
    floor = next(row for row in rows if row["level"] == "floor")
    assert (floor["ledger_win"], floor["accounting_win"], floor["variance"]) == (
        "50.00", "50.00", "0.00")
    data = json.loads((tmp_path / f"shift-{GAMING_DAY}-day.json").read_text())
    assert data["tables"][0]["hold_pct"] == "1.25"
    assert data["practice"] == PRACTICE_MARK  # a test's ledger is a practice one
    page = (tmp_path / f"shift-{GAMING_DAY}-day.html").read_text()
    assert page.startswith("<!doctype html>") and "<svg" in page and "BAC-R1" in page
    assert "http" not in page.split("<svg", 1)[0].replace('xmlns="http', "")  # self-contained


def test_report_shift_json_prints_the_report_to_standard_output_with_exact_amounts(
        cli, settings):
    _shift_with(settings, record_fill=True)
    result = cli("report", "shift", "--day", str(GAMING_DAY), "--shift", "day", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["floor"]["ledger_win"] == "50.00" and data["tables"][0]["table"] == "BAC-R1"


def test_report_shift_without_day_or_shift_reports_the_shift_now_running_in_macau(cli, settings):
    """As the `shift` commands do: the gaming day and shift the schedule puts now in."""
    before = settings.shift_schedule.locate(ledger_clock.now())
    result = cli("report", "shift")
    after = settings.shift_schedule.locate(ledger_clock.now())
    assert result.code == 1  # nothing recorded in this ledger: the one line names the slot
    assert result.err.strip() in {f"error: no {slot.shift} shift on {slot.gaming_day} is in "
                                  "the ledger: the ledger holds no shift yet."
                                  for slot in (before, after)}


def test_a_report_for_a_shift_that_does_not_exist_is_one_line_and_exit_1(cli):
    result = cli("report", "shift", "--day", str(GAMING_DAY), "--shift", "day")
    assert result.code == 1
    assert result.err.strip() == (f"error: no day shift on {GAMING_DAY} is in the ledger: the "
                                  "ledger holds no shift yet.")


def test_a_report_of_a_shift_not_held_says_which_days_and_shifts_the_ledger_holds(
        cli, settings):
    with open_ledger(settings) as rt:
        rounds.baccarat_round(rt.ledger)
    result = cli("report", "shift", "--day", "2025-01-01", "--shift", "swing")
    assert result.code == 1
    assert result.err.strip() == (f"error: no swing shift on 2025-01-01 is in the ledger: the "
                                  f"ledger holds shifts of gaming day {GAMING_DAY}, the last "
                                  "day's day.")
    day = cli("report", "day", "--day", "2027-01-01")
    assert day.code == 1 and day.err.strip().endswith(
        f"the ledger holds shifts of gaming day {GAMING_DAY}, the last day's day."), day.err



def test_a_table_piped_to_a_file_is_printed_whole_not_cut_at_80_columns(cli, settings):
    """Piped (no terminal, no COLUMNS), Rich squeezed every table into 80 columns: a hold of
    253.00 showed as '253.', headings broke over lines. Recall's table is wider than 80."""
    _shift_with(settings, record_fill=True)
    result = cli("recall", "BAC-R1", extra_env={"COLUMNS": None})
    assert result.code == 0, result.err
    assert "…" not in result.out, result.out
    heading = next(line for line in result.out.splitlines() if "round" in line and "status" in line)
    assert "table win" in heading and "commission" in heading, result.out


def test_the_gaming_day_report_adds_up_the_day_and_says_it_is_still_open(cli, settings, tmp_path):
    _shift_with(settings, record_fill=True)
    result = cli("report", "day", "--day", str(GAMING_DAY), "--format", "csv", "--format",
                 "html", "--output", str(tmp_path))
    assert result.code == 0, result.err
    assert "day shift" in result.out and "BAC-R1" in result.out and "FLOOR" in result.out
    assert "the gaming day is open" in result.out
    rows = _csv(tmp_path / f"day-{GAMING_DAY}.csv", period.COLUMNS)
    assert [(row["level"], row["name"]) for row in rows] == [
        ("shift", "day"), ("table", "BAC-R1"), ("game", "Baccarat"), ("pit", "MAIN"),
        ("floor", "floor")]
    floor = rows[-1]
    assert (floor["drop"], floor["accounting_win"], floor["hold_pct"]) == ("4000.00", "50.00", "1.25")
    page = (tmp_path / f"day-{GAMING_DAY}.html").read_text()
    assert "Gaming day" in page and "Shift manager: name, signature, date" in page


def test_the_month_to_date_prints_day_by_day_and_as_json_with_exact_amounts(cli, settings):
    _shift_with(settings, record_fill=True)
    result = cli("report", "month", "--through", str(GAMING_DAY), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert [line["name"] for line in data["by_day"]] == [str(GAMING_DAY)]
    assert (data["floor"]["drop"], data["floor"]["hold_pct"]) == ("4000.00", "1.25")
    assert data["state"] == "0 of 1 gaming day closed"
    shown = cli("report", "month", "--through", str(GAMING_DAY))
    assert shown.code == 0 and str(GAMING_DAY) in shown.out and "pit MAIN" in shown.out


SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def test_a_csv_is_headed_in_words_and_names_games_while_its_json_keeps_the_codes_beside_words(
        cli, settings, tmp_path):
    """A person opens the CSV in a spreadsheet: `hold (% of drop)`, not `hold_pct`; a game
    by its name, not `baccarat`. A machine reads the JSON: the codes, the words under `said`."""
    _shift_with(settings, record_fill=True)
    for command, name in ((("shift", "--day", str(GAMING_DAY), "--shift", "day"),
                           f"shift-{GAMING_DAY}-day"),
                          (("day", "--day", str(GAMING_DAY)), f"day-{GAMING_DAY}"),
                          (("hold", "--through", str(GAMING_DAY)), f"hold-{GAMING_DAY}")):
        done = cli("report", *command, "--format", "csv", "--format", "json", "--output",
                   str(tmp_path))
        assert done.code == 0, done.err
        (written,) = tmp_path.glob(f"{name.split('-')[0]}-*.csv")
        text = written.read_text()
        headings = next(row for row in csv.reader(text.splitlines()) if "level" in row)
        assert not [h for h in headings if SNAKE.search(h)], headings
        assert "baccarat" not in text and "Baccarat" in text, text
        written.unlink()
    shift_csv = (tmp_path / f"shift-{GAMING_DAY}-day.json").read_text()
    data = json.loads(shift_csv)
    assert (data["tables"][0]["game"], data["tables"][0]["said"]["game"]) == (
        "baccarat", "Baccarat")
    assert (data["by_game"][0]["name"], data["by_game"][0]["said"]) == ("baccarat", "Baccarat")
    held = json.loads((tmp_path / f"hold-{GAMING_DAY}.json").read_text())
    game_line = next(line for line in held["lines"] if line["level"] == "game")
    assert (game_line["name"], game_line["said"]) == ("baccarat", "Baccarat")


def test_the_hold_report_at_80_columns_leaves_out_columns_and_names_them_never_cuts_a_figure(
        cli, settings):
    """At 80 columns the hold report cut the handle and the game with an ellipsis (`173,40…`,
    `baccar…`) and named a game by its code: it leaves out the least needed columns instead,
    names them under the table, and names a game in words."""
    from ledger.core.formatting import amount

    _shift_with(settings, record_fill=True)
    narrow = cli("report", "hold", "--through", str(GAMING_DAY), extra_env={"COLUMNS": "80"})
    assert narrow.code == 0, narrow.err
    assert "…" not in narrow.out, narrow.out
    assert "left out to fit 80 columns: band of hold" in " ".join(narrow.out.split()), narrow.out
    assert "Baccarat" in narrow.out and "baccarat" not in narrow.out, narrow.out
    assert max(len(line) for line in narrow.out.splitlines()) <= 80, narrow.out
    held = json.loads(cli("report", "hold", "--through", str(GAMING_DAY), "--json").out)
    for line in held["lines"]:
        assert amount(Decimal(line["figures"]["handle"]) if "figures" in line
                      else Decimal(line["handle"])) in narrow.out, line
    wide = cli("report", "hold", "--through", str(GAMING_DAY), "--wide",
               extra_env={"COLUMNS": "80"})
    assert "band of hold" in wide.out and "left out" not in wide.out, wide.out
