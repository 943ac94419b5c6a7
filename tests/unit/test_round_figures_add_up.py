"""A round's figures add up on every screen: stakes, returned, paid, commission and the
jackpot's stakes stay beside the table win at any width, and the floor's table page shows
what was returned."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from decimal import Decimal
from uuid import uuid4

from rich.console import Console

from ledger.audit.replay.recall import Recall, RecalledRound
from ledger.audit.replay.terminal import render_recall
from ledger.reports.round_win import RoundWin

D = Decimal


def _round(number: int, stakes: str, returned: str, paid: str, jackpot: str,
           win: str) -> RecalledRound:
    return RecalledRound(
        number=number, round_id=uuid4(), status="settled",
        opened_at=datetime(2026, 11, 29, 6, 32, tzinfo=UTC), finished_at=None, hands=[],
        outcome={}, results=[], stakes=D(stakes), returned=D(returned), payouts=D(paid),
        commission=D(0), house_win=D(win) + D(jackpot), jackpot_prizes=[], adjustments=D(0),
        win=RoundWin(status="settled", table_win=D(win), as_settled=D(win), adjustments=D(0),
                     jackpot_stakes=D(jackpot), jackpot_carried=D(0), jackpot_prizes=D(0)))


def _recall() -> Recall:
    return Recall(table="SP-02", rounds=[_round(15, "2500", "0", "0", "300", "2200"),
                                         _round(14, "1800", "400", "200", "0", "1200")])


def _shown(width: int) -> str:
    out = io.StringIO()
    render_recall(_recall(), Console(file=out, width=width))
    return out.getvalue()


def test_recall_keeps_the_jackpot_stakes_beside_a_win_that_leaves_them_out():
    """2,500.00 staked, nothing returned or paid, a table win of 2,200.00: the 300.00 that went
    to the pool is on the screen, at 120 columns as at 80."""
    for width in (120, 80):
        shown = _shown(width)
        assert "2,500.00" in shown and "2,200.00" in shown, shown
        assert "300.00" in shown, shown  # the jackpot column: stakes MOP 300.00 to the pool
        left_out = " ".join(line for line in shown.splitlines() if "left out" in line)
        assert not any(name in left_out for name in ("jackpot", "stakes", "returned", "paid",
                                                     "win")), shown


def test_recall_at_80_columns_keeps_stakes_returned_and_paid_and_leaves_out_an_empty_commission():
    """At 80 columns a round's figures stand one under the other, each named: a commission
    that is nothing in every round is not one of them."""
    shown = _shown(80)
    assert "1,800.00" in shown and "400.00" in shown and "1,200.00" in shown, shown
    for name, figure in (("stakes", "1,800.00"), ("returned", "400.00"), ("paid", "200.00"),
                         ("table win", "1,200.00")):
        assert any(line.split("│")[-2].split() == [*name.split(), figure]
                   for line in shown.splitlines() if line.count("│") == 4), (name, shown)
    assert "commission" not in shown, shown


def test_the_floor_table_page_shows_what_was_returned_beside_stakes_paid_and_win():
    from ledger.pages import render
    from ledger.presentation.wording import describe_outcome

    page = render("table_rounds.html", title="Table SP-02", recall=_recall(),
                  describe=describe_outcome, may_replay=False)
    assert '<th class="n">returned</th>' in page
    row = page.split("<td class=\"n\">14</td>")[1].split("</tr>")[0]
    cells = [cell.split("<")[0] for cell in row.split('<td class="n">')[1:]]
    assert cells[:4] == ["1,800.00", "400.00", "200.00", "0.00"], cells


def test_a_stud_round_s_bets_in_a_narrow_terminal_keep_returned_and_leave_out_a_zero_commission():
    """`round show` and `replay` once left out what was returned and kept a commission column
    of 0.00 at Stud Poker: stake - returned - paid must be readable as the bet's win."""
    from ledger.audit.replay.check import BetLine
    from ledger.audit.replay.terminal import results_table

    lines = [BetLine(box=4, spot="ante", player="P-4", stake=D(500), outcome="pushed "
                     "(the dealer's hand does not qualify)", returned=D(500), payout=D(500),
                     commission=D(0)),
             BetLine(box=4, spot="raise", player="P-4", stake=D(1000), outcome="returned",
                     returned=D(1000), payout=D(0), commission=D(0))]
    out = io.StringIO()
    left_out = results_table("bets", lines).print(Console(file=out, width=60))
    assert left_out == ["commission (MOP)"], out.getvalue()
    assert "returned (MOP)" in " ".join(out.getvalue().split()), out.getvalue()
