"""The sign-in page's own script (`ledger/web/static/sign-in.js`) run by Node against a real
`ledger serve`, with the page's data and a key file in place of the browser's form: it signs
for the ledger the page names, answers the page's challenge (or asks for a new one once that
has expired), and the server's answer is a session, once. The browser tests
(`test_floor_page.py`) run it in Chromium where Chromium is installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ledger.core import clock as ledger_clock
from tests.e2e.served import Served
from tests.signing import KEYRING, KEYS

NODE = shutil.which("node")
SCRIPT = Path(__file__).resolve().parents[2] / "ledger" / "web" / "static" / "sign-in.js"
HARNESS = """
const fs = require("fs");
const [base, keyFile, data] = [process.argv[1], process.argv[2], JSON.parse(process.argv[3])];
// the terminal keeps the ledger's time, as a floor terminal keeps the server's (NTP)
const shift = Date.parse(process.argv[5]) - Date.now(), RealDate = Date;
globalThis.Date = class extends RealDate {
  constructor(...given) { super(...(given.length ? given : [RealDate.now() + shift])); }
  static now() { return RealDate.now() + shift; }
};
let submit, cookie = null, next = null;
const file = { text: async () => fs.readFileSync(keyFile, "utf8") };
const form = { dataset: data, addEventListener: (kind, f) => { submit = f; },
               elements: { key: { files: [file] } } };
const said = { textContent: "" };
globalThis.document = { getElementById: (id) => (id === "sign-in" ? form : said) };
globalThis.window = { location: { assign: (url) => { next = url; } } };
const sent = fetch;
globalThis.fetch = async (path, options) => {
  const answer = await sent(base + path, options);
  cookie = answer.headers.get("set-cookie") || cookie;
  return answer;
};
eval(fs.readFileSync(process.argv[4], "utf8"));
submit({ preventDefault() {} }).then(() => {
  console.log(JSON.stringify({ said: said.textContent, next, cookie }));
});
"""
pytestmark = pytest.mark.skipif(NODE is None, reason="Node is not installed")


def page_data(served: Served) -> dict[str, str]:
    return dict(re.findall(r'data-(\w+)="([^"]*)"', served.get("/floor/sign-in").text))


def run(served: Served, staff_id: str, data: dict[str, str]) -> dict[str, str | None]:
    KEYRING.credential("staff", staff_id)
    done = subprocess.run([str(NODE), "-e", HARNESS, served.url,
                           str(KEYS / f"staff-{staff_id}.key"), json.dumps(data), str(SCRIPT),
                           ledger_clock.now().isoformat()],
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_pages_script_signs_in_for_this_ledger_answering_the_pages_challenge_once(
        served_floor: Served):
    data = page_data(served_floor)
    first = run(served_floor, "PB-E2E", data)
    assert first["said"] == "" and first["next"] == "/floor", first
    assert first["cookie"] and first["cookie"].startswith("ledger_session="), first
    again = run(served_floor, "PB-E2E", data)  # the same page's challenge, sent again
    assert again["next"] is None and "challenge was used already" in again["said"], again
    elsewhere = run(served_floor, "PB-E2E", {**page_data(served_floor),
                                             "ledger": "5f0e2c1d-another-ledger"})
    # the server completes the envelope with its own ledger's id: a signature over another's
    # does not verify
    assert "the staff signature of PB-E2E does not verify" in elsewhere["said"], elsewhere


def test_a_page_left_open_past_its_challenge_asks_for_a_new_one(served_floor: Served):
    data = {**page_data(served_floor), "expires": "2020-01-01T00:00:00+00:00"}
    signed_in = run(served_floor, "PB-E2E", data)
    assert signed_in["said"] == "" and signed_in["next"] == "/floor", signed_in
    assert run(served_floor, "PB-E2E", {**data, "expires": "2099-01-01T00:00:00+00:00"})[
        "said"] == ""  # the page's own challenge was never spent: it still serves once
