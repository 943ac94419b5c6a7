"""A round of each game through `ledger`, as a dealer and a supervisor type it.

Every refusal is one red line on stderr, exit code 1, and nothing recorded.
"""

from __future__ import annotations

import json
from decimal import Decimal

from ledger.domain.registry import TerminalKind
from tests.e2e.shifts import open_shift
from tests.signing import event_count


def _events(superuser) -> int:
    return event_count(superuser)


def _settled(superuser) -> dict[tuple[int, str, str | None], tuple[str, Decimal, Decimal, Decimal]]:
    rows = superuser.execute(
        "SELECT body->'bet' FROM ledger_event_log WHERE event_type = 'Round.BetSettled'"
    ).fetchall()
    return {(b["box"], b["spot"], b["player"]): (b["outcome"], Decimal(b["returned"]),
                                                  Decimal(b["payout"]), Decimal(b["commission"]))
            for (b,) in rows}


def ok(cli, *args: str, env: dict[str, str] | None = None) -> str:
    result = cli(*args, extra_env=env)
    assert result.code == 0, result.err
    return result.out


def refused(cli, superuser, *args: str, env: dict[str, str] | None = None) -> str:
    """The command's one-line refusal, once checked that it recorded nothing."""
    before = _events(superuser)
    result = cli(*args, extra_env=env)
    assert result.code == 1, result.out
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.err
    assert _events(superuser) == before
    return lines[0]


def test_a_baccarat_coup_through_the_cli(cli, superuser, as_staff):
    ok(cli, "table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max", "50000")
    open_shift(cli, "BAC-01")
    ok(cli, "table", "sign-in", "BAC-01", "D-101")
    ok(cli, "shoe", "shuffle", "BAC-01", env=as_staff("D-101", "dealer", terminal="BAC-01-DT",
                                                     kind=TerminalKind.DEALER_TERMINAL))
    ok(cli, "shoe", "cut", "BAC-01", "--by", "player P-3", "--at", "404")
    assert "recorded: cards burned" in ok(cli, "shoe", "burn", "BAC-01", "--count", "8")
    ok(cli, "round", "open", "BAC-01")
    assert "box 1 (P-1) banker MOP 1,000.00" in ok(cli, "round", "bet", "BAC-01", "1", "banker",
                                                   "1000", "--player", "P-1")
    ok(cli, "round", "bet", "BAC-01", "3", "player_pair", "100")
    assert refused(cli, superuser, "round", "bet", "BAC-01", "2", "player", "60000") == (
        "error: box 2 player: MOP 60,000.00 is above the table maximum MOP 50,000.00.")
    for to, card in (("player", "2S"), ("banker", "4H"), ("player", "2D"), ("banker", "KC")):
        assert "recorded: card dealt, card drawn from the shoe" in ok(cli, "round", "deal", "BAC-01", to, card)
    assert "bets are closed" in refused(cli, superuser, "round", "bet", "BAC-01", "2", "tie",
                                        "100")
    ok(cli, "round", "deal", "BAC-01", "player", "9S")
    assert refused(cli, superuser, "round", "deal", "BAC-01", "banker", "5D") == (
        "error: the banker stands on 4 when the player's third card is worth 9: a third card "
        "is not allowed.")
    settled = ok(cli, "round", "settle", "BAC-01")
    assert "recorded: 2 bets settled, round settled, round finished" in settled
    # what the money did, as a pit boss says it
    assert "box 1 (P-1) banker MOP 1,000.00 wins MOP 950.00 after commission MOP 50.00" in settled
    assert "box 3 player pair MOP 100.00 wins MOP 1,100.00" in settled
    assert "banker wins, player 3 banker 4; player pair; house loses MOP 2,050.00" in settled

    assert _settled(superuser) == {
        (1, "banker", "P-1"): ("won", Decimal("1000.00"), Decimal("1000.00"), Decimal("50.00")),
        (3, "player_pair", None): ("won", Decimal("100.00"), Decimal("1100.00"), Decimal(0)),
    }
    shown = ok(cli, "round", "show", "BAC-01")
    assert "settled" in shown and "50.00" in shown and "1,100.00" in shown  # money alike
    assert "result: banker wins, player 3 banker 4" in shown  # round show says who won
    assert "win: table win MOP -2,050.00" in shown  # the round's win, as the shift adds it up
    assert json.loads(ok(cli, "round", "show", "BAC-01", "--json"))["win"]["table_win"] == (
        "-2050.00")
    assert "13 out, 403 left" in ok(cli, "shoe", "show", "BAC-01")  # 8 burned, 5 dealt


def test_a_q_poker_round_through_the_cli(cli, superuser):
    ok(cli, "table", "open", "QP-01", "--game", "q-poker", "--min", "100", "--max", "20000")
    open_shift(cli, "QP-01")
    ok(cli, "table", "sign-in", "QP-01", "D-101")
    ok(cli, "shoe", "shuffle", "QP-01", "--method", "shuffler", "--serial", "SH-7")
    ok(cli, "round", "open", "QP-01")
    ok(cli, "round", "bet", "QP-01", "1", "bonus", "100", "--player", "P-1")
    ok(cli, "round", "bet", "QP-01", "1", "play", "200", "--player", "P-1")
    ok(cli, "round", "bet", "QP-01", "1", "play", "300", "--player", "P-2")
    for to, card in (("box:1", "4H"), ("box:1", "5C"), ("box:1", "6D"),
                     ("dealer", "QH"), ("dealer", "7D"), ("dealer", "2C")):
        ok(cli, "round", "deal", "QP-01", to, card)
    ok(cli, "round", "decide", "QP-01", "1", "play", "--player", "P-1")
    ok(cli, "round", "decide", "QP-01", "1", "surrender", "--player", "P-2")
    assert "recorded: dealer's hand revealed" in ok(cli, "round", "reveal", "QP-01")
    assert refused(cli, superuser, "round", "decide", "QP-01", "1", "play", "--player",
                   "P-2") == ("error: the dealer's cards are already shown: player P-2 on box 1 "
                              "had to decide before (art. 9(3)).")
    ok(cli, "round", "settle", "QP-01")

    assert _settled(superuser) == {
        (1, "bonus", "P-1"): ("won", Decimal("100.00"), Decimal("600.00"), Decimal(0)),
        (1, "play", "P-1"): ("won", Decimal("200.00"), Decimal("300.00"), Decimal(0)),
        (1, "play", "P-2"): ("surrendered", Decimal("150.00"), Decimal(0), Decimal(0)),
    }
    assert "freshly shuffled deck" in refused(cli, superuser, "round", "open", "QP-01")


def test_a_q_poker_dealer_card_exposed_is_voided_by_a_supervisor_not_a_dealer(
        cli, superuser, as_staff):
    ok(cli, "table", "open", "QP-02", "--game", "q-poker", "--min", "100", "--max", "20000")
    open_shift(cli, "QP-02")
    ok(cli, "table", "sign-in", "QP-02", "D-101")
    ok(cli, "shoe", "shuffle", "QP-02")
    ok(cli, "round", "open", "QP-02")
    ok(cli, "round", "bet", "QP-02", "2", "play", "500")
    ok(cli, "round", "deal", "QP-02", "box:2", "AS")
    ok(cli, "round", "deal", "QP-02", "dealer", "KD")
    dealer = as_staff("D-101", "dealer", terminal="QP-02-DT", kind=TerminalKind.DEALER_TERMINAL)
    assert refused(cli, superuser, "round", "expose", "QP-02", "dealer", "KD", env=dealer) == (
        "error: an exposed card that voids QP-02 round 1 needs a supervisor or pit boss: "
        "dealer D-101 cannot.")
    voided = ok(cli, "round", "expose", "QP-02", "dealer", "KD",
                env=as_staff("S-201", "supervisor"))
    assert ("recorded: exposed card recorded, bet settled, round void, round finished"
            in voided)
    assert _settled(superuser) == {
        (2, "play", None): ("returned", Decimal("500.00"), Decimal(0), Decimal(0))}


def test_a_fortune8_round_through_the_cli(cli, superuser):
    ok(cli, "table", "open", "F8-01", "--game", "fortune-8", "--min", "100", "--max", "20000")
    open_shift(cli, "F8-01")
    ok(cli, "table", "sign-in", "F8-01", "D-101")
    ok(cli, "shoe", "shuffle", "F8-01")
    assert "before the last 12 cards" in refused(cli, superuser, "shoe", "cut", "F8-01", "--by",
                                                 "dealer", "--at", "200")
    ok(cli, "shoe", "cut", "F8-01", "--by", "dealer", "--at", "300")
    ok(cli, "round", "open", "F8-01")
    ok(cli, "round", "bet", "F8-01", "1", "8", "100", "--player", "P-1")
    ok(cli, "round", "bet", "F8-01", "1", "8", "200", "--player", "P-2")
    ok(cli, "round", "bet", "F8-01", "5", "H", "300")
    ok(cli, "round", "announce", "F8-01", "spaces_with_bets")
    ok(cli, "round", "deal", "F8-01", "burn", "5C")
    assert "bets are closed" in refused(cli, superuser, "round", "bet", "F8-01", "2", "L", "100")
    ok(cli, "round", "deal", "F8-01", "space:1", "8H")
    ok(cli, "round", "deal", "F8-01", "space:5", "10D")  # 10 is read as T
    ok(cli, "round", "settle", "F8-01")

    assert _settled(superuser) == {
        (1, "8", "P-1"): ("won", Decimal("100.00"), Decimal("1100.00"), Decimal(0)),
        (1, "8", "P-2"): ("won", Decimal("200.00"), Decimal("2200.00"), Decimal(0)),
        (5, "H", None): ("won", Decimal("300.00"), Decimal("300.00"), Decimal(0)),
    }
    assert "10♦" in ok(cli, "round", "show", "F8-01")  # the card's face; its code in --json


def test_cli_refusals_are_one_red_line_and_exit_1(cli, superuser, as_staff):
    ok(cli, "table", "open", "F8-02", "--game", "fortune-8", "--min", "100", "--max", "20000")
    open_shift(cli, "F8-02")
    ok(cli, "table", "sign-in", "F8-02", "D-101")
    ok(cli, "shoe", "shuffle", "F8-02")
    ok(cli, "shoe", "cut", "F8-02", "--by", "dealer", "--at", "300")
    ok(cli, "round", "open", "F8-02")
    ok(cli, "round", "bet", "F8-02", "3", "L", "100")
    dealer = as_staff("D-101", "dealer", terminal="F8-02-DT", kind=TerminalKind.DEALER_TERMINAL)
    assert refused(cli, superuser, "round", "void", "F8-02", "--reason", "dispute",
                   env=dealer) == (
        "error: voiding a round needs a supervisor or pit boss: dealer D-101 cannot.")
    assert "'1X' is not a card" in refused(cli, superuser, "round", "deal", "F8-02", "space:3",
                                           "1X")
    assert "amount" in refused(cli, superuser, "round", "bet", "F8-02", "3", "H", "10.005")
    assert refused(cli, superuser, "round", "settle", "QP-99") == (
        "error: table QP-99 does not exist: `ledger table list` shows the tables.")


def test_a_demonstration_coup_and_a_standing_bet_through_the_cli(cli, superuser, as_staff):
    """Baccarat art. 2(2) and art. 15 as a pit terminal sends them: a demonstration coup is
    dealt and settled with no bet; a standing player's bet on a seated box is one line."""
    ok(cli, "table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max", "50000",
       "--setting", "demonstration_coups=1")
    open_shift(cli, "BAC-01")
    ok(cli, "table", "sign-in", "BAC-01", "D-101")
    ok(cli, "shoe", "shuffle", "BAC-01")
    ok(cli, "shoe", "cut", "BAC-01", "--by", "player P-3", "--at", "404")
    ok(cli, "shoe", "burn", "BAC-01", "--count", "8")
    ok(cli, "round", "open", "BAC-01", "--demonstration")
    assert refused(cli, superuser, "round", "bet", "BAC-01", "1", "banker", "100") == (
        "error: BAC-01 demonstration coup 1 takes no bets (art. 2(2)).")
    for to, card in (("player", "2S"), ("banker", "4H"), ("player", "2D"), ("banker", "KC"),
                     ("player", "9S")):
        ok(cli, "round", "deal", "BAC-01", to, card)
    assert "banker wins, player 3 banker 4; player pair; house even" in ok(
        cli, "round", "settle", "BAC-01")
    shown = json.loads(ok(cli, "round", "show", "BAC-01", "1", "--json"))
    assert shown["demonstration"] is True and shown["bets"] == []
    assert (shown["win"]["table_win"], shown["win_said"]) == ("0.00", "table win MOP 0.00")
    ok(cli, "round", "open", "BAC-01")
    assert refused(cli, superuser, "round", "bet", "BAC-01", "3", "banker", "100",
                   "--standing") == (
        "error: box 3 is a seated player's space: a standing player may not bet there (art. 15 "
        "of DICJ 55/2004); standing players bet on boxes 8 to 14.")
    assert "box 9 banker MOP 100.00" in ok(cli, "round", "bet", "BAC-01", "9", "banker", "100",
                                          "--standing")
