"""`ledger` run in the test's own process, as a user sees it: the same entry point
(`ledger.cli.main.main`), the arguments as `sys.argv`, the environment it is given as
`os.environ`, its standard output and error captured apart, and the exit code it ends with.

Starting the interpreter and importing the ledger costs about a second of CPU a call; a test
of what a command says pays it once for the whole run. What only a process shows (start-up,
signals, pipes, `serve`, the embedded server's lifetime) keeps starting `ledger` as a process.
"""

from __future__ import annotations

import io
import os
import sys
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

LEDGER = str(Path(sys.executable).with_name("ledger"))
ALWAYS_A_PROCESS = frozenset({"serve", "demo"})
"""Commands that stay processes: a server, and the demo (which starts witnesses and a sealer
and is itself the subject of its test)."""
_ONE_AT_A_TIME = threading.Lock()


@dataclass
class Result:
    code: int
    out: str
    err: str


class _Stream(io.StringIO):
    """Standard output or error as a pipe is: not a terminal, with a binary buffer beneath."""

    def __init__(self) -> None:
        super().__init__()
        self.buffer = _Bytes(self)

    def isatty(self) -> bool:
        return False


class _Bytes(io.BytesIO):
    def __init__(self, text: _Stream) -> None:
        super().__init__()
        self.text = text

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self.text.write(bytes(data).decode("utf-8", "replace"))
        return len(data)


@contextmanager
def _as_a_process(env: dict[str, str], cwd: str | None) -> Iterator[tuple[_Stream, _Stream]]:
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved = sys.argv, sys.stdin, sys.stdout, sys.stderr
    out, err = _Stream(), _Stream()
    os.environ.clear()
    os.environ.update(env)
    if cwd is not None:
        os.chdir(cwd)
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(""), out, err
    consoles = _consoles(env)
    try:
        yield out, err
    finally:
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        for console, width in consoles:
            console.width = width


def _consoles(env: dict[str, str]) -> list[tuple[object, int]]:
    """The CLI's two consoles take the width a process would read at its start (COLUMNS)."""
    from ledger.cli import console as module

    width = int(env["COLUMNS"]) if env.get("COLUMNS", "").isdigit() else module.PIPED_WIDTH
    kept = []
    for console in (module.console, module.err_console):
        kept.append((console, console.width))
        console.width = width
    return kept


def run_in_process(args: tuple[str, ...], env: dict[str, str], cwd: str | None = None) -> Result:
    """`ledger ARGS` as a process would run it, here."""
    from ledger.cli.main import main

    with _ONE_AT_A_TIME, _as_a_process(env, cwd) as (out, err):
        sys.argv = ["ledger", *args]
        try:
            main()
            code = 0
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
            if isinstance(exit_.code, str):
                err.write(exit_.code + "\n")
        except Exception:  # noqa: BLE001 - a bug: the traceback a process prints, exit code 1
            err.write(traceback.format_exc())
            code = 1
        for stream in (out, err):
            stream.flush()
        return Result(code, out.getvalue(), err.getvalue())
