"""The live floor in a real headless Chromium (Debian's, driven by Playwright): a pit boss signs
in with their key file, and what terminals send through the API appears on the open page without
a reload: a coup's result, the baccarat roads growing, a void raising an alert."""

from __future__ import annotations

import json
import os
import time
from decimal import Decimal
from pathlib import Path

import pytest

from ledger.commands.round import (
    DealCard,
    OpenRound,
    PlaceBet,
    RecordIrregularity,
    SettleRound,
    VoidRound,
)
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.commands.table import CloseTable, SignInDealer
from ledger.domain.base import Role
from tests.e2e.browser import headless_chromium, needs_chromium
from tests.e2e.served import Served
from tests.e2e.test_wording_scan import sign_in
from tests.integration.helpers import DEALER, PIT_BOSS, open_shift, open_table
from tests.signing import KEYS, open_ledger

pytestmark = needs_chromium
SCREENSHOTS = os.environ.get("LEDGER_SCREENSHOTS")  # a folder: the README's pictures are made so
LIVE_SECONDS = 10_000  # milliseconds Playwright waits for the page to change by itself


@pytest.fixture
def table_ready(settings):
    """BAC-01 open, its shift open, a dealer in and a shoe shuffled, cut and burned; a dealer and
    surveillance officer enrolled."""
    with open_ledger(settings) as rt:
        ledger = rt.ledger
        ledger.admin.ensure_staff("SV-1", "SV-1", [Role.SURVEILLANCE])
        for command in (open_table("BAC-01"), open_shift("BAC-01"),
                        SignInDealer(table="BAC-01", dealer_id=DEALER.staff_id, actor=PIT_BOSS,
                                     terminal="pit-1")):
            ledger.execute(command)
        where = {"table": "BAC-01", "actor": DEALER, "terminal": "BAC-01-DT"}
        for command in (ShuffleShoe(**where), CutShoe(**where, cut_by="dealer",
                                                      cut_card_position=404),
                        BurnCards(**where, count=8)):
            ledger.execute(command)
        yield ledger


def coup(ledger, cards: list[tuple[str, str]]) -> str:
    """One baccarat coup, as a dealer terminal sends it: one ordered batch."""
    where = {"table": "BAC-01", "actor": DEALER, "terminal": "BAC-01-DT"}
    commands = [OpenRound(**where),
                PlaceBet(**where, box=1, spot="player", amount=Decimal("1000.00")),
                PlaceBet(**where, box=2, spot="banker", amount=Decimal("2000.00")),
                *(DealCard(**where, to=to, card=card) for to, card in cards),
                SettleRound(**where)]
    return json.dumps([ledger.sign(c).model_dump(mode="json") for c in commands])


PLAYER_NATURAL = [("player", "9H"), ("banker", "3C"), ("player", "KD"), ("banker", "3S")]
BANKER_NATURAL = [("player", "2H"), ("banker", "8C"), ("player", "3D"), ("banker", "KS")]


@pytest.fixture
def browser():
    with headless_chromium() as chromium:
        yield chromium


def signed_in(browser, served: Served, staff_id: str):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{served.url}/floor")
    assert page.url.endswith("/floor/sign-in")  # not signed in: sent to sign in
    page.set_input_files("input[name=key]", str(KEYS / f"staff-{staff_id}.key"))
    page.click("button[type=submit]")
    return page


def shot(page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / name), full_page=True)


def test_the_floor_shows_each_coup_moments_after_it_is_sent_and_a_void_as_an_alert(
        served_floor: Served, table_ready, browser):
    page = signed_in(browser, served_floor, PIT_BOSS.staff_id)
    page.wait_for_url("**/floor")
    table = page.locator("#table-BAC-01")
    assert "signed in: PB-7 (pit boss)" in page.text_content("header")
    assert table.locator(".road.bead span.player, .road.bead span.banker").count() == 0
    page.wait_for_timeout(500)  # the page's event stream is connected
    sent = time.monotonic()
    answer = served_floor.post("/v1/commands", coup(table_ready, PLAYER_NATURAL))
    assert answer.status_code == 201, answer.text
    page.locator("#table-BAC-01 .road.bead span.player").wait_for(timeout=LIVE_SECONDS)
    print(f"event to screen: {time.monotonic() - sent:.3f} s")
    assert served_floor.post("/v1/commands", coup(table_ready, BANKER_NATURAL)).status_code == 201
    page.locator("#table-BAC-01 .road.bead span.banker").wait_for(timeout=LIVE_SECONDS)
    assert page.locator("#table-BAC-01 .road.big span.banker, "
                        "#table-BAC-01 .road.big span.player").count() == 2  # the road grew
    won = page.text_content("#table-BAC-01 .shift-win")
    # coup 1: player 1,000 paid, banker 2,000 lost (+1,000); coup 2: player 1,000 lost, banker
    # 2,000 paid 1,900 after commission (-900)
    assert won.startswith("win MOP 100.00 on a handle of 6,000.00, expected "), won
    where = {"table": "BAC-01", "actor": DEALER, "terminal": "BAC-01-DT"}
    table_ready.execute(OpenRound(**where))
    table_ready.execute(VoidRound(table="BAC-01", reason="wrong_count", actor=PIT_BOSS,
                                  terminal="pit-1"))
    alert = page.locator("#alerts li", has_text="round 3 voided")
    alert.wait_for(timeout=LIVE_SECONDS)
    assert "BAC-01" in alert.text_content()
    assert page.url.endswith("/floor")  # all of it without a reload
    shot(page, "floor.png")


def test_the_alerts_say_what_happened_this_shift_and_a_closed_table_its_last_round(
        served_floor: Served, table_ready, browser):
    """Each irregularity with its table, round and dealer, each void with its reason, under the
    shift they happened in; a closed table's bets and cards said to be its last round's."""
    assert served_floor.post("/v1/commands", coup(table_ready, PLAYER_NATURAL)).status_code == 201
    page = signed_in(browser, served_floor, PIT_BOSS.staff_id)
    page.wait_for_url("**/floor")
    page.wait_for_timeout(500)  # the page's event stream is connected
    where = {"table": "BAC-01", "actor": DEALER, "terminal": "BAC-01-DT"}
    table_ready.execute(OpenRound(**where))
    table_ready.execute(RecordIrregularity(**where, kind="card_face_up",
                                           note="the burn card turned over"))
    table_ready.execute(VoidRound(table="BAC-01", reason="wrong_count", actor=PIT_BOSS,
                                  terminal="pit-1"))
    table_ready.execute(OpenRound(**where))
    table_ready.execute(PlaceBet(**where, box=4, spot="banker", amount=Decimal("700.00")))
    for to, card in BANKER_NATURAL:
        table_ready.execute(DealCard(**where, to=to, card=card))
    table_ready.execute(SettleRound(**where))
    table_ready.execute(CloseTable(table="BAC-01", actor=PIT_BOSS, terminal="pit-1"))
    page.locator("#table-BAC-01.closed").wait_for(timeout=LIVE_SECONDS)
    alerts = page.locator("#alerts")
    alerts.locator("li", has_text="voided").wait_for(timeout=LIVE_SECONDS)
    said = " ".join(alerts.inner_text().split())
    shift = page.text_content("#table-BAC-01 dd.shift-win")
    assert "alerts: the day shift of " in said.lower(), said
    assert ("BAC-01: round 2, dealer D-101: card face up (the burn card turned over), "
            in said), said
    assert "BAC-01: round 2 voided: wrong count" in said, said
    assert "irregularit" not in said  # what happened, not a count of it
    closed = " ".join(page.inner_text("#table-BAC-01").split())
    assert "round table closed; its last round 3: settled" in closed, closed
    assert "the last round, 3 (settled): bets box 4 banker 700.00 cards " in closed, closed
    assert shift.startswith("win MOP"), shift
    shot(page, "floor-closed.png")
    token = sign_in(served_floor, PIT_BOSS.staff_id, "FLOOR-1")
    answer = served_floor.get("/v1/alerts", token=token).json()  # the same words, for programs
    in_force = answer["shift"] == "day"  # the table plays the day shift; the clock may be past it
    assert answer["figures_of"] == ("" if in_force else
                                    f"no round recorded in the {answer['shift']} shift yet; "
                                    f"figures of the day shift of {answer['gaming_day']}")
    [table] = answer["tables"]
    assert table["table"] == "BAC-01" and "round 2 voided: wrong count" in table["alerts"]
    assert any(line.startswith("round 2, dealer D-101: card face up") for line in table["alerts"])


def test_a_dealer_cannot_sign_in_to_the_floor_and_surveillance_opens_a_replay_from_it(
        served_floor: Served, table_ready, browser):
    served_floor.post("/v1/commands", coup(table_ready, PLAYER_NATURAL))
    page = signed_in(browser, served_floor, DEALER.staff_id)
    page.locator("#said", has_text="reads nothing of the ledger").wait_for(timeout=LIVE_SECONDS)
    assert page.url.endswith("/floor/sign-in")
    watching = signed_in(browser, served_floor, "SV-1")
    watching.wait_for_url("**/floor")
    watching.click("#table-BAC-01 h3 a")
    watching.wait_for_url("**/floor/tables/BAC-01")
    watching.click("text=replay")
    watching.wait_for_url("**/rounds/1/replay")
    assert "MATCH" in watching.text_content("body")
    report = watching.goto(f"{served_floor.url}/floor/reports/day/2026-01-01")
    assert report.status == 403 and "may not read them" in watching.text_content("body")


def test_the_api_documentation_draws_the_schema_from_the_server_alone(
        served: Served, browser):
    """/docs is Swagger UI on the API's own schema, its script and style served by the ledger:
    a floor network with no way out still shows it, and nothing is fetched from a CDN."""
    page = browser.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(f"{served.url}/docs")
    page.locator(".opblock-summary-path", has_text="/v1/commands").first.wait_for(
        timeout=LIVE_SECONDS)
    assert "Round ledger" in page.text_content("body")
    assert page.locator(".opblock-summary-path", has_text="/v1/sessions").count() >= 1
    outside = [url for url in asked if not url.startswith(served.url)]
    assert not outside, outside
    assert f"{served.url}/static/swagger/swagger-ui-bundle.js" in asked
