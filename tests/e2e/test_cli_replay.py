"""`ledger replay`, `ledger recall` and `ledger verify` as a surveillance officer runs them,
and the replay's HTML page rendered by a real headless Chromium.

The rounds are recorded through the application (`tests/integration/replay_rounds.py`), the
forged ones with SQL behind its back; then the installed `ledger` command reads them back.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from ledger.core import clock as ledger_clock
from ledger.domain.jackpot_pool import JackpotPool, pool_id
from tests.e2e.browser import chromium, needs_chromium
from tests.integration import replay_rounds as rounds
from tests.signing import open_ledger


@pytest.fixture
def recorded(settings):
    """A baccarat coup, a Stud Poker jackpot round, and a forged baccarat settlement."""
    with open_ledger(settings) as rt, rt.database.connect() as conn:
        rounds.baccarat_round(rt.ledger)
        rounds.stud_jackpot_round(rt.ledger)
        rounds.baccarat_dealt(rt.ledger, "BAC-09")
        forged = rounds.forge_settlement(rt.ledger, conn, "BAC-09", 1,
                                         {(2, "banker"): {"payout": "2000.00"}})
    return forged


def test_replay_by_table_and_number_draws_the_cards_and_says_match(cli, recorded):
    result = cli("replay", "BAC-01", "1")
    assert result.code == 0, result.err
    assert "MATCH" in result.out and "DISCREPANCY" not in result.out
    assert "│ 4♥│" in result.out and "│ K♦│" in result.out  # the cards, drawn
    assert "cut by player at box 3" in result.out
    assert "the revealed order hashes to the commitment" in result.out
    assert "hash chain holds for all" in result.out


def test_replay_json_by_round_id_and_by_table_and_time(cli, recorded):
    by_time = cli("replay", "--table", "SP-01", "--at", ledger_clock.now().isoformat(), "--json")
    assert by_time.code == 0, by_time.err
    data = json.loads(by_time.out)
    assert (data["format"], data["table"], data["number"]) == ("round-ledger/replay/1", "SP-01", 1)
    assert data["check"]["verdict"] == "MATCH"
    assert [p["box"] for p in data["jackpot"]["recorded"]["prizes"]] == [1, 2]
    by_id = cli("replay", data["round_id"], "--json")
    assert json.loads(by_id.out)["steps"] == data["steps"]


def test_replay_and_recall_give_a_jackpot_rounds_table_win_with_the_jackpot_apart(cli, recorded):
    printed = cli("replay", "SP-01", "1").out
    assert "Win as recorded: table win MOP -17,900.00; jackpot stakes MOP 30.00 (to the pool); " \
        "jackpot prize paid MOP 20,000.00 to box 1, straight flush (from the pool)" in printed
    assert "won the jackpot: straight flush, prize MOP 20,000.00 (from the pool)" in printed
    assert "house win" not in printed
    [played] = json.loads(cli("recall", "SP-01", "--json").out)["rounds"]
    win = played["win"]
    assert (win["table_win"], win["jackpot_stakes"], win["jackpot_prizes"]) == (
        "-17900.00", "30.00", "25000.00")
    assert played["house_win"] == "-17870.00"  # as settled: the jackpot bets counted in
    heading = next(line for line in cli("recall", "SP-01").out.splitlines()
                   if "round" in line and "status" in line)
    assert "table win" in heading and "house win" not in heading


def test_a_forged_payout_exits_1_naming_the_bet_and_both_amounts(cli, recorded):
    result = cli("replay", str(recorded))
    assert result.code == 1
    assert "DISCREPANCY" in result.out
    assert "box 2 banker: payout recorded 2000.00, re-computed 0.00" in result.out
    as_json = json.loads(cli("replay", "BAC-09", "1", "--json").out)
    assert as_json["check"]["verdict"] == "DISCREPANCY"
    assert {"subject": "box 2 banker", "field": "payout", "recorded": "2000.00",
            "recomputed": "0.00"} in as_json["check"]["differences"]


def test_replay_refuses_a_round_it_cannot_name_in_one_line(cli, recorded):
    for args, sentence in (
        (("replay", "BAC-01", "x"), "'x' is not a round number"),
        (("replay", "BAC-01", "7"), "table BAC-01 has no round 7"),
        (("replay", "XX-99", "3"), "error: table XX-99 does not exist"),  # as recall
        (("recall", "XX-99"), "error: table XX-99 does not exist"),
        (("replay", "not-a-uuid"), "'not-a-uuid' is not a round id"),
        (("replay", "--table", "BAC-01"), "--table and --at go together"),
        (("replay", "--table", "BAC-01", "--at", "yesterday"), "'yesterday' is not an ISO time"),
    ):
        result = cli(*args)
        assert result.code == 1, args
        lines = result.err.strip().splitlines()
        assert len(lines) == 1 and sentence in lines[0], (args, result.err)


def test_replay_schema_documents_the_json(cli):
    schema = json.loads(cli("replay", "--schema").out)
    assert schema["title"] == "RoundReplay"
    assert "verdict" in schema["$defs"]["Check"]["properties"]


def test_recall_shows_the_last_rounds_with_results_and_payouts(cli, recorded):
    result = cli("recall", "BAC-01", "--last", "10")
    assert result.code == 0, result.err
    assert "Table BAC-01: the latest round (" in result.out  # one round, said so
    assert "player wins, player 9 banker 6; banker pair" in result.out  # who won, in words
    assert "player: 4♥ K♦ 5♦ (9 points)" in result.out
    data = json.loads(cli("recall", "BAC-01", "--json").out)
    [coup] = data["rounds"]
    assert (coup["number"], coup["stakes"], coup["payouts"]) == (1, "3700.00", "2600.00")


def test_verify_exits_1_and_names_a_pool_that_does_not_add_up(cli, recorded, superuser):
    # The forged settlement adds up on its own (conserving money is verify's check, being
    # what the rules give is the replay's), but no command recorded it and its table never
    # saw the round finish: verify names both.
    before = cli("verify", "--no-projections").out
    assert "FAIL money" not in before
    assert "no receipt" in before and "recorded by no command" in before
    assert "settled, but its table never recorded the round finished" in before
    pool = pool_id(rounds.POOL)
    version = superuser.execute("SELECT max(originator_version) FROM ledger_events "
                                "WHERE originator_id = %s", (pool,)).fetchone()[0]
    rounds.insert_events(superuser, [JackpotPool.Adjusted(
        originator_id=pool, originator_version=version + 1, timestamp=ledger_clock.now(),
        amount=Decimal("-100.00"), reason="typed in psql", pool_after=Decimal("1.00"),
        by=rounds.forge_provenance())])
    result = cli("verify")
    assert result.code == 1
    assert "FAIL pool: pool REPLAY-POOL" in result.out and "does not add up" in result.out
    assert "all chains hold" in result.out


# -- the page in a real browser ---------------------------------------------------------------


@needs_chromium
@pytest.mark.parametrize("round_ref, verdict", [(("SP-01", "1"), "MATCH"),
                                                (("BAC-09", "1"), "DISCREPANCY")])
def test_the_replay_page_renders_in_chromium_with_its_verdict(cli, recorded, tmp_path,
                                                              round_ref, verdict):
    page = tmp_path / "replay.html"
    cli("replay", *round_ref, "--html", str(page))
    text = page.read_text(encoding="utf-8")
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in text  # self-contained: nothing loaded from outside

    shot = tmp_path / "page.png"
    done = chromium(tmp_path, page, f"--screenshot={shot}", "--window-size=1280,2000")
    assert shot.exists(), done.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 30_000  # cards, tables and colour: not a blank page

    dom = chromium(tmp_path, page, "--dump-dom").stdout
    assert f'data-verdict="{verdict}"' in dom
    assert f">{verdict}</span>" in dom
    assert dom.count('<svg class="card"') >= 5
    assert "Appendix: hash-chain evidence" in dom
    assert dom.index("Appendix: hash-chain evidence") > dom.index("Timeline")  # evidence last
    assert "Macau time" in dom and "round-ledger" in dom  # times labelled; the version printed
