"""The ledger the previous release recorded (`tests/fixtures/previous-release`, made by
`scripts/record-release-fixture`), restored into a throw-away database as an operator restores a
plain-SQL dump: its statements as they come, nothing of today's schema assumed."""

from __future__ import annotations

import gzip
import json
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ledger.infrastructure.database import Database

FIXTURE = Path(__file__).parents[1] / "fixtures" / "previous-release"


@dataclass(frozen=True)
class Release:
    """What the fixture holds, its files unpacked into `data`."""

    manifest: dict[str, Any]
    data: Path

    def file(self, key: str) -> str:
        return str(self.data / self.manifest[key])

    @property
    def witness_states(self) -> list[str]:
        return [str(self.data / path) for path in self.manifest["witness_states"]]


def unpack(into: Path) -> Release:
    """The demo's key files, trust file and witnesses' memory, into `into`."""
    with tarfile.open(FIXTURE / "files.tar.gz") as files:
        files.extractall(into, filter="data")
    return Release(json.loads((FIXTURE / "manifest.json").read_text()), into)


def restore(database: Database, dump: Path = FIXTURE / "ledger.sql.gz") -> None:
    """What `psql -f` does with a plain dump, through psycopg (no client binaries needed):
    statements in order, each COPY's rows through COPY FROM STDIN, psql's meta-commands
    (`\\restrict`) passed over."""
    with gzip.open(dump, "rt", encoding="utf-8", newline="\n") as lines, \
            database.connect() as conn:
        pending: list[str] = []
        for line in lines:
            if line.startswith("\\"):
                continue
            if not (line.startswith("COPY ") and line.rstrip().endswith("FROM stdin;")):
                pending.append(line)
                continue
            if pending:
                conn.execute("".join(pending))
                pending = []
            with conn.cursor() as cursor, cursor.copy(line.rstrip().rstrip(";")) as copy:
                for row in lines:
                    if row == "\\.\n":
                        break
                    copy.write(row)
        if pending:
            conn.execute("".join(pending))
