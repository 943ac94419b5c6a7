"""Q Poker lets several players share a box (art. 6(1)): `round show` and `replay` name the
player beside the box in every bet, decision and payout, at 80 columns as at 120, so two
players on one box are never told apart only by a column a narrow terminal leaves out."""

from __future__ import annotations

import json

import pytest

from tests.e2e.shifts import open_shift


def _two_players_on_box_1(cli) -> None:
    assert cli("table", "open", "QP-01", "--game", "q-poker", "--min", "100", "--max",
               "5000").code == 0
    open_shift(cli, "QP-01")
    steps = [("table", "sign-in", "QP-01", "D-4"), ("shoe", "shuffle", "QP-01"),
             ("round", "open", "QP-01"),
             ("round", "bet", "QP-01", "1", "play", "200", "--player", "P-1"),
             ("round", "bet", "QP-01", "1", "play", "300", "--player", "P-2"),
             *(("round", "deal", "QP-01", to, card) for to, card in (
                 ("box:1", "AS"), ("dealer", "QH"), ("box:1", "KS"), ("dealer", "5D"),
                 ("box:1", "QS"), ("dealer", "2C"))),
             ("round", "decide", "QP-01", "1", "play", "--player", "P-1"),
             ("round", "decide", "QP-01", "1", "surrender", "--player", "P-2"),
             ("round", "reveal", "QP-01"), ("round", "settle", "QP-01")]
    for step in steps:
        done = cli(*step)
        assert done.code == 0, (step, done.err)


@pytest.mark.parametrize("columns", ["80", "120"])
def test_two_players_on_one_box_are_each_named_with_their_bets_decisions_and_payouts(
        cli, columns):
    _two_players_on_box_1(cli)
    wide = {"COLUMNS": columns}
    shown = cli("round", "show", "QP-01", extra_env=wide)
    assert shown.code == 0, shown.err
    rows = shown.out.splitlines()
    first = next(line for line in rows if "box 1 (P-1) play" in line)
    second = next(line for line in rows if "box 1 (P-2) play" in line)
    assert "600.00" in first and "won" in first  # a straight flush pays 3 to 1
    assert "surrendered" in second
    replayed = cli("replay", "QP-01", "1", extra_env=wide)
    assert replayed.code in (0, 1), replayed.err
    steps = [step["text"] for step in json.loads(cli("replay", "QP-01", "1", "--json").out)["steps"]]
    for words in ("bet MOP 200.00 on box 1 (P-1) play", "bet MOP 300.00 on box 1 (P-2) play",
                  "box 1 (P-1): play", "box 1 (P-2): surrender"):
        assert words in steps, steps
    assert any(text.startswith("box 1 (P-2) play surrendered") for text in steps), steps
    assert "pit boss PB-E2E" in replayed.out and "pit_boss" not in replayed.out  # a role in words
    results = replayed.out[replayed.out.index("Results as recorded"):]
    assert "box 1 (P-1) play" in results and "box 1 (P-2) play" in results
