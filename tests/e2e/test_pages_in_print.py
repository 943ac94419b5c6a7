"""An auditor files the shift report and a replay on paper: each page, printed to PDF by a real
headless Chromium, carries its header (property, gaming day or round, generated at in Macau
time, software version), its totals and, for the shift report, the signature lines."""

from __future__ import annotations

import re

from tests.e2e.browser import needs_chromium, printed_pages, printed_text
from tests.integration import replay_rounds as rounds
from tests.signing import GAMING_DAY, open_ledger


@needs_chromium
def test_the_shift_report_prints_with_header_totals_and_signature_lines(cli, settings, tmp_path):
    with open_ledger(settings) as rt:
        rounds.baccarat_round(rt.ledger)
        rounds.stud_jackpot_round(rt.ledger)
    done = cli("report", "shift", "--day", GAMING_DAY.isoformat(), "--shift", "day",
               "--format", "html", "--output", str(tmp_path),
               extra_env={"LEDGER_PROPERTY_NAME": "Casino Lisboa Test"})
    assert done.code == 0, done.err
    [page] = tmp_path.glob("shift-*.html")
    text = printed_text(tmp_path, page)
    flat = " ".join(text.split())
    assert "Shift report" in flat and "Casino Lisboa Test" in flat
    assert re.search(r"generated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d Macau time", flat), flat[:600]
    assert "round-ledger" in flat and "ledger position" in flat
    assert "state the gaming day is open" in flat
    # the pit's subtotal and the floor's total carry the same handle as the summary
    assert "Handle MOP 5,000.00" in flat
    assert "pit MAIN 2 5,000.00" in flat and "floor 2 5,000.00" in flat
    assert "scale ±20,000.00" in flat and "-20,000.00" in flat and "20,000.00 ledger win" in flat
    assert "Reconciliation (MOP)" in flat
    for signer in ("Pit boss", "Count team", "Accounting"):
        assert f"{signer}: name, signature, date" in flat


@needs_chromium
def test_the_replay_prints_with_its_verdict_and_the_evidence_in_an_appendix(cli, settings,
                                                                           tmp_path):
    with open_ledger(settings) as rt:
        rounds.baccarat_round(rt.ledger)
    page = tmp_path / "replay.html"
    done = cli("replay", "BAC-01", "1", "--html", str(page), "--dispute", "D-2291")
    assert done.code == 0, done.err
    sheets = printed_pages(tmp_path, page)
    flat = " ".join(sheet.flat for sheet in sheets)
    assert "Replay of BAC-01 round 1" in flat and "D-2291" in flat
    assert "MATCH" in flat and "Macau time" in flat
    assert flat.index("Appendix: hash-chain evidence") > flat.index("Timeline")
    for number, sheet in enumerate(sheets, start=1):  # A4 portrait, each sheet numbered
        assert (round(sheet.width), round(sheet.height)) == (595, 842)
        assert f"page {number} of {len(sheets)}" in sheet.flat
        assert "Replay of BAC-01 round 1" in sheet.flat  # which replay a loose sheet is of


@needs_chromium
def test_the_gaming_day_report_prints_with_its_state_totals_and_signature_lines(cli, settings,
                                                                              tmp_path):
    with open_ledger(settings) as rt:
        rounds.baccarat_round(rt.ledger)
    done = cli("report", "day", "--day", GAMING_DAY.isoformat(), "--format", "html",
               "--output", str(tmp_path), extra_env={"LEDGER_PROPERTY_NAME": "Casino Lisboa Test"})
    assert done.code == 0, done.err
    [page] = tmp_path.glob("day-*.html")
    flat = " ".join(printed_text(tmp_path, page).split())
    assert f"Gaming day {GAMING_DAY}" in flat and "Casino Lisboa Test" in flat
    assert "the gaming day is open" in flat
    assert re.search(r"generated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d Macau time", flat), flat[:600]
    assert "Drop, win and hold (MOP)" in flat and "FLOOR" in flat
    assert "1 shift not counted yet" in flat  # the shift is open: said, not left blank
    for signer in ("Shift manager", "Count team", "Accounting"):
        assert f"{signer}: name, signature, date" in flat
