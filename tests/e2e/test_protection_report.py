"""Surveillance reads the game-protection report of a gaming day on which an informed bettor
played: the flag says who, what was seen, its chance by luck alone and after the correction for
how many were tested, in the terminal, in JSON and on the printable page; a wrong period or day
is one line and exit 1."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest

from tests.e2e.coups import opened_coup
from tests.signing import clock_after

DAY = "2026-11-02"


@pytest.fixture
def informed_day(cli, as_admin, tmp_path):
    env = {**as_admin, "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys"), **clock_after(DAY)}
    done = cli("simulate", "--tables", "2", "--rounds", "120", "--seed", "7", "--day", DAY,
               "--bias", "BAC-01:informed-bettor:0.4", extra_env=env)
    assert done.code == 0, done.err + done.out
    return clock_after(DAY)


def test_the_informed_bettor_is_flagged_with_its_chance_and_the_tests_counted(cli, informed_day,
                                                                               tmp_path):
    done = cli("report", "protection", "--period", "day", "--day", DAY, "--json",
               extra_env=informed_day)
    assert done.code == 0, done.err
    report = json.loads(done.out)
    assert report["rounds"] == 240 and report["correction"].startswith("Holm")
    flags = {(f["signal"], f["subject"]) for f in report["flags"]}
    assert ("informed", "player INFORMED-BAC-01") in flags
    flag = next(f for f in report["flags"] if f["subject"] == "player INFORMED-BAC-01"
                and f["signal"] == "informed")
    assert flag["probability"] <= flag["adjusted"] <= 0.01
    assert sum(report["tested"].values()) == len(report["tests"]) > 10
    for period, rounds in (("shift", 240), ("month", 240)):
        done = cli("report", "protection", "--period", period, "--day", DAY, "--shift", "day",
                   "--json", extra_env=informed_day)
        assert done.code == 0, done.err
        assert json.loads(done.out)["rounds"] == rounds, period
    night = cli("report", "protection", "--period", "shift", "--day", DAY, "--shift",
                "graveyard", "--json", extra_env=informed_day)
    assert json.loads(night.out)["rounds"] == 0 and not json.loads(night.out)["flags"]

    shown = cli("report", "protection", "--period", "day", "--day", DAY, "--format", "html",
                "--output", str(tmp_path), extra_env=informed_day)
    assert shown.code == 0, shown.err
    assert "flag player INFORMED-BAC-01: stakes follow the coming cards" in shown.out
    page = (tmp_path / f"protection-day-{DAY}.html").read_text()
    assert "INFORMED-BAC-01: stakes follow the coming cards" in page
    assert "Holm" in page and "PRACTICE" in page


def test_the_floor_pages_alerts_name_the_informed_bettor(database, informed_day):
    """What the floor page shows beside the tables: the gaming day's flags, one line each."""
    from datetime import datetime

    from ledger.audit.protection.report import floor_alerts
    from ledger.core.formatting import MACAU
    from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule

    late = datetime.fromisoformat(f"{DAY}T23:00:00").replace(tzinfo=MACAU)
    with database.connect() as conn:
        alerts = floor_alerts(conn, ShiftSchedule.parse(DEFAULT_SCHEDULE), late)
    said = [a.text for a in alerts if a.subject == "player INFORMED-BAC-01"]
    assert said and "stakes follow the coming cards" in said[0] and "once in" in said[0]


def test_the_floor_page_says_the_days_protection_alerts_and_reads_them_at_most_every_five_minutes(
        database, informed_day, monkeypatch):
    """The floor view's alerts, as the page and GET /v1/alerts give them: the gaming day's
    flags in words with their chance; a read within five minutes of the ledger's clock shows
    what the last one said, a later one reads the rounds again."""
    from datetime import datetime, timedelta

    import ledger.web.protection_watch as watched
    from ledger.core.formatting import MACAU
    from ledger.domain.shift_schedule import DEFAULT_SCHEDULE, ShiftSchedule
    from ledger.web.floor import floor_view

    schedule, watch = ShiftSchedule.parse(DEFAULT_SCHEDULE), watched.ProtectionWatch()
    late = datetime.fromisoformat(f"{DAY}T23:00:00").replace(tzinfo=MACAU)
    with database.connect() as conn:
        view = floor_view(conn, schedule, late, protection=watch)
        said = [a for a in view.alerts if a.startswith("game protection: player INFORMED-BAC-01")]
        assert said and "stakes follow the coming cards" in said[0], view.alerts
        reads: list[datetime] = []
        original = watched.said
        monkeypatch.setattr(watched, "said", lambda c, s, now: reads.append(now) or original(
            c, s, now))
        assert floor_view(conn, schedule, late + timedelta(minutes=4),
                          protection=watch).alerts == view.alerts
        assert reads == []
        floor_view(conn, schedule, late + timedelta(minutes=6), protection=watch)
        assert reads == [late + timedelta(minutes=6)]
        assert not [a for a in floor_view(conn, schedule, late).alerts
                    if a.startswith("game protection")]  # no watch given: none read


HOUSE = re.compile(r"the house (won|lost) MOP ([\d,]+\.\d\d) at table (\S+) on ")


def test_a_tables_result_is_the_houses_ledger_win_and_rounds_are_said_as_the_shift_report_says(
        cli, informed_day):
    """The house's win at each table, as the protection report says it, is the shift report's
    ledger win for the table, sign and all; the rounds are said in the shift report's words."""
    assert cli("projections", "run", "--once", extra_env=informed_day).code == 0
    period = ("--day", DAY, "--shift", "day")
    shift = cli("report", "shift", *period, "--json", extra_env=informed_day)
    assert shift.code == 0, shift.err
    tables = {line["table"]: Decimal(line["ledger_win"])
              for line in json.loads(shift.out)["tables"]}
    done = cli("report", "protection", "--period", "shift", *period, "--json",
               extra_env=informed_day)
    said = {t["subject"]: t["seen"] for t in json.loads(done.out)["tests"]
            if t["signal"] == "result"}
    for table, ledger_win in tables.items():
        found = HOUSE.match(said[f"table {table}"])
        assert found and found[3] == table, said[f"table {table}"]
        figure = Decimal(found[2].replace(",", "")) * (1 if found[1] == "won" else -1)
        assert figure == ledger_win, (table, said[f"table {table}"])
    assert len(tables) == 2 and all(tables.values()), tables  # a sign to get wrong
    floor = json.loads(shift.out)["floor"]
    printed = cli("report", "protection", "--period", "shift", *period, extra_env=informed_day)
    rounds = f"{floor['rounds_played']:,} rounds played ({floor['rounds_voided']} void)"
    assert rounds in " ".join(printed.out.split()), printed.out


@pytest.mark.parametrize(("args", "says"), [
    (("--period", "week"), "--period takes shift, day or month, not 'week'"),
    (("--day", "2026-13-01"), "2026-13-01"),
    (("--format", "csv"), "--format takes json or html, not 'csv'"),
])
def test_a_wrong_period_day_or_format_is_one_line_and_exit_1(cli, args, says):
    done = cli("report", "protection", *args)
    assert done.code == 1, done
    line = done.err.strip()
    assert "\n" not in line and says.lower() in line.lower(), done.err


def test_a_void_after_the_cards_had_decided_the_coup_is_a_finding_naming_who_voided_it(
        cli, as_staff):
    """A supervisor voids a baccarat coup whose four cards already made the player's natural
    9: the void handed back a banker bet the cards had lost and a player bet they had won."""
    ok, dealer = opened_coup(cli, as_staff)
    ok("round", "bet", "BAC-01", "2", "player", "200", "--player", "P-2", env=dealer)
    for to, card in (("player", "9S"), ("banker", "2H"), ("player", "KD"), ("banker", "3C")):
        ok("round", "deal", "BAC-01", to, card, env=dealer)
    ok("round", "void", "BAC-01", "--reason", "dispute")

    report = json.loads(ok("report", "protection", "--period", "day", "--json"))
    (finding,) = report["findings"]
    assert finding["round"] == "BAC-01 round 1" and finding["voided_by"] == "PB-E2E"
    assert (finding["lost"], finding["lost_stakes"], finding["won"], finding["won_stakes"]) == (
        1, "1000.00", 1, "200.00")
    printed = ok("report", "protection", "--period", "day")
    assert ("BAC-01 round 1 was voided by PB-E2E (dispute; dealer D-101) after its cards had "
            "lost 1 bet (MOP 1,000.00) and won 1 bet (MOP 200.00): the void returned them"
            in " ".join(printed.split()))


def test_the_protection_reports_help_offers_only_the_formats_it_writes(cli):
    """Its help listed csv and then the command refused csv: it offers json and html, and csv
    is refused by the option itself, naming what it takes."""
    shown = cli("report", "protection", "--help", extra_env={"COLUMNS": "200"})
    assert "json|html" in shown.out and "csv" not in shown.out, shown.out
    refused = cli("report", "protection", "--format", "csv")
    assert refused.code == 1
    assert refused.err.strip() == ("error: ledger report protection: --format takes json or "
                                   "html, not 'csv'."), refused.err
