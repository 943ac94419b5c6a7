"""Run `ledger` as a user does: the same entry point, its output, errors and exit code, in the
test's process (`tests/in_process.py`); `serve` and `demo`, and every call under
`LEDGER_TEST_CLI=process`, as the installed console script in a process of its own."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from ledger.application.administration import Administrator
from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind
from ledger.runtime.bootstrap import open_ledger
from tests.clock import ENV, stamp
from tests.conftest import _create_database, _drop_database
from tests.in_process import ALWAYS_A_PROCESS, Result, run_in_process
from tests.integration.test_shift_reconciliation import _shift_with
from tests.signing import (
    ADMIN,
    CONSOLE,
    E2E_PIT_BOSS,
    E2E_WORKSTATION,
    KEYRING,
    UNTRUSTED,
    acting_env,
    credential_env,
)

LEDGER = str(Path(sys.executable).with_name("ledger"))
NO_CREDENTIALS: dict[str, str | None] = {  # a newcomer's environment: no key of their own
    "LEDGER_STAFF_CREDENTIAL": None, "LEDGER_TERMINAL_CREDENTIAL": None,
    "LEDGER_STAFF_KEY": None, "LEDGER_TERMINAL_KEY": None}


AS_PROCESSES = os.environ.get("LEDGER_TEST_CLI") == "process"
"""`LEDGER_TEST_CLI=process`: every `cli(...)` starts `ledger` as a process, as before."""


@pytest.fixture
def cli(database, tmp_path_factory):
    """`cli("table", "open", ...)` runs the ledger against this test's own database; the seal's
    witness goes to a folder of this test's own unless the test names one."""
    witness = str(tmp_path_factory.mktemp("witness"))

    def run(*args: str, url: str | None = None, extra_env: dict[str, str | None] | None = None,
            cwd: str | None = None) -> Result:
        env = {
            "LEDGER_WITNESS_DIR": witness, **os.environ, "LEDGER_DATABASE_URL": url or database.url,
            "COLUMNS": "200", ENV: stamp(),
            **acting_env(E2E_PIT_BOSS, E2E_WORKSTATION), **(extra_env or {}),
        }
        env = {key: value for key, value in env.items() if value is not None}  # None: unset
        if not AS_PROCESSES and args[:1] and args[0] not in ALWAYS_A_PROCESS:
            if ENV not in (extra_env or {}):  # in process, the run's clock runs already,
                env.pop(ENV, None)  # on a real ledger too (which refuses LEDGER_CLOCK_AT)
            return run_in_process(args, env, cwd)
        done = subprocess.run(
            [LEDGER, *args], env=env, capture_output=True, text=True, timeout=300, check=False,
            cwd=cwd,
        )
        return Result(done.returncode, done.stdout, done.stderr)

    return run


@pytest.fixture
def as_staff(settings):
    """`cli(..., extra_env=as_staff("D-101", "dealer"))`: acts as D-101, enrolled (the first time)
    with these roles by the test administrator, at a terminal of this kind."""

    def enrol(staff_id: str, *roles: str, terminal: str = "PIT-E2E",
              kind: TerminalKind = TerminalKind.PIT_WORKSTATION) -> dict[str, str]:
        with open_ledger(settings) as rt:
            admin = Administrator(rt.ledger, KEYRING, ADMIN, CONSOLE)
            admin.ensure_staff(staff_id, staff_id, [Role(role) for role in roles])
            admin.ensure_terminal(terminal, kind, "e2e floor")
        return acting_env(staff_id, terminal)

    return enrol


@pytest.fixture
def as_admin() -> dict[str, str]:
    """The environment of the test administrator at their console."""
    return credential_env()


@pytest.fixture
def empty_database(server):
    """A database no `ledger db init` has touched: no schema, no registry."""
    name = f"ledger_empty_{secrets.token_hex(4)}"
    database = _create_database(server, name)
    yield database
    _drop_database(server, name)


@dataclass(frozen=True)
class Sealed:
    witness: Path
    public_key: str


@pytest.fixture
def sealed(cli, settings, tmp_path, monkeypatch) -> Sealed:
    """A closed shift of BAC-R1, projected and sealed under a checkpoint; the seal's settings
    (key, witness, trusted public key) in the environment every `ledger` run here sees."""
    key = tmp_path / "seal.key"
    assert cli("key", "new", "seal", "SEAL-1", "--out", str(key)).code == 0
    public = next(line.split()[-1] for line in cli("key", "show", str(key)).out.splitlines()
                  if line.startswith("public key"))
    monkeypatch.setenv("LEDGER_SEAL_KEY", str(key))
    monkeypatch.setenv("LEDGER_SEAL_PUBLIC_KEY", public)
    monkeypatch.setenv("LEDGER_WITNESS_DIR", str(tmp_path / "witness"))
    _shift_with(settings, record_fill=True)
    assert cli("projections", "run", "--once").code == 0
    done = cli("seal", "run", "--once")
    assert done.code == 0, done.err
    clean = cli("verify")
    assert clean.code == UNTRUSTED, clean.out + clean.err
    assert "0 events not yet sealed" in clean.out
    return Sealed(tmp_path / "witness", public)


from tests.e2e.served import served, served_floor  # noqa: F401 - `ledger serve`
