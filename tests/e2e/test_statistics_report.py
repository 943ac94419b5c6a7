"""Accounting files the month's statistics and a regulator reads them: theoretical win from the
real handle and the exact edges, actual hold on the handle and on the drop, the previous
business year's beside them (COMAR 36.05.03.25(B)(2)). The CSV's figures are checked against sums over the events computed here, independently
of the projections; the page is checked as Chromium prints it; an investigation's finding,
recorded signed, is shown on the report of its period."""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from decimal import Decimal

import pytest

from ledger.core.formatting import PRACTICE_MARK
from ledger.games.registry import game
from ledger.games.rulesets import parse_settings
from ledger.presentation.csv_table import heading as csv_heading
from ledger.reports import statistics_files
from tests.e2e.browser import needs_chromium, printed_text
from tests.signing import clock_after

DAYS = ("2025-11-03", "2026-11-02", "2026-11-03")  # last year's day, then this month's two
THROUGH = "2026-11-03"
TABLES = 4  # one of each game


@pytest.fixture
def simulated_month(cli, as_admin, tmp_path):
    env = {**as_admin, "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys")}
    for seed, day in enumerate(DAYS, start=40):
        done = cli("simulate", "--tables", str(TABLES), "--rounds", "15", "--seed", str(seed),
                   "--day", day, "--irregularity-rate", "0",
                   extra_env={**env, **clock_after(day)})
        assert done.code == 0, done.err + done.out
    return env


def _csv_lines(text: str) -> tuple[dict[str, str], dict[tuple[str, str], dict[str, str]]]:
    marked, _, text = text.partition("\n")  # a practice ledger's file says so first
    assert marked == f"# {PRACTICE_MARK}", marked
    header, _, table = text.partition("\n\n")
    meta = dict(row for row in csv.reader(io.StringIO(header)))
    codes = {csv_heading(column): column for column in statistics_files.COLUMNS}  # headed in words, read by code
    rows = {(r["level"], r["name"]): r for r in (
        {codes.get(words, words): value for words, value in row.items()}
        for row in csv.DictReader(io.StringIO(table)))}
    return meta, rows


def _from_events(superuser, first: str, last: str) -> dict[str, dict[str, Decimal]]:
    """Each table's handle, actual win and theoretical win, and the floor's drop and
    accounting win, summed over the stored events of the period's rounds and shifts."""
    rounds: dict[object, dict] = {}
    figures: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    shifts: dict[object, dict] = {}
    for stream, kind, body in superuser.execute(
            "SELECT stream_id, event_type, body FROM ledger_event_log ORDER BY position"):
        if kind == "Round.Opened" and first <= (body.get("gaming_day") or "") <= last:
            settings = parse_settings(body["rule_set"], body["settings"])
            odds = {bet.spot: bet for bet in game(body["game"]).bet_odds(settings)}
            rounds[stream] = {"table": body["table"], "odds": odds}
        elif kind == "Round.BetSettled" and stream in rounds and body["bet"]["spot"] != "jackpot":
            bet, played = body["bet"], rounds[stream]
            stake = Decimal(bet["stake"])
            won = (stake - Decimal(bet["returned"]) - Decimal(bet["payout"])
                   + Decimal(bet["commission"]))
            line = figures[played["table"]]
            line["actual_win"] += won
            if bet["outcome"] != "returned":
                line["handle"] += stake
                line["theoretical_win"] += stake * played["odds"][bet["spot"]].edge
        elif kind == "Shift.Opened" and first <= body["gaming_day"] <= last:
            shifts[stream] = {"opening": Decimal(body["total"]), "slips": {}, "drop": None,
                              "closing": None}
        elif stream in shifts and kind in ("Shift.FillRecorded", "Shift.CreditRecorded"):
            sign = -1 if kind == "Shift.FillRecorded" else 1
            shifts[stream]["slips"][body["slip"]] = sign * Decimal(body["amount"])
        elif stream in shifts and kind == "Shift.SlipVoided":
            shifts[stream]["slips"].pop(body["slip"])
        elif stream in shifts and kind in ("Shift.DropEntered", "Shift.DropAdjusted"):
            shifts[stream]["drop"] = Decimal(body["cash"]) + Decimal(body["markers"])
        elif stream in shifts and kind == "Shift.Closed":
            shifts[stream]["closing"] = Decimal(body["total"])
    floor = figures["floor"]
    for table, line in list(figures.items()):
        if table != "floor":
            for key in ("handle", "actual_win", "theoretical_win"):
                floor[key] += line[key]
    for shift in shifts.values():
        if shift["drop"] is not None and shift["closing"] is not None:
            floor["drop"] += shift["drop"]
            floor["accounting_win"] += (shift["closing"] - shift["opening"]
                                        + sum(shift["slips"].values()) + shift["drop"])
    return figures


def test_the_months_statistics_equal_sums_over_the_events(cli, simulated_month, superuser,
                                                          tmp_path):
    done = cli("report", "statistics", "--period", "month", "--through", THROUGH,
               "--format", "csv", "--output", str(tmp_path))
    assert done.code == 0, done.err + done.out
    meta, rows = _csv_lines((tmp_path / f"statistics-month-{THROUGH}.csv").read_text())
    assert meta["report"] == "Table games statistics, month to date"
    assert meta["period"] == f"gaming days 2026-11-01 to {THROUGH}"
    assert meta["base period"] == ("the previous business year, gaming days 2025-01-01 to "
                                   "2025-12-31")
    assert meta["rounding"] == ("each line is rounded to the avo once, from exact amounts: "
                                "lines may differ from the sum of the lines above by an avo")
    assert meta["generated"].endswith("Macau time") and meta["software"].startswith("round-ledger")
    expected = _from_events(superuser, "2026-11-01", THROUGH)
    tables = {name for level, name in rows if level == "table"}
    assert len(tables) == TABLES and tables == set(expected) - {"floor"}
    for name in [*tables, "floor"]:
        row, sums = rows[("floor", "floor") if name == "floor" else ("table", name)], expected[name]
        assert Decimal(row["handle"]) == sums["handle"] > 0, name
        assert Decimal(row["actual_win"]) == sums["actual_win"], name
        assert Decimal(row["theoretical_win"]) == sums["theoretical_win"].quantize(
            Decimal("0.01")), name
        low, high = Decimal(row["band_low"]), Decimal(row["band_high"])
        assert low < Decimal(row["theoretical_win"]) < high, name
    floor = rows[("floor", "floor")]
    assert Decimal(floor["drop"]) == expected["floor"]["drop"] > 0
    assert Decimal(floor["accounting_win"]) == expected["floor"]["accounting_win"]
    assert Decimal(floor["win_to_drop_pct"]) == (
        expected["floor"]["accounting_win"] / expected["floor"]["drop"] * 100).quantize(
        Decimal("0.01"))
    last_year = _from_events(superuser, "2025-01-01", "2025-12-31")["floor"]
    assert Decimal(floor["base_handle"]) == last_year["handle"] > 0
    assert Decimal(floor["base_drop"]) == last_year["drop"]
    assert Decimal(floor["change_pct"]) == (Decimal(floor["win_to_drop_pct"])
                                            - Decimal(floor["base_win_to_drop_pct"]))
    assert Decimal(floor["change_low"]) < Decimal(floor["change_pct"]) < Decimal(
        floor["change_high"])
    # every game and the pit have their line, adding up to the floor's handle
    games = [r for (level, _), r in rows.items() if level == "game"]
    assert len(games) == 4
    assert sum(Decimal(r["handle"]) for r in games) == Decimal(floor["handle"])
    assert any(level == "dealer" for level, _ in rows)
    # the hold report's month is the statistics' month, game by game, with its band on the handle
    held = cli("report", "hold", "--through", THROUGH, "--json")
    assert held.code == 0, held.err + held.out
    month = {line["said"]: line for line in json.loads(held.out)["lines"]
             if line["period"] == "month" and line["level"] == "game"}
    for (level, name), row in rows.items():
        if level == "game":
            assert Decimal(month[name]["handle"]) == Decimal(row["handle"]), name
            assert month[name]["actual_hold_pct"] == row["actual_hold_pct"], name
            assert Decimal(month[name]["hold_low_pct"]) == (
                Decimal(row["band_low"]) / Decimal(row["handle"]) * 100).quantize(
                Decimal("0.01")), name


@needs_chromium
def test_the_statistics_report_prints_whole_with_its_header_and_investigations(
        cli, simulated_month, tmp_path):
    noted = cli("report", "investigate", "table BAC-01", "--from", "2026-11-02",
                "--to", "2026-11-02", "--subject", "win outside its 95% band",
                "--finding", "surveillance reviewed the shoe; a dealer's payout error, retrained",
                extra_env=_as(simulated_month, "S-A", "PIT-A"))
    assert noted.code == 0, noted.err + noted.out
    done = cli("report", "statistics", "--period", "month", "--through", THROUGH,
               "--format", "html", "--format", "json", "--output", str(tmp_path),
               extra_env={"LEDGER_PROPERTY_NAME": "Casino Lisboa Test"})
    assert done.code == 0, done.err + done.out
    data = json.loads((tmp_path / f"statistics-month-{THROUGH}.json").read_text())
    [line] = [x for x in data["lines"] if (x["level"], x["name"]) == ("table", "BAC-01")]
    assert [n["finding"] for n in line["notes"]] == [
        "surveillance reviewed the shoe; a dealer's payout error, retrained"]
    flat = " ".join(printed_text(tmp_path, tmp_path / f"statistics-month-{THROUGH}.html").split())
    assert "Table games statistics, month to date" in flat and "Casino Lisboa Test" in flat
    assert f"gaming days 2026-11-01 to {THROUGH}" in flat
    assert "Macau time" in flat and "round-ledger" in flat
    for heading in ("theoretical win", "actual hold", "% variance", "projected variance",
                    "win-to-drop", "base drop", "change (interval)", "previous business year"):
        assert heading in flat, heading
    assert "a dealer's payout error, retrained" in flat
    assert ("Each line is rounded to the avo once, from exact amounts: lines may differ from the "
            "sum of the lines above by an avo." in flat)
    assert ("listed for investigation: the house rule, taken from Maryland's "
            "COMAR 36.05.03.25(B)(2)" in flat)
    assert "win-to-drop is compared with the previous business year, gaming days" in " ".join(
        done.out.split())
    for signer in ("Accounting", "Compliance", "Management"):
        assert f"{signer}: name, signature, date" in flat
    # a year to date reads the same events; a report of another month shows no note
    ytd = cli("report", "statistics", "--period", "ytd", "--through", THROUGH, "--json")
    assert ytd.code == 0 and json.loads(ytd.out)["first_day"] == "2026-01-01"
    other = cli("report", "statistics", "--period", "month", "--through", "2025-11-03", "--json")
    assert other.code == 0 and json.loads(other.out)["notes"] == []
    assert json.loads(other.out)["base"] is None  # the ledger's first month: nothing before it
    first = cli("report", "statistics", "--period", "month", "--through", "2025-11-03")
    assert ("win-to-drop is compared with nothing (the ledger's first month has no period "
            "before it)" in " ".join(first.out.split()))


def test_the_statistics_help_says_the_rule_is_the_houses_and_where_it_was_taken_from(cli):
    done = cli("report", "statistics", "--help")
    said = " ".join(done.out.split())
    assert "the house rule, taken from Maryland's COMAR 36.05.03.25(B)(2)" in said


def test_a_dealer_may_not_record_an_investigation(cli, simulated_month, superuser):
    refused = cli("report", "investigate", "floor", "--from", "2026-11-02", "--subject", "x y z",
                  "--finding", "nothing", extra_env=_as(simulated_month, "D-BAC-01-1", "PIT-A"))
    assert refused.code == 1
    assert "noting an investigation" in refused.err + refused.out
    assert superuser.execute("SELECT count(*) FROM ledger_event_log "
                             "WHERE event_type = 'Investigation.Noted'").fetchone()[0] == 0


def _as(env: dict[str, str], staff: str, terminal: str) -> dict[str, str]:
    """The environment of one of the simulated floor's staff at one of its devices."""
    keys = env["LEDGER_SIMULATOR_KEYS"]
    return {**env, "LEDGER_STAFF_CREDENTIAL": f"{keys}/staff-{staff}.key",
            "LEDGER_TERMINAL_CREDENTIAL": f"{keys}/terminal-{terminal}.key"}
