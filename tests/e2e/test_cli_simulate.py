"""`ledger simulate` as an operator runs it: a small floor, then the ledger verified."""

from __future__ import annotations

import re

from tests.signing import OTHER_DAYS_ENV, UNTRUSTED


def test_simulate_plays_a_floor_that_verifies_and_reports_its_voids(cli, as_admin, tmp_path):
    """Run by an administrator: the floor's staff and terminals are enrolled under their
    signature, each with a key of its own, and every command is signed."""
    env = {**as_admin, "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys"), **OTHER_DAYS_ENV}
    done = cli("simulate", "--tables", "4", "--rounds", "6", "--seed", "6", "--day", "2026-11-01",
               "--games", "stud-poker,q-poker", "--irregularity-rate", "0.4", extra_env=env)
    assert done.code == 0, done.err + done.out
    summary = re.search(r"(\d+) rounds settled, (\d+) voided \((\d+) by a shuffler failure\)",
                        done.out)
    assert summary, done.out
    settled, voided, by_shuffler = map(int, summary.groups())
    assert settled + voided == 4 * 6 and 0 < by_shuffler <= voided
    verified = cli("verify")
    assert verified.code == UNTRUSTED, verified.err + verified.out
    assert "all hold" in verified.out
    staff = cli("staff", "list").out
    assert "D-SP-01-1" in staff and "S-A" in staff and "COUNT-1" in staff
    assert "SP-01-DT" in cli("terminal", "list").out
    kept = {p.name for p in (tmp_path / "keys").iterdir()}
    assert {"staff-COUNT-1.key", "staff-D-SP-01-1.key", "terminal-SP-01-DT.key"} <= kept
    assert all((tmp_path / "keys" / name).stat().st_mode & 0o077 == 0 for name in kept)


def test_simulate_refuses_an_unknown_game_in_one_line_and_records_nothing(cli):
    done = cli("simulate", "--tables", "2", "--rounds", "1", "--games", "stud-poker,poker")
    assert done.code == 1
    assert "unknown game 'poker'" in done.err + done.out
    assert len((done.err + done.out).strip().splitlines()) == 1
    listed = cli("table", "list")
    assert listed.code == 0, listed.err
    assert "SP-01" not in listed.out


def test_simulate_refuses_endless_hours_in_one_line_and_records_nothing(cli):
    done = cli("simulate", "--tables", "1", "--hours", "inf")
    assert done.code == 1
    assert done.err.strip() == (
        "error: ledger simulate: Invalid value for '--hours': 'inf' is above 24, the most it "
        "takes (`ledger simulate --help` lists what it takes)")
    assert "Traceback" not in done.err + done.out
