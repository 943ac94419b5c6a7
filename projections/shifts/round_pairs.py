"""What the band of a table's win needs beyond each bet's own figures: how a round's stakes lie
together.

A round's bets move together (one coup's cards settle all its bets; a box's players share its
cards; every box meets one dealer), so the variance of a round's win is a sum over pairs of
its bets: stake x stake x the covariance of the two spots' unit results, which depends on the
two spots and on whether the bets are on one box (`ledger.games.odds.RoundOdds`). Kept here by
shift, dealer and terms and by ordered pair of spots, summed over the finished rounds: `within`,
of stake on one spot x stake on the other over the pairs of bets on one box (a bet with itself
included), and `whole`, the same over every pair of the round's bets. The statistics report
weighs them with the covariances of the round's terms.

A round's stakes by box and spot wait in `report_round_stakes` until the round is settled or
voided, when its products are added and its rows dropped: the table holds the rounds in play.
"""

from __future__ import annotations

from ledger.domain.round import Round
from projections.engine.base import literals

PAIRS_DDL = """
CREATE TABLE IF NOT EXISTS {report_pairs} (
    shift_id uuid NOT NULL,
    dealer text NOT NULL,
    terms text NOT NULL,
    spot_a text NOT NULL,
    spot_b text NOT NULL,
    within numeric(30, 4) NOT NULL,
    whole numeric(30, 4) NOT NULL,
    PRIMARY KEY (shift_id, dealer, terms, spot_a, spot_b)
)
"""

ROUND_STAKES_DDL = """
CREATE TABLE IF NOT EXISTS {report_round_stakes} (
    round_id uuid NOT NULL,
    box integer NOT NULL,
    spot text NOT NULL,
    stake numeric(18, 2) NOT NULL,
    PRIMARY KEY (round_id, box, spot)
)
"""

TABLES = {"report_pairs": PAIRS_DDL, "report_round_stakes": ROUND_STAKES_DDL}

STAKE = """
INSERT INTO {report_round_stakes} AS x VALUES (%(round)s, %(box)s, %(spot)s, %(stake)s)
    ON CONFLICT (round_id, box, spot) DO UPDATE SET stake = x.stake + EXCLUDED.stake
"""


def finished(rounds: str) -> str:
    """The products of the rounds `rounds` selects (a query of `round_id`), added to their
    shifts' pairs, and their waiting stakes dropped."""
    return f"""
WITH done AS (
    SELECT r.round_id, r.shift_id, coalesce(r.dealer, '') AS dealer,
           coalesce(r.terms, '') AS terms
      FROM {{report_rounds}} r WHERE r.round_id IN ({rounds}) AND r.shift_id IS NOT NULL
), added AS (
    INSERT INTO {{report_pairs}} AS p
    SELECT d.shift_id, d.dealer, d.terms, x.spot, y.spot,
           coalesce(sum(x.stake * y.stake) FILTER (WHERE x.box = y.box), 0),
           sum(x.stake * y.stake)
      FROM done d
      JOIN {{report_round_stakes}} x ON x.round_id = d.round_id
      JOIN {{report_round_stakes}} y ON y.round_id = d.round_id
     GROUP BY d.shift_id, d.dealer, d.terms, x.spot, y.spot
        ON CONFLICT (shift_id, dealer, terms, spot_a, spot_b) DO UPDATE
       SET within = p.within + EXCLUDED.within, whole = p.whole + EXCLUDED.whole
)
DELETE FROM {{report_round_stakes}} WHERE round_id IN ({rounds})
"""


ONE_ROUND = finished("%(round)s")
"""A round's products as its handler adds them when it is settled or voided."""

BATCH = "pg_temp.ledger_projection_batch"
_COUNTED = (f"b.event_type = {literals(Round.BetSettled)} AND b.body->'bet'->>'spot' <> 'jackpot' "
            "AND b.body->'bet'->>'outcome' <> 'returned'")

FOLD_STAKES = f"""
INSERT INTO {{report_round_stakes}} AS x
SELECT b.stream_id, (b.body->'bet'->>'box')::integer, b.body->'bet'->>'spot',
       sum((b.body->'bet'->>'stake')::numeric)
  FROM {BATCH} b JOIN {{report_rounds}} r ON r.round_id = b.stream_id
 WHERE b.position BETWEEN %(lo)s AND %(hi)s AND r.shift_id IS NOT NULL AND {_COUNTED}
 GROUP BY 1, 2, 3
    ON CONFLICT (round_id, box, spot) DO UPDATE SET stake = x.stake + EXCLUDED.stake
"""
"""The batch's counted bets added to their rounds' waiting stakes: before `FOLD_FINISHED`."""

FOLD_FINISHED = finished(
    f"SELECT stream_id FROM {BATCH} WHERE position BETWEEN %(lo)s AND %(hi)s "
    f"AND event_type IN ({literals(Round.Settled, Round.Voided)})")
"""The products of the batch's rounds settled or voided: a round's bets come before that."""
