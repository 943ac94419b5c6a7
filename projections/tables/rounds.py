"""The round and shoe columns of table state: what is on the layout now, and how it ended.

Round and shoe events do not carry their table's stream id, so each round and each shoe has a
row of its own here (`table_rounds`, `table_shoes`), keyed by its stream id and naming its
table by code (from `Round.Opened` and `Shoe.Shuffled`). Every round or shoe event updates its
own row, then copies what the floor screen shows into the table's row, but only while the table
shows that round or shoe (`Table.RoundStarted` and `Table.ShoeStarted` point the table at it).
Either order of a table's event and its round's or shoe's first event ends in the same row.

What the columns show:

- `round_phase`: the Round aggregate's phase (betting, dealing, revealed, settled, void). After
  a round ends the table keeps showing it, with its final phase, until the next one starts.
- `bets`: every bet placed, in order (carried jackpot bets first, marked `carried_from`), and
  each Stud Poker raise as a bet of spot `raise`: the stakes on the layout.
- `cards_shown`: {target: [cards]} of the cards dealt face up or exposed by mistake; once the
  dealer's hand is revealed, or the round is settled, every card dealt.
- `shoe_cards_remaining`: as the Shoe aggregate counts it, its 52-card decks less every card
  drawn or burned.
- `last_results`: the last ten rounds ended, newest first: number, `settled` with the game's
  outcome (baccarat's winner, the Q Poker dealer's hand...), the dealer's cards where revealed,
  jackpot prizes, and the house win net of later adjustments; or `void` with the reason.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from uuid import UUID

from psycopg import Cursor
from psycopg.types.json import Jsonb

from ledger.domain.round import Round
from ledger.domain.shoe import Shoe
from projections.engine.base import Projection, StoredEvent, folds, handles
from projections.tables import rounds_fold as table_rounds_fold
from projections.tables.rounds_fold import (
    CARDS_PER_DECK,
    RESULTS_KEPT,
    SHOWN_ROUNDS,
    SHOWN_SHOES,
)

ROUNDS_DDL = """
CREATE TABLE IF NOT EXISTS {table_rounds} (
    round_id uuid PRIMARY KEY,
    table_code text NOT NULL,
    number integer NOT NULL,
    phase text NOT NULL,
    bets jsonb NOT NULL,
    cards jsonb NOT NULL DEFAULT '[]',  -- every card dealt: {{to, card, shown}}
    all_shown boolean NOT NULL DEFAULT false,
    dealer_cards jsonb,
    jackpot jsonb NOT NULL DEFAULT '[]',
    events_applied bigint NOT NULL,
    updated_position bigint NOT NULL,
    demonstration boolean NOT NULL DEFAULT false  -- baccarat art. 2(2): not in the results
)
"""
# A column an older version's table lacks (its rows keep the default until a rebuild).
ADDED_COLUMNS = (("ALTER TABLE {table_rounds} ADD COLUMN IF NOT EXISTS demonstration boolean "
                 "NOT NULL DEFAULT false"),)

SHOES_DDL = """
CREATE TABLE IF NOT EXISTS {table_shoes} (
    shoe_id uuid PRIMARY KEY,
    table_code text NOT NULL,
    cards integer NOT NULL,
    position integer NOT NULL,  -- the next card's place, burns included
    events_applied bigint NOT NULL,
    updated_position bigint NOT NULL
)
"""

TOUCH = "events_applied = events_applied + 1, updated_position = %(position)s"
MOVED = "updated_position = greatest(t.updated_position, %(position)s)"

# Each round and shoe of `%(streams)s` (with the last position that touched it) copied onto the
# table that points at it: a table points at one round and one shoe, so each is copied once.
# Each round and shoe the batch touched, at the greatest position that touched it: those the
# handlers noted (`%(streams)s`, `%(positions)s`) and, when the batch staged its round and shoe
# events (`{staged}`), those in the batch table between `%(lo)s` and `%(hi)s`.
SHOWN = """
shown AS (
    SELECT stream, max(position) AS position FROM (
        SELECT * FROM unnest(%(streams)s::uuid[], %(positions)s::bigint[]) AS n(stream, position)
        {staged}) AS every GROUP BY stream
)"""
STAGED = """
        UNION ALL
        SELECT stream_id, position FROM pg_temp.ledger_projection_batch
         WHERE position BETWEEN %(lo)s AND %(hi)s AND event_type = ANY(%(kinds)s)
"""

SHOW_ROUNDS = """
WITH {shown}
UPDATE {{table_state}} t
   SET round_number = r.number, round_phase = r.phase, bets = r.bets,
       updated_position = greatest(t.updated_position, s.position),
       cards_shown = (
           SELECT coalesce(jsonb_object_agg(target, cards), '{{{{}}}}'::jsonb)
             FROM (SELECT e->>'to' AS target, jsonb_agg(e->'card' ORDER BY ord) AS cards
                     FROM jsonb_array_elements(r.cards) WITH ORDINALITY AS c(e, ord)
                    WHERE r.all_shown OR (e->>'shown')::boolean
                    GROUP BY e->>'to') AS shown)
  FROM shown s
  JOIN {{table_rounds}} r ON r.round_id = s.stream
 WHERE t.round_id = r.round_id
"""

SHOW_SHOES = """
WITH {shown}
UPDATE {{table_state}} t
   SET shoe_cards_remaining = h.cards - h.position,
       updated_position = greatest(t.updated_position, s.position)
  FROM shown s
  JOIN {{table_shoes}} h ON h.shoe_id = s.stream
 WHERE t.shoe_id = h.shoe_id
"""

EXPOSE = """
cards = coalesce((
    SELECT jsonb_agg(CASE WHEN e->>'to' = %(to)s AND e->>'card' = %(card)s
                          THEN e || jsonb_build_object('shown', true) ELSE e END ORDER BY ord)
      FROM jsonb_array_elements(cards) WITH ORDINALITY AS c(e, ord)), '[]'::jsonb)
"""

# The round's result in front of its table's last results, the oldest beyond ten dropped.
ADD_RESULT = f"""
UPDATE {{table_state}} t
   SET last_results = (
           SELECT jsonb_agg(e ORDER BY ord)
             FROM jsonb_array_elements(
                      jsonb_build_array(
                          jsonb_build_object('number', r.number) || %(result)s::jsonb
                          || CASE WHEN r.dealer_cards IS NULL THEN '{{{{}}}}'::jsonb
                                  ELSE jsonb_build_object('dealer_cards', r.dealer_cards) END
                          || CASE WHEN r.jackpot = '[]'::jsonb THEN '{{{{}}}}'::jsonb
                                  ELSE jsonb_build_object('jackpot', r.jackpot) END)
                      || coalesce(t.last_results, '[]'::jsonb)
                  ) WITH ORDINALITY AS x(e, ord)
            WHERE ord <= {RESULTS_KEPT}), {MOVED}
  FROM {{table_rounds}} r
 WHERE r.round_id = %(round)s AND t.code = r.table_code AND NOT r.demonstration
"""

# A later adjustment (paid to the player) of a round still among the last results.
ADJUST_RESULT = f"""
UPDATE {{table_state}} t
   SET last_results = (
           SELECT jsonb_agg(CASE WHEN (e->>'number')::integer = r.number THEN e
                   || jsonb_build_object(
                          'adjustments', ((e->>'adjustments')::numeric + %(amount)s)::text,
                          'house_win', ((e->>'house_win')::numeric - %(amount)s)::text)
                   ELSE e END ORDER BY ord)
             FROM jsonb_array_elements(t.last_results) WITH ORDINALITY AS x(e, ord)), {MOVED}
  FROM {{table_rounds}} r
 WHERE r.round_id = %(round)s AND t.code = r.table_code
   AND t.last_results @> jsonb_build_array(jsonb_build_object('number', r.number))
"""


class RoundColumns(Projection):
    """The round and shoe handlers of table state (which adds the Table stream's)."""

    _staged: tuple[int, int] | None

    # -- shoes -------------------------------------------------------------------------
    def create_tables(self, conn: Any) -> None:
        super().create_tables(conn)
        for statement in ADDED_COLUMNS:
            conn.execute(self.sql(statement))

    @handles(Shoe.Shuffled)
    def shoe_shuffled(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        cursor.execute(
            self.sql("INSERT INTO {table_shoes} VALUES (%s, %s, %s, 0, 1, %s)"),
            (event.stream_id, event.body["table"], CARDS_PER_DECK * event.body["decks"],
             event.position),
        )
        self.show_shoe(cursor, event.stream_id, event.position)

    @handles(Shoe.CardsBurned)
    def cards_burned(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._shoe(cursor, event, "position = position + %(count)s",
                   {"count": event.body["count"]})

    @handles(Shoe.CardDrawn)
    def card_drawn(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._shoe(cursor, event, "position = %(next)s", {"next": event.body["position"] + 1})

    def show_shoe(self, cursor: Cursor[Any], shoe: Any, position: int) -> None:
        self._shoes[_uuid(shoe)] = position  # written once, at `finish`

    def _shoe(self, cursor: Cursor[Any], event: StoredEvent, assignments: str,
              params: dict[str, Any]) -> None:
        cursor.execute(
            self.sql(f"UPDATE {{table_shoes}} SET {assignments}, {TOUCH} WHERE shoe_id = %(shoe)s"),
            {**params, "shoe": event.stream_id, "position": event.position},
        )
        self.show_shoe(cursor, event.stream_id, event.position)

    # -- rounds ------------------------------------------------------------------------
    @handles(Round.Opened)
    def round_opened(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        body = event.body
        carried = [{"box": bet["box"], "spot": "jackpot", "amount": bet["amount"],
                    "player": None, "carried_from": bet["from_round"]}
                   for bet in body["carried_jackpot_bets"]]
        cursor.execute(
            self.sql("INSERT INTO {table_rounds} (round_id, table_code, number, phase, bets, "
                     "events_applied, updated_position, demonstration) "
                     "VALUES (%s, %s, %s, 'betting', %s, 1, %s, %s)"),
            (event.stream_id, body["table"], body["number"], Jsonb(carried), event.position,
             body.get("demonstration", False)),
        )
        self.show_round(cursor, event.stream_id, event.position)

    @handles(Round.BetPlaced)
    def bet_placed(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        b = event.body
        self._add_bet(cursor, event, {"box": b["box"], "spot": b["spot"], "amount": b["amount"],
                                      "player": b["player"]})

    @handles(Round.DecisionMade)
    def decision_made(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        """A Stud Poker raise puts a stake on the layout; a fold, play or surrender none (its
        table is shown again all the same, as its fold cannot tell them apart)."""
        b = event.body
        if Decimal(b["amount"]) > 0:
            self._add_bet(cursor, event, {"box": b["box"], "spot": b["decision"],
                                          "amount": b["amount"], "player": b["player"]})
        else:
            self._round(cursor, event, "", {})

    @handles(Round.CardDealt)
    def card_dealt(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        b = event.body
        self._round(cursor, event,
                    "cards = cards || %(card)s, "
                    "phase = CASE WHEN phase = 'betting' THEN 'dealing' ELSE phase END",
                    {"card": Jsonb([{"to": b["to"], "card": b["card"], "shown": b["face_up"]}])})

    @handles(Round.CardExposed)
    def card_exposed(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._round(cursor, event, EXPOSE, {"to": event.body["to"], "card": event.body["card"]})

    @handles(Round.DealerRevealed)
    def dealer_revealed(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._round(cursor, event, "phase = 'revealed', all_shown = true, dealer_cards = %(c)s",
                    {"c": Jsonb(event.body["cards"])})

    @handles(Round.JackpotPrizeAwarded)
    def jackpot_prize(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        b = event.body
        prize = {"box": b["box"], "category": b["category"], "amount": b["amount"]}
        self._round(cursor, event, "jackpot = jackpot || %(prize)s", {"prize": Jsonb([prize])},
                    show=False)

    @handles(Round.Settled)
    def settled(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._round(cursor, event, "phase = 'settled', all_shown = true", {})
        self._add_result(cursor, event, {  # a demonstration coup's is not (`ADD_RESULT`)
            "status": "settled", "outcome": event.body["outcome"],
            "house_win": event.body["house_win"], "adjustments": "0.00",
        })

    @handles(Round.Voided)
    def voided(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        """A void returns every stake: the house wins nothing on it (jackpot bets carried)."""
        self._round(cursor, event, "phase = 'void'", {})
        self._add_result(cursor, event, {
            "status": "void", "reason": event.body["reason"],
            "jackpot_carried": event.body["jackpot_carried"], "house_win": "0.00",
            "adjustments": "0.00",
        })

    @handles(Round.Adjusted)
    def adjusted(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._round(cursor, event, "", {}, show=False)
        cursor.execute(self.sql(ADJUST_RESULT), {
            "round": event.stream_id, "amount": Decimal(event.body["amount"]),
            "position": event.position,
        })

    def show_round(self, cursor: Cursor[Any], round_: Any, position: int) -> None:
        self._rounds[_uuid(round_)] = position  # written once, at `finish`

    # -- the layout, set-based ----------------------------------------------------------------
    @folds(*table_rounds_fold.TYPES,
           until=(Round.CardExposed, Round.Adjusted))
    def fold_rounds(self, cursor: Cursor[Any], lo: int, hi: int) -> None:
        """The batch's round and shoe events set-based at its end, or before a card exposed or
        a round adjusted (`projections.tables.rounds_fold`): what the handlers above leave, in
        four statements."""
        for statement in table_rounds_fold.STATEMENTS:
            cursor.execute(self.sql(statement), {"lo": lo, "hi": hi})

    def staged(self, method: str, first: int, last: int) -> None:
        """The batch's round and shoe events lie between `first` and `last` in the batch table:
        `finish` shows each round and shoe they touched from there."""
        if method == "fold_rounds":
            self._staged = (first, last)

    # -- once per row per batch ---------------------------------------------------------
    def begin(self) -> None:
        self._rounds: dict[Any, int] = {}  # round or shoe -> the last position touching it
        self._shoes: dict[Any, int] = {}
        self._staged = None  # where the batch's folded events lie

    def finish(self, cursor: Cursor[Any]) -> None:
        """Each round and shoe the batch touched shown on its table once, as it stands at the
        batch's end, with the batch's last position that touched it. Showing is copying the
        round's or shoe's row onto the table's row while the table points at it, so once at
        the end leaves what showing it after every event left: a table that moved on to the
        next round no longer points at this one, and a table that came to point at it during
        the batch shows it as it now is (its pointer's position is the later one). Every
        round event used to copy a round's cards and bets onto its table: 70% of table
        state's catch-up time on a simulated floor's events. All the rounds in one statement,
        all the shoes in another, the folded events' read from the batch table."""
        staged = self._staged
        for statement, shows, kinds in ((SHOW_ROUNDS, self._rounds, SHOWN_ROUNDS),
                                        (SHOW_SHOES, self._shoes, SHOWN_SHOES)):
            if shows or staged:
                params: dict[str, Any] = {"streams": list(shows),
                                          "positions": list(shows.values())}
                if staged:
                    params.update(lo=staged[0], hi=staged[1], kinds=list(kinds))
                cursor.execute(self.sql(statement.format(
                    shown=SHOWN.format(staged=STAGED if staged else ""))), params)
        self.begin()

    def _add_bet(self, cursor: Cursor[Any], event: StoredEvent, bet: dict[str, Any]) -> None:
        self._round(cursor, event, "bets = bets || %(bet)s", {"bet": Jsonb([bet])})

    def _add_result(self, cursor: Cursor[Any], event: StoredEvent, result: dict[str, Any]) -> None:
        cursor.execute(self.sql(ADD_RESULT), {
            "round": event.stream_id, "result": Jsonb(result), "position": event.position,
        })

    def _round(self, cursor: Cursor[Any], event: StoredEvent, assignments: str,
               params: dict[str, Any], *, show: bool = True) -> None:
        assignments = f"{assignments}, {TOUCH}" if assignments else TOUCH
        cursor.execute(
            self.sql(f"UPDATE {{table_rounds}} SET {assignments} WHERE round_id = %(round)s"),
            {**params, "round": event.stream_id, "position": event.position},
        )
        if show:
            self.show_round(cursor, event.stream_id, event.position)


def _uuid(stream: UUID | str) -> UUID:
    """A stream id as a UUID, whether it came as a stream's id or from a body (a string)."""
    return stream if isinstance(stream, UUID) else UUID(stream)
