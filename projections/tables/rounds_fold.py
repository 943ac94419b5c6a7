"""Table state's round and shoe events folded set-based: a batch's in four statements.

Each reads the events at positions `%(lo)s` to `%(hi)s` from the batch table
(`projections.engine.folding`) and leaves what the handlers in `projections.tables.rounds` would leave
after applying them one by one, in position order:

1. `OPEN`: a row per round opened (its carried jackpot bets on the layout) and per shoe
   shuffled, each its stream's first event;
2. `ROUNDS`: every other event of a round onto its row at once: bets, raises, cards dealt and
   jackpot prizes appended in position order; the phase the last of the revealing, settling and
   voiding events set, or betting turned dealing by a card; the dealer's cards revealed;
3. `SHOES`: a shoe's next place, after its last card drawn (or where it stood), plus the burns
   since;
4. `RESULTS`: the rounds settled or voided, newest first, in front of their table's last
   results, ten kept.

The fold is deferred (applied at the batch's end, `projections.engine.base`), and before a card
exposed (which looks the card up in the round's row) or a round adjusted (which changes its
result among the last ten): nothing else reads what it writes before `finish` shows the rounds
and shoes on their tables again. Each row's position is the greatest that touched it.
"""

from __future__ import annotations

from ledger.domain.round import Round
from ledger.domain.shoe import Shoe
from projections.engine.base import literals

RESULTS_KEPT = 10
CARDS_PER_DECK = 52

BATCH = "pg_temp.ledger_projection_batch"
RUN = f"{BATCH} b WHERE b.position BETWEEN %(lo)s AND %(hi)s"
ROUND_TYPES = (Round.BetPlaced, Round.DecisionMade, Round.CardDealt, Round.DealerRevealed,
               Round.JackpotPrizeAwarded, Round.Settled, Round.Voided)
SHOE_TYPES = (Shoe.CardDrawn, Shoe.CardsBurned)
TYPES = (Round.Opened, Shoe.Shuffled, *ROUND_TYPES, *SHOE_TYPES)
SHOWN_ROUNDS = tuple(kind.event_type for kind in (Round.Opened, *ROUND_TYPES)
                     if kind is not Round.JackpotPrizeAwarded)  # a jackpot prize shows nothing
SHOWN_SHOES = tuple(kind.event_type for kind in (Shoe.Shuffled, *SHOE_TYPES))
EMPTY = "'{{}}'::jsonb"  # an empty object, once `Projection.sql` has formatted the statement

OPENED, SHUFFLED = literals(Round.Opened), literals(Shoe.Shuffled)
BET, DECISION, DEALT = literals(Round.BetPlaced), literals(Round.DecisionMade), literals(Round.CardDealt)
REVEALED, PRIZE = literals(Round.DealerRevealed), literals(Round.JackpotPrizeAwarded)
SETTLED, VOIDED = literals(Round.Settled), literals(Round.Voided)
DRAWN, BURNED = literals(Shoe.CardDrawn), literals(Shoe.CardsBurned)


OPEN = f"""
WITH rounds AS (
    INSERT INTO {{table_rounds}} (round_id, table_code, number, phase, bets, events_applied,
                                 updated_position, demonstration)
    SELECT b.stream_id, b.body->>'table', (b.body->>'number')::integer, 'betting', coalesce((
               SELECT jsonb_agg(jsonb_build_object(
                          'box', c->'box', 'spot', 'jackpot', 'amount', c->'amount',
                          'player', NULL, 'carried_from', c->'from_round') ORDER BY o)
                 FROM jsonb_array_elements((b.body->'carried_jackpot_bets')::jsonb)
                      WITH ORDINALITY AS x(c, o)), '[]'::jsonb),
           1, b.position, coalesce((b.body->>'demonstration')::boolean, false)
      FROM {RUN} AND b.event_type = {OPENED}
)
INSERT INTO {{table_shoes}}
SELECT b.stream_id, b.body->>'table', {CARDS_PER_DECK} * (b.body->>'decks')::integer, 0, 1,
       b.position
  FROM {RUN} AND b.event_type = {SHUFFLED}
"""

# The fields of the round events folded, as their bodies hold them (amounts as exact strings).
FIELDS = ('box integer, amount text, player text, spot text, decision text, "to" text, card text, '
          'face_up boolean, category text')
ENDS = f"({REVEALED}, {SETTLED}, {VOIDED})"  # each sets the phase

ROUNDS = f"""
WITH f AS (
    SELECT b.stream_id, count(*) AS events, max(b.position) AS position,
           max(b.position) FILTER (WHERE b.event_type IN {ENDS}) AS ended,
           max(b.position) FILTER (WHERE b.event_type = {REVEALED}) AS revealed,
           bool_or(b.event_type = {DEALT}) AS dealt,
           bool_or(b.event_type IN ({REVEALED}, {SETTLED})) AS all_shown,
           coalesce(jsonb_agg(jsonb_build_object(
                        'box', b.box, 'amount', b.amount, 'player', b.player,
                        'spot', CASE b.event_type WHEN {BET} THEN b.spot
                                                  ELSE b.decision END)
                    ORDER BY b.position)
                FILTER (WHERE b.event_type = {BET}
                           OR (b.event_type = {DECISION} AND b.amount::numeric > 0)),
                    '[]'::jsonb) AS bets,
           coalesce(jsonb_agg(jsonb_build_object('to', b."to", 'card', b.card, 'shown', b.face_up)
                    ORDER BY b.position) FILTER (WHERE b.event_type = {DEALT}),
                    '[]'::jsonb) AS cards,
           coalesce(jsonb_agg(jsonb_build_object('box', b.box, 'category', b.category,
                                                 'amount', b.amount)
                    ORDER BY b.position) FILTER (WHERE b.event_type = {PRIZE}),
                    '[]'::jsonb) AS jackpot
      FROM (SELECT b.stream_id, b.position, b.event_type, x.*  -- each body's fields at once
              FROM {BATCH} b CROSS JOIN LATERAL jsonb_to_record(b.body) AS x({FIELDS})
             WHERE b.position BETWEEN %(lo)s AND %(hi)s
               AND b.event_type IN ({literals(*ROUND_TYPES)})) AS b
     GROUP BY b.stream_id
)
UPDATE {{table_rounds}} r
   SET bets = r.bets || f.bets, cards = r.cards || f.cards, jackpot = r.jackpot || f.jackpot,
       phase = CASE WHEN f.ended IS NOT NULL
                    THEN CASE e.event_type WHEN {REVEALED} THEN 'revealed'
                                           WHEN {SETTLED} THEN 'settled' ELSE 'void' END
                    WHEN f.dealt AND r.phase = 'betting' THEN 'dealing' ELSE r.phase END,
       all_shown = r.all_shown OR f.all_shown,
       dealer_cards = CASE WHEN f.revealed IS NULL THEN r.dealer_cards
                           ELSE (v.body->'cards')::jsonb END,
       events_applied = r.events_applied + f.events,
       updated_position = greatest(r.updated_position, f.position)
  FROM f
  LEFT JOIN {BATCH} e ON e.position = f.ended
  LEFT JOIN {BATCH} v ON v.position = f.revealed
 WHERE r.round_id = f.stream_id
"""

SHOES = f"""
WITH e AS (
    SELECT b.stream_id, b.position, b.event_type, b.body
      FROM {RUN} AND b.event_type IN ({literals(*SHOE_TYPES)})
), f AS (
    SELECT stream_id, count(*) AS events, max(position) AS position,
           max(position) FILTER (WHERE event_type = {DRAWN}) AS drawn
      FROM e GROUP BY stream_id
)
UPDATE {{table_shoes}} s
   SET position = coalesce((d.body->>'position')::integer + 1, s.position) + (
           SELECT coalesce(sum((x.body->>'count')::integer), 0) FROM e x
            WHERE x.stream_id = f.stream_id AND x.event_type = {BURNED}
              AND x.position > coalesce(f.drawn, 0)),
       events_applied = s.events_applied + f.events,
       updated_position = greatest(s.updated_position, f.position)
  FROM f LEFT JOIN {BATCH} d ON d.position = f.drawn
 WHERE s.shoe_id = f.stream_id
"""

RESULTS = f"""
WITH ended AS (
    SELECT r.table_code, b.position,
           jsonb_build_object('number', r.number)
           || CASE b.event_type
              WHEN {SETTLED} THEN jsonb_build_object(
                  'status', 'settled', 'outcome', b.body->'outcome',
                  'house_win', b.body->'house_win', 'adjustments', '0.00')
              ELSE jsonb_build_object(
                  'status', 'void', 'reason', b.body->'reason',
                  'jackpot_carried', b.body->'jackpot_carried', 'house_win', '0.00',
                  'adjustments', '0.00') END
           || CASE WHEN r.dealer_cards IS NULL THEN {EMPTY}
                   ELSE jsonb_build_object('dealer_cards', r.dealer_cards) END
           || CASE WHEN r.jackpot = '[]'::jsonb THEN {EMPTY}
                   ELSE jsonb_build_object('jackpot', r.jackpot) END AS result
      FROM {BATCH} b JOIN {{table_rounds}} r ON r.round_id = b.stream_id
     WHERE b.position BETWEEN %(lo)s AND %(hi)s
       AND b.event_type IN ({SETTLED}, {VOIDED})
       AND NOT r.demonstration  -- baccarat art. 2(2): no result a player bet on
), n AS (
    SELECT table_code, max(position) AS position,
           jsonb_agg(result ORDER BY position DESC) AS results
      FROM ended GROUP BY table_code
)
UPDATE {{table_state}} t
   SET last_results = (
           SELECT jsonb_agg(x.e ORDER BY x.ord)
             FROM jsonb_array_elements(n.results || coalesce(t.last_results, '[]'::jsonb))
                  WITH ORDINALITY AS x(e, ord)
            WHERE x.ord <= {RESULTS_KEPT}),
       updated_position = greatest(t.updated_position, n.position)
  FROM n
 WHERE t.code = n.table_code
"""

STATEMENTS = (OPEN, ROUNDS, SHOES, RESULTS)
