"""The pictures in docs/, made by the code they show: a seeded practice demo floor is played on
a database of its own at a fixed moment (`ledger demo --seed 2` under `LEDGER_CLOCK_AT`), served
by `ledger serve` as the floor desk, and each page is opened in headless Chromium (Debian's
/usr/bin/chromium, driven by Playwright) and photographed as a person sees it.

Beside the pictures, docs/screenshots.json keeps a digest of each picture's page templates
(the template and every one it extends or includes): `tests/unit/test_docs.py` fails when a
template changed after its picture was taken, and says to run scripts/screenshots.

    scripts/screenshots                       # an embedded PostgreSQL in a folder of its own
    LEDGER_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/shots scripts/screenshots

With LEDGER_DATABASE_URL, the database it names must be new and empty: the demo plays on it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
TEMPLATES = ROOT / "ledger" / "pages" / "templates"
RECORD = DOCS / "screenshots.json"
LEDGER = str(Path(sys.executable).with_name("ledger"))
CHROMIUM = "/usr/bin/chromium"
CLOCK_AT = "2026-11-27T13:40:00+08:00"  # the demo's day shift, six hours and forty minutes in
SEED = "2"  # the demo's own: a jackpot, voids and a shuffler failure
WIDTH = 1280

PICTURES: dict[str, str] = {
    "floor.png": "floor.html",
    "sign-in.png": "sign_in.html",
    "shift-report.png": "shift_report.html",
    "replay.png": "replay.html",
}
"""Each picture under docs/ and the page template it shows."""

USES = re.compile(r"""{%-?\s*(?:extends|include|import|from)\s+["']([^"']+)["']""")


def templates_of(name: str) -> list[str]:
    """The template and every template it extends, includes or imports, each once, sorted."""
    seen: set[str] = set()
    waiting = [name]
    while waiting:
        current = waiting.pop()
        if current not in seen:
            seen.add(current)
            waiting += USES.findall((TEMPLATES / current).read_text(encoding="utf-8"))
    return sorted(seen)


def digest(name: str) -> str:
    """sha256 over the templates a page is drawn from, each named and with its text."""
    hashed = hashlib.sha256()
    for template in templates_of(name):
        hashed.update(template.encode() + b"\0")
        hashed.update((TEMPLATES / template).read_bytes() + b"\0")
    return hashed.hexdigest()


def record() -> dict[str, Any]:
    """What docs/screenshots.json holds for the templates as they are now."""
    return {picture: {"templates": templates_of(template), "sha256": digest(template)}
            for picture, template in sorted(PICTURES.items())}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _ledger(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([LEDGER, *args], env=env, cwd=env["SHOTS_FOLDER"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"ledger {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return done.stdout


@contextmanager
def _served(env: dict[str, str], keys: Path) -> Iterator[str]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [LEDGER, "serve", "--port", str(port)], cwd=env["SHOTS_FOLDER"],
        env={**env, "LEDGER_TERMINAL_CREDENTIAL": str(keys / "terminal-FLOOR-DESK.key")},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import httpx

        for _ in range(240):
            try:
                if httpx.get(f"{url}/floor/sign-in", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        else:
            raise SystemExit("ledger serve did not answer within two minutes")
        yield url
    finally:
        server.terminate()
        server.wait(30)


def photograph(url: str, keys: Path, replayed: tuple[str, str], day: str, shift: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM,
                                         args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": WIDTH, "height": 900})
        # the desk's clock is the floor's (a terminal signs its sign-in by it)
        page.clock.install(time=datetime.fromisoformat(CLOCK_AT))
        page.goto(f"{url}/floor/sign-in")
        page.screenshot(path=str(DOCS / "sign-in.png"), full_page=True)
        page.set_input_files("input[name=key]", str(keys / "staff-S-FLOOR.key"))
        page.click("button[type=submit]")
        page.wait_for_url("**/floor")
        page.locator("#alerts li").first.wait_for(timeout=30_000)
        page.wait_for_timeout(1500)  # the live parts have arrived
        page.screenshot(path=str(DOCS / "floor.png"), full_page=True)
        page.goto(f"{url}/floor/reports/shift/{day}/{shift}")
        page.screenshot(path=str(DOCS / "shift-report.png"), full_page=True)
        table, number = replayed
        page.goto(f"{url}/floor/tables/{table}/rounds/{number}/replay")
        page.screenshot(path=str(DOCS / "replay.png"), full_page=True)
        browser.close()


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="screenshots-") as folder:
        data = Path(folder) / ".local" / "share" / "round-ledger"
        # a home of its own: the pages show the demo's folders as a newcomer's are shown
        env = {**os.environ, "SHOTS_FOLDER": folder, "HOME": folder, "LEDGER_CLOCK_AT": CLOCK_AT,
               "LEDGER_DATA_DIR": str(data / "postgres"), "COLUMNS": "200"}
        env.pop("XDG_DATA_HOME", None)
        for name in ("LEDGER_STAFF_CREDENTIAL", "LEDGER_TERMINAL_CREDENTIAL",
                     "LEDGER_STAFF_KEY", "LEDGER_TERMINAL_KEY", "LEDGER_SIMULATOR_KEYS"):
            env.pop(name, None)
        print(f"playing the demo floor (seed {SEED}, the clock at {CLOCK_AT})...", flush=True)
        out = _ledger(env, "demo", "--seed", SEED)
        played = re.search(r"The demo played the (\S+) shift of (\d{4}-\d\d-\d\d)", out)
        jackpot = re.search(r"replayed a jackpot round from the events alone: (\S+) round (\d+)",
                            out)
        if not played or not jackpot:
            raise SystemExit(f"the demo did not say what it played:\n{out}")
        keys = data / "simulator-keys"
        trusted = re.search(r"--trust (\S+)", out)
        if trusted:  # the replay proves its round under the seal, as the README's does
            trust = json.loads(Path(trusted[1]).read_text(encoding="utf-8"))
            env = {**env, "LEDGER_TRUST_FILE": trusted[1],
                   "LEDGER_SEAL_PUBLIC_KEY": trust["seal_public_key"]}
        with _served(env, keys) as url:
            photograph(url, keys, (jackpot[1], jackpot[2]), played[2], played[1])
    RECORD.write_text(json.dumps(record(), indent=2) + "\n", encoding="utf-8")
    print(f"written: {', '.join(f'docs/{p}' for p in sorted(PICTURES))} and "
          f"{RECORD.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
