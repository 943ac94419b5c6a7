"""A changed paytable changes the expected win and its band from the round it applies to, and
never before: each round's bets are valued under the rules and settings it opened with."""

from __future__ import annotations

from decimal import Decimal

from ledger.commands.table import ChangeTableSettings
from ledger.core import clock as ledger_clock
from ledger.core.expectation import Expectation
from ledger.core.formatting import MACAU
from ledger.games.registry import game
from ledger.games.rulesets import parse_settings
from projections.engine.runner import ProjectionRunner
from projections.registry import select
from projections.shifts.read import shift_report
from tests.integration.replay_rounds import SUPERVISOR, stud_round, stud_table
from tests.signing import GAMING_DAY, open_ledger

TWO_PAIRS = {1: "KH KS 9D 9C 3H"}


def _ante_odds(royal: int):
    settings = parse_settings("stud-poker/2004", {
        "effective_from": "2026-01-01", "authorisation": "x", "min_bet": "100.00",
        "max_bet": "50000.00", "royal_odds": royal, "max_payout": "100000.00"})
    return {bet.spot: bet for bet in game("stud-poker").bet_odds(settings)}["ante"]


def test_stud_art13_royal_odds_raised_mid_shift_value_later_antes_at_the_new_edge(settings,
                                                                                superuser):
    with open_ledger(settings) as rt:
        dealer = stud_table(rt.ledger)  # royal flush at 80:1
        stud_round(dealer, {1: ("1000", None)}, TWO_PAIRS)
        rt.ledger.execute(ChangeTableSettings(
            table="SP-01", settings={"royal_odds": 100}, authorisation="DICJ-AUTH-2026-7",
            # the date a round's settings are looked up by: its command's time's own date
            # (UTC here), which is not Macau's between midnight and 08:00 Macau time
            effective_from=ledger_clock.now().astimezone(MACAU).date(), actor=SUPERVISOR, terminal="pit-1"))
        stud_round(dealer, {1: ("1000", None)}, TWO_PAIRS)
        with ProjectionRunner(rt.database, select(["shift_report"])) as runner:
            runner.catch_up()
        with rt.database.connect() as conn:
            [table] = shift_report(conn, GAMING_DAY, "day").tables
    at_80, at_100 = _ante_odds(80), _ante_odds(100)
    assert at_100.edge < at_80.edge  # a richer royal flush: a smaller edge
    assert at_100.variance > at_80.variance  # and a wider spread
    terms = superuser.execute("SELECT settings->>'royal_odds' FROM report_terms "
                              "ORDER BY 1").fetchall()
    assert [row[0] for row in terms] == ["100", "80"]
    ante = Decimal(1000)
    expected = (Expectation.of_bets(ante, ante**2, at_80.edge, at_80.variance)
                + Expectation.of_bets(ante, ante**2, at_100.edge, at_100.variance))
    assert table.expected_win == expected.expected.quantize(Decimal("0.01"))
    assert (table.band_low, table.band_high) == expected.band()
    only_80 = Expectation.of_bets(2 * ante, 2 * ante**2, at_80.edge, at_80.variance)
    assert expected.band() != only_80.band()  # the old paytable's band is not the one shown
