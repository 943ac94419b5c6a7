"""`ledger demo`, which `scripts/demo` runs, as a newcomer runs it: twice on one database."""

from __future__ import annotations


def test_the_demo_runs_reconciles_replays_and_verifies_then_runs_again_the_next_day(cli, tmp_path):
    first = cli("demo", cwd=str(tmp_path))  # the demo writes demo-output/ where it runs
    assert first.code == 0, first.err + first.out
    assert "MATCH" in first.out and "DISCREPANCY" not in first.out
    assert "all hold" in first.out and "variance 0.00" in first.out
    assert "replayed a jackpot round" in first.out and "replayed a voided round" in first.out
    assert "shuffler failure" in first.out  # a shuffler table's unit failed and was replaced
    assert (tmp_path / "demo-output").is_dir()
    second = cli("demo", cwd=str(tmp_path))
    assert second.code == 0, second.err + second.out
    assert "the day shift of" in second.out
