"""The shift report's round figures folded set-based: a batch's in one statement.

Every figure a round event adds to its shift is a sum (payouts, commission, the table's win,
jackpot stakes, contributions and prizes, adjustments, rounds played and voided,
irregularities, and the handle by spot and by dealer and terms), so the order they are added in does not matter, and
nothing else in the shift report reads them: they are added once, at the batch's end (a
deferred fold, `projections.engine.base`). The shift a round belongs to was fixed when it opened
(`report_rounds`, which its handler wrote, earlier in position order); a round under no shift
adds nothing, as its handlers add nothing. The row's position is the greatest that touched it.
"""

from __future__ import annotations

from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.round import Round
from projections.engine.base import literals

BATCH = "pg_temp.ledger_projection_batch"
STAKE, RETURNED, PAYOUT, COMMISSION, SPOT, OUTCOME = (
    "stake", "returned", "payout", "commission", "spot", "outcome")
WIN = f"({STAKE} - {RETURNED} - {PAYOUT} + {COMMISSION})"
# The fields read, each body's at once (and a settled bet's own object's).
FIELDS = "amount numeric, to_pool numeric, round_id uuid, bet jsonb, after_close boolean"
BET_FIELDS = ("spot text, outcome text, stake numeric, returned numeric, payout numeric, "
              "commission numeric")
IS_BET = f"event_type = {literals(Round.BetSettled)}"
ON_LAYOUT = f"{IS_BET} AND {SPOT} <> 'jackpot'"  # a jackpot bet goes to the pool, not the rack
COUNTED = f"{ON_LAYOUT} AND {OUTCOME} <> 'returned'"  # in the handle

TYPES = (Round.BetSettled, Round.Settled, Round.Voided, Round.IrregularityRecorded,
         Round.CardExposed, Round.JackpotPrizeAwarded, Round.Adjusted,
         JackpotPool.ContributionReceived)
SETTLED, VOIDED, ADJUSTED = literals(Round.Settled), literals(Round.Voided), literals(Round.Adjusted)
IRREGULAR = literals(Round.IrregularityRecorded, Round.CardExposed)
PRIZE, CONTRIBUTION = literals(Round.JackpotPrizeAwarded), literals(JackpotPool.ContributionReceived)


def total(expression: str, where: str) -> str:
    return f"coalesce(sum({expression}) FILTER (WHERE {where}), 0)"


def counted(where: str) -> str:
    return f"count(*) FILTER (WHERE {where})"


FOLD = f"""
WITH e AS (
    SELECT b.position, b.event_type, x.amount, x.to_pool, x.after_close, y.*, r.shift_id,
           coalesce(r.dealer, '') AS dealer, coalesce(r.terms, '') AS terms
      FROM {BATCH} b
     CROSS JOIN LATERAL jsonb_to_record(b.body) AS x({FIELDS})
      LEFT JOIN LATERAL jsonb_to_record(x.bet) AS y({BET_FIELDS}) ON true
      JOIN {{report_rounds}} r
        ON r.round_id = CASE b.event_type WHEN {CONTRIBUTION}
                                          THEN x.round_id ELSE b.stream_id END
     WHERE b.position BETWEEN %(lo)s AND %(hi)s AND r.shift_id IS NOT NULL
       AND b.event_type IN ({literals(*TYPES)})
), handle AS (
    INSERT INTO {{report_handle}} AS h
    SELECT shift_id, {SPOT}, count(*), sum({STAKE}), sum({STAKE} * {STAKE}), sum({WIN})
      FROM e WHERE {COUNTED}
     GROUP BY shift_id, {SPOT}
        ON CONFLICT (shift_id, spot) DO UPDATE
       SET bets = h.bets + EXCLUDED.bets, handle = h.handle + EXCLUDED.handle,
           sum_of_squares = h.sum_of_squares + EXCLUDED.sum_of_squares,
           table_win = h.table_win + EXCLUDED.table_win
), stakes AS (
    INSERT INTO {{report_stakes}} AS k
    SELECT shift_id, dealer, terms, {SPOT}, count(*), sum({STAKE}), sum({STAKE} * {STAKE}),
           sum({WIN})
      FROM e WHERE {COUNTED}
     GROUP BY shift_id, dealer, terms, {SPOT}
        ON CONFLICT (shift_id, dealer, terms, spot) DO UPDATE
       SET bets = k.bets + EXCLUDED.bets, handle = k.handle + EXCLUDED.handle,
           sum_of_squares = k.sum_of_squares + EXCLUDED.sum_of_squares,
           table_win = k.table_win + EXCLUDED.table_win
), f AS (
    SELECT shift_id, max(position) AS position,
           {total(PAYOUT, ON_LAYOUT)} AS payouts,
           {total(COMMISSION, ON_LAYOUT)} AS commission,
           {total(WIN, ON_LAYOUT)} AS table_win,
           {total(STAKE, f"{IS_BET} AND {SPOT} = 'jackpot' AND {OUTCOME} <> 'carried'")}
               AS jackpot_stakes,
           {counted(f"event_type = {SETTLED}")} AS played,
           {counted(f"event_type = {VOIDED}")} AS voided,
           {counted(f"event_type IN ({IRREGULAR})")}
               AS irregularities,
           {total("amount", f"event_type = {PRIZE}")}
               AS prizes,
           {total("amount", f"event_type = {ADJUSTED}")}
               AS adjustments,
           {total("amount", f"event_type = {ADJUSTED} AND after_close")}
               AS adjustments_after_close,
           {total("to_pool", f"event_type = {CONTRIBUTION}")} AS contributions
      FROM e GROUP BY shift_id
)
UPDATE {{report_shifts}} s
   SET payouts = s.payouts + f.payouts, commission = s.commission + f.commission,
       table_win = s.table_win + f.table_win, jackpot_stakes = s.jackpot_stakes + f.jackpot_stakes,
       rounds_played = s.rounds_played + f.played, rounds_voided = s.rounds_voided + f.voided,
       irregularities = s.irregularities + f.irregularities,
       jackpot_prizes = s.jackpot_prizes + f.prizes, adjustments = s.adjustments + f.adjustments,
       adjustments_after_close = s.adjustments_after_close + f.adjustments_after_close,
       jackpot_contributions = s.jackpot_contributions + f.contributions,
       updated_position = greatest(s.updated_position, f.position)
  FROM f
 WHERE s.shift_id = f.shift_id
"""
