"""The exhaustive enumerations run again when what they enumerate has changed.

Each enumeration (every five-card hand of a deck; every Stud Poker deal, against the stored
`odds_data.py`) names the files it depends on: the code of the games and the cards, its own
test, and for the odds the script that makes them and the data it made. Their digest when the
enumeration last held is kept in `tests/fixtures/enumerations.json`. A run whose files have the
same digest has nothing new to enumerate and skips, saying so; a run whose files differ
enumerates everything again, as CI then does. `LEDGER_TEST_ENUMERATE=all` enumerates whatever
the digests say; `LEDGER_TEST_ENUMERATE=record` does too and, where an enumeration holds,
records today's digest (commit the file with the change that moved it).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "fixtures" / "enumerations.json"
GAMES = ("ledger/core", "ledger/games/__init__.py", "ledger/games/protocol.py")
HANDS = (*GAMES, "ledger/games/stud_poker", "tests/unit/games/test_stud_poker_enumeration.py")
ENUMERATIONS: dict[str, tuple[str, ...]] = {
    "stud-poker-hand-counts": HANDS,
    "stud-poker-hand-order": HANDS,
    "stud-poker-odds": (*GAMES, "ledger/games/stud_poker", "scripts/stud_odds.py",
                        "tests/unit/games/test_stud_poker_odds.py"),
}
"""Each enumeration (one a test) and the files it depends on."""

def _files(paths: tuple[str, ...]) -> Iterator[Path]:
    for name in paths:
        path = ROOT / name
        yield from sorted(path.rglob("*.py")) if path.is_dir() else (path,)


def digest(name: str) -> str:
    """SHA-256 over each file the enumeration depends on: its path, then its bytes."""
    made = hashlib.sha256()
    for path in _files(ENUMERATIONS[name]):
        made.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        made.update(path.read_bytes() + b"\0")
    return made.hexdigest()


def _recorded() -> dict[str, str]:
    return dict(json.loads(RECORD.read_text(encoding="utf-8"))) if RECORD.exists() else {}


def enumerate_again(name: str) -> None:
    """Skip, saying why, when the enumeration's files are those it last held for."""
    asked = os.environ.get("LEDGER_TEST_ENUMERATE", "")
    if asked in ("all", "record"):
        return
    if _recorded().get(name) == digest(name):
        pytest.skip(f"{name}: its code and data are those it last held for (digest "
                    f"{digest(name)[:12]} in {RECORD.relative_to(ROOT)}); "
                    "LEDGER_TEST_ENUMERATE=all enumerates again")


def held(name: str) -> None:
    """The enumeration held: under LEDGER_TEST_ENUMERATE=record, its digest is recorded."""
    if os.environ.get("LEDGER_TEST_ENUMERATE") != "record":
        return
    record = _recorded()
    record[name] = digest(name)
    RECORD.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n", encoding="utf-8")
