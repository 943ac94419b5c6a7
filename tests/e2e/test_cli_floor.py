"""`ledger table list` and `ledger jackpot list` as a pit boss reads them: from the projections,
brought up to date by the command itself, so what they print is current."""

from __future__ import annotations

import json

from tests.e2e.shifts import open_shift


def _row(out: str, first_cell: str) -> list[str]:
    """The cells of the rich table row that starts with `first_cell`."""
    line = next(line for line in out.splitlines() if f"│ {first_cell} " in line)
    return [cell.strip() for cell in line.split("│")[1:-1]]


def test_table_list_shows_the_round_in_play_and_the_cards_left_in_the_shoe(cli):
    assert cli("table", "open", "QP-01", "--game", "q-poker", "--min", "100", "--max",
               "5000").code == 0
    open_shift(cli, "QP-01")
    assert cli("table", "sign-in", "QP-01", "D-4").code == 0
    assert _row(cli("table", "list").out, "QP-01")[-2:] == ["-", "-"]  # no round, no shoe
    for command in (("shoe", "shuffle", "QP-01"), ("round", "open", "QP-01"),
                    ("round", "bet", "QP-01", "1", "play", "200")):
        done = cli(*command)
        assert done.code == 0, done.err
    assert _row(cli("table", "list").out, "QP-01")[-3:] == ["D-4", "round 1 betting", "52"]
    assert cli("round", "deal", "QP-01", "box:1", "AS").code == 0
    listed = cli("table", "list")
    assert listed.code == 0, listed.err
    assert _row(listed.out, "QP-01") == [
        "QP-01", "Q Poker", "2004 rules", "100.00-5,000.00", "MAIN", "open", "D-4",
        "round 1 dealing", "51"]


def test_jackpot_list_shows_amount_seed_liability_contributions_and_hits(cli):
    assert cli("table", "open", "SP-01", "--game", "stud-poker", "--min", "100", "--max",
               "5000").code == 0
    created = cli("jackpot", "create", "STUD", "--seed", "1000", "--royal", "5000",
                  "--straight-flush", "2000", "--four", "500", "--full-house", "150",
                  "--flush", "100", "--rate", "0.5")
    assert created.code == 0, created.err
    assert cli("jackpot", "link", "STUD", "SP-01").code == 0
    assert cli("jackpot", "adjust", "STUD", "250", "--reason", "meter correction").code == 0
    listed = cli("jackpot", "list")
    assert listed.code == 0, listed.err
    assert _row(listed.out, "Stud") == [
        "Stud", "1,250.00", "1,000.00", "250.00", "0.00", "0", "SP-01"]
    pool = json.loads(cli("jackpot", "list", "--json").out)[0]
    assert (pool["name"], pool["amount"], pool["tables"]) == ("STUD", "1250.00", ["SP-01"])


def test_a_pool_is_taken_by_the_name_jackpot_list_shows_as_well_as_by_its_code(cli):
    """`jackpot list` shows "Main Progressive"; `jackpot show "Main Progressive"` was refused as
    not a pool name. Every command naming a pool takes the words, in any case, or the code."""
    assert cli("table", "open", "SP-01", "--game", "stud-poker", "--min", "100", "--max",
               "5000").code == 0
    assert cli("jackpot", "create", "MAIN-PROGRESSIVE", "--seed", "1000", "--royal", "5000",
               "--straight-flush", "2000", "--four", "500", "--full-house", "150",
               "--flush", "100", "--rate", "0.5").code == 0
    linked = cli("jackpot", "link", "Main Progressive", "SP-01")
    assert linked.code == 0, linked.err
    adjusted = cli("jackpot", "adjust", "main progressive", "250", "--reason", "meter correction")
    assert adjusted.code == 0, adjusted.err
    for name in ("Main Progressive", "MAIN PROGRESSIVE", "main-progressive"):
        shown = cli("jackpot", "show", name, "--json")
        assert shown.code == 0, (name, shown.err)
        data = json.loads(shown.out)
        assert (data["name"], data["amount"], data["tables"]) == (
            "MAIN-PROGRESSIVE", "1250.00", ["SP-01"]), name


def test_a_jackpot_pool_is_shown_by_its_name_in_words_and_its_code_kept_beside_in_json(cli):
    assert cli("table", "open", "SP-01", "--game", "stud-poker", "--min", "100", "--max",
               "5000").code == 0
    assert cli("jackpot", "create", "MAIN-PROGRESSIVE", "--seed", "1000", "--royal", "5000",
               "--straight-flush", "2000", "--four", "500", "--full-house", "150",
               "--flush", "100", "--rate", "0.5").code == 0
    assert cli("jackpot", "link", "MAIN-PROGRESSIVE", "SP-01").code == 0
    for columns in ("80", "120"):
        wide = {"COLUMNS": columns}
        for shown in (cli("jackpot", "list", extra_env=wide).out,
                      cli("jackpot", "show", "MAIN-PROGRESSIVE", extra_env=wide).out):
            assert "Main Progressive" in shown and "MAIN-PROGRESSIVE" not in shown, shown
    (pool,) = json.loads(cli("jackpot", "list", "--json").out)
    assert (pool["name"], pool["said"]["name"]) == ("MAIN-PROGRESSIVE", "Main Progressive")
    shown = json.loads(cli("jackpot", "show", "MAIN-PROGRESSIVE", "--json").out)
    assert (shown["name"], shown["said"]["name"]) == ("MAIN-PROGRESSIVE", "Main Progressive")
