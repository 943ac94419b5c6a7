"""Closed, sealed, witnessed ranges of the ledger leave the primary for an archive database and
are read there in place: verify, replay, recall and export see every event; the floor plays on
streams whose past is archived; the retention and the seal hold back what is not ready; the
archive refuses every change, and one made behind its back is named by verify."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest

from ledger.core import clock as ledger_clock
from ledger.core.formatting import macau
from tests.e2e.test_incremental_verify import play
from tests.e2e.test_insider_forgeries import trust  # noqa: F401 - a fixture
from tests.signing import GAMING_DAY, credential_env

YESTERDAY = (GAMING_DAY - timedelta(days=1)).isoformat()
"""The floors here play yesterday's shifts: past whatever the time of day the test runs at."""


def _fdw_available(url: str) -> bool:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'postgres_fdw'"
                            ).fetchone() is not None


@pytest.fixture
def archive_url(empty_database) -> str:
    if not _fdw_available(empty_database.url):
        pytest.skip("this PostgreSQL has no postgres_fdw (the embedded server is built "
                    "without it): an archive is read through it")
    return empty_database.url


TODAY = macau(ledger_clock.now()).date().isoformat()
NOW = {"LEDGER_ARCHIVE_AFTER_DAYS": "0"}


def archived(cli, url: str, trust_file: Path, *, env: dict[str, str] | None = None):
    return cli("archive", "--to", url, "--through", TODAY, "--trust", str(trust_file),
               extra_env=NOW if env is None else env)


def _partitions(superuser) -> dict[str, str]:
    rows = superuser.execute(
        "SELECT c.relname, c.relkind FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
        "WHERE i.inhparent = 'ledger_events'::regclass").fetchall()
    return {name: kind for name, kind in rows}


def _floor_past_its_partitions(cli, superuser, tmp_path) -> None:
    """Enough play that the default partition takes rows; `db init` then gives them a range
    of their own and makes the next one ahead; all of it sealed."""
    play(cli, tmp_path / "keys", rounds=3, seed=11, day=YESTERDAY)
    (in_default,) = superuser.execute("SELECT count(*) FROM ledger_events_default").fetchone()
    assert in_default > 0
    told = cli("db", "status")
    assert f"{in_default:,} events past the partitions made ahead: run `ledger db init`" in \
        told.out, told.out
    init = cli("db", "init")
    assert init.code == 0, init.out + init.err
    (in_default,) = superuser.execute("SELECT count(*) FROM ledger_events_default").fetchone()
    assert in_default == 0
    assert cli("seal", "run", "--once").code == 0


def test_closed_ranges_leave_the_primary_and_are_read_in_place(cli, trust, superuser,
                                                               archive_url, tmp_path):
    _floor_past_its_partitions(cli, superuser, tmp_path)
    (events,) = superuser.execute("SELECT count(*) FROM ledger_events").fetchone()
    before = cli("replay", "BAC-R1", "1")
    assert before.code == 0, before.out

    done = archived(cli, archive_url, trust)
    assert done.code == 0, done.out + done.err
    assert "archived positions 1-400:" in done.out, done.out
    kinds = _partitions(superuser)
    assert kinds["ledger_events_p1"] == "f" and kinds["ledger_events_p401"] == "f", kinds
    with psycopg.connect(archive_url) as archive:
        (kept,) = archive.execute("SELECT count(*) FROM (SELECT 1 FROM pg_tables WHERE "
                                  "tablename = 'ledger_events_p1') t").fetchone()
    assert kept == 1
    (still,) = superuser.execute("SELECT count(*) FROM ledger_events").fetchone()
    assert still == events  # every event still read, now partly from the archive

    status = json.loads(cli("db", "status", "--json").out)
    assert status["partitions"]["archived"] == 2 and status["events"] == events, status
    held = cli("verify", "--trust", str(trust))
    assert held.code == 0, held.out
    again = cli("replay", "BAC-R1", "1")
    assert again.code == 0 and "MATCH" in again.out, again.out
    assert again.out == before.out
    recall = cli("recall", "BAC-R1")
    assert recall.code == 0, recall.out
    out = tmp_path / "bundle.json"
    exported = cli("export", "round", "BAC-R1", "1", "--out", str(out))
    assert exported.code == 0, exported.err
    assert json.loads(out.read_text())
    assert cli("verify-bundle", str(out)).code == 0

    # the floor plays on: tables, pools and the registry whose past is archived
    play(cli, tmp_path / "keys", rounds=2, seed=12, day=YESTERDAY, shift="swing")
    after = cli("verify", "--trust", str(trust), "--full")
    assert after.code == 0, after.out


def test_the_retention_keeps_young_events_on_the_primary(cli, trust, superuser, archive_url,
                                                         tmp_path):
    early = archived(cli, archive_url, trust)  # the first range still being appended to
    assert early.code == 1 and len(early.err.strip().splitlines()) == 1, early.err
    assert "no range of positions is closed yet" in early.err
    _floor_past_its_partitions(cli, superuser, tmp_path)
    refused = archived(cli, archive_url, trust, env={"LEDGER_ARCHIVE_AFTER_DAYS": "90"})
    assert refused.code == 1
    assert "inside the retention" in refused.err and "LEDGER_ARCHIVE_AFTER_DAYS" in refused.err
    assert len(refused.err.strip().splitlines()) == 1, refused.err
    assert "f" not in _partitions(superuser).values()
    for wrong in ("2026-13", "last month"):
        bad = cli("archive", "--to", archive_url, "--through", wrong, "--trust", str(trust),
                  extra_env=NOW)
        assert bad.code == 1 and len(bad.err.strip().splitlines()) == 1, bad.err
        assert f"--through '{wrong}' is not a month (YYYY-MM) or a day" in bad.err


def test_a_range_the_seal_has_not_reached_stays(cli, trust, superuser, archive_url, tmp_path):
    # yesterday's floor, sealed; then a round the seal has not reached, in the shift in force
    # (after yesterday's: a table's shifts open in time order)
    play(cli, tmp_path / "keys", rounds=3, seed=11, day=YESTERDAY)
    env = {**credential_env(), "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys")}
    more = cli("simulate", "--tables", "1", "--rounds", "1", "--seed", "3", "--games",
               "baccarat", extra_env=env)
    assert more.code == 0, more.err
    assert cli("db", "init").code == 0
    done = archived(cli, archive_url, trust)
    assert done.code == 0, done.err
    assert "archived positions 1-400:" in done.out
    assert "kept on the primary: positions 401-" in done.out
    assert "are not sealed yet: run `ledger seal run --once`" in done.out, done.out
    kinds = _partitions(superuser)
    assert kinds["ledger_events_p1"] == "f" and kinds["ledger_events_p401"] == "r", kinds


def test_the_archive_refuses_every_change_and_one_made_behind_its_back_is_named(
        cli, trust, superuser, archive_url, tmp_path):
    _floor_past_its_partitions(cli, superuser, tmp_path)
    assert archived(cli, archive_url, trust).code == 0
    with pytest.raises(psycopg.Error, match="not allowed"):
        superuser.execute("DELETE FROM ledger_events WHERE notification_id = 5")
    (schema,) = superuser.execute("SELECT 'ledger_' || replace(ledger_id::text, '-', '_') "
                                  "FROM ledger_seal_state").fetchone()
    with psycopg.connect(archive_url, autocommit=True) as archive:
        for statement in (f"DELETE FROM {schema}.ledger_events_p1",
                          f"TRUNCATE {schema}.ledger_events_p1",
                          f"UPDATE {schema}.ledger_events_p1 SET topic = topic"):
            with pytest.raises(psycopg.Error, match="archived"):
                archive.execute(statement)
        # an insider with the archive's own rights edits an event, triggers off
        archive.execute(f"ALTER TABLE {schema}.ledger_events_p1 DISABLE TRIGGER USER")
        archive.execute(
            f"UPDATE {schema}.ledger_events_p1 SET state = convert_to(replace(convert_from("
            "state, 'UTF8'), '\"BAC-R1\"', '\"BAC-R9\"'), 'UTF8') WHERE notification_id = ("
            f"SELECT min(notification_id) FROM {schema}.ledger_events_p1 "
            "WHERE convert_from(state, 'UTF8') LIKE '%BAC-R1%')")
    named = cli("verify", "--trust", str(trust), "--full")
    assert named.code == 1, named.out
    assert "differs from what was sealed" in named.out, named.out
    assert "hash does not match its contents: row altered" in named.out


def test_a_server_without_postgres_fdw_is_told_in_one_line_and_nothing_moves(
        cli, trust, superuser, empty_database, tmp_path):
    if _fdw_available(empty_database.url):
        pytest.skip("this PostgreSQL has postgres_fdw: the refusal is the embedded server's")
    done = archived(cli, empty_database.url, trust)
    assert done.code == 1
    assert "has no postgres_fdw, through which an archive is read" in done.err, done.err
    assert len(done.err.strip().splitlines()) == 1, done.err
    assert "f" not in _partitions(superuser).values()
