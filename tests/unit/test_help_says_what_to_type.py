"""Every command's `--help` names what a person types (`--day YYYY-MM-DD`, `TABLE`, `--out
FILE`) and shows nothing after a flag: never a bare type name (`<str>`, `<int>`, `<path>`,
TEXT, INTEGER) where the help should say what to type."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from ledger.cli.main import COMMANDS, app, load

BARE = re.compile(r"<(?:list\[)?(?:str|int|float|bool|Decimal|path|file|Path|datetime|UUID)"
                  r"(?: range)?\]?>|\b(?:TEXT|INTEGER|FLOAT|BOOLEAN|PATH)\b")


def _every_command() -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = [()]

    def walk(command: object, path: tuple[str, ...]) -> None:
        found.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    for name, target, _ in COMMANDS:
        walk(load(name, target), (name,))
    return found


@pytest.mark.parametrize("columns", ["80", "120"])
def test_no_help_shows_a_bare_type_name_where_a_person_wants_what_to_type(columns):
    runner = CliRunner()
    bare = {}
    for path in _every_command():
        shown = runner.invoke(app, [*path, "--help"], env={"COLUMNS": columns}, terminal_width=int(columns))
        assert shown.exit_code == 0, (path, shown.output)
        if found := BARE.findall(shown.output):
            bare[" ".join(path) or "ledger"] = sorted(set(found))
    assert not bare, bare


def test_a_gaming_day_reads_as_yyyy_mm_dd_and_a_table_as_table():
    shown = CliRunner().invoke(app, ["report", "shift", "--help"], env={"COLUMNS": "120"}).output
    assert re.search(r"--day\s+YYYY-MM-DD", shown), shown
    assert re.search(r"--table\s+TABLE", shown), shown
    assert re.search(r"--json\s+Print as JSON", shown), shown  # a flag: nothing to type
    shown = CliRunner().invoke(app, ["round", "show", "--help"], env={"COLUMNS": "120"}).output
    assert "round show [OPTIONS] {TABLE} [ROUND]" in shown, shown
