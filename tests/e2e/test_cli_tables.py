"""The CLI as a pit boss runs it: tables, events, verification, and errors as one line."""

from __future__ import annotations

import json
import re

from tests.signing import UNTRUSTED, event_count


def _events(superuser) -> int:
    return event_count(superuser)


def test_a_pit_boss_opens_shows_lists_and_closes_a_table(cli):
    opened = cli("table", "open", "SP-01", "--game", "stud-poker", "--rules", "stud-poker/2003",
                 "--min", "100", "--max", "20000")
    assert opened.code == 0, opened.err
    assert "recorded: table opened" in opened.out
    assert cli("table", "sign-in", "SP-01", "D-7").code == 0
    shown = cli("table", "show", "SP-01")
    assert "Stud Poker, 2003 rules" in shown.out and "D-7" in shown.out
    listed = cli("table", "list")
    assert "SP-01" in listed.out and "open" in listed.out
    as_json = json.loads(cli("table", "list", "--json").out)
    assert [(t["code"], t["is_open"], t["min_bet"]) for t in as_json] == [
        ("SP-01", True, "100.00")]
    assert json.loads(cli("table", "show", "SP-01", "--json").out)["dealer"] == "D-7"
    closed = cli("table", "close", "SP-01")
    assert closed.code == 0 and "recorded: dealer signed out, table closed" in closed.out
    assert "closed" in cli("table", "list").out


def test_events_tail_and_show_print_what_was_recorded_and_by_whom(cli, as_staff):
    cli("table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max", "50000",
        extra_env=as_staff("PB-9", "pit_boss"))
    tail = cli("events", "tail", "-n", "5")
    assert tail.code == 0 and "table opened, stream" in tail.out
    assert "by pit boss PB-9" in tail.out
    shown = cli("events", "show", "BAC-01")
    assert "maximum bet: 50,000.00" in shown.out and "max_bet" not in shown.out


def test_events_tail_says_its_times_are_when_each_event_was_recorded_and_speaks_in_words(cli):
    """Replay and recall date a round by its commands' own times; `events tail` stamps each
    event with the time it was stored, and says so, with events and commands in words, never
    a class name (`CommandReceipt.Accepted`, `CloseShift`)."""
    assert cli("table", "open", "BAC-02", "--game", "baccarat", "--min", "100", "--max",
               "50000").code == 0
    tail = cli("events", "tail", "-n", "5", extra_env={"COLUMNS": "200"})
    flat = " ".join(tail.out.split())
    assert "each stamped with the time the ledger recorded it, Macau time" in flat, tail.out
    assert re.search(r"#\d+ recorded \d{4}-\d\d-\d\d \d\d:\d\d:\d\d Macau time: table opened",
                     flat), tail.out
    assert not re.search(r"\b[A-Z][a-z]+\.[A-Z][A-Za-z]+\b", flat), tail.out  # Table.Opened
    assert "signed command received" in flat and "command type: open table" in flat, tail.out
    assert "OpenTable" not in flat and "CommandReceipt" not in flat, tail.out


def test_table_show_says_its_fields_in_words_with_money_and_yes_or_no(cli):
    assert cli("table", "open", "BAC-04", "--game", "baccarat", "--min", "300", "--max",
               "50000").code == 0
    shown = cli("table", "show", "BAC-04").out
    rows = {line.split("  ")[0].strip(): line.split("  ", 1)[1].strip()
            for line in shown.splitlines() if "  " in line.strip()}
    assert rows["maximum bet"] == "MOP 50,000.00" and rows["minimum bet"] == "MOP 300.00"
    assert rows["open"] == "yes" and rows["game"] == "Baccarat"
    assert not {"is_open", "max_bet", "rule_set"} & set(shown.split())
    assert "True" not in shown


def test_hand_names_the_hand_as_the_regulation_does(cli):
    royal = cli("hand", "stud-poker", "AH", "KH", "QH", "JH", "TH")
    assert royal.code == 0, royal.err
    assert royal.out.strip() == "A♥ K♥ Q♥ J♥ 10♥: royal flush (as dealer's hand: qualifies)"
    pair = cli("hand", "q-poker", "JS", "JC", "9D").out
    assert "J♠ J♣ 9♦: one pair" in pair


def test_db_status_counts_the_events(cli, superuser):
    before = superuser.execute("SELECT count(*) FROM ledger_events").fetchone()[0]
    cli("table", "open", "BAC-02", "--game", "baccarat", "--min", "100", "--max", "500")
    status = cli("db", "status")
    assert status.code == 0 and "events" in status.out and f" {before + 2} " in status.out


def test_unknown_game_is_one_red_line_exit_1_and_nothing_recorded(cli, superuser):
    result = cli("table", "open", "RL-01", "--game", "roulette", "--min", "1", "--max", "2")
    assert result.code == 1
    assert result.err.strip().splitlines() == [
        "error: unknown game 'roulette': known are stud-poker, q-poker, fortune-8, baccarat."
    ]
    assert _events(superuser) == 0


def test_closing_a_table_that_is_not_open_is_one_line_and_exit_1(cli, superuser):
    cli("table", "open", "BAC-03", "--game", "baccarat", "--min", "100", "--max", "500")
    cli("table", "close", "BAC-03")
    before = _events(superuser)
    result = cli("table", "close", "BAC-03")
    assert result.code == 1
    assert result.err.strip() == "error: table BAC-03 is not open, so it cannot be closed."
    assert _events(superuser) == before


def test_a_malformed_card_is_one_line_and_exit_1(cli):
    result = cli("hand", "stud-poker", "AS", "KS", "QS", "JS", "1X")
    assert result.code == 1
    assert len(result.err.strip().splitlines()) == 1
    assert "'1X' is not a card" in result.err


def test_an_unreachable_database_is_waited_for_up_to_the_deadline_then_one_line_and_exit_1(cli):
    result = cli("table", "list", url="postgresql://postgres@127.0.0.1:1/nowhere",
                 extra_env={"LEDGER_COMMAND_DEADLINE_SECONDS": "2"})
    assert result.code == 1
    waiting, error = result.err.strip().splitlines()
    assert waiting.startswith("waiting: cannot reach the database at") and "up to 2 s" in waiting
    assert error.startswith("error: cannot reach the database at") and "(waited 2 s, the deadline)" in error


def test_verify_names_the_stream_and_version_of_a_tampered_row(cli, superuser):
    cli("table", "open", "BAC-04", "--game", "baccarat", "--min", "100", "--max", "500")
    assert cli("verify").code == UNTRUSTED
    superuser.execute("ALTER TABLE ledger_events DISABLE TRIGGER ledger_events_no_update_delete")
    superuser.execute(
        "UPDATE ledger_events SET state = convert_to(replace(convert_from(state, 'UTF8'), "
        "'500.00', '5000.00'), 'UTF8') WHERE topic LIKE '%Table.Opened'"
    )
    superuser.execute(
        "ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER ledger_events_no_update_delete"
    )
    result = cli("verify")
    assert result.code == 1
    assert "(Table BAC-04) version 1: hash does not match its contents" in result.out
