"""`ledger demo`, which `scripts/demo` runs, as a newcomer runs it: twice on one database."""

from __future__ import annotations

import json
import re

from ledger.core.formatting import PRACTICE_MARK
from tests.e2e.conftest import NO_CREDENTIALS


def test_the_demo_runs_reconciles_replays_and_verifies_then_runs_again_on_another_floor(
        cli, empty_database, tmp_path):
    url = empty_database.url  # a newcomer's database; the demo bootstraps its own operator
    first = cli("demo", url=url, cwd=str(tmp_path), extra_env=NO_CREDENTIALS)
    assert first.code == 0, first.err + first.out
    assert "MATCH" in first.out and "DISCREPANCY" not in first.out
    assert "all hold" in first.out and "a variance of MOP 0.00" in first.out
    assert "replayed a jackpot round" in first.out and "replayed a voided round" in first.out
    assert "shuffler failure" in first.out  # a shuffler table's unit failed and was replaced
    assert "sealed live beside the floor" in first.out and "signed checkpoints" in first.out
    signed, total = re.search(r"Who acted, proven: ([\d,]+) of ([\d,]+) commands", first.out
                              ).groups()
    assert signed == total and int(total.replace(",", "")) > 1000  # every command signed
    assert (tmp_path / "demo-output").is_dir()
    _the_demo_s_own_exports_say_practice_as_report_shift_s_do(tmp_path / "demo-output")
    second = cli("demo", url=url, cwd=str(tmp_path), extra_env=NO_CREDENTIALS)
    assert second.code == 0, second.err + second.out
    # both played the shift in force, never one to come: the second, another floor of the
    # property with another seed, so no two shifts in the ledger are the same
    played = [re.search(r"The demo played (the \w+ shift of [\d-]+)", run.out)[1]
              for run in (first, second)]
    assert played[0] == played[1], played
    seeds = [re.search(r"seed (\d+)", run.out)[1] for run in (first, second)]
    assert seeds[0] != seeds[1], seeds
    assert "BAC-04" in second.out and "BAC-04" not in first.out
    assert "all hold" in second.out  # nothing dated after the ledger recorded it
    for run in (first, second):  # the second verifies only what it added, but says the whole
        said = " ".join(run.out.split())
        witnessed, recorded = (int(n.replace(",", "")) for n in re.search(
            r"witnessed: ([\d,]+) of the ledger's ([\d,]+) events are under a checkpoint",
            said).groups())
        assert 0 < witnessed <= recorded
        assert re.search(r"by the chips and the drop, a variance of MOP [\d,.-]+\. "
                         r"(No table is|1 table is|[\d,]+ tables are) flagged for review\.", said)
        assert re.search(r"Month to date, on a handle of MOP [\d,.]+: theoretical win MOP "
                         r"[\d,.-]+ \([\d.-]+% of the handle\), actual win MOP [\d,.-]+ "
                         r"\([\d.-]+% of the handle\), (within|outside) the 95% band", said)


def test_the_demo_will_not_act_on_a_ledger_another_administrator_bootstrapped(cli):
    refused = cli("demo", extra_env=NO_CREDENTIALS)
    assert refused.code == 1
    assert refused.err.strip().splitlines()[-1].startswith(
        "error: this ledger's registry has no administrator DEMO-ADMIN: bootstrapped by "
        "administrator ADM-1")


def _the_demo_s_own_exports_say_practice_as_report_shift_s_do(output) -> None:
    """A simulated shift's CSV must not pass for a real one: the demo writes its files as
    `ledger report shift --format` does, each marked as a practice ledger's."""
    [csv] = output.glob("shift-*.csv")
    [as_json] = output.glob("shift-*.json")
    [page] = output.glob("shift-*.html")
    assert csv.read_text(encoding="utf-8").startswith(f"# {PRACTICE_MARK}\n")
    assert json.loads(as_json.read_text(encoding="utf-8"))["practice"] == PRACTICE_MARK
    assert PRACTICE_MARK in page.read_text(encoding="utf-8")
