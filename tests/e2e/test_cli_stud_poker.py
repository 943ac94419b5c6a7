"""Stud Poker through `ledger` as a pit boss, a dealer and a supervisor type it.

Each command is the installed console script in its own process, against this test's own
database; what it recorded is read back with SQL. Expected failures are one red line on
stderr, exit code 1, and nothing recorded.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.core.formatting import money
from ledger.domain.registry import TerminalKind
from ledger.domain.round import round_id
from ledger.domain.table import table_id
from tests.e2e.shifts import open_shift
from tests.integration.stud_builders import (
    QUALIFYING_DEALER,
    deal_order,
    event_count,
    recorded,
    settled_bets,
)

POOL = "STUD-POOL"
ROYAL = {1: "AS KS QS JS TS"}


def ok(result) -> str:
    assert result.code == 0, result.err
    return result.out


def refused(cli, superuser, sentence: str, *args: str, **env: object) -> None:
    """`cli` may be `dealer`: the refusal is one line and nothing is recorded."""
    before = event_count(superuser)
    result = cli(*args, **env)
    assert result.code == 1
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and sentence in lines[0], result.err
    assert event_count(superuser) == before


def open_linked_table(cli, code: str, rules: str, *house: str) -> None:
    ok(cli("table", "open", code, "--game", "stud-poker", "--rules", rules, "--min", "100",
           "--max", "10000", *house))
    open_shift(cli, code)
    ok(cli("table", "sign-in", code, "D-101"))
    ok(cli("jackpot", "create", POOL, "--seed", "100000", "--royal", "200000",
           "--straight-flush", "20000", "--four", "5000", "--full-house", "1500",
           "--flush", "1000", "--rate", "0.5"))
    ok(cli("jackpot", "link", POOL, code))


@pytest.fixture
def dealer(cli, as_staff):
    """`dealer("round", "open", ...)`: the command as dealer D-101 sends it from the table's
    dealer terminal."""
    env = as_staff("D-101", "dealer", terminal="SP-DT", kind=TerminalKind.DEALER_TERMINAL)
    return lambda *args: cli(*args, extra_env=env)


def start_round(dealer, code: str) -> None:
    ok(dealer("shoe", "shuffle", code))
    ok(dealer("round", "open", code))
    ok(dealer("round", "bet", code, "1", "ante", "100"))
    ok(dealer("round", "bet", code, "1", "jackpot", "10"))


def deal(dealer, code: str, cards: list[tuple[str, str]]) -> None:
    for to, card in cards:
        ok(dealer("round", "deal", code, to, card))


@pytest.mark.parametrize(
    ("code", "rules", "house", "raise_payout"),
    [("SP-03", "stud-poker/2003", (), "10000.00"),
     ("SP-04", "stud-poker/2004",
      ("--setting", "royal_odds=80", "--authorisation", "DICJ-AUTH-2004-013"), "16000.00")],
)
def test_stud_a_complete_round_typed_at_the_cli_royal_flush_at_the_rule_sets_odds(
    cli, superuser, dealer, code, rules, house, raise_payout
):
    open_linked_table(cli, code, rules, *house)
    start_round(dealer, code)
    deal(dealer, code, deal_order(ROYAL, QUALIFYING_DEALER))
    refused(cli, superuser, "a sixth card to box 1: a Stud Poker hand has five cards.",
            "round", "deal", code, "box:1", "2H")
    refused(cli, superuser, "the raise must be exactly twice the ante: box 1 ante MOP 100.00 needs "
            "MOP 200.00, not MOP 150.00.", "round", "decide", code, "1", "raise", "--amount", "150")
    ok(dealer("round", "decide", code, "1", "raise", "--amount", "200"))
    ok(dealer("round", "reveal", code))
    settled = ok(dealer("round", "settle", code))
    assert "jackpot prize awarded" in settled and "3 bets settled" in settled
    # the house's figure is the table win (ante and raise paid); the jackpot bet is the pool's
    payout = Decimal(100) + Decimal(raise_payout)
    assert (f"house loses {money(payout)}; jackpot stakes MOP 10.00 to the pool"
            in settled), settled

    assert settled_bets(superuser, round_id(table_id(code), 1)) == {
        (1, "ante", "100.00", "won", "100.00", "100.00"),
        (1, "raise", "200.00", "won", "200.00", raise_payout),
        (1, "jackpot", "10.00", "lost", "0.00", "0.00"),
    }
    shown = ok(cli("round", "show", code))
    assert f"Stud Poker, {rules.partition('/')[2]} rules" in shown and "settled" in shown
    assert "raise" in shown and f"{Decimal(raise_payout):,.2f}" in shown
    cells = [[cell.strip() for cell in line.split("│")] for line in shown.splitlines()]
    assert [row[1] for row in cells if len(row) > 3 and row[1].startswith("box 1 ")] == [
        "box 1 ante", "box 1 jackpot", "box 1 raise"]  # each bet once: the ante settled
    # without its player too
    assert "jackpot: box 1 won royal flush, prize MOP 200,000.00" in shown
    [hit] = recorded(superuser, "JackpotPool.JackpotHit")
    assert (hit["prize"], hit["paid_by_pool"], hit["paid_by_house"]) == (
        "200000.00", "100005.00", "99995.00")
    pool = ok(cli("jackpot", "show", POOL))
    assert "pool Stud Pool: MOP 100,000.00" in pool and "1 hit," in pool


def test_stud_art11_1_a_supervisor_records_a_wrong_count_at_the_cli_and_the_jackpot_bet_carries(
    cli, superuser, dealer, as_staff
):
    code = "SP-05"
    open_linked_table(cli, code, "stud-poker/2004")
    start_round(dealer, code)
    deal(dealer, code, deal_order(ROYAL, QUALIFYING_DEALER)[:3])
    refused(dealer, superuser, "an irregularity that voids SP-05 round 1 needs a supervisor",
            "round", "irregularity", code, "wrong_count", "--box", "1")
    voided = ok(cli("round", "irregularity", code, "wrong_count", "--box", "1",
                    "--note", "two cards at once to box 1",
                    extra_env=as_staff("SV-7", "supervisor")))
    assert "round void" in voided and "jackpot bets carried to the next round" in voided
    assert settled_bets(superuser, round_id(table_id(code), 1)) == {
        (1, "ante", "100.00", "returned", "100.00", "0.00"),
        (1, "jackpot", "10.00", "carried", "10.00", "0.00"),
    }
    ok(dealer("shoe", "shuffle", code))
    ok(dealer("round", "open", code))
    shown = ok(cli("round", "show", code))
    assert "round 2" in shown and "jackpot" in shown and "10.00" in shown


def test_stud_bad_input_at_the_cli_is_one_red_line_exit_1_and_nothing_recorded(
        cli, superuser, dealer, as_staff):
    code = "SP-06"
    open_linked_table(cli, code, "stud-poker/2004")
    ok(cli("shoe", "shuffle", code))
    ok(cli("round", "open", code))
    ok(cli("round", "bet", code, "1", "ante", "100"))
    refused(cli, superuser, "box 2 has no ante: a jackpot bet needs an accepted ante.",
            "round", "bet", code, "2", "jackpot", "10")
    refused(cli, superuser, "box 2 ante: MOP 10,000.01 is above the table maximum MOP 10,000.00.",
            "round", "bet", code, "2", "ante", "10000.01")
    cards = deal_order({1: "KH KS 9D 9C 3H"}, QUALIFYING_DEALER)
    deal(dealer, code, cards[:1])
    refused(cli, superuser, "bets are closed: no bet is accepted on box 2",
            "round", "bet", code, "2", "ante", "100")
    refused(cli, superuser, "KH is already dealt: Stud Poker uses one deck.",
            "round", "deal", code, "dealer", "KH")
    refused(cli, superuser, "'1X' is not a card", "round", "deal", code, "dealer", "1X")
    refused(cli, superuser, "voiding a round needs a supervisor or pit boss: dealer D-9 cannot.",
            "round", "void", code, "--reason", "dealer wants to",
            extra_env=as_staff("D-9", "dealer"))
    refused(cli, superuser, "'royal_odds' is not a house setting: write KEY=VALUE",
            "table", "open", "SP-07", "--game", "stud-poker", "--min", "100", "--max", "1000",
            "--setting", "royal_odds")
    refused(cli, superuser, "a royal flush at 80:1 is outside DICJ 69/2003",
            "table", "open", "SP-07", "--game", "stud-poker", "--rules", "stud-poker/2003",
            "--min", "100", "--max", "1000", "--setting", "royal_odds=80")
