"""Run `ledger` as a user does: the installed console script, in its own process."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

LEDGER = str(Path(sys.executable).with_name("ledger"))


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture
def cli(database):
    """`cli("table", "open", ...)` runs the ledger against this test's own database."""

    def run(*args: str, url: str | None = None, extra_env: dict[str, str] | None = None,
            cwd: str | None = None) -> Result:
        env = {
            **os.environ, "LEDGER_DATABASE_URL": url or database.url, "COLUMNS": "200",
            "LEDGER_TERMINAL": "e2e", **(extra_env or {}),
        }
        done = subprocess.run(
            [LEDGER, *args], env=env, capture_output=True, text=True, timeout=300, check=False,
            cwd=cwd,
        )
        return Result(done.returncode, done.stdout, done.stderr)

    return run
