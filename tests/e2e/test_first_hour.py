"""A newcomer's first hour: the demo on a fresh ledger, then every command it printed, exactly
as printed, typed into a shell with no virtual environment activated (each exits 0 but the next shift's, which has not begun: refused with the time it
starts, nothing recorded), the live floor it points to (every link on it answers a page, not
an error), then the demo again: another floor, another seed, the same shift, nothing dated
after the ledger recorded it. And a simulation that could not be played through is refused
before it records anything."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.e2e.browser import CHROMIUM, headless_chromium
from tests.e2e.conftest import NO_CREDENTIALS
from tests.e2e.served import free_port, output, start_with, stop, wait_until_up
from tests.signing import OTHER_DAYS_ENV, UNTRUSTED

COMMAND = re.compile(r"^  ((?:LEDGER_[A-Z_]+=\S+ )*)(\S*ledger) (.+)$")
VENV_BIN = str(Path(sys.executable).parent)


def printed_commands(out: str) -> list[tuple[str, dict[str, str], list[str]]]:
    """(the line, its environment, its arguments) of each command line the demo printed after
    itself."""
    after = out[out.index("after the demo"):]
    found = []
    for line in after.splitlines():
        match = COMMAND.match(line)
        if match:
            env = dict(item.split("=", 1) for item in shlex.split(match[1]))
            found.append((line.strip(), env, shlex.split(match[3])))
    return found


def as_printed(line: str, cwd: Path, url: str, env: dict[str, str | None]
               ) -> subprocess.CompletedProcess[str]:
    """`line` typed into a shell of its own in the demo's folder, with no virtual environment
    activated (the PATH without the one these tests run from) and the database still named."""
    path = os.pathsep.join(part for part in os.environ.get("PATH", "").split(os.pathsep)
                           if part != VENV_BIN)
    merged = {**os.environ, **env, "PATH": path, "LEDGER_DATABASE_URL": url, "COLUMNS": "200",
              "VIRTUAL_ENV": None}
    return subprocess.run(["bash", "-c", line], cwd=cwd, capture_output=True, text=True,
                          env={k: v for k, v in merged.items() if v is not None}, timeout=600)


def events(cli, url: str) -> int:
    done = cli("db", "status", url=url)
    assert done.code == 0, done.err
    return int(re.search(r"events\s+([\d,]+)", done.out)[1].replace(",", ""))


def test_a_first_hour_the_demo_then_every_command_it_printed_then_simulate_all_exit_0(
        cli, empty_database, tmp_path):
    url, work = empty_database.url, tmp_path / "work"
    work.mkdir()
    env = {**NO_CREDENTIALS, "XDG_DATA_HOME": str(tmp_path / "home"),  # a newcomer's own home
           "LEDGER_WITNESS_DIR": str(tmp_path / "witness")}  # kept set, as the database is
    demo = cli("demo", url=url, cwd=str(work), extra_env=env)
    assert demo.code == 0, demo.err + demo.out
    printed = printed_commands(demo.out)
    verbs = [args[0] for _, _, args in printed]
    assert {"report", "replay", "recall", "verify", "serve", "simulate"} <= set(verbs), verbs
    day = re.search(r"The demo played the (\w+) shift of (\d{4}-\d\d-\d\d)", demo.out)
    assert day, demo.out
    for line, extra, args in printed:
        if args[0] == "serve":  # runs until Ctrl-C: its `ledger` is a file that runs, here
            assert os.access(work / shlex.split(line)[len(extra)], os.X_OK), line
            floor_answers(url, {**env, **extra}, demo.out)
            continue
        before = events(cli, url)
        done = as_printed(line, work, url, env)  # as typed: no `source .venv/bin/activate`
        assert "command not found" not in done.stderr, f"{line}: {done.stderr}"
        if args[0] == "simulate":  # the next shift has not begun: nothing dated ahead of now
            assert done.returncode == 1, done.stderr + done.stdout
            assert re.search(r"has not begun: it starts at [\d-]+ \d\d:00 Macau time",
                             done.stderr)
            assert events(cli, url) == before
            continue
        assert done.returncode == 0, f"{line}: {done.stderr}{done.stdout}"
    assert (work / "reports" / f"shift-{day[2]}-{day[1]}.html").exists()
    again = cli("demo", url=url, cwd=str(work), extra_env=env)
    assert again.code == 0, again.err + again.out
    assert re.search(r"The demo played the (\w+) shift of ([\d-]+)", again.out)[0] == day[0]
    seeds = [re.search(r"seed (\d+)", run.out)[1] for run in (demo, again)]
    assert seeds[0] != seeds[1], seeds  # another floor, not the same shift twice
    assert "BAC-04" in again.out and "BAC-04" not in demo.out
    verified = cli("verify", url=url, cwd=str(work), extra_env=env)
    assert verified.code == UNTRUSTED and "all hold" in verified.out, verified.out + verified.err


def floor_answers(url: str, env: dict[str, str | None], said: str) -> None:
    """`ledger serve` as printed; signed in with the key file the demo named, every link the
    floor page holds answers a page that is not the refusal page."""
    port = free_port()
    merged = {**os.environ, **env, "LEDGER_DATABASE_URL": url}
    process = start_with({k: v for k, v in merged.items() if v is not None}, port)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(process, base)
        assert httpx.get(f"{base}/floor", follow_redirects=True).status_code == 200
        if CHROMIUM.exists():
            key = re.search(r"sign in with the key file (\S+?\.key)", said)
            assert key, said
            every_link_answers(base, Path(key[1]))
        said_by_server = output(process)
    finally:
        stop(process)
    assert "Traceback" not in said_by_server, said_by_server


def every_link_answers(base: str, key: Path) -> None:
    with headless_chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/floor")
        page.set_input_files("input[name=key]", str(key))
        page.click("button[type=submit]")
        page.wait_for_url(f"{base}/floor")
        links = sorted({href for href in page.eval_on_selector_all(
            "a[href]", "els => els.map(e => e.getAttribute('href'))")
            if href.startswith("/") and not href.startswith("/floor/sign-out")})
        assert any("/reports/shift/" in link for link in links), links
        for link in links:
            answer = page.goto(f"{base}{link}")
            assert answer is not None and answer.status == 200, (link, answer)
            assert "refused" not in page.title().lower(), (link, page.title())


@pytest.fixture
def admin_env(as_admin, tmp_path):
    return {**as_admin, "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys"), **OTHER_DAYS_ENV}


def test_simulate_refuses_a_shift_already_played_before_recording_anything(cli, database,
                                                                           admin_env):
    played = cli("simulate", "--tables", "2", "--rounds", "1", "--day", "2026-10-01",
                 "--shift", "swing", extra_env=admin_env)
    assert played.code == 0, played.err + played.out
    before = events(cli, database.url)
    again = cli("simulate", "--tables", "2", "--rounds", "1", "--day", "2026-10-01",
                "--shift", "swing", extra_env=admin_env)
    assert again.code == 1
    assert again.err.strip() == (
        "error: the swing shift of 2026-10-01 (14:00 to 22:00 Macau time) is already in the "
        "ledger at BAC-01, SP-01: a shift is played once. The first shift free at every table "
        "is the graveyard shift of 2026-10-01 (22:00 to 06:00 Macau time): --day 2026-10-01 "
        "--shift graveyard.")
    assert events(cli, database.url) == before


def test_simulate_refuses_while_a_table_of_its_floor_is_open_and_leaves_none_open(
        cli, database, admin_env):
    opened = cli("table", "open", "SP-01", "--game", "stud-poker", "--min", "100", "--max",
                 "10000")
    assert opened.code == 0, opened.err
    before = events(cli, database.url)
    refused = cli("simulate", "--tables", "2", "--rounds", "1", "--day", "2026-10-02",
                  extra_env=admin_env)
    assert refused.code == 1
    assert refused.err.strip().startswith("error: table SP-01 is open: a simulated shift opens "
                                          "its tables itself."), refused.err
    assert events(cli, database.url) == before
    assert "BAC-01" not in cli("table", "list").out  # the other table was not opened either


def test_simulate_by_someone_who_is_not_an_administrator_is_refused_naming_the_keys_it_needs(
        cli, database):
    before = events(cli, database.url)
    refused = cli("simulate", "--tables", "1", "--rounds", "1")  # the e2e pit boss's keys
    assert refused.code == 1
    assert "is not an administrator: run it with an administrator's keys" in refused.err
    assert "staff-DEMO-ADMIN.key" in refused.err
    assert events(cli, database.url) == before
