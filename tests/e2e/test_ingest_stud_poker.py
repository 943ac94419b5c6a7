"""`ledger ingest FILE.jsonl` with Stud Poker rounds, as a dealer terminal would send them.

The file holds two complete rounds, one per rule version, every line signed by the person who
sent it at their terminal, with a few bad lines among them: a line cut short, a command that
does not exist, and a raise that is not twice the ante. Those lines are reported and record
nothing; every other line goes in. The same file ingested again records nothing new.
"""

from __future__ import annotations

from pathlib import Path
from uuid import uuid4

from ledger.commands.round import Decide
from ledger.domain.round import round_id
from ledger.domain.table import table_id
from tests.integration.stud_builders import (
    DEALER,
    QUALIFYING_DEALER,
    create_pool,
    event_count,
    money,
    recorded,
    settled_bets,
    stud_round,
    stud_table,
    with_ids,
)
from tests.signing import KEYRING, open_ledger

POOL = "STUD-POOL"
CUT_SHORT = '{"command": "deal_card", "table": "SP-04", "to": "box:1", '


def signed_lines(settings, commands) -> list[str]:
    """Each command signed by its sender at its terminal (enrolled first, as a floor is)."""
    with open_ledger(settings) as rt:
        return [rt.ledger.sign(c).model_dump_json(exclude_none=True) for c in commands]


def stud_file(folder: Path, settings) -> tuple[Path, dict[str, int]]:
    """The file, and the line numbers of the lines that must be rejected."""
    round_2003 = stud_round(
        "SP-03", {1: ("100", "10"), 2: ("200", None), 4: ("150", None)},
        {1: "KH KS 9D 9C 3H", 2: "QH JH 8C 6D 5S", 4: "TC 8D 7S 5C 3D"}, QUALIFYING_DEALER,
        decisions={4: "fold"},
    )
    round_2004 = stud_round("SP-04", {1: ("100", "10"), 2: ("300", None)},
                            {1: "AS KS QS JS TS", 2: "2H 3H 7S 9D JH"}, QUALIFYING_DEALER)
    commands = with_ids([create_pool(POOL), *stud_table("SP-03", "stud-poker/2003", pool=POOL),
                         *stud_table("SP-04", "stud-poker/2004", pool=POOL), *round_2003,
                         *round_2004], "ingest-stud")
    lines = signed_lines(settings, commands)
    first_decision = next(n for n, c in enumerate(commands)
                          if isinstance(c, Decide) and c.table == "SP-04")
    wrong_raise = Decide(table="SP-04", box=1, decision="raise", amount=money(150),
                         actor=DEALER, terminal="SP-04")
    wrong_raise_line = signed_lines(settings, with_ids([wrong_raise], "ingest-stud-wrong-raise"))
    with open_ledger(settings) as rt:
        ledger_id = rt.ledger.ledger_id
    unknown = KEYRING.sign({"command": "deal_cards", "command_id": str(uuid4()), "table": "SP-04"},
                           staff=DEALER.staff_id, terminal="SP-04",
                           ledger=ledger_id).model_dump_json(exclude_none=True)
    lines[first_decision:first_decision] = [
        "# SP-04: box 1 shows a royal flush", "", CUT_SHORT, unknown, *wrong_raise_line,
    ]
    path = folder / "stud.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    at = first_decision + 1  # line numbers count from 1
    return path, {"cut short": at + 2, "unknown command": at + 3, "wrong raise": at + 4}


def test_stud_ingest_records_both_rule_versions_and_reports_each_rejected_line(
    cli, superuser, tmp_path, settings
):
    path, rejected = stud_file(tmp_path, settings)
    lines = path.read_text().splitlines()
    commands = len([line for line in lines if line.strip() and not line.startswith("#")])
    result = cli("ingest", str(path))
    assert result.code == 1  # some lines were rejected
    out = result.out
    assert f"{commands - 3} accepted, 0 already recorded, 3 rejected" in out
    assert f"line {rejected['cut short']}: rejected" in out
    assert f"line {rejected['unknown command']}: rejected" in out
    assert "'deal_cards'" in out.split(f"line {rejected['unknown command']}:")[1].splitlines()[0]
    wrong = out.split(f"line {rejected['wrong raise']}:")[1].splitlines()[0]
    assert "rejected: decide: the raise must be exactly twice the ante: box 1 ante MOP 100.00" in wrong
    assert out.count(": rejected") == 3

    # every other line went in: two complete rounds, settled by the rule set of their table
    assert settled_bets(superuser, round_id(table_id("SP-03"), 1)) == {
        (1, "ante", "100.00", "won", "100.00", "100.00"),
        (1, "raise", "200.00", "won", "200.00", "400.00"),
        (1, "jackpot", "10.00", "lost", "0.00", "0.00"),
        (2, "ante", "200.00", "lost", "0.00", "0.00"),
        (2, "raise", "400.00", "lost", "0.00", "0.00"),
        (4, "ante", "150.00", "lost", "0.00", "0.00"),
    }
    assert settled_bets(superuser, round_id(table_id("SP-04"), 1)) == {
        (1, "ante", "100.00", "won", "100.00", "100.00"),
        (1, "raise", "200.00", "won", "200.00", "16000.00"),  # 80:1, the house's 2004 odds
        (1, "jackpot", "10.00", "lost", "0.00", "0.00"),
        (2, "ante", "300.00", "lost", "0.00", "0.00"),
        (2, "raise", "600.00", "lost", "0.00", "0.00"),
    }
    [hit] = recorded(superuser, "JackpotPool.JackpotHit")
    assert (hit["table"], hit["box"], hit["category"], hit["pool_before"]) == (
        "SP-04", 1, "royal_flush", "100010.00")

    before = event_count(superuser)
    again = cli("ingest", str(path))
    assert f"0 accepted, {commands - 3} already recorded, 3 rejected" in again.out
    assert event_count(superuser) == before


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "stud-poker.jsonl"


def test_stud_the_example_round_ingests_completely_on_an_empty_ledger(cli, superuser):
    """`examples/stud-poker.jsonl`, the round the README shows: box 1 a flush with a jackpot
    bet (raise 5:1, the pool's fixed flush prize), box 3 folds, the dealer A-K high."""
    result = cli("ingest", "--vouch", str(EXAMPLE))
    assert result.code == 0, result.out
    assert "29 accepted, 0 already recorded, 0 rejected" in result.out
    assert settled_bets(superuser, round_id(table_id("SP-01"), 1)) == {
        (1, "ante", "100.00", "won", "100.00", "100.00"),
        (1, "raise", "200.00", "won", "200.00", "1000.00"),
        (1, "jackpot", "10.00", "lost", "0.00", "0.00"),
        (3, "ante", "200.00", "lost", "0.00", "0.00"),
    }
    [hit] = recorded(superuser, "JackpotPool.JackpotHit")
    assert (hit["box"], hit["category"], hit["prize"], hit["pool_after"]) == (
        1, "flush", "1000.00", "99005.00")
    before = event_count(superuser)
    assert "0 accepted, 29 already recorded" in cli("ingest", "--vouch", str(EXAMPLE)).out
    assert event_count(superuser) == before
