"""Table state's Table-stream events folded set-based: a batch's in two statements.

Both read the events at positions `%(lo)s` to `%(hi)s` from the batch table
(`projections.engine.folding`) and leave what the handlers in `projections.tables.state` would leave
after applying them one by one, in position order. The fold is deferred (applied once, at the
batch's end): it writes only columns no other handler reads before `finish` shows the rounds
and shoes again, and the position it leaves is the greatest that touched the row. A table's
opening (`Table.Opened`) is not folded: its handler applies it in position order, so the table's row and
code are there for every round's result (`projections.tables.rounds_fold`).

1. `RECORD_LIMITS`: every limits record of a re-opening or settings change;
2. `FOLD`: every event onto its table's row at once. For each group of columns the run's last
   event that sets it decides (re-opened or closed, dealer in or out, pool, carried bets, shoe,
   round), found again by its position; a table pointed at a shoe or round whose row exists
   shows it, as the handlers' `show_shoe` and `show_round` do; the version and position are
   the last event's, and the count of events applied grows by the run's count. The limits:
   each limit-taking event (opening, re-opening, settings change, round start) takes the latest
   record then recorded (position not after its own) dated on or before its own date; the last
   taker that found one decides the limits in force, the last taker's date the upcoming ones.
   A date may go back (an event stamped in another zone), so this is not always the last
   taker's lookup; but mostly it is, so that lookup is made first and the earlier takers' only
   for a table whose last taker found nothing.
"""

from __future__ import annotations

from ledger.domain.base import DomainEvent
from ledger.domain.table import Table
from projections.engine.base import literals

BATCH = "pg_temp.ledger_projection_batch"
RUN = f"{BATCH} WHERE position BETWEEN %(lo)s AND %(hi)s"
LIMIT_TAKERS = f"({literals(Table.Opened, Table.Reopened, Table.SettingsChanged, Table.RoundStarted)})"
REOPENED, CLOSED = literals(Table.Reopened), literals(Table.Closed)


def last(*types: type[DomainEvent]) -> str:
    """The position of the run's last event of these types in a table (NULL if none)."""
    return f"max(position) FILTER (WHERE event_type IN ({literals(*types)}))"


# Every limits record of a re-opening or settings change.
RECORD_LIMITS = f"""
INSERT INTO {{table_limits}}
SELECT b.stream_id, b.position, coalesce(s.effective_from, left(x.by->>'at', 10)::date),
       s.min_bet, s.max_bet, s.authorisation
  FROM {BATCH} b
 CROSS JOIN LATERAL jsonb_to_record(b.body) AS x(settings jsonb, by jsonb)
 CROSS JOIN LATERAL jsonb_to_record(x.settings)
       AS s(effective_from date, min_bet numeric, max_bet numeric, authorisation text)
 WHERE b.position BETWEEN %(lo)s AND %(hi)s
   AND b.event_type IN ({literals(Table.Reopened, Table.SettingsChanged)})
"""

# The latest limits record recorded by taker `k` (position not after its own) dated on or before
# its own date (the date the terminal gave, as `_day` reads it).
LOOKUP = """
SELECT min_bet, max_bet, effective_from FROM {table_limits}
 WHERE stream_id = k.stream_id AND position <= k.position
   AND effective_from <= left(k.body->'by'->>'at', 10)::date
 ORDER BY effective_from DESC, position DESC LIMIT 1"""

# Per table, the position of the last event of each kind (found again by position: no sort
# inside an aggregate); the last limit-taker's lookup for every table, an earlier one's only for
# a table where that found nothing (filtered before the lateral join: the planner cannot
# misjudge how many rows it runs for).
FOLD = f"""
WITH f AS (
    SELECT stream_id, max(version) AS version, max(position) AS position,
           count(*) AS events,
           {last(Table.Reopened, Table.Closed)} AS open_or_close,
           {last(Table.Reopened)} AS reopened, {last(Table.Closed)} AS closed,
           {last(Table.DealerSignedIn, Table.DealerSignedOut)} AS dealer,
           {last(Table.PoolLinked)} AS pool,
           {last(Table.JackpotBetsCarried, Table.RoundStarted)} AS carried,
           {last(Table.ShoeStarted)} AS shoe, {last(Table.RoundStarted)} AS round,
           max(position) FILTER (WHERE event_type IN {LIMIT_TAKERS}) AS taker
      FROM {RUN}
     GROUP BY stream_id
), last_found AS (  -- the last limit-taker's record in force (NULLs if it found none)
    SELECT f.stream_id, f.taker, l.min_bet, l.max_bet, l.effective_from
      FROM f JOIN {BATCH} k ON k.position = f.taker
      LEFT JOIN LATERAL ({LOOKUP}) l ON true
), found AS (  -- that, or else what the last earlier limit-taker to find one found
    SELECT stream_id, min_bet, max_bet, effective_from
      FROM last_found WHERE effective_from IS NOT NULL
     UNION ALL
    SELECT n.stream_id, e.min_bet, e.max_bet, e.effective_from
      FROM last_found n
     CROSS JOIN LATERAL (
           SELECT l.min_bet, l.max_bet, l.effective_from
             FROM {BATCH} k CROSS JOIN LATERAL ({LOOKUP}) l
            WHERE k.position BETWEEN %(lo)s AND n.taker - 1 AND k.stream_id = n.stream_id
              AND k.event_type IN {LIMIT_TAKERS}
            ORDER BY k.position DESC LIMIT 1) e
     WHERE n.effective_from IS NULL  -- filtered first: the fallback runs for these alone
)
UPDATE {{table_state}} t SET
       is_open = CASE oc.event_type WHEN {REOPENED} THEN true
                                    WHEN {CLOSED} THEN false ELSE t.is_open END,
       game = coalesce(rb.game, t.game),
       rule_set = coalesce(rb.rule_set, t.rule_set),
       pit = coalesce(rb.pit, t.pit),
       opened_at = coalesce((rb.by->>'at')::timestamptz, t.opened_at),
       closed_at = coalesce((cl.body->'by'->>'at')::timestamptz, t.closed_at),
       dealer = CASE WHEN dl.position IS NULL THEN t.dealer
                     WHEN dl.event_type = {literals(Table.DealerSignedIn)} THEN dl.body->>'dealer_id' END,
       jackpot_pool = CASE WHEN pl.position IS NULL THEN t.jackpot_pool ELSE pl.body->>'pool' END,
       carried_jackpot_bets = CASE WHEN cb.position IS NULL THEN t.carried_jackpot_bets
                                   WHEN cb.event_type = {literals(Table.JackpotBetsCarried)}
                                   THEN (cb.body->'bets')::jsonb END,
       shoe_id = CASE WHEN sh.position IS NULL THEN t.shoe_id
                      ELSE (sh.body->>'shoe_id')::uuid END,
       shoe_cards_remaining = CASE WHEN sh.position IS NULL THEN t.shoe_cards_remaining
                                   ELSE ts.cards - ts.position END,
       round_id = CASE WHEN rs.position IS NULL THEN t.round_id
                       ELSE (rs.body->>'round_id')::uuid END,
       round_number = CASE WHEN rs.position IS NULL THEN t.round_number
                           ELSE coalesce(tr.number, (rs.body->>'number')::integer) END,
       round_phase = CASE WHEN rs.position IS NULL THEN t.round_phase ELSE tr.phase END,
       bets = CASE WHEN rs.position IS NULL THEN t.bets ELSE tr.bets END,
       cards_shown = CASE WHEN rs.position IS NULL THEN t.cards_shown
                          WHEN tr.round_id IS NOT NULL THEN (
           SELECT coalesce(jsonb_object_agg(target, cards), '{{{{}}}}'::jsonb)
             FROM (SELECT e->>'to' AS target, jsonb_agg(e->'card' ORDER BY ord) AS cards
                     FROM jsonb_array_elements(tr.cards) WITH ORDINALITY AS c(e, ord)
                    WHERE tr.all_shown OR (e->>'shown')::boolean
                    GROUP BY e->>'to') AS shown) END,
       min_bet = coalesce(fd.min_bet, t.min_bet), max_bet = coalesce(fd.max_bet, t.max_bet),
       limits_from = coalesce(fd.effective_from, t.limits_from),
       upcoming_limits = CASE WHEN lt.position IS NULL THEN t.upcoming_limits ELSE (
           SELECT jsonb_agg(jsonb_build_object(
                      'effective_from', u.effective_from, 'min_bet', u.min_bet::text,
                      'max_bet', u.max_bet::text, 'authorisation', u.authorisation)
                  ORDER BY u.effective_from)
             FROM (SELECT DISTINCT ON (effective_from) * FROM {{table_limits}}
                    WHERE stream_id = t.stream_id
                      AND effective_from > left(lt.body->'by'->>'at', 10)::date
                    ORDER BY effective_from, position DESC) u) END,
       version = f.version, events_applied = t.events_applied + f.events,
       updated_position = greatest(t.updated_position, f.position)
  FROM f
  LEFT JOIN {BATCH} lt ON lt.position = f.taker  -- the last limit-taker, for its date
  LEFT JOIN found fd ON fd.stream_id = f.stream_id
  LEFT JOIN {BATCH} oc ON oc.position = f.open_or_close
  LEFT JOIN {BATCH} ro ON ro.position = f.reopened
  LEFT JOIN LATERAL jsonb_to_record(ro.body) AS rb(game text, rule_set text, pit text, by jsonb)
         ON true  -- a re-opening's fields at once
  LEFT JOIN {BATCH} cl ON cl.position = f.closed
  LEFT JOIN {BATCH} dl ON dl.position = f.dealer
  LEFT JOIN {BATCH} pl ON pl.position = f.pool
  LEFT JOIN {BATCH} cb ON cb.position = f.carried
  LEFT JOIN {BATCH} sh ON sh.position = f.shoe
  LEFT JOIN {BATCH} rs ON rs.position = f.round
  LEFT JOIN {{table_shoes}} ts ON ts.shoe_id = (sh.body->>'shoe_id')::uuid
  LEFT JOIN {{table_rounds}} tr ON tr.round_id = (rs.body->>'round_id')::uuid
 WHERE t.stream_id = f.stream_id
"""

STATEMENTS = (RECORD_LIMITS, FOLD)
