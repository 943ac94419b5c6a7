"""Every read command of `ledger` takes `--json`, for scripts: the facts its terminal
output shows, under stable snake_case keys. Money is an exact decimal string ("1000.00", never
a float); every time is Macau time with its offset ("+08:00"), whatever zone the server keeps;
a refusal is still one red line on stderr and exit 1, with nothing on stdout."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from typing import Any

from ledger.core import clock as ledger_clock
from ledger.core.formatting import MACAU
from ledger.domain.registry import TerminalKind
from tests.e2e.shifts import open_shift
from tests.e2e.test_cli_rounds import ok
from tests.signing import GAMING_DAY, key_file

DAY = ("--day", GAMING_DAY.isoformat(), "--shift", "day")


def as_json(cli, *args: str, env: dict[str, str] | None = None) -> Any:
    """What `ledger ARGS --json` printed, parsed."""
    return json.loads(ok(cli, *args, "--json", env=env))


def macau_time(text: str) -> datetime:
    """A time as the JSON gives it: ISO 8601 in Macau time, its offset written out."""
    assert text.endswith("+08:00"), text
    return datetime.fromisoformat(text)


def _baccarat_coup(cli, as_staff) -> None:
    """BAC-01's round 1: banker 1,000.00 (P-1) wins 950.00, player pair 100.00 wins 1,100.00."""
    ok(cli, "table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max", "50000")
    open_shift(cli, "BAC-01")
    ok(cli, "table", "sign-in", "BAC-01", "D-101")
    ok(cli, "shoe", "shuffle", "BAC-01", env=as_staff("D-101", "dealer", terminal="BAC-01-DT",
                                                     kind=TerminalKind.DEALER_TERMINAL))
    ok(cli, "shoe", "cut", "BAC-01", "--by", "player P-3", "--at", "404")
    ok(cli, "shoe", "burn", "BAC-01", "--count", "8")
    ok(cli, "round", "open", "BAC-01")
    ok(cli, "round", "bet", "BAC-01", "1", "banker", "1000", "--player", "P-1")
    ok(cli, "round", "bet", "BAC-01", "3", "player_pair", "100")
    for to, card in (("player", "2S"), ("banker", "4H"), ("player", "2D"), ("banker", "KC"),
                     ("player", "9S")):
        ok(cli, "round", "deal", "BAC-01", to, card)
    ok(cli, "round", "settle", "BAC-01")


def test_round_show_json_gives_each_bet_with_its_result_in_exact_amounts(cli, as_staff):
    _baccarat_coup(cli, as_staff)
    shown = as_json(cli, "round", "show", "BAC-01")
    assert (shown["table"], shown["number"], shown["game"], shown["phase"]) == (
        "BAC-01", 1, "baccarat", "settled")
    assert shown["result"].startswith("banker wins, player 3 banker 4")
    assert shown["outcome"]["winner"] == "banker"
    assert shown["gaming_day"] == GAMING_DAY.isoformat()
    assert [(c["to"], c["card"], c["face_up"]) for c in shown["cards"]] == [
        ("player", "2S", False), ("banker", "4H", False), ("player", "2D", False),
        ("banker", "KC", False), ("player", "9S", False)]
    assert [c["shoe_position"] for c in shown["cards"]] == [8, 9, 10, 11, 12]  # 8 burned first
    assert shown["bets"] == [
        {"box": 1, "spot": "banker", "player": "P-1", "stake": "1000.00", "outcome": "won",
         "returned": "1000.00", "payout": "1000.00", "commission": "50.00",
         "carried_from": None},
        {"box": 3, "spot": "player_pair", "player": None, "stake": "100.00", "outcome": "won",
         "returned": "100.00", "payout": "1100.00", "commission": "0.00",
         "carried_from": None},
    ]
    assert shown["jackpots"] == [] and shown["adjustments"] == []
    assert as_json(cli, "round", "show", "BAC-01", "1") == shown  # the round named, the latest


def test_round_show_json_gives_a_bet_not_yet_settled_without_a_result(cli):
    ok(cli, "table", "open", "QP-01", "--game", "q-poker", "--min", "100", "--max", "20000")
    open_shift(cli, "QP-01")
    ok(cli, "table", "sign-in", "QP-01", "D-101")
    ok(cli, "shoe", "shuffle", "QP-01")
    ok(cli, "round", "open", "QP-01")
    ok(cli, "round", "bet", "QP-01", "2", "play", "1000", "--player", "P-7")
    shown = as_json(cli, "round", "show", "QP-01")
    assert shown["phase"] == "betting" and shown["result"] is None
    assert shown["bets"] == [{"box": 2, "spot": "play", "player": "P-7", "stake": "1000.00",
                              "outcome": None, "returned": None, "payout": None,
                              "commission": None, "carried_from": None}]


def test_shoe_show_json_counts_the_cards_out_and_left(cli, as_staff):
    _baccarat_coup(cli, as_staff)
    shoe = as_json(cli, "shoe", "show", "BAC-01")
    assert (shoe["table"], shoe["decks"], shoe["method"]) == ("BAC-01", 8, "hand")
    assert (shoe["cards_out"], shoe["cards_remaining"]) == (13, 403)  # 8 burned, 5 dealt
    assert (shoe["cut_by"], shoe["cut_at"]) == ("player P-3", 404)
    assert shoe["is_closed"] is False and shoe["cut_card_reached"] is False
    assert shoe["commitment"] is None


def test_shift_show_json_gives_inventories_slips_drop_and_accounting_win(cli, as_staff):
    ok(cli, "table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max", "50000")
    cosigned = ("--supervisor", "S-1", "--cosigner", key_file("S-1"))
    ok(cli, "shift", "open", "BAC-01", *DAY, "--chips", "1000=50,100=40", "--dealer", "D-1",
       *cosigned)
    ok(cli, "shift", "fill", "BAC-01", *DAY, "--slip", "1043", "--chips", "1000=20",
       "--runner", "R-1", *cosigned)
    ok(cli, "shift", "credit", "BAC-01", *DAY, "--slip", "1044", "--chips", "5000=2",
       "--runner", "R-2", *cosigned)
    ok(cli, "shift", "fill", "BAC-01", *DAY, "--slip", "1045", "--chips", "1000=99",
       "--runner", "R-1", *cosigned)
    ok(cli, "shift", "void-slip", "BAC-01", *DAY, "--slip", "1045", "--reason", "keyed twice")
    pending = as_json(cli, "shift", "show", "BAC-01", *DAY)
    assert pending["is_closed"] is False and pending["closed_by"] is None
    assert pending["drop"] is None and pending["figures"]["accounting_win"] is None
    ok(cli, "shift", "drop", "BAC-01", *DAY, "--cash", "30000", "--markers", "5000",
       "--counted-by", "C-1", "--counted-by", "C-2",
       env=as_staff("C-1", "count_team", terminal="COUNT-E2E", kind=TerminalKind.COUNT_ROOM))
    ok(cli, "shift", "close", "BAC-01", *DAY, "--chips", "1000=45,100=40", "--dealer", "D-2",
       *cosigned)

    shown = as_json(cli, "shift", "show", "BAC-01", *DAY)
    assert (shown["table"], shown["gaming_day"], shown["shift"], shown["is_closed"]) == (
        "BAC-01", GAMING_DAY.isoformat(), "day", True)
    assert shown["opened_by"] == {"dealer": "D-1",
                                  "supervisor": {"staff_id": "S-1", "role": "supervisor"}}
    assert shown["closed_by"]["dealer"] == "D-2"
    assert shown["opening_chips"] == {"100": 40, "1000": 50}
    assert shown["closing_chips"] == {"100": 40, "1000": 45}
    assert [(s["number"], s["kind"], s["amount"], s["chips"], s["runner"]) for s in
            shown["slips"]] == [(1043, "fill", "20000.00", {"1000": 20}, "R-1"),
                                (1044, "credit", "10000.00", {"5000": 2}, "R-2"),
                                (1045, "fill", "99000.00", {"1000": 99}, "R-1")]
    assert [s["voided"] for s in shown["slips"]][:2] == [None, None]
    assert "keyed twice" in shown["slips"][2]["voided"]
    assert shown["drop"] == {"cash": "30000.00", "markers": "5000.00",
                             "counted_by": ["C-1", "C-2"]}
    # 49,000 closing - 54,000 opening + 10,000 credits - 20,000 fills + 35,000 drop
    assert shown["figures"] == {"opening": "54000.00", "fills": "20000.00",
                                "credits": "10000.00", "drop": "35000.00",
                                "closing": "49000.00", "accounting_win": "20000.00"}


def test_events_tail_and_show_json_give_each_event_recorded_in_macau_time(cli, superuser):
    before = ledger_clock.now().astimezone(MACAU) - timedelta(seconds=1)
    ok(cli, "table", "open", "BAC-07", "--game", "baccarat", "--min", "100", "--max", "50000")
    ok(cli, "table", "sign-in", "BAC-07", "D-3")
    after = ledger_clock.now().astimezone(MACAU) + timedelta(seconds=1)

    shown = as_json(cli, "events", "show", "BAC-07", env={"PGTZ": "UTC"})  # the server's zone
    assert [(e["event_type"], e["version"]) for e in shown] == [
        ("Table.Opened", 1), ("Table.DealerSignedIn", 2)]
    assert all(before <= macau_time(e["recorded_at"]) <= after for e in shown), shown
    opened = shown[0]
    assert (opened["body"]["table"] if "table" in opened["body"] else opened["body"]["code"]) \
        == "BAC-07"
    assert (opened["body"]["min_bet"], opened["body"]["max_bet"]) == ("100.00", "50000.00")
    assert opened["by"] == {"role": "pit_boss", "staff_id": "PB-E2E", "terminal": "PIT-E2E"}
    assert "by" not in opened["body"] and "timestamp" not in opened["body"]
    assert len({e["stream_id"] for e in shown}) == 1

    tail = as_json(cli, "events", "tail", "-n", "3")
    assert len(tail) == 3
    last = superuser.execute("SELECT max(position) FROM ledger_event_log").fetchone()[0]
    assert [e["position"] for e in tail][-1] == last
    assert [e["position"] for e in tail] == sorted(e["position"] for e in tail)  # oldest first
    assert shown[-1] in tail  # the sign-in, then its command's receipt


def test_db_status_json_counts_events_projections_and_the_rounds_left_open(cli, superuser,
                                                                            database):
    ok(cli, "table", "open", "QP-02", "--game", "q-poker", "--min", "100", "--max", "5000")
    open_shift(cli, "QP-02")
    ok(cli, "table", "sign-in", "QP-02", "D-101")
    ok(cli, "shoe", "shuffle", "QP-02")
    ok(cli, "round", "open", "QP-02")
    ok(cli, "projections", "run", "--once")

    status = as_json(cli, "db", "status")
    count, last = superuser.execute(
        "SELECT count(*), max(notification_id) FROM ledger_events").fetchone()
    assert status["initialised"] is True
    assert (status["events"], status["last_position"]) == (count, last)
    # where the data lives, as the CLI's own connection names it (a socket path when embedded)
    assert status["database"].endswith(database.params["dbname"])
    tracked = {p["name"]: p for p in status["projections"]}
    assert tracked["table_state"] == {"name": "table_state", "position": last, "lag": 0,
                                      "stopped": None, "rebuilding": False,
                                      "other_version": None}
    assert all(p["lag"] == last - p["position"] for p in tracked.values()), tracked
    [open_round] = status["open_rounds"]
    assert (open_round["table"], open_round["number"], open_round["stale"]) == ("QP-02", 1, False)
    assert macau_time(open_round["opened_at"]) <= macau_time(open_round["last_event_at"])
    assert open_round["description"].startswith("round 1 of QP-02 open since")


def test_db_status_json_says_when_the_database_is_not_initialised(cli, empty_database):
    done = cli("db", "status", "--json", url=empty_database.url)
    assert done.code == 0, done.err
    status = json.loads(done.out)
    assert status == {"database": status["database"], "initialised": False, "events": None,
                      "last_position": None, "partitions": None, "projections": [],
                      "open_rounds": []}
    assert empty_database.params["dbname"] in status["database"]


def test_seal_status_json_gives_counts_and_checkpoints_sealed_in_macau_time(cli, sealed):
    status = as_json(cli, "seal", "status")
    assert status["recorded"] == status["sealed"] == status["checkpointed"] > 0
    assert status["not_checkpointed"] == 0
    assert status["witness"].startswith(str(sealed.witness))
    assert status["checkpoints"], status
    last = status["checkpoints"][-1]
    assert last["size"] == status["checkpointed"]
    assert re.fullmatch(r"[0-9a-f]{64}", last["root"])  # the whole root, where the table cuts it
    assert last["key"].startswith("ed25519:")
    assert abs(macau_time(last["sealed_at"]) - ledger_clock.now().astimezone(MACAU)) < timedelta(minutes=10)
    assert (sealed.witness / status["ledger_id"]).is_dir()
    assert status["signed_checkpoints"] >= len(status["checkpoints"])


def test_seal_status_says_how_many_checkpoints_its_newest_few_are_of(cli, sealed, superuser):
    """It listed five under "the last checkpoints" while the demo spoke of fifteen."""
    signed = superuser.execute("SELECT count(*) FROM ledger_seal_checkpoints").fetchone()[0]
    shown = cli("seal", "status")
    assert shown.code == 0, shown.err
    listed = min(signed, 5)
    noun = "signed checkpoint" if signed == 1 else "signed checkpoints"
    assert f"the newest {listed} of its {signed:,} {noun}:" in " ".join(shown.out.split())


def test_jackpot_show_json_gives_the_pool_in_exact_amounts(cli):
    ok(cli, "table", "open", "SP-01", "--game", "stud-poker", "--min", "100", "--max", "5000")
    ok(cli, "jackpot", "create", "STUD", "--seed", "1000", "--royal", "5000",
       "--straight-flush", "2000", "--four", "500", "--full-house", "150", "--flush", "100",
       "--rate", "0.5")
    ok(cli, "jackpot", "link", "STUD", "SP-01")
    ok(cli, "jackpot", "adjust", "STUD", "250.5", "--reason", "meter correction")
    pool = as_json(cli, "jackpot", "show", "STUD")
    assert {k: pool[k] for k in ("name", "amount", "seed", "liability", "contributions",
                                 "reserve", "hits", "tables")} == {
        "name": "STUD", "amount": "1250.50", "seed": "1000.00", "liability": "250.50",
        "contributions": "0.00", "reserve": "0.00", "hits": 0, "tables": ["SP-01"]}
    listed = as_json(cli, "jackpot", "list")[0]  # the same keys say the same as the list's
    assert {k: listed[k] for k in ("pool_id", "amount", "seed", "liability")} == {
        k: pool[k] for k in ("pool_id", "amount", "seed", "liability")}


def test_staff_terminal_and_key_json_give_records_and_changes_in_macau_time(cli, as_admin):
    ok(cli, "staff", "suspend", "D-9", "--reason", "on leave", env=as_admin)

    staff = {m["staff_id"]: m for m in as_json(cli, "staff", "list")}
    assert staff["D-101"]["roles"] == ["dealer"] and staff["D-101"]["suspended"] is None
    assert staff["S-1"]["roles"] == ["supervisor"]
    assert staff["D-9"]["suspended"] == "on leave"
    key = as_json(cli, "key", "show", key_file("S-1"))
    assert (key["kind"], key["id"]) == ("staff", "S-1")
    assert key["fingerprint"].startswith("ed25519:")
    assert (staff["S-1"]["public_key"], staff["S-1"]["fingerprint"]) == (
        key["public_key"], key["fingerprint"])

    member = as_json(cli, "staff", "show", "D-9")
    assert {k: member[k] for k in staff["D-9"]} == staff["D-9"]
    assert [change["event"] for change in member["history"]] == ["Enrolled", "Suspended"]
    suspended = member["history"][-1]
    assert (suspended["version"], suspended["role"], suspended["staff_id"]) == (
        2, "administrator", "ADM-1")
    assert abs(macau_time(suspended["at"]) - ledger_clock.now().astimezone(MACAU)) < timedelta(minutes=10)

    devices = {d["terminal_id"]: d for d in as_json(cli, "terminal", "list")}
    assert (devices["PIT-E2E"]["kind"], devices["PIT-E2E"]["revoked"]) == (
        "pit_workstation", None)
    device = as_json(cli, "terminal", "show", "PIT-E2E")
    assert (device["location"], device["fingerprint"]) == (
        devices["PIT-E2E"]["location"], devices["PIT-E2E"]["fingerprint"])
    assert device["history"][0]["event"] == "Registered"
    macau_time(device["history"][0]["at"])


def test_hand_json_gives_what_the_rules_make_of_the_cards(cli):
    poker = as_json(cli, "hand", "stud-poker", "AS", "KS", "QS", "JS", "10S")
    assert poker == {"game": "stud-poker", "cards": ["AS", "KS", "QS", "JS", "TS"],
                     "category": "royal_flush", "dealer_qualifies": True}
    coup = as_json(cli, "hand", "baccarat", "2S", "4H", "2D", "KC", "9S")
    assert (coup["player_cards"], coup["player_total"]) == (["2S", "2D", "9S"], 3)
    assert (coup["banker_cards"], coup["banker_total"], coup["winner"]) == (
        ["4H", "KC"], 4, "banker")
    assert as_json(cli, "hand", "fortune-8", "7S", "8D")["winning_boxes"] == [
        {"card": "7S", "box": "L"}, {"card": "8D", "box": "8"}]


def test_a_refusal_under_json_is_still_one_red_line_and_nothing_on_stdout(cli):
    for command in (("round", "show", "NOPE-1"), ("shoe", "show", "NOPE-1"),
                    ("events", "show", "NOPE-1"), ("jackpot", "show", "NOPE"),
                    ("staff", "show", "X-404"), ("hand", "chess", "AS")):
        refused = cli(*command, "--json")
        assert refused.code == 1, (command, refused.out)
        lines = refused.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (command, refused.err)
        assert refused.out == "", command
