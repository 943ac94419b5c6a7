"""Input at the CLI's edges, as users filed it: numbers no amount can be in a feed, money and
counts in scientific notation, settings left empty, an evidence file written over. Each is one
line naming what is wrong, exit code 1, and nothing recorded (or overwritten)."""

from __future__ import annotations

import json

from tests.e2e.test_cli_rounds import ok, refused
from tests.signing import event_count

ADJUST = {"command": "adjust_pool", "pool": "EDGE-POOL", "amount": "10.00", "reason": "meter"}
JUNK_SIGNATURES = {"protocol": "round-ledger/command/1", "terminal": "PIT-E2E", "staff": "PB-E2E",
                   "ledger": "x", "signatures": [{"signer": "terminal", "id": "PIT-E2E",
                                                  "key": "k", "value": "v"}]}


def _raw(amount: str) -> bytes:
    """An adjustment whose amount is written as given, a JSON number or literal."""
    return (b'{"command": "adjust_pool", "pool": "EDGE-POOL", "amount": ' + amount.encode()
            + b', "reason": "meter"}')


def _signed(amount: str) -> bytes:
    """The same inside a signed envelope (signatures that could never verify)."""
    envelope = json.dumps({**JUNK_SIGNATURES, "command": "@"}).encode()
    return envelope.replace(b'"@"', _raw(amount))


def test_an_amount_of_1e999_is_refused_by_its_line_and_the_lines_after_it_are_read(
        cli, superuser, tmp_path):
    ok(cli, "jackpot", "create", "EDGE-POOL", "--seed", "1000", "--royal", "2000",
       "--straight-flush", "500", "--four", "100", "--full-house", "50", "--flush", "20",
       "--rate", "0.2")
    lines = {
        "1e999 under junk signatures": (_signed("1e999"), "finite amount of money"),
        "1e999": (_raw("1e999"), "'amount' is the number 1e999: not a finite amount of money"),
        "-1e999": (_raw("-1e999"), "not a finite amount of money"),
        "NaN": (_raw("NaN"), "NaN is not a number the ledger records"),
        "-Infinity under junk signatures": (_signed("-Infinity"), "-Infinity is not a number"),
        "1e-999": (_raw("1e-999"), "'amount' is the number 1e-999: too small to be held"),
        "a whole number of 5,000 digits": (_raw("9" * 5000), "a whole number of 5,000 digits"),
        "a JSON fraction": (_raw("100.5"), "money is sent as a string of patacas"),
        "a JSON integer": (_raw("100"), "money is sent as a string of patacas"),
        "a string of 1e999": (_raw('"1e999"'), "scientific notation"),
        "a string of 1e5": (_raw('"1e5"'), "scientific notation"),
    }
    feed = tmp_path / "edge.jsonl"
    feed.write_bytes(b"\n".join(line for line, _ in lines.values()) + b"\n"
                     + json.dumps(ADJUST).encode() + b"\n")
    before = event_count(superuser)
    result = cli("ingest", "--vouch", str(feed))
    assert result.code == 1 and "Traceback" not in result.out + result.err, result.err
    said = result.out.strip().splitlines()
    assert len(said) == len(lines) + 2, result.out  # each line, the good one, the summary
    for number, (what, (_, words)) in enumerate(lines.items(), start=1):
        assert said[number - 1].startswith(f"line {number}: rejected: "), (what, said[number - 1])
        assert words in said[number - 1], (what, said[number - 1])
    in_words = said[list(lines).index("a string of 1e999")]
    assert in_words.endswith("rejected: adjust_pool: amount: an amount is written in plain "
                             "figures, such as 100000.00, not in scientific notation (1E+999); "
                             "nothing recorded."), in_words  # named once, one stop
    assert said[-2].startswith(f"line {len(lines) + 1}: accepted: adjust_pool")
    assert said[-1] == f"1 accepted, 0 already recorded, {len(lines)} rejected"
    assert event_count(superuser) > before


def test_money_in_scientific_notation_and_counts_that_are_not_whole_are_refused(
        cli, superuser):
    opening = ("table", "open", "BAC-01", "--game", "baccarat", "--min", "100")
    said = {value: refused(cli, superuser, *opening, "--max", value)
            for value in ("1e5", "1E5", "1.5e4", "NaN", "Infinity", "-Infinity", "100.005")}
    assert said["1e5"] == ("error: max_bet: an amount is written in plain figures, such as "
                           "100000.00, not in scientific notation (1E+5).")
    assert "scientific notation" in said["1E5"] and "scientific notation" in said["1.5e4"]
    for value in ("NaN", "Infinity", "-Infinity"):
        assert "'--max'" in said[value] and "finite" in said[value], said[value]
    assert "at most two decimal places" in said["100.005"]
    assert "scientific notation" in refused(cli, superuser, "jackpot", "create", "P-1", "--seed",
                                            "1e3", "--royal", "2000", "--straight-flush", "500",
                                            "--four", "100", "--full-house", "50", "--flush",
                                            "20", "--rate", "0.2")
    for count in (("events", "tail", "-n", "1e5"), ("recall", "BAC-01", "--last", "1e5"),
                  ("events", "tail", "-n", "2.5")):
        line = refused(cli, superuser, *count)
        assert "is not a whole number" in line and "Input should" not in line, line
    ok(cli, *opening, "--max", "100000.00")


def test_a_path_or_key_setting_left_empty_is_named_not_read_as_the_current_folder(
        cli, superuser):
    for variable, what in (("LEDGER_STAFF_CREDENTIAL", "a path"),
                           ("LEDGER_TERMINAL_CREDENTIAL", "a path"),
                           ("LEDGER_DATA_DIR", "a path"), ("LEDGER_TRUST_FILE", "a path"),
                           ("LEDGER_STAFF_KEY", "a key file's contents")):
        line = refused(cli, superuser, "table", "open", "BAC-01", "--game", "baccarat", "--min",
                       "100", "--max", "1000", env={variable: ""})
        assert line == f"error: {variable} is empty: set it to {what}, or unset it.", line
        assert "Is a directory" not in line


def test_an_evidence_file_is_never_silently_replaced(cli, sealed, tmp_path):
    out = tmp_path / "BAC-R1-1.evidence.json"
    export = ("export", "round", "BAC-R1", "1", "--out", str(out))
    assert cli(*export).code == 0
    first = out.read_bytes()
    again = cli(*export)
    assert again.code == 1, again.out
    assert again.err.strip() == (f"error: {out} already exists: an evidence file is not "
                                 "replaced; choose another --out, or add --force to replace it.")
    assert out.read_bytes() == first
    other = tmp_path / "notes.txt"
    other.write_text("the pit boss's notes")
    assert cli("export", "round", "BAC-R1", "1", "--out", str(other)).code == 1
    assert other.read_text() == "the pit boss's notes"
    forced = cli(*export, "--force")
    assert forced.code == 0, forced.err
    assert json.loads(out.read_bytes())["content"]["round"]["number"] == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert cli("export", "round", "BAC-R1", "1", "--out", str(tmp_path)).code == 1


def test_a_line_number_is_printed_as_editors_read_it(cli, tmp_path):
    """`line 1035:`, which an editor's "go to line" and `sed -n 1035p` take, never 1,035."""
    feed = tmp_path / "long.jsonl"
    feed.write_text("\n" * 1034 + '{"command": "adjust_pool", "pool": "EDGE-POOL",\n')
    result = cli("ingest", "--vouch", str(feed))
    assert result.code == 1
    assert result.out.startswith("line 1035: rejected: not JSON: it ends at column 48 before "
                                 "the JSON is complete"), result.out
