"""The demo's "to start again" names the folders it made, never the folder they sit in: with
LEDGER_DATA_DIR=/tmp/newuser-data its keys sit beside the data, in /tmp, and "remove /tmp"
would remove whatever else is there."""

from __future__ import annotations

from pathlib import Path

from ledger.application.config import LedgerSettings
from ledger.cli.demo_next import made


def test_starting_again_removes_only_what_the_demo_made() -> None:
    settings = LedgerSettings(data_dir=Path("/tmp/newuser-data"))
    folders = made(settings)
    assert Path("/tmp/newuser-data") in folders
    assert Path("/tmp") not in folders and all(folder.name for folder in folders)
    assert {folder.name for folder in folders} == {
        "newuser-data", "simulator-keys", "demo-operator", "witness"}
