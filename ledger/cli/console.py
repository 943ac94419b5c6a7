"""The CLI's two consoles, standard output and standard error, and a read command's `--json`:
Rich and Typer only, so that printing a line (`ledger --help`, an error) imports nothing of the
ledger."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer
from rich.console import Console


def _console(stderr: bool = False) -> Console:
    """Rich's console: a terminal's own width; piped to a file or another program, COLUMNS if
    set, else `PIPED_WIDTH`: wide enough for the widest table, and a rule or a panel drawn
    across it stays a screen wide (Rich would take 80, and cut a report's rows)."""
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty() or os.environ.get("COLUMNS"):
        return Console(stderr=stderr)
    return Console(stderr=stderr, width=PIPED_WIDTH)


PIPED_WIDTH = 120
console = _console()
err_console = _console(stderr=True)


JsonOption = Annotated[bool, typer.Option(
    "--json", help="Print as JSON: amounts as exact decimal strings, times with their offset.")]
"""A read command's `--json`, printed with `print_json`."""

WideOption = Annotated[bool, typer.Option(
    "--wide", help="Show every column, however narrow the terminal (lines may run past its "
    "edge); without it, the columns that do not fit are left out and named.")]
"""A table's `--wide` (`ledger.presentation.columns`)."""


def print_json(value: object) -> None:
    """A read command's `--json` on standard output: amounts as exact decimal strings, times in
    ISO 8601 with their offset, ids as text; for scripts, never for the eye."""
    import json

    from pydantic_core import to_jsonable_python

    sys.stdout.write(json.dumps(to_jsonable_python(value), indent=2, ensure_ascii=False) + "\n")
