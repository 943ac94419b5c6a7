"""The CLI's two consoles, standard output and standard error: Rich only, so that printing a
line (`ledger --help`, an error) imports nothing of the ledger."""

from __future__ import annotations

import os
import sys

from rich.console import Console


def _console(stderr: bool = False) -> Console:
    """Rich's console; piped to a file or another program (no terminal, no COLUMNS) it is wide
    enough for any table, where Rich would cut every line at 80 columns."""
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty() or os.environ.get("COLUMNS"):
        return Console(stderr=stderr)
    return Console(stderr=stderr, width=PIPED_WIDTH)


PIPED_WIDTH = 400
console = _console()
err_console = _console(stderr=True)
