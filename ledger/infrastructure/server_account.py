"""As root, the embedded PostgreSQL runs as a system user of its own, and reaches only folders
made for it.

PostgreSQL refuses to run as root, so `pgserver` runs the server as its system user `pgserver`,
which must reach the server's programs and its data folder. Left to itself, pgserver lets it
by opening every folder above both to every user (`chmod g+rx,o+rx` up to `/`): a private home
holding the checkout or the data becomes listable by every user of the machine. The ledger
does as PostgreSQL's own packaging does instead: the programs are copied once into a folder
made for them (`/var/lib/round-ledger/pginstall-<build>`, root's, readable by all), the data
folder lies beside it by default, and no folder the ledger did not make is widened. Where a
data folder named to it (`LEDGER_DATA_DIR`) lies beyond a folder the server's user cannot pass,
the ledger says so in one line, then lets the server pass that folder, never list it (`g+x`
or `o+x`).

The ledger points pgserver at these by setting the names pgserver looks up as it runs (the
programs' folder, its function that opens the folders above a path, the folder of its
sockets); nothing in pgserver's own files is changed.
"""

from __future__ import annotations

import hashlib
import os
import pwd
import shutil
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from types import ModuleType

SERVER_USER = "pgserver"
"""The system user pgserver runs the server as when started by root (its own choice)."""
ROOT_HOME = Path("/var/lib/round-ledger")
"""As root: the folder made for the server's programs, its sockets and (by default) its data."""


def as_root() -> bool:
    return os.geteuid() == 0


def adopt(pgserver: ModuleType) -> None:
    """As root, point pgserver at programs and folders made for its server's user, and have it
    widen nothing it reaches on its way to them; otherwise leave it as it is."""
    if not as_root():
        return
    from pgserver import _commands, postgres_server

    programs = binaries(Path(_commands.__file__).parent / "pginstall")
    _commands.POSTGRES_BIN_PATH = programs  # read as each command runs
    # pgserver's server module imports these two by name: set where it reads them
    postgres_server.POSTGRES_BIN_PATH = programs  # type: ignore[attr-defined]  # not exported
    postgres_server.ensure_prefix_permissions = let_server_pass  # type: ignore[attr-defined]  # idem
    postgres_server.PostgresServer.runtime_path = made_for_server(ROOT_HOME / "run")


def binaries(install: Path) -> Path:
    """The folder of the server's programs in a copy of `install` (pgserver's `pginstall`)
    the server's user can reach, made once for each build of them. The copy keeps the
    package's layout: the programs find their libraries in `pgserver.libs` beside `pgserver`."""
    copy = ROOT_HOME / f"pginstall-{hashlib.sha256(_build(install).encode()).hexdigest()[:12]}"
    programs = copy / "pgserver" / "pginstall" / "bin"
    if not (programs / "postgres").exists():
        staging = Path(tempfile.mkdtemp(prefix=".pginstall-", dir=made_for_server(ROOT_HOME)))
        try:
            shutil.copytree(install, staging / "pgserver" / "pginstall", symlinks=True,
                            ignore=shutil.ignore_patterns("include"))
            libraries = install.parent.parent / "pgserver.libs"
            if libraries.is_dir():
                shutil.copytree(libraries, staging / "pgserver.libs", symlinks=True)
            _readable_by_all(staging)
            os.rename(staging, copy)  # whole, or not at all
        except OSError:
            if not (programs / "postgres").exists():
                raise
            # another process copied it first
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return programs


def _build(install: Path) -> str:
    """What tells one build of the programs from another, however often it is installed: the
    hash pgserver's wheel records for the server's program, else its version and size."""
    record = metadata.distribution("pgserver").read_text("RECORD") or ""
    for line in record.splitlines():
        if line.startswith("pgserver/pginstall/bin/postgres,"):
            return line
    return f"{metadata.version('pgserver')}:{(install / 'bin' / 'postgres').stat().st_size}"


def _readable_by_all(tree: Path) -> None:
    """Folders and files of a copy the ledger made readable by all, programs runnable."""
    for folder, _, files in os.walk(tree):
        os.chmod(folder, 0o755)
        for name in files:
            path = Path(folder, name)
            if not path.is_symlink():
                path.chmod(0o755 if path.stat().st_mode & 0o100 else 0o644)


def made_for_server(folder: Path) -> Path:
    """`folder`, made (with whatever of its parents is missing) so that every user may pass
    and read it; a folder that is there already is left as it is."""
    missing = [path for path in (folder, *folder.parents) if not path.exists()]
    for path in reversed(missing):
        path.mkdir(exist_ok=True)
        path.chmod(0o755)  # whatever the umask: the server's user must pass it
    return folder


def let_server_pass(path: Path) -> None:
    """Let the server's user pass every folder above `path`: nothing changes where it can; a
    folder it cannot pass is named in one line, then opened to be passed (not listed) by the
    class of users the server falls in there (its group's, else every user's)."""
    account = pwd.getpwnam(SERVER_USER)
    closed = {folder: _passing_bit(folder, account) for folder in reversed(path.parents)}
    closed = {folder: bit for folder, bit in closed.items() if not folder.stat().st_mode & bit}
    if not closed:
        return
    named = ", ".join(f"{folder} (mode {_mode(folder):04o} to {_mode(folder) | bit:04o})"
                      for folder, bit in closed.items())
    print(f"The embedded PostgreSQL runs as the system user {SERVER_USER}, which cannot reach "
          f"{path}: letting it pass (not list) {named}; a LEDGER_DATA_DIR the user "
          f"{SERVER_USER} can reach needs no change.", file=sys.stderr, flush=True)
    for folder, bit in closed.items():
        folder.chmod(_mode(folder) | bit)


def _passing_bit(folder: Path, account: pwd.struct_passwd) -> int:
    """The mode bit that lets the server pass `folder`. pgserver runs it with the user changed
    and this process's groups kept, so a folder of one of them is passed by its group's bit."""
    status = folder.stat()
    if status.st_uid == account.pw_uid:
        return 0o100
    if status.st_gid in {os.getegid(), *os.getgroups()}:
        return 0o010
    return 0o001


def _mode(folder: Path) -> int:
    return folder.stat().st_mode & 0o7777
