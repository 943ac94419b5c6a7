"""Run by `scripts/record-release-fixture` with a released commit's code first on the path: that
commit's `ledger demo` on a small floor, and what the upgrade test needs to know of the ledger it
recorded (`manifest.json`). It uses only what a release's demo has: `run_demo` and its floor's
size (`TABLES`, `ROUNDS`)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from rich.console import Console

from ledger.cli import demo

TABLES, ROUNDS = 4, 4  # one table of each game: a few thousand events, a dump well under 1 MB


def main(data: Path, manifest: Path) -> int:
    demo.TABLES, demo.ROUNDS = TABLES, ROUNDS
    console = Console(record=True, width=200)
    ok = demo.run_demo(console)
    said = console.export_text()
    played = re.search(r"The demo played the (\w+) shift of ([\d-]+)", said)
    replayed = re.findall(r"replayed a [\w ]+ from the events alone: (\S+) round (\d+)", said)
    if not ok or played is None:
        print("the release's demo did not verify: no fixture recorded", file=sys.stderr)
        return 1
    trust = sorted(data.rglob("trust-*.json"))
    states = sorted(data.rglob("witness-*-state.json"))
    manifest.write_text(json.dumps({
        "tables": TABLES, "rounds": ROUNDS, "shift": played[1], "gaming_day": played[2],
        "replay": [[table, int(number)] for table, number in replayed] or [["BAC-01", 1]],
        "trust": str(trust[0].relative_to(data)),
        "witness_states": [str(path.relative_to(data)) for path in states],
        "staff_key": "demo-operator/staff-DEMO-ADMIN.key",
        "terminal_key": "demo-operator/terminal-DEMO-CONSOLE.key",
        "seal_key": "demo-operator/seal-DEMO-SEAL.key",
    }, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
