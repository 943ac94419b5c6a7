"""A ledger the previous release recorded, restored from its dump and upgraded by today's code:
`ledger db init`, then the runner rebuilds the read models by itself while a floor plays, and
everything holds (`tests/fixtures/previous-release`, remade by `scripts/record-release-fixture`):
the release's commands, recorded under the first edition of the rules, and the floor's, under
today's, each verified under its own."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time

import psycopg

from ledger.domain.receipt import RULES_EDITION
from tests.e2e.conftest import LEDGER, NO_CREDENTIALS
from tests.e2e.previous_release import restore, unpack

PROJECTIONS = ("jackpot-pools", "shift-report", "table-state")
AFTER_THE_RELEASE = "2026-11-30T07:00:00+08:00"
"""The ledger's clock for this test: after the stored release recorded its floor."""


def _status(ledger) -> dict:
    done = ledger("db", "status", "--json")
    assert done.code == 0, done.err
    return json.loads(done.out)


def _started(args: list[str], env: dict[str, str | None], log) -> subprocess.Popen:
    full = {**os.environ, "COLUMNS": "200", **env}
    return subprocess.Popen([LEDGER, *args], stdout=log, stderr=subprocess.STDOUT, text=True,
                            env={key: value for key, value in full.items() if value is not None})


def _until(what, seconds: float = 120.0):  # money-safe: seconds
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds:.0f} s: {what.__doc__}")


def test_a_previous_releases_ledger_upgrades_its_read_models_by_itself_while_a_floor_plays(
        cli, empty_database, tmp_path):
    release = unpack(tmp_path / "data")
    restore(empty_database)
    env: dict[str, str | None] = {
        **NO_CREDENTIALS, "LEDGER_DATABASE_URL": empty_database.url,
        "LEDGER_DATA_DIR": str(tmp_path / "data" / "postgres"),  # its keys and witness beside
        "LEDGER_WITNESS_DIR": str(tmp_path / "data" / "witness"),
        # after the release's own play (its demo of 27 November), an hour into a day shift
        "LEDGER_CLOCK_AT": AFTER_THE_RELEASE}
    admin = {"LEDGER_STAFF_CREDENTIAL": release.file("staff_key"),
             "LEDGER_TERMINAL_CREDENTIAL": release.file("terminal_key")}

    def ledger(*args: str, **more: str):
        return cli(*args, url=empty_database.url, extra_env={**env, **more})

    before = ledger("db", "status")  # this release reads nothing until `db init` upgrades it
    assert "not initialised: run `ledger db init`" in before.out, before.out
    init = ledger("db", "init", "--practice")  # the release's demo ledger: marked as upgraded
    assert init.code == 0, init.err + init.out
    recorded = _status(ledger)
    events = recorded["events"]
    assert 500 < events < 5000, events
    assert {p["name"].replace("_", "-") for p in recorded["projections"]
            if p["other_version"] is not None} == set(PROJECTIONS)
    assert "rebuild it" not in ledger("db", "status").out
    with psycopg.connect(empty_database.url) as conn:  # its events table now in partitions
        kind = conn.execute("SELECT relkind FROM pg_class WHERE relname = 'ledger_events'"
                            ).fetchone()
        first = conn.execute("SELECT count(*) FROM ledger_events_p1").fetchone()
    assert kind == ("p",) and first == (events,)

    # the floor plays on the upgraded ledger; the runner starts once it has recorded some
    log_floor, log_runner = tmp_path / "floor.log", tmp_path / "runner.log"
    with log_floor.open("w") as floor_out, log_runner.open("w") as runner_out:
        floor = _started(["simulate", "--tables", "4", "--rounds", "3", "--games",
                          "baccarat,stud-poker,q-poker,fortune-8"], {**env, **admin}, floor_out)
        try:
            def the_floor_records() -> bool:
                """the floor records its first events"""
                return _status(ledger)["events"] > events or floor.poll() is not None
            _until(the_floor_records)
            runner = _started(["projections", "run", "--poll", "0.2"], env, runner_out)
            try:
                assert floor.wait(timeout=300) == 0, log_floor.read_text()

                def caught_up() -> bool:
                    """the runner swaps in every projection and catches up"""
                    now = _status(ledger)
                    return all(p["other_version"] is None and p["lag"] == 0
                               for p in now["projections"])
                _until(caught_up)
            finally:
                runner.send_signal(signal.SIGINT)
                runner.wait(timeout=60)
        finally:
            if floor.poll() is None:
                floor.kill()
    said = log_runner.read_text()
    for name in PROJECTIONS:
        assert re.search(rf"^rebuilding {name}: the code's version \d+ \(tables [0-9a-f]{{8}}\), "
                         r"the live tables' unrecorded", said, re.MULTILINE), said
        swapped = re.search(rf"^{name}: rebuilt from the first event \(([\d,]+) events\), "
                            r"swapped in at position ([\d,]+)$", said, re.MULTILINE)
        assert swapped, said
        assert int(swapped[2].replace(",", "")) > events  # the floor's events came before it
    played = re.search(r"(\d+) rounds settled, (\d+) voided", log_floor.read_text())
    assert played and int(played[1]) + int(played[2]) == 12, log_floor.read_text()
    assert _status(ledger)["events"] > events  # new rounds recorded on the upgraded ledger

    with psycopg.connect(empty_database.url) as conn:  # the rules' edition of each command
        editions = dict(conn.execute(
            "SELECT convert_from(state, 'UTF8')::jsonb ->> 'rules', count(*) FROM ledger_events "
            "WHERE topic LIKE '%:CommandReceipt.Accepted' GROUP BY 1").fetchall())
    assert editions.get(None) and editions.get(str(RULES_EDITION)), editions  # both, verified:

    sealed = ledger("seal", "run", "--once", LEDGER_SEAL_KEY=release.file("seal_key"))
    assert sealed.code == 0, sealed.err + sealed.out
    trust = release.file("trust")
    verified = ledger("verify", "--trust", trust, *(arg for path in release.witness_states
                                                      for arg in ("--witness-state", path)),
                      "--offline")
    assert verified.code == 0, verified.out + verified.err
    assert "not compared" not in verified.out and "rebuild" not in verified.out, verified.out
    assert "3 projections: all hold" in verified.out, verified.out

    table, number = release.manifest["replay"][0]
    replayed = ledger("replay", table, str(number), "--trust", trust)
    assert replayed.code == 0 and "MATCH" in replayed.out, replayed.out + replayed.err
    day, shift = release.manifest["gaming_day"], release.manifest["shift"]
    report = ledger("report", "shift", "--day", day, "--shift", shift)
    assert report.code == 0 and "BAC-01" in report.out, report.out + report.err
    statistics = ledger("report", "statistics", "--period", "month", "--through", day)
    assert statistics.code == 0 and "BAC-01" in statistics.out, statistics.out + statistics.err
