"""The band takes each round's bets together: what the shift report keeps of a round's stakes
(by ordered pair of spots, over the bets on one box and over all of the round's bets) is, for a
shift of every game, the products of the stakes of each round as its settled bets recorded
them, counted here from the events alone."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from projections.engine.runner import ProjectionRunner
from projections.registry import select
from tests.integration.floor_driver import FloorDriver
from tests.signing import open_ledger


def _from_events(superuser) -> dict[tuple[str, str, str], tuple[Decimal, Decimal]]:
    """(table, spot a, spot b): (Σ over rounds and boxes of stake x stake, Σ over rounds)."""
    tables, bets = {}, defaultdict(list)
    for stream, kind, body in superuser.execute(
            "SELECT stream_id, event_type, body FROM ledger_event_log ORDER BY position"):
        if kind == "Round.Opened" and not body.get("demonstration"):
            tables[stream] = body["table"]
        elif kind == "Round.BetSettled" and stream in tables:
            bet = body["bet"]
            if bet["spot"] != "jackpot" and bet["outcome"] != "returned":
                bets[stream].append((bet["box"], bet["spot"], Decimal(bet["stake"])))
    found: dict[tuple[str, str, str], list[Decimal]] = defaultdict(lambda: [Decimal(0)] * 2)
    for stream, placed in bets.items():
        for box, spot, stake in placed:
            for other_box, other_spot, other_stake in placed:
                sums = found[tables[stream], spot, other_spot]
                sums[0] += stake * other_stake if box == other_box else 0
                sums[1] += stake * other_stake
    return {key: (within, whole) for key, (within, whole) in found.items()}


def test_a_rounds_stakes_are_kept_by_pairs_of_spots_on_one_box_and_in_the_round(
        settings, superuser):
    with open_ledger(settings) as rt:
        FloorDriver(rt.ledger).record_shift()
        with ProjectionRunner(rt.database, select(["shift_report"])) as runner:
            runner.catch_up()
    kept = {(table, a, b): (within, whole) for table, a, b, within, whole in superuser.execute(
        "SELECT s.table_code, p.spot_a, p.spot_b, sum(p.within), sum(p.whole) "
        "FROM report_pairs p JOIN report_shifts s USING (shift_id) GROUP BY 1, 2, 3")}
    expected = _from_events(superuser)
    assert kept == expected
    assert any(within < whole for within, whole in kept.values())  # bets on several boxes
    assert {table for table, _, _ in kept} >= {"BAC-01", "QP-01", "F8-01", "SP-01"}
    waiting = superuser.execute("SELECT count(*) FROM report_round_stakes").fetchone()[0]
    assert waiting == 0  # every round of the shift finished: no stakes left waiting
