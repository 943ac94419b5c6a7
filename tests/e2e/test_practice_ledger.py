"""A practice ledger (`ledger db init --practice`, the demo's) says so on every page, bundle
and verification; a property's real ledger never takes simulated play."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest

from ledger.core.formatting import PRACTICE_MARK
from tests.e2e.browser import headless_chromium, needs_chromium, printed_text
from tests.e2e.conftest import NO_CREDENTIALS
from tests.e2e.test_evidence_bundle import exported, offline
from tests.e2e.test_insider_forgeries import trust  # noqa: F401 - a fixture
from tests.integration import replay_rounds as rounds
from tests.signing import GAMING_DAY, UNTRUSTED, credential_env, open_ledger


def _events(url: str) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(*) FROM ledger_events").fetchone()[0]


def test_simulate_on_a_ledger_not_made_for_practice_is_refused_and_records_nothing(
        cli, empty_database):
    url = empty_database.url
    made = cli("db", "init", "--admin-name", "Test Administrator", url=url,
               extra_env=credential_env())
    assert made.code == 0, made.err
    assert PRACTICE_MARK not in made.out
    before = _events(url)
    refused = cli("simulate", "--tables", "1", "--rounds", "1", url=url,
                  extra_env=credential_env())
    assert refused.code == 1
    assert refused.err.strip().splitlines()[-1] == (
        "error: this ledger was not made for practice: a property's real ledger never holds "
        "simulated play. Simulate on a practice ledger (`ledger db init --practice` on a new "
        "database, as the demo makes).")
    assert _events(url) == before
    # nor is the real ledger made a practice one later, to take it
    again = cli("db", "init", "--practice", url=url, extra_env=credential_env())
    assert again.code == 1 and "already holds events as a real ledger" in again.err
    assert _events(url) == before


def test_the_writer_login_cannot_mark_a_real_ledger_for_practice(superuser, database_roles):
    for privilege in ("INSERT", "UPDATE", "DELETE", "TRUNCATE"):
        assert not superuser.execute(
            "SELECT has_table_privilege(%s, 'ledger_practice', %s)",
            (database_roles.writer, privilege)).fetchone()[0], privilege
    with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        superuser.execute("DELETE FROM ledger_practice")  # not even by its owner


def test_verify_names_a_practice_ledger_first(cli):
    done = cli("verify")
    assert done.code == UNTRUSTED, done.out + done.err
    assert done.out.splitlines()[0].startswith(PRACTICE_MARK)


@needs_chromium
def test_a_practice_ledgers_report_says_so_printed_from_chromium(cli, settings, tmp_path):
    with open_ledger(settings) as rt:
        rounds.baccarat_round(rt.ledger)
    done = cli("report", "shift", "--day", GAMING_DAY.isoformat(), "--shift", "day",
               "--format", "html", "--output", str(tmp_path))
    assert done.code == 0, done.err
    [page] = tmp_path.glob("shift-*.html")
    flat = " ".join(printed_text(tmp_path, page).split())
    assert PRACTICE_MARK in flat


@needs_chromium
def test_a_practice_ledgers_floor_page_says_so_in_chromium(served_floor):
    with headless_chromium() as browser:
        page = browser.new_page()
        page.goto(f"{served_floor.url}/floor")
        assert page.url.endswith("/floor/sign-in")
        assert page.inner_text(".practice") == PRACTICE_MARK


def test_the_sign_in_page_says_where_the_demo_keeps_its_keys_and_how_a_property_makes_its_own(
        served_floor, settings):
    page = " ".join(served_floor.get("/floor/sign-in").text.split())
    folder = settings.simulator_keys_dir  # shown as typed: `~/...` under the home
    keys = (f"~/{folder.relative_to(Path.home())}" if folder.is_relative_to(Path.home())
            else str(folder))
    assert (f"the demo keeps its people's key files in <code>{keys}</code>") in page, page
    assert f"<code>{keys}/staff-S-FLOOR.key</code>, opens the floor" in page
    assert ("<code>ledger key new staff &lt;their staff id&gt; --out &lt;file&gt;</code> writes "
            "it and prints its public half, which an administrator enrols with "
            "<code>ledger staff enrol</code>") in page
    assert "wrote)" not in page  # no key a demo user never made


def test_a_practice_ledgers_bundle_carries_its_mark_signed_and_the_offline_check_says_so(
        cli, sealed, tmp_path):
    bundle = exported(cli, tmp_path)
    content = json.loads(bundle.read_text())["content"]
    assert content["practice"] == PRACTICE_MARK
    assert PRACTICE_MARK in content["replay_html"]
    checked = offline(bundle, sealed.public_key)
    assert checked.returncode == 0, checked.stdout
    assert checked.stdout.splitlines()[0].strip() == PRACTICE_MARK


def test_a_real_ledger_gives_out_nothing_marked(cli, empty_database, tmp_path):
    url = empty_database.url
    assert cli("db", "init", "--admin-name", "Test Administrator", url=url,
               extra_env=credential_env()).code == 0
    done = cli("verify", url=url, extra_env=NO_CREDENTIALS)
    assert done.code == UNTRUSTED, done.out + done.err
    assert PRACTICE_MARK not in done.out


def test_a_practice_ledgers_trust_file_says_so_and_verify_names_a_trust_file_that_does_not(
        cli, trust):
    written = json.loads(trust.read_text())
    assert written["practice"] is True
    denied = trust.with_name("real.json")
    denied.write_text(json.dumps({**written, "practice": False}))
    done = cli("verify", "--trust", str(denied))
    assert done.code == 1
    assert ("practice: the trust file says this is a property's real ledger, the database a "
            "practice ledger") in done.out


def test_the_statistics_and_hold_reports_say_a_practice_ledger_is_one_on_screen_and_in_json(
        cli, settings):
    with open_ledger(settings) as rt:
        rounds.baccarat_round(rt.ledger)
    through = ("--through", GAMING_DAY.isoformat())
    for report in ("statistics", "hold"):
        shown = cli("report", report, *through)
        assert shown.code == 0, shown.out + shown.err
        assert shown.out.splitlines()[0] == PRACTICE_MARK, report
        data = cli("report", report, *through, "--json")
        assert data.code == 0 and json.loads(data.out)["practice"] == PRACTICE_MARK, report
