"""Every refusal is one sentence a person can act on: the field, the file, the line and column,
the place the list really is; never a model's class name or the parser's own wording. Each
exits 1, says it once, and records nothing."""

from __future__ import annotations

import json

from tests.e2e.test_cli_rounds import ok, refused
from tests.signing import event_count

BET = {"command": "place_bet", "table": "BAC-01", "round": 1, "box": 1, "spot": "banker",
       "amount": "100.00"}
PYDANTIC = ("TrustFile", "Field required", "Invalid JSON", "expected ident", "validation error",
            "pydantic")


def _ingested(cli, superuser, tmp_path, *lines: str) -> list[str]:
    """What `ingest --vouch` says of a feed of these lines, once checked that it exited 1 and
    recorded nothing."""
    feed = tmp_path / "feed.jsonl"
    feed.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    before = event_count(superuser)
    result = cli("ingest", "--vouch", str(feed))
    assert result.code == 1 and "Traceback" not in result.out + result.err, result.err
    assert event_count(superuser) == before
    said = result.out.strip().splitlines()
    assert said[-1] == f"0 accepted, 0 already recorded, {len(lines)} rejected", result.out
    return said[:-1]


def _raw(**fields: str) -> str:
    """A bet line with these fields written as given (JSON numbers, literals)."""
    line = json.dumps({key: "@" + key for key in fields} | {
        key: value for key, value in BET.items() if key not in fields})
    for key, value in fields.items():
        line = line.replace(f'"@{key}"', value)
    return line


def test_a_box_of_1e999_names_the_field_and_the_whole_number_it_takes(cli, superuser, tmp_path):
    said = _ingested(cli, superuser, tmp_path, _raw(box="1e999"))
    assert said == [("line 1: rejected: 'box' is the number 1e999: not a finite number; 'box' "
                    "takes a whole number from 1 to 99; nothing recorded.")]
    assert "money" not in said[0]


def test_an_unknown_command_points_to_ledger_schema_which_lists_every_command(
        cli, superuser, tmp_path):
    said = _ingested(cli, superuser, tmp_path, json.dumps({**BET, "command": "plaec_bet"}))
    assert said == [("line 1: rejected: unknown command 'plaec_bet' (did you mean 'place_bet'?): "
                    "`ledger schema` lists every command a terminal can send, with its fields.")]
    listed = cli("schema")
    assert listed.code == 0 and '"place_bet"' in listed.out and '"open_round"' in listed.out


def test_an_amount_of_1e999_is_one_sentence_naming_the_command_once(cli, superuser, tmp_path):
    said = _ingested(cli, superuser, tmp_path, _raw(amount='"1e999"'), _raw(amount="1e999"))
    assert said[0] == ("line 1: rejected: place_bet: amount: an amount is written in plain "
                       "figures, such as 100000.00, not in scientific notation (1E+999); "
                       "nothing recorded.")
    assert said[1].startswith("line 2: rejected: 'amount' is the number 1e999: not a finite "
                              "amount of money"), said[1]
    for line in said:
        assert line.count("place_bet") <= 1 and ".;" not in line and ".." not in line, line
        assert line.endswith("; nothing recorded."), line


def test_a_line_missing_its_closing_brace_is_named_with_its_line_and_column(
        cli, superuser, tmp_path):
    good = json.dumps(BET)
    said = _ingested(cli, superuser, tmp_path, good.replace('"round": 1', '"round": 0'),
                     good[:-1])
    assert said[1] == (f"line 2: rejected: not JSON: it ends at column {len(good)} before the "
                       "JSON is complete (expecting ',' delimiter); nothing recorded."), said[1]


def test_a_bad_trust_file_is_named_with_its_line_and_column(cli, superuser, tmp_path):
    trust = tmp_path / "trust.json"
    cases = {
        "{x": f"error: {trust} is not a trust file (round-ledger/trust/1): not JSON at line 1, "
              "column 2: key must be a string.",
        '{"ledger": "x",\n "seal_public_key": }': f"error: {trust} is not a trust file "
        "(round-ledger/trust/1): not JSON at line 2, column 21: expected value.",
        "{}": f"error: {trust} is not a trust file (round-ledger/trust/1): 'ledger', 'origin', "
              "'seal_public_key', 'administrator', 'administrator_public_key', 'quorum' and "
              "'written_at' are missing.",
    }
    for text, words in cases.items():
        trust.write_text(text, encoding="utf-8")
        for reads in (("verify", "--trust", str(trust)), ("trust", "show", str(trust)),
                      ("replay", "BAC-01", "1", "--trust", str(trust))):
            line = refused(cli, superuser, *reads)
            assert line == words, (reads, line)
            assert not any(word in line for word in PYDANTIC), line


def test_an_unknown_table_is_said_in_one_sentence_by_every_command(cli, superuser):
    ok(cli, "table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max", "5000")
    for table in ("XX-99", "NOPE"):
        said = {refused(cli, superuser, "replay", table, "3"),
                refused(cli, superuser, "recall", table),
                refused(cli, superuser, "replay", "--table", table, "--at", "2026-11-02T14:00"),
                refused(cli, superuser, "table", "show", table),
                refused(cli, superuser, "round", "show", table),
                refused(cli, superuser, "edges", table),
                refused(cli, superuser, "table", "close", table),
                refused(cli, superuser, "events", "show", table)}
        sentence = f"error: table {table} does not exist: `ledger table list` shows the tables."
        assert said == {sentence}, said
    assert refused(cli, superuser, "replay", "BAC-01", "3") == "error: table BAC-01 has no round 3."


def test_a_line_dated_outside_the_clock_window_names_its_command_once_not_its_class(
        cli, superuser, tmp_path):
    """A terminal whose clock ran two days slow: the line is refused in one sentence that names
    the command as the terminal sent it (place_bet), once, never the class behind it."""
    from datetime import timedelta

    from ledger.core import clock as ledger_clock

    late = (ledger_clock.now() - timedelta(days=2)).isoformat()
    said = _ingested(cli, superuser, tmp_path, json.dumps({**BET, "at": late}))
    assert len(said) == 1 and "is not within 36 h before and 5 min after the ledger's clock" \
        in said[0], said
    assert said[0].count("place_bet") == 1 and "PlaceBet" not in said[0], said


def test_a_line_without_a_command_field_says_so_rather_than_naming_a_question_mark(
        cli, superuser, tmp_path):
    bet = {key: value for key, value in BET.items() if key != "command"}
    said = _ingested(cli, superuser, tmp_path, json.dumps(bet))
    assert said[0].startswith("line 1: rejected: the line has no 'command' field"), said
    assert "'?'" not in said[0] and "ledger schema" in said[0], said


def test_every_problem_of_a_line_is_named_not_hidden_behind_and_1_more_problem(
        cli, superuser, tmp_path):
    bet = {key: value for key, value in BET.items() if key != "spot"} | {"amount": "abc"}
    [line] = _ingested(cli, superuser, tmp_path, json.dumps(bet))
    assert "more problem" not in line, line
    assert "'spot' is missing" in line and "amount: " in line, line
    assert line.startswith("line 1: rejected: place_bet: ") and line.count("; ") >= 2, line
    assert line.endswith("; nothing recorded."), line


def test_a_word_an_option_does_not_take_names_the_option_what_it_takes_and_the_word_given(cli):
    """`--period week` read "Invalid value for '--period': Value error, 'week' is not one of
    'day', 'month', 'ytd'.": the parser's words, not a sentence."""
    for args, said in (
            (("report", "statistics", "--period", "week"),
             "error: ledger report statistics: --period takes day, month or ytd, not 'week'."),
            (("report", "shift", "--format", "pdf"),
             "error: ledger report shift: --format takes csv, json or html, not 'pdf'.")):
        result = cli(*args)
        assert result.code == 1 and result.err.strip() == said, result.err
        assert "Value error" not in result.err and "Invalid value" not in result.err
