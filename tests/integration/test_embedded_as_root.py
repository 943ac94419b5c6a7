"""As root, the embedded PostgreSQL runs as its own system user from a checkout in a private
folder (mode 0700, as `/root` is) and widens no folder the ledger did not make: the checkout's
folders, its `.venv` holding pgserver's programs, the home and every folder above them keep
their modes. A data folder named beyond a private folder is the one case the ledger must open
one, and it says so in one line before it does, letting the server pass it, never list it
(pgserver keeps root's groups for the server, so a folder of root's group is passed by its
group's bit).

The checkout is the project's code copied into the private folder with a `.venv` of its own
whose site-packages holds its own copy of pgserver (programs included), as `scripts/test` and
`scripts/demo` make it there; the other dependencies are read from this run's environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pgserver
import pytest

from ledger.infrastructure.server_account import ROOT_HOME

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="only root's server runs as another user")

PROJECT = Path(__file__).resolve().parents[2]
START = """
import sys
from pathlib import Path
import ledger, psycopg
from ledger.infrastructure.embedded import embedded_server_url
url = embedded_server_url(Path(sys.argv[1]))
pgserver = sys.modules["pgserver"]
with psycopg.connect(url) as conn:
    who = conn.execute("select current_user").fetchone()[0]
print(pgserver.__file__, ledger.__file__, who, sep="\\n")
"""


@pytest.fixture
def private() -> Iterator[Path]:
    """A checkout of the project in a folder only root may enter, with a home beside it."""
    folder = Path(tempfile.mkdtemp(prefix="ledger-private-"))  # mode 0700
    checkout = folder / "checkout"
    for package in ("ledger", "projections"):
        shutil.copytree(PROJECT / package, checkout / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(checkout / ".venv")],
                   check=True)
    site = checkout / ".venv" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    site = site / "site-packages"
    shipped = Path(pgserver.__file__).parent
    shutil.copytree(shipped, site / "pgserver",
                    ignore=shutil.ignore_patterns("__pycache__", "include"))
    shutil.copytree(shipped.with_name("pgserver.libs"), site / "pgserver.libs")
    (site / "checkout.pth").write_text(f"{checkout}\n{sysconfig.get_paths()['purelib']}\n")
    (folder / "home").mkdir(mode=0o700)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _modes(*roots: Path) -> dict[Path, int]:
    """The mode of every folder in and above each of `roots`."""
    found: dict[Path, int] = {}
    for root in roots:
        for folder in (root, *root.parents):
            if folder.exists():
                found[folder] = folder.stat().st_mode & 0o7777
        for path, _, _ in os.walk(root):
            found[Path(path)] = Path(path).stat().st_mode & 0o7777
    return found


def _widened(before: dict[Path, int], after: dict[Path, int]) -> dict[str, str]:
    return {str(folder): f"{mode:04o} -> {after[folder]:04o}"
            for folder, mode in before.items()
            if folder in after and after[folder] & ~mode}


def _start(private: Path, data: Path) -> subprocess.CompletedProcess[str]:
    python = private / "checkout" / ".venv" / "bin" / "python"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(private / "home"),
           "PYTHONDONTWRITEBYTECODE": "1"}
    started = subprocess.run([str(python), "-c", START, str(data)], env=env, cwd=private,
                             capture_output=True, text=True, timeout=300, check=False)
    assert started.returncode == 0, started.stdout + started.stderr
    shipped, code, who = started.stdout.split()
    assert shipped.startswith(f"{private}/") and code.startswith(f"{private}/"), started.stdout
    assert who == "postgres"
    return started


def test_as_root_the_embedded_server_from_a_private_checkout_widens_no_folder(private):
    around = Path(tempfile.mkdtemp(prefix="ledger-data-"))
    around.chmod(0o755)  # a folder open to be passed, as /var/lib is
    data = around / "made-by-the-ledger" / "postgres"
    try:
        before = _modes(private, around, ROOT_HOME.parent)
        started = _start(private, data)
        after = _modes(private, around, ROOT_HOME.parent)
        assert _widened(before, after) == {}
        assert started.stderr == ""  # nothing to say: nothing was opened
        assert (data.parent.stat().st_mode & 0o7777) == 0o755  # the ledger's, made to pass
    finally:
        shutil.rmtree(around, ignore_errors=True)


def test_as_root_a_data_folder_in_a_private_folder_is_opened_to_be_passed_after_one_line(
        private):
    data = private / "data" / "postgres"
    before = _modes(private, ROOT_HOME.parent)
    started = _start(private, data)
    after = _modes(private, ROOT_HOME.parent)
    said = started.stderr.strip()
    assert len(said.splitlines()) == 1 and f"{private} (mode 0700 to 0710)" in said, said
    assert _widened(before, after) == {str(private): "0700 -> 0710"}
