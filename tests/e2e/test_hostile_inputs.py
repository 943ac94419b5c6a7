"""Nothing a terminal sends can stop the floor: a catalogue of hostile inputs, as an attacker or a
confused terminal would send them through `ledger ingest` and the CLI. Each is refused with one
line and records nothing; afterwards every read command and the projections still work.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from ledger.core import clock as ledger_clock
from ledger.domain.shift_schedule import MACAU
from tests.e2e.test_cli_rounds import ok, refused
from tests.signing import UNTRUSTED, event_count

NOW = ledger_clock.now()
DAY = NOW.astimezone(MACAU).date().isoformat()
OPEN = {"command": "open_table", "table": "BAC-02", "game": "baccarat", "min_bet": "100",
        "max_bet": "1000"}
ADJUST = {"command": "adjust_pool", "pool": "CAT-POOL", "amount": "10.00",
          "reason": "meter reconciliation"}
POOL = {"command": "create_pool", "pool": "CAT-POOL-2", "settings": {
    "seed": "1000.00", "royal_flush": "2000.00", "straight_flush": "500.00",
    "four_of_a_kind": "100.00", "full_house": "50.00", "flush": "20.00",
    "contribution_rate": "0.2", "effective_from": NOW.date().isoformat()}}
SIGN_IN = {"command": "sign_in_dealer", "table": "BAC-01", "dealer_id": "D-CAT"}
VOID = {"command": "void_round", "table": "BAC-01", "reason": "dealer error"}
IRREGULAR = {"command": "record_irregularity", "table": "BAC-01", "kind": "spilled_drink"}
SHIFT = {"command": "open_shift", "table": "BAC-01", "gaming_day": DAY, "shift": "swing", "chips": {"100": 10}, "dealer_id": "D-CAT", "supervisor": "PB-E2E"}
BET = {"command": "place_bet", "table": "BAC-01", "box": 1, "spot": "player", "amount": "100"}


def _with(base: dict[str, Any], **changes: Any) -> bytes:
    return json.dumps({**base, **changes}, ensure_ascii=False).encode("utf-8")


def _deep(depth: int) -> bytes:
    return b'{"command": "open_table", "settings": ' + b"[" * depth + b"]" * depth + b"}"


HOSTILE: dict[str, bytes] = {
    # identifiers: one grammar, NFKC, ASCII, upper case, bounded
    "Cyrillic look-alike table code": _with(OPEN, table="ВАС-01"),
    "Arabic-Indic digits in a table code": _with(OPEN, table="BAC-٠١"),
    "full-width code is BAC-01, already open": _with(OPEN, table="ＢＡＣ-０１"),
    "empty table code": _with(OPEN, table=""),
    "blank table code": _with(OPEN, table="   "),
    "41-character table code": _with(OPEN, table="B" * 41),
    "space inside a table code": _with(OPEN, table="BAC 01"),
    "newline in a table code": _with(OPEN, table="BAC-03\n"),
    "Rich markup as a table code": _with(OPEN, table="[red]X[/]"),
    "slash in a table code": _with(OPEN, table="BAC/01"),
    "leading hyphen in a table code": _with(OPEN, table="-BAC"),
    "NUL in a table code": _with(OPEN, table="BAC\u000001"),
    "ANSI clear-screen in a table code": _with(OPEN, table="\u001b[2J"),
    "zero-width space in a table code": _with(OPEN, table="BAC\u200b01"),
    "right-to-left override in a table code": _with(OPEN, table="\u202eBAC"),
    "table code as a number": _with(OPEN, table=12),
    "table code as a list": _with(OPEN, table=["BAC-01"]),
    "pit with Rich markup and a link": _with(OPEN, pit="[red][link=http://x]pit[/link][/red]"),
    "pit with a newline": _with(OPEN, pit="EAST\nWEST"),
    "dealer id with a non-breaking hyphen (U+2011)": _with(SIGN_IN, dealer_id="D\u2011CAT"),
    "empty dealer id": _with(SIGN_IN, dealer_id=""),
    "dealer id of Rich markup": _with(SIGN_IN, dealer_id="[/]"),
    "dealer id with a NUL": _with(SIGN_IN, dealer_id="D-1\u0000"),
    "dealer id of 500 characters": _with(SIGN_IN, dealer_id="D" * 500),
    "pool name with a newline": _with(ADJUST, pool="CAT\nPOOL"),
    "pool name with a space": _with(ADJUST, pool="CAT POOL"),
    "supervisor signing as a look-alike of the sender": _with(SHIFT, supervisor="PB\u2011E2E"),
    # money: one type, strings, bounded
    "an adjustment beyond any pool": _with(ADJUST, amount="999999999999.99"),
    "an amount of 1e400": _with(ADJUST, amount="1e400"),
    "an amount of NaN": _with(ADJUST, amount="NaN"),
    "an amount of Infinity": _with(ADJUST, amount="Infinity"),
    "money as a JSON fraction": _with(ADJUST, amount=0.1),
    "money as a JSON integer": _with(ADJUST, amount=100),
    "money with three places": _with(ADJUST, amount="1.005"),
    "money as a word": _with(ADJUST, amount="ten"),
    "a sub-avo negative amount": _with(ADJUST, amount="-0.001"),
    "a bet of a billion": _with(BET, amount="1000000000.00"),
    "a pool seed beyond any amount": _with(POOL, settings={**POOL["settings"],
                                                           "seed": "1000000000000.00"}),
    "a setting as a JSON fraction": _with(POOL, settings={**POOL["settings"],
                                                          "contribution_rate": 0.5}),
    "a nested setting": _with(POOL, settings={**POOL["settings"], "cap": {"a": {"b": 1}}}),
    "41 settings": _with(POOL, settings={f"key{i}": "1" for i in range(41)}),
    "a setting's name with an escape": _with(POOL, settings={"seed\u001b]0;title\u0007": "1"}),
    "table limits of a trillion": _with(OPEN, table="BAC-04", max_bet="1000000000000"),
    # text: bounded, printable
    "a reason of 501 characters": _with(ADJUST, reason="x" * 501),
    "a reason with ANSI escapes": _with(ADJUST, reason="ok\u001b[2J\u001b]0;pwned\u0007"),
    "a reason with a NUL": _with(ADJUST, reason="ok\u0000"),
    "a reason with a bidi override": _with(ADJUST, reason="refund \u202e0001"),
    "an empty reason": _with(ADJUST, reason=""),
    "a void reason of blanks": _with(VOID, reason="   "),
    "a note of 10,000 characters": _with(IRREGULAR, note="n" * 10_000),
    "100 cards named in an irregularity": _with(IRREGULAR, cards=["AS"] * 100),
    # times: with an offset, near the ledger's clock
    "the year 0001": _with(OPEN, at="0001-01-01T00:00:00+00:00"),
    "the year 1970": _with(OPEN, at="1970-01-01T00:00:00Z"),
    "the year 2999": _with(OPEN, at="2999-01-01T00:00:00+08:00"),
    "the last second of 9999": _with(OPEN, at="9999-12-31T23:59:59-12:00"),
    "a time without an offset": _with(OPEN, at=NOW.replace(tzinfo=None).isoformat()),
    "a time of a day ago and more": _with(OPEN, at=(NOW - timedelta(days=2)).isoformat()),
    "a time an hour ahead": _with(OPEN, at=(NOW + timedelta(hours=1)).isoformat()),
    "a time as a word": _with(OPEN, at="yesterday"),
    "a shift for 9999-12-31": _with(SHIFT, gaming_day="9999-12-31"),
    "a 2031 shift opened today": _with(SHIFT, gaming_day="2031-01-01"),
    # numbers out of range
    "box 0": _with(BET, box=0),
    "box 10^20": _with(BET, box=10**20),
    "round -1": _with(BET, round=-1),
    # the line itself
    "invalid UTF-8": b'{"command": "open_table", "table": "BAC-\xff\xfe"}',
    "JSON nested 100,000 deep": _deep(100_000),
    "duplicate keys": b'{"command": "adjust_pool", "pool": "CAT-POOL", "amount": "1.00", '
                      b'"amount": "99999.00", "reason": "twice"}',
    "NaN as a JSON literal": b'{"command": "adjust_pool", "pool": "CAT-POOL", "amount": NaN, '
                             b'"reason": "x"}',
    "Infinity as a JSON literal": b'{"command": "adjust_pool", "pool": "CAT-POOL", '
                                  b'"amount": Infinity, "reason": "x"}',
    "a JSON array": b'["open_table", "BAC-09"]',
    "a JSON string": b'"open_table"',
    "truncated JSON": b'{"command": "open_table", "table": ',
    "a line of 2.8 MB": _with(OPEN, authorisation="A" * 2_800_000),
    "a command just over 16 kB": _with(OPEN, authorisation="A" * 17_000),
    "an unknown command of 10 kB": _with({"command": "x" * 10_000}),
    "a body naming its own actor": _with(OPEN, actor={"staff_id": "PB-E2E", "role": "pit_boss"}),
    "a field the protocol does not have": _with(OPEN, pay_me=True),
}


def test_the_catalogue_holds_more_than_sixty_hostile_inputs():
    assert len(HOSTILE) >= 60


def _prepare(cli, as_staff) -> None:
    ok(cli, "table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max", "1000")
    ok(cli, "jackpot", "create", "CAT-POOL", "--seed", "1000", "--royal", "2000",
       "--straight-flush", "500", "--four", "100", "--full-house", "50", "--flush", "20",
       "--rate", "0.2")
    as_staff("D-CAT", "dealer")
    ok(cli, "shift", "open", "BAC-01", "--day", DAY, "--shift", "day", "--chips", "100=10",
       "--dealer", "D-CAT", "--supervisor", "PB-E2E")


def _reads_still_work(cli) -> None:
    """Every read command, and the projections, after the hostile inputs."""
    day = DAY
    for args in (("table", "list"), ("table", "show", "BAC-01"), ("events", "tail", "-n", "40"),
                 ("jackpot", "list"), ("jackpot", "show", "CAT-POOL"), ("db", "status"),
                 ("projections", "run", "--once"), ("projections", "status"),
                 ("report", "shift", "--day", day, "--shift", "day"), ("recall", "BAC-01"),
                 ("staff", "list"), ("terminal", "list"), ("verify",)):
        result = cli(*args)
        assert result.code == (UNTRUSTED if args == ("verify",) else 0), (args, result.out,
                                                                          result.err)
        assert "Traceback" not in result.err + result.out, args


def test_every_hostile_line_of_a_feed_is_refused_in_one_line_and_records_nothing(
        cli, superuser, as_staff, tmp_path):
    _prepare(cli, as_staff)
    feed = tmp_path / "hostile.jsonl"
    feed.write_bytes(b"\n".join(HOSTILE.values()) + b"\n")
    before = event_count(superuser)
    result = cli("ingest", "--vouch", str(feed))
    assert result.code == 1 and "Traceback" not in result.err, result.err
    lines = result.out.strip().splitlines()
    assert len(lines) == len(HOSTILE) + 1, result.out  # one line each, then the summary
    for number, (what, line) in enumerate(zip(HOSTILE, lines, strict=False), start=1):
        assert line.startswith(f"line {number}: rejected: "), (what, line)
        assert len(line) < 400, (what, line)  # a 10 kB value is not echoed back
        assert "\x1b" not in line and "\x00" not in line, (what, line)
    assert lines[-1] == f"0 accepted, 0 already recorded, {len(HOSTILE)} rejected"
    assert event_count(superuser) == before
    _reads_still_work(cli)


def test_a_feed_exported_with_a_byte_order_mark_is_read(cli, superuser, as_staff, tmp_path):
    _prepare(cli, as_staff)
    feed = tmp_path / "bom.jsonl"
    feed.write_bytes(b"\xef\xbb\xbf" + _with(ADJUST) + b"\n")
    result = cli("ingest", "--vouch", str(feed))
    assert result.code == 0, result.out + result.err
    assert result.out.strip().splitlines()[-1] == "1 accepted, 0 already recorded, 0 rejected"


def test_two_ids_are_one_person_in_their_normal_form(cli, superuser, as_staff):
    """`s-a`, `S‑A` and `ＳＡ-1` are not a second person beside SA-1: the two-person check
    compares ids in their normal form; a full-width code names the table it looks like."""
    _prepare(cli, as_staff)
    ok(cli, "table", "sign-in", "ｂａｃ-０１", "d-cat")
    assert "D-CAT" in ok(cli, "table", "show", "BAC-01")
    both = as_staff("SA-1", "dealer", "pit_boss")
    swing = ("shift", "open", "BAC-01", "--day", DAY, "--shift", "swing", "--chips", "100=10")
    for spelling in ("sa-1", "ＳＡ-１", " SA-1 "):
        line = refused(cli, superuser, *swing, "--dealer", spelling, "--supervisor", "SA-1",
                       env=both)
        assert line == ("error: the opening inventory is signed by two people: SA-1 cannot "
                        "sign as dealer and supervisor."), spelling
    assert "'SA\\u20111' is not" in refused(
        cli, superuser, *swing, "--dealer", "SA\u20111", "--supervisor", "SA-1", env=both)


CLI_HOSTILE: dict[str, tuple[str, ...]] = {
    "a Cyrillic table code": ("table", "open", "ВАС-01", "--game", "baccarat", "--min", "100",
                              "--max", "1000"),
    "a pit of Rich markup": ("table", "open", "BAC-07", "--game", "baccarat", "--min", "100",
                             "--max", "1000", "--pit", "[red]P[/]"),
    "an adjustment beyond any pool": ("jackpot", "adjust", "CAT-POOL", "999999999999.99",
                                      "--reason", "overflow"),
    "an ANSI escape in a reason": ("jackpot", "adjust", "CAT-POOL", "1", "--reason",
                                   "ok\x1b[2J"),
    "a reason of 600 characters": ("jackpot", "adjust", "CAT-POOL", "1", "--reason", "r" * 600),
    "a dealer id of markup": ("table", "sign-in", "BAC-01", "[/]"),
    "an empty dealer id": ("table", "sign-in", "BAC-01", ""),
    "a look-alike dealer id": ("table", "sign-in", "BAC-01", "D\u2011CAT"),
    "a table limit of a trillion": ("table", "open", "BAC-08", "--game", "baccarat", "--min",
                                    "100", "--max", "1000000000000"),
    "a shift for 9999-12-31": ("shift", "open", "BAC-01", "--day", "9999-12-31", "--chips",
                               "100=10", "--dealer", "D-CAT", "--supervisor", "PB-E2E"),
    "a void reason with a NUL-free escape": ("round", "void", "BAC-01", "--reason",
                                             "\x1b]0;title\x07"),
}


def test_every_hostile_cli_argument_is_one_red_line_and_records_nothing(
        cli, superuser, as_staff):
    _prepare(cli, as_staff)
    for what, args in CLI_HOSTILE.items():
        line = refused(cli, superuser, *args)
        assert "\x1b" not in line, what
    _reads_still_work(cli)


def test_markup_a_person_typed_is_shown_as_typed_never_as_colour_or_a_link(cli, as_staff):
    _prepare(cli, as_staff)
    ok(cli, "jackpot", "adjust", "CAT-POOL", "1", "--reason", "[red]refund[/red] [link=x]y[/link]")
    tail = ok(cli, "events", "tail", "-n", "5")
    assert "[red]refund[/red] [link=x]y[/link]" in tail
