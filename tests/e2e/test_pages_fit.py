"""The pages read whole, in a real headless Chromium. The shift report and the gaming-day report
of a busy floor, printed to PDF, are A4 landscape with every column of every table on the sheet,
each sheet saying which property, report and hours it belongs to and numbered "N of M"; opened
at 1280 px, no table runs off the right edge. On the live floor a closed table's text is as
legible as an open one's (WCAG AA), the table told apart otherwise than by fading it."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from ledger.commands.round import OpenRound, SettleRound
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import CloseTable
from tests.e2e.browser import (
    CONTRASTS,
    OVERFLOWING_TABLES,
    PrintedPage,
    headless_chromium,
    needs_chromium,
    printed_pages,
)
from tests.e2e.served import Served
from tests.integration import replay_rounds as rounds
from tests.integration.helpers import PIT_BOSS, open_shift, open_table
from tests.signing import GAMING_DAY, KEYS, clock_after, open_ledger

pytestmark = needs_chromium
PROPERTY = "Casino Lisboa Test"
DEMO_DAY = "2026-11-03"
PITS = ("MAIN", "VIP-EAST", "SALON-2")
TABLES = 14  # with a stud poker table: a reconciliation, a chart and lists over several sheets
COUP = [("player", "4H"), ("banker", "3C"), ("player", "KD"), ("banker", "3S"), ("player", "5D")]
A4_LANDSCAPE = (841.9, 595.3)  # points
SHIFT_HEADINGS = ("table game pit rounds handle opening closing fills credits drop ledger win "
                  "accounting win variance hold on drop % expected band review")
DAY_HEADINGS = ("tables rounds handle ledger win drop accounting win variance hold on drop % "
                "fills credits jackpot prizes flagged not counted")


@pytest.fixture
def busy_floor(cli, settings, tmp_path) -> Path:
    """Fourteen baccarat tables in three pits and two stud poker tables (one with a voided
    round), a coup each in the day shift; the shift report, the gaming-day report and the
    month's statistics written as HTML to a folder."""
    with open_ledger(settings) as rt:
        for index in range(TABLES):
            dealer = rounds.open_table(rt.ledger, f"BAC-{index + 1:02d}", "baccarat",
                                       settings={"decks": 8}, pit=PITS[index % len(PITS)])
            dealer.send(ShuffleShoe)
            dealer.send(CutShoe, cut_by="dealer", cut_card_position=404)
            dealer.send(BurnCards, count=8)
            dealer.send(OpenRound)
            dealer.bet(1, "player", f"{1000 + 250 * index}.00")
            dealer.bet(2, "banker", f"{2000 * (index % 5 + 1)}.00")
            dealer.bet(3, "tie", "100.00")
            dealer.deal(COUP)
            dealer.send(SettleRound)
        rounds.stud_jackpot_round(rt.ledger)
        rounds.stud_void_then_carried(rt.ledger)
    day = GAMING_DAY.isoformat()
    for report in (("shift", "--shift", "day", "--day", day), ("day", "--day", day),
                   ("statistics", "--through", day)):
        done = cli("report", *report, "--format", "html", "--output", str(tmp_path),
                   extra_env={"LEDGER_PROPERTY_NAME": PROPERTY})
        assert done.code == 0, done.err
    return tmp_path


def assert_landscape_numbered_and_headed(sheets: list[PrintedPage], *heads: str) -> None:
    assert len(sheets) >= 2, "the floor is busy enough for more than one sheet"
    for number, sheet in enumerate(sheets, start=1):
        assert (round(sheet.width), round(sheet.height)) == tuple(map(round, A4_LANDSCAPE)), \
            f"sheet {number} is {sheet.width} x {sheet.height} pt, not A4 landscape"
        assert f"page {number} of {len(sheets)}" in sheet.flat, sheet.flat[:400]
        for head in heads:
            assert head in sheet.flat, f"sheet {number} does not say {head!r}: {sheet.flat[:400]}"
        assert 0 <= sheet.leftmost and sheet.rightmost < sheet.width, \
            f"sheet {number} has text from {sheet.leftmost} to {sheet.rightmost} pt"


def assert_fits_printed_width(page: Path) -> None:
    """Laid out for print on the printable width of A4 landscape (297 mm less the margins),
    no table runs past the right margin."""
    with headless_chromium() as browser:
        tab = browser.new_page(viewport={"width": 1031, "height": 700})
        tab.emulate_media(media="print")
        tab.goto(page.as_uri())
        assert tab.evaluate(OVERFLOWING_TABLES) == []


def test_the_shift_report_prints_on_a4_landscape_every_column_on_the_sheet_each_sheet_headed(
        busy_floor):
    [page] = busy_floor.glob("shift-*-day.html")
    sheets = printed_pages(busy_floor, page)
    assert_landscape_numbered_and_headed(
        sheets, PROPERTY, f"Shift report, gaming day {GAMING_DAY}",
        "day shift 06:00–14:00 Macau time")
    rows = {}
    for sheet in sheets:
        for row in re.finditer(r"(BAC-\d\d) Baccarat (\S+) ((?:\S+ ){10})(\S+) (\S+ to \S+) "
                               r"(ok|flagged)", sheet.flat):
            rows[row[1]] = row
            # the sheet a table's line is on carries the table's headings, every one of them
            assert SHIFT_HEADINGS in sheet.flat, sheet.flat
    assert sorted(rows) == [f"BAC-{n + 1:02d}" for n in range(TABLES)], \
        "each table's line is printed whole, to its hold, band and review"
    assert {row[2] for row in rows.values()} == set(PITS)
    for heading in ("table jackpot bets to the pool prizes",
                    "table irregularities rounds void dealers"):
        assert any(heading in sheet.flat for sheet in sheets), heading
    assert_fits_printed_width(page)


def test_the_gaming_day_report_prints_on_a4_landscape_every_column_on_the_sheet_each_sheet_headed(
        busy_floor):
    [page] = busy_floor.glob("day-*.html")
    sheets = printed_pages(busy_floor, page)
    next_day = GAMING_DAY + timedelta(days=1)
    assert_landscape_numbered_and_headed(
        sheets, PROPERTY, f"Gaming day {GAMING_DAY}",
        f"06:00 on {GAMING_DAY} to 06:00 on {next_day}, Macau time")
    tables = {}
    for sheet in sheets:
        for row in re.finditer(r"(BAC-\d\d) 1 1 ((?:\S+ ){10})(1 shift)", sheet.flat):
            tables[row[1]] = row
            assert DAY_HEADINGS in sheet.flat, sheet.flat
    assert sorted(tables) == [f"BAC-{n + 1:02d}" for n in range(TABLES)], \
        "each table's line is printed whole, to what is not counted yet"
    assert_fits_printed_width(page)


def test_no_table_of_the_shift_day_or_statistics_report_runs_off_a_1280_pixel_screen(
        busy_floor):
    """Not past the window, nor past the box that would scroll it: every column is seen."""
    with headless_chromium() as browser:
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        for report in ("shift-*-day.html", "day-*.html", "statistics-month-*.html"):
            [page] = busy_floor.glob(report)
            tab.goto(page.as_uri())
            assert tab.locator("table").count() >= 1
            assert tab.evaluate(OVERFLOWING_TABLES) == [], page.name


@pytest.fixture
def demo_floor(cli, as_admin, tmp_path) -> Path:
    """The demo's floor and seed (twelve tables of four games, fifteen rounds each, a void,
    dealers `D-BAC-01-1`...): its shift report and month's statistics as HTML."""
    env = {**as_admin, "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys"), **clock_after(DEMO_DAY)}
    done = cli("simulate", "--tables", "12", "--rounds", "15", "--seed", "2", "--day", DEMO_DAY,
               "--irregularity-rate", "0.05", extra_env=env)
    assert done.code == 0, done.err + done.out
    for report in (("shift", "--day", DEMO_DAY, "--shift", "day"),
                   ("statistics", "--through", DEMO_DAY)):
        done = cli("report", *report, "--format", "html", "--output", str(tmp_path))
        assert done.code == 0, done.err
    return tmp_path


def test_the_demos_shift_report_and_statistics_show_every_column_and_break_no_code(demo_floor):
    """At 1280 px and on A4 landscape every column is seen, the last ones too (review; base,
    change), and no code or figure is set over two lines (`table F8-` / `01`)."""
    pages = [*demo_floor.glob("shift-*-day.html"), *demo_floor.glob("statistics-month-*.html")]
    assert len(pages) == 2
    with headless_chromium() as browser:
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        for page in pages:
            tab.goto(page.as_uri())
            assert tab.evaluate(OVERFLOWING_TABLES) == [], page.name
            broken = tab.evaluate("""() => [...document.querySelectorAll('.code, .fig')]
                .filter(e => e.getClientRects().length > 1).map(e => e.textContent)""")
            assert broken == [], (page.name, broken)
            assert tab.locator("table .code").count() > 0, page.name
    for page in pages:
        assert_fits_printed_width(page)


def test_a_closed_table_on_the_floor_is_told_apart_yet_its_text_keeps_aa_contrast(
        served_floor: Served, settings):
    with open_ledger(settings) as rt:
        for command in (open_table("BAC-01"), open_shift("BAC-01"), open_table("BAC-02"),
                        CloseTable(table="BAC-02", actor=PIT_BOSS, terminal="pit-1")):
            rt.ledger.execute(command)
    with headless_chromium() as browser:
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.goto(f"{served_floor.url}/floor")
        tab.set_input_files("input[name=key]", str(KEYS / f"staff-{PIT_BOSS.staff_id}.key"))
        tab.click("button[type=submit]")
        tab.wait_for_url("**/floor")
        closed, open_ = tab.locator("#table-BAC-02"), tab.locator("#table-BAC-01")
        assert "closed" in (closed.get_attribute("class") or "").split()
        texts = tab.evaluate(CONTRASTS, "#table-BAC-02")
        assert texts, "the closed table shows its code, game, limits and state"
        faint = [t for t in texts if t["ratio"] < 4.5]
        assert not faint, faint
        looks = """(e) => { const s = getComputedStyle(e);
            return [s.borderTopStyle, s.backgroundColor,
                    getComputedStyle(e.querySelector('h3'), '::after').content]; }"""
        closed_look, open_look = closed.evaluate(looks), open_.evaluate(looks)
        assert closed_look[:2] != open_look[:2], (closed_look, open_look)
        assert "closed" in closed_look[2] and "closed" not in open_look[2]
