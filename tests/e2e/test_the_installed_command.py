"""The installed `ledger` as a process: the other end-to-end tests call the same entry point
in the test's own process, so these prove what only a process shows: it starts from the
console script, its exit codes reach the shell, it reads a feed from a pipe, and a refusal is
one line on standard error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from uuid import uuid4

from ledger.core import clock as ledger_clock
from tests.in_process import LEDGER
from tests.signing import E2E_PIT_BOSS, E2E_WORKSTATION, UNTRUSTED, acting_env, event_count

ROOT = Path(__file__).resolve().parents[2]


def ledger(*args: str, url: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LEDGER_DATABASE_URL": url, "COLUMNS": "200",
           **acting_env(E2E_PIT_BOSS, E2E_WORKSTATION)}
    return subprocess.run([LEDGER, *args], env=env, input=stdin, capture_output=True, text=True,
                          timeout=300, check=False)


def test_the_console_script_starts_and_exits_0_with_its_version(database):
    done = ledger("--version", url=database.url)
    assert done.returncode == 0 and done.stdout.startswith("round-ledger "), done


def test_a_refusal_reaches_the_shell_as_exit_1_and_one_line_on_standard_error(
        database, superuser):
    before = event_count(superuser)
    done = ledger("table", "open", "BAC-01", "--game", "roulette", "--min", "100", "--max",
                  "1000", url=database.url)
    assert done.returncode == 1, done
    assert done.stdout == "" and done.stderr.count("\n") == 1, done
    assert done.stderr.startswith("error: ") and "roulette" in done.stderr, done.stderr
    assert event_count(superuser) == before


def test_a_feed_piped_to_ingest_is_read_to_its_end(database, superuser):
    line = {"command": "open_table", "command_id": str(uuid4()),
            "at": ledger_clock.now().isoformat(), "table": "BAC-07", "game": "baccarat",
            "min_bet": "100.00", "max_bet": "1000.00"}
    done = ledger("ingest", "--vouch", "/dev/stdin", url=database.url,
                  stdin=json.dumps(line) + "\n\n# the feed ends\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 accepted" in done.stdout, done.stdout
    assert superuser.execute("SELECT count(*) FROM ledger_event_log WHERE event_type = "
                             "'Table.Opened'").fetchone()[0] >= 1


def test_a_verification_without_a_trust_file_reaches_the_shell_as_exit_3_not_0(database):
    """A regulator's script that reads only the exit code never takes a verification against
    the database's own keys for a proof: all holds, yet exit 3, and the line says why."""
    done = ledger("verify", "--no-projections", url=database.url)
    assert done.returncode == UNTRUSTED == 3, done.stdout + done.stderr
    assert "UNTRUSTED no trust file" in done.stdout, done.stdout
    assert "all hold" in done.stdout, done.stdout


def test_installing_the_project_for_development_prints_no_build_backend_warning(tmp_path):
    """`scripts/_venv.sh` installs the checkout editable (`pip install -e`): the build backend
    is told the layout (`package-dir` in pyproject.toml), so setuptools writes a plain path
    entry and has no ten-line warning about folders that might shadow the package."""
    venv = tmp_path / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert made.returncode == 0, made.stderr
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "--quiet", "--disable-pip-version-check", "--no-deps", "-e", str(ROOT)],
        capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert "BuildBackendWarning" not in said and "Editable installation" not in said, said
    [entry] = (venv / "lib").glob("python3*/site-packages/__editable__.round_ledger-*.pth")
    assert entry.read_text().strip() == str(ROOT)  # the checkout itself, on the path
