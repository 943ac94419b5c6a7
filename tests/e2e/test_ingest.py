"""`ledger ingest` with the example rounds of `examples/`, as a dealer terminal sends them.

These are the files the README points users to: each opens its table, signs the dealer in,
starts the shoe and plays one complete round on an empty ledger.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from tests.signing import event_count

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
D = Decimal

SETTLED = {
    "baccarat.jsonl": {  # player 9H 5D draws 9S: 3; banker 4H KC stands on a 9: 4 wins
        (1, "banker", "P-1"): ("won", D("1000.00"), D("1000.00"), D("50.00")),
        (2, "player", "P-2"): ("lost", D("0.00"), D("0.00"), D("0.00")),
        (2, "tie", "P-2"): ("lost", D("0.00"), D("0.00"), D("0.00")),
        (3, "player_pair", "P-3"): ("lost", D("0.00"), D("0.00"), D("0.00")),
    },
    "q-poker.jsonl": {  # box 1 AS KS QS, box 3 a pair of nines, the dealer Q high
        (1, "bonus", "P-1"): ("won", D("100.00"), D("4000.00"), D("0.00")),
        (1, "play", "P-1"): ("won", D("200.00"), D("600.00"), D("0.00")),
        (1, "play", "P-2"): ("surrendered", D("150.00"), D("0.00"), D("0.00")),
        (3, "play", "P-3"): ("won", D("500.00"), D("500.00"), D("0.00")),
    },
    "fortune-8.jsonl": {  # space 1 8H, space 4 KD, space 6 3S
        (1, "8", "P-1"): ("won", D("100.00"), D("1100.00"), D("0.00")),
        (1, "8", "P-2"): ("won", D("200.00"), D("2200.00"), D("0.00")),
        (1, "L", "P-3"): ("lost", D("0.00"), D("0.00"), D("0.00")),
        (4, "H", "P-1"): ("won", D("300.00"), D("300.00"), D("0.00")),
        (6, "L", "P-4"): ("won", D("500.00"), D("500.00"), D("0.00")),
    },
}


def _events(superuser) -> int:
    return event_count(superuser)


def _receipts(superuser) -> int:
    return superuser.execute(
        "SELECT count(*) FROM ledger_event_log WHERE event_type = 'CommandReceipt.Accepted' "
        "AND body ->> 'command_type' NOT IN ('EnrolStaff', 'RegisterTerminal')"
    ).fetchone()[0]


def _settled(superuser) -> dict[tuple[int, str, str | None], tuple[str, Decimal, ...]]:
    rows = superuser.execute(
        "SELECT body->'bet' FROM ledger_event_log WHERE event_type = 'Round.BetSettled'"
    ).fetchall()
    return {(b["box"], b["spot"], b["player"]): (b["outcome"], D(b["returned"]), D(b["payout"]),
                                                  D(b["commission"])) for (b,) in rows}


@pytest.mark.parametrize("example", sorted(SETTLED))
def test_each_example_round_ingests_completely_on_an_empty_ledger(cli, superuser, example):
    path = EXAMPLES / example
    lines = path.read_text().splitlines()
    result = cli("ingest", "--vouch", str(path))
    assert result.code == 0, result.out + result.err
    summary = result.out.strip().splitlines()[-1]
    assert summary == f"{len(lines)} accepted, 0 already recorded, 0 rejected"
    # one report line a command, the money on it: "line 9: accepted: ...: bet placed; box 1 ..."
    assert len(result.out.strip().splitlines()) == len(lines) + 1
    assert any(": recorded: bet placed; box " in line and " MOP " in line
               for line in result.out.splitlines())
    assert _settled(superuser) == SETTLED[example]
    assert _receipts(superuser) == len(lines)
    assert "settled" in cli("round", "show", json.loads(lines[0])["table"]).out


def test_ingesting_the_same_file_twice_records_nothing_new(cli, superuser):
    path = EXAMPLES / "q-poker.jsonl"
    assert cli("ingest", "--vouch", str(path)).code == 0
    before = _events(superuser)
    again = cli("ingest", "--vouch", str(path))
    assert again.code == 0
    assert again.out.strip().splitlines()[-1] == "0 accepted, 24 already recorded, 0 rejected"
    assert _events(superuser) == before


def test_rejected_lines_record_nothing_and_the_other_lines_go_in(cli, superuser, tmp_path):
    good = (EXAMPLES / "baccarat.jsonl").read_text().splitlines()
    bet = json.loads(good[7])
    too_big = {**bet, "command_id": "00000000-0000-4000-8000-000000000001", "box": 4,
               "amount": "90000.00"}
    third = {**json.loads(good[15]), "command_id": "00000000-0000-4000-8000-000000000002",
             "to": "banker", "card": "5D"}
    lines = [
        *good[:8],
        '{"command": "place_bet", "table": "BAC-01", "box": 2,',  # line 9: cut short
        json.dumps(too_big),  # line 10: above the table maximum
        '{"command": "shuffle_the_deck", "table": "BAC-01"}',  # line 11: no such command
        *good[8:16],
        json.dumps(third),  # line 20: the banker stands on 4 against a player's 9
        *good[16:],
    ]
    path = tmp_path / "terminal.jsonl"
    path.write_text("\n".join(lines) + "\n")

    result = cli("ingest", "--vouch", str(path))

    assert result.code == 1
    report = result.out.splitlines()
    rejected = [line for line in report if "rejected" in line and line.startswith("line ")]
    assert [line.split(":")[0] for line in rejected] == ["line 9", "line 10", "line 11", "line 20"]
    assert "place_bet: box 4 banker: MOP 90,000.00 is above the table maximum MOP 50,000.00." in rejected[1]
    assert "the banker stands on 4 when the player's third card is worth 9" in rejected[3]
    assert report[-1] == f"{len(good)} accepted, 0 already recorded, 4 rejected"
    assert _receipts(superuser) == len(good)
    assert _settled(superuser) == SETTLED["baccarat.jsonl"]


def test_a_line_signed_for_another_ledger_is_refused_and_records_nothing(
        cli, settings, superuser, tmp_path):
    """Lines signed by a third party carry the ledger they are for: another ledger's line, or
    one that names none, is refused line by line; this ledger's goes in."""
    from uuid import uuid4

    from tests.integration.helpers import open_table
    from tests.signing import KEYRING, open_ledger

    with open_ledger(settings) as rt:
        here = rt.ledger.sign(open_table("BAC-01"))  # enrols its sender and their terminal
        ledger_id = rt.ledger.ledger_id
    elsewhere = KEYRING.sign(open_table("BAC-02"), staff=here.staff, terminal=here.terminal,
                             ledger=str(uuid4()))
    nameless = json.loads(KEYRING.sign(open_table("BAC-03"), staff=here.staff,
                                       terminal=here.terminal, ledger=ledger_id
                                       ).model_dump_json(exclude_none=True))
    del nameless["ledger"]
    assert ledger_id in cli("db", "status").out  # where a third party reads which ledger it is
    path = tmp_path / "third-party.jsonl"
    path.write_text("\n".join((elsewhere.model_dump_json(exclude_none=True), json.dumps(nameless),
                               here.model_dump_json(exclude_none=True))) + "\n")
    before = _events(superuser)

    result = cli("ingest", str(path))

    assert result.code == 1
    report = result.out.splitlines()
    assert report[0].startswith("line 1: rejected"), report
    assert (f"open_table was signed for ledger {elsewhere.ledger}, and this is ledger "
            f"{ledger_id}: nothing recorded.") in report[0]
    assert report[1].startswith("line 2: rejected") and "names no ledger" in report[1], report
    assert report[-1] == "1 accepted, 0 already recorded, 2 rejected"
    assert _events(superuser) > before  # BAC-01's opening, and nothing of BAC-02 or BAC-03
    assert superuser.execute("SELECT count(*) FROM ledger_event_log WHERE event_type "
                             "= 'Table.Opened'").fetchone()[0] == 1
