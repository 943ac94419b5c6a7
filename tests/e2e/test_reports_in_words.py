"""What a newcomer reads on the demo's floor, said in words from one source on every surface:
games by their names, rule sets as "Stud Poker, 2004 rules", void reasons and irregularities in
words, counts in the singular or plural they need; money exact to the avo (a table and its only
dealer, the same rounds, show the same figures); each hold saying what it is on, beside the
figure it divides by; counts that agree (a demonstration coup said to be one)."""

from __future__ import annotations

import json
import re

import pytest

from tests.signing import clock_after

DAY = "2026-11-03"
GAME_CODES = ("baccarat", "fortune-8", "q-poker", "stud-poker")
RULE_SET_CODES = re.compile(r"\b(?:baccarat|fortune-8|q-poker|stud-poker)/\d{4}\b")


@pytest.fixture
def demo_floor(cli, as_admin, tmp_path):
    """The demo's floor and seed: twelve tables, fifteen rounds each, a shuffler failing, a
    demonstration coup at BAC-01; then its month's statistics as a page and as JSON."""
    env = {**as_admin, "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys"), **clock_after(DAY)}
    done = cli("simulate", "--tables", "12", "--rounds", "15", "--seed", "2", "--day", DAY,
               "--irregularity-rate", "0.05", extra_env=env)
    assert done.code == 0, done.err + done.out
    return env


def _statistics(cli, tmp_path) -> tuple[str, dict, str]:
    shown = cli("report", "statistics", "--through", DAY, "--format", "html", "--output",
                str(tmp_path))
    assert shown.code == 0, shown.err + shown.out
    data = cli("report", "statistics", "--through", DAY, "--json")
    assert data.code == 0, data.err
    page = (tmp_path / f"statistics-month-{DAY}.html").read_text()
    return shown.out, json.loads(data.out), page


def test_a_table_and_its_only_dealer_agree_to_the_avo(cli, demo_floor, tmp_path):
    out, data, page = _statistics(cli, tmp_path)
    lines = {(line["level"], line["name"]): line for line in data["lines"]}
    figures = ("bets", "handle", "theoretical_win", "actual_win", "band_low", "band_high",
               "projected_variance", "theoretical_hold_pct", "actual_hold_pct", "probability")
    tables = [name for level, name in lines if level == "table"]
    assert len(tables) == 12
    for table in tables:  # each table had one dealer all shift: D-<table>-1
        dealer = lines[("dealer", f"D-{table}-1")]
        assert {k: dealer[k] for k in figures} == {k: lines[("table", table)][k]
                                                   for k in figures}, table
    rows = {row.split()[1]: row.split()[2:] for row in out.splitlines()
            if row.strip().startswith(("table ", "dealer "))}
    for table in tables:  # in the terminal too: handle, theoretical, actual, band
        assert rows[table][:6] == rows[f"D-{table}-1"][:6], table


def test_the_statistics_name_each_game_by_its_name_on_every_surface(cli, demo_floor, tmp_path):
    out, data, page = _statistics(cli, tmp_path)
    for said in (out, page):
        for name in ("Baccarat", "Fortune 8", "Q Poker", "Stud Poker"):
            assert name in said
        for code in GAME_CODES:
            assert f"game {code}" not in said
    games = {line["name"]: line["said"] for line in data["lines"] if line["level"] == "game"}
    assert games == {"baccarat": "Baccarat", "fortune-8": "Fortune 8", "q-poker": "Q Poker",
                     "stud-poker": "Stud Poker"}  # the machine's code stays, the words beside


def test_each_hold_says_what_it_divides_and_shows_the_figure(cli, demo_floor, tmp_path):
    shift = cli("report", "shift", "--day", DAY, "--shift", "day", "--format", "html",
                "--output", str(tmp_path))
    assert shift.code == 0, shift.err + shift.out
    assert re.search(r"hold %\s*\n.*on drop", shift.out) and re.search(r"\bdrop\b", shift.out)
    assert "(MOP)" in shift.out  # the currency, once, in the title
    assert "hold%" not in shift.out
    [row] = [r for r in shift.out.splitlines() if r.strip().startswith("BAC-01")]
    cells = row.split()
    acct_win, drop, hold = (float(c.replace(",", "")) for c in (cells[4], cells[6], cells[7]))
    assert round(acct_win / drop * 100, 2) == hold  # the hold is of the drop shown beside it
    page = (tmp_path / f"shift-{DAY}-day.html").read_text()
    assert "hold on drop&nbsp;%" in page and "% of the drop" in page
    month = cli("report", "month", "--through", DAY)
    assert re.search(r"hold %\s*\n.*on drop", month.out) and "(MOP)" in month.out
    out, _, statistics_page = _statistics(cli, tmp_path)
    assert "hold on handle" in out and re.search(r"\bdrop\b.*win-to-drop", out)
    assert "% of the handle" in statistics_page and "% of the drop" in statistics_page


def test_the_table_list_and_round_show_say_a_demonstration_coup_is_one(cli, demo_floor):
    listed = cli("table", "list")
    [row] = [r for r in listed.out.splitlines() if "BAC-01" in r]
    assert "16 settled, 1 of them a demonstration coup" in row
    assert "2004 rules" in row and "baccarat/2004" not in listed.out
    shift = cli("report", "shift", "--day", DAY, "--shift", "day", "--table", "BAC-01")
    assert re.search(r"BAC-01\s+15\s", shift.out)  # the other 15: the shift's rounds
    [entry] = [t for t in json.loads(cli("table", "list", "--json").out) if t["code"] == "BAC-01"]
    assert entry["round_number"] == 16 and entry["demonstration_coups"] == 1
    assert (entry["rounds_settled"], entry["rounds_voided"]) == (16, 0)
    # a table with a voided round counts it apart from those settled
    [qp] = [r for r in listed.out.splitlines() if "QP-01" in r]
    assert "14 settled, 1 void" in qp, qp
    [voided] = [t for t in json.loads(cli("table", "list", "--json").out) if t["code"] == "QP-01"]
    assert (voided["round_number"], voided["rounds_settled"], voided["rounds_voided"]) == (15, 14, 1)
    assert voided["said"]["round"] == "14 settled, 1 void"
    assert entry["said"]["rule_set"] == "Baccarat, 2004 rules"
    shown = cli("round", "show", "BAC-01", "1")
    assert shown.code == 0, shown.err
    assert "Baccarat, 2004 rules" in shown.out and "baccarat/2004" not in shown.out
    assert "a demonstration coup (baccarat, art. 2(2))" in shown.out
    assert "bets" not in shown.out.split("result:")[1]  # no empty table of bets
    assert "BAC-01 round 2" in cli("round", "show", "BAC-01", "2").out  # a round is a round


def test_a_closed_tables_recall_says_it_is_closed_after_its_last_round(cli, demo_floor):
    recalled = cli("recall", "SP-02", "--last", "5")
    assert recalled.code == 0, recalled.err
    assert "SP-02: table closed after round 15." in recalled.out
    data = json.loads(cli("recall", "SP-02", "--last", "5", "--json").out)
    assert data["closed_after"] == 15 and len(data["rounds"]) == 5


def test_a_replay_says_its_game_rules_void_and_shoe_in_words(cli, demo_floor, tmp_path):
    voided = cli("replay", "QP-01", "9", "--html", str(tmp_path / "replay.html"))
    assert voided.code == 0, voided.err + voided.out
    page = (tmp_path / "replay.html").read_text()
    for said in (voided.out, page):
        assert "Q Poker, 2004 rules" in said
        assert not RULE_SET_CODES.search(said) and "q-poker under" not in said
        assert "(s)" not in said  # "1 deck", never "1 deck(s)"
    assert "round void: shuffler failure" in voided.out
    assert "shuffler_failure" not in voided.out
    assert "1 deck shuffled by shuffler" in voided.out
    assert "re-settled by the rules engine of Q Poker, 2004 rules" in voided.out



def test_the_floor_page_names_each_table_s_game_and_rules_in_words(demo_floor, settings):
    from datetime import datetime

    from ledger.core.formatting import MACAU
    from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
    from ledger.pages.floor import floor_page
    from ledger.web.floor import floor_view
    from projections.engine.runner import ProjectionRunner
    from projections.registry import select
    from tests.signing import open_ledger

    with open_ledger(settings) as rt:
        with ProjectionRunner(rt.database, select()) as runner:
            runner.catch_up()
        with rt.database.connect() as conn:
            view = floor_view(conn, ShiftSchedule.parse(DEFAULT_SCHEDULE),
                              now=datetime.fromisoformat(f"{DAY}T13:00:00").replace(tzinfo=MACAU))
    page = floor_page(view, "Test Casino", "S-FLOOR")
    for said in ("Baccarat · 2004 rules", "Stud Poker · 2004 rules", "Q Poker · 2004 rules",
                 "Fortune 8 · 2009 rules"):
        assert said in page
    assert not RULE_SET_CODES.search(page)
