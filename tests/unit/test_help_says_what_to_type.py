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


def test_an_environment_variable_s_name_is_never_cut_in_help_at_80_columns():
    """`ledger verify --help` at 80 columns once showed `LEDGER_VERIFIER_K…`: the options' help
    column is too narrow for a long name, so each command names its environment variables
    whole under its options, each beside the option it stands for; no help is cut anywhere."""
    runner = CliRunner()
    cut = {}
    for path in _every_command():
        shown = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80"},
                              terminal_width=80).output
        if "…" in shown or "env var:" in shown:
            cut[" ".join(path) or "ledger"] = shown
    verify = " ".join(runner.invoke(app, ["verify", "--help"], env={"COLUMNS": "80"},
                                    terminal_width=80).output.split())
    assert ("Environment variables: LEDGER_TRUST_FILE for --trust, LEDGER_VERIFIER_KEY for "
            "--key, LEDGER_VERIFICATION_RECORD for --record.") in verify, verify
    assert not cut, cut


def test_a_command_s_description_wraps_at_the_terminal_not_where_its_source_broke_it():
    shown = CliRunner().invoke(app, ["verify", "--help"], env={"COLUMNS": "80"},
                               terminal_width=80).output
    lines = [line.strip() for line in shown.splitlines()]
    assert "trust file" not in lines and "is checked" not in lines, shown
    assert "(UNTRUSTED:" not in lines, shown
