"""The docs tell a third party how to sign a command with nothing but `cryptography`
(docs/signing.md, "The signed command"): its example, run as written, makes a line `ledger
ingest` accepts, and a changed byte is refused."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

from ledger.commands.round import OpenRound
from ledger.commands.shoe import BurnCards, CutShoe, ShuffleShoe
from ledger.core import clock as ledger_clock
from ledger.domain.base import Role
from ledger.domain.registry import TerminalKind
from tests.integration.replay_rounds import open_table
from tests.signing import KEYRING, KEYS, UNTRUSTED, open_ledger

SIGNING_PAGE = Path(__file__).resolve().parents[2] / "docs" / "signing.md"


ON_THE_LEDGERS_TIME = """
import datetime, runpy, sys, time
shift = datetime.datetime.fromisoformat(sys.argv.pop()).timestamp() - time.time()  # real time: the vendor's clock, set to the ledger's
class Clock(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return datetime.datetime.fromtimestamp(time.time() + shift, tz)  # real time: ditto
datetime.datetime = Clock
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
"""The example run as its vendor runs it, its host's clock set to the ledger's (as a floor
terminal keeps the server's time): `datetime.now()` in it reads that clock."""


def documented_signing_example() -> str:
    text = SIGNING_PAGE.read_text(encoding="utf-8")
    after = text.split("In Python, with\nonly the `cryptography` package:", 1)[1]
    return re.search(r"```python\n(.*?)```", after, re.DOTALL).group(1)


def test_the_documented_signing_example_makes_a_line_the_ledger_accepts(cli, settings, tmp_path,
                                                                        superuser):
    with open_ledger(settings) as rt:
        dealer = open_table(rt.ledger, "BAC-01", "baccarat", settings={"decks": 8})
        for command, fields in ((ShuffleShoe, {}), (CutShoe, {"cut_by": "player",
                                                             "cut_card_position": 404}),
                                (BurnCards, {"count": 8}), (OpenRound, {})):
            dealer.send(command, **fields)
        rt.ledger.admin.ensure_staff("D-101", "D-101", [Role.DEALER])
        rt.ledger.admin.ensure_terminal("BAC-01-DT", TerminalKind.DEALER_TERMINAL, "BAC-01")
        ledger_id = rt.ledger.ledger_id
    KEYRING.credential("terminal", "BAC-01-DT")
    shutil.copy(KEYS / "staff-D-101.key", tmp_path / "d-101.key")
    shutil.copy(KEYS / "terminal-BAC-01-DT.key", tmp_path / "bac-01-dt.key")
    (tmp_path / "sign.py").write_text(documented_signing_example(), encoding="utf-8")
    made = subprocess.run([sys.executable, "-c", ON_THE_LEDGERS_TIME, "sign.py", ledger_id,
                           ledger_clock.now().isoformat()], cwd=tmp_path,
                          capture_output=True, text=True, check=True)
    line = made.stdout.strip()
    (tmp_path / "signed.jsonl").write_text(line + "\n")
    forged = json.loads(line)
    forged["command"]["amount"] = "9000.00"
    (tmp_path / "forged.jsonl").write_text(json.dumps(forged) + "\n")

    refused = cli("ingest", str(tmp_path / "forged.jsonl"))
    assert refused.code == 1 and "does not verify" in refused.out, refused.out
    accepted = cli("ingest", str(tmp_path / "signed.jsonl"))
    assert accepted.code == 0, accepted.out + accepted.err
    assert "1 accepted" in accepted.out
    placed = superuser.execute("SELECT body FROM ledger_event_log "
                               "WHERE event_type = 'Round.BetPlaced'").fetchall()
    assert [(b["by"]["actor"]["staff_id"], b["by"]["terminal"], Decimal(b["amount"]))
            for (b,) in placed] == [("D-101", "BAC-01-DT", Decimal("1000.00"))]
    checked = cli("verify")  # what the door accepted from the example, verify proves
    assert checked.code == UNTRUSTED and "FAIL" not in checked.out, checked.out + checked.err
