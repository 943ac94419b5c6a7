"""Per-shift figures of every table: what the events say the house won (ledger win), and
what the chips and the drop box say (accounting win), kept side by side for reconciliation.

A round belongs to the shift that was open at its table when the round opened (Shift.Opened
to Shift.Closed); a round at a table with no open shift (recorded before the ledger refused
them) is counted under no shift, and the report of its gaming day lists it as unassigned. Jackpot stakes, pool contributions and jackpot prizes are kept
apart from the table's win: jackpot bets are collected into the progressive, not the rack.
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any, ClassVar

from psycopg import Cursor
from psycopg.types.json import Jsonb

from ledger.domain.chips import differing_closing
from ledger.domain.investigation import Investigation
from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.round import Round
from ledger.domain.shift import Shift
from ledger.domain.table import Table
from projections.engine.base import Projection, StoredEvent, folds, handles
from projections.shifts import report_fold as shift_report_fold
from projections.shifts import round_pairs
from projections.shifts.report_tables import (
    ADDED_COLUMNS,
    HANDLE_DDL,
    INVESTIGATIONS_DDL,
    ROUNDS_DDL,
    SHIFTS_DDL,
    SLIPS_DDL,
    STAKES_DDL,
    TABLES_DDL,
    TERMS_DDL,
)


def terms_of(rule_set: str, settings: dict[str, Any]) -> str:
    """A short digest naming a rule set and its settings: rounds played under the same terms
    share it, whatever order the settings' keys were written in."""
    canonical = json.dumps([rule_set, settings], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


NO_SHIFT = "00000000-0000-0000-0000-000000000000"


class ShiftReport(Projection):
    name = "shift_report"
    tables: ClassVar[dict[str, str]] = {
        "report_shifts": SHIFTS_DDL, "report_handle": HANDLE_DDL, "report_slips": SLIPS_DDL,
        "report_tables": TABLES_DDL, "report_rounds": ROUNDS_DDL, "report_stakes": STAKES_DDL,
        "report_terms": TERMS_DDL, "report_investigations": INVESTIGATIONS_DDL,
        **round_pairs.TABLES,
    }

    # -- tables ---------------------------------------------------------------------------
    @handles(Table.Opened)
    def table_opened(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        body = event.body
        cursor.execute(
            self.sql("INSERT INTO {report_tables} (table_code, stream_id, game, pit) "
                     "VALUES (%s, %s, %s, %s)"),
            (body["code"], event.stream_id, body["game"], body["pit"]),
        )

    @handles(Table.Reopened)
    def table_reopened(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        cursor.execute(
            self.sql("UPDATE {report_tables} SET game = %s, pit = %s WHERE stream_id = %s"),
            (event.body["game"], event.body["pit"], event.stream_id),
        )

    @handles(Table.DealerSignedIn)
    def dealer_in(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        cursor.execute(
            self.sql("UPDATE {report_shifts} s SET dealers = array_append(s.dealers, %(d)s) "
                     "FROM {report_tables} t WHERE t.stream_id = %(stream)s "
                     "AND s.shift_id = t.open_shift AND NOT %(d)s = ANY(s.dealers)"),
            {"d": event.body["dealer_id"], "stream": event.stream_id},
        )

    def create_tables(self, conn: Any) -> None:
        super().create_tables(conn)
        for statement in ADDED_COLUMNS:
            conn.execute(self.sql(statement))

    @handles(Investigation.Noted)
    def investigation(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        b = event.body
        cursor.execute(
            self.sql("INSERT INTO {report_investigations} VALUES (%s, %s, %s, %s, %s, %s, %s, "
                     "%s)"),
            (event.stream_id, b["first_day"], b["last_day"], b["scope"], b["subject"],
             b["finding"], b["by"]["actor"]["staff_id"], b["by"]["at"]),
        )

    # -- the shift's own stream -------------------------------------------------------------
    @handles(Shift.Opened)
    def shift_opened(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        b = event.body
        cursor.execute(
            self.sql(
                "INSERT INTO {report_shifts} (shift_id, table_code, gaming_day, shift, game, pit, "
                "status, opening_total, previous_closing, dealers, updated_position) SELECT "
                "%(id)s, %(code)s, %(day)s, %(shift)s, t.game, t.pit, 'open', %(total)s, "
                "%(previous)s, ARRAY[%(dealer)s], %(position)s FROM (SELECT 1) one "
                "LEFT JOIN {report_tables} t ON t.table_code = %(code)s"
            ),
            {"id": event.stream_id, "code": b["code"], "day": b["gaming_day"],
             "shift": b["shift"], "total": b["total"], "dealer": b["dealer_id"],
             "previous": differing_closing(b["chips"], b.get("previous_closing")),
             "position": event.position},
        )
        cursor.execute(
            self.sql("UPDATE {report_tables} SET open_shift = %s WHERE table_code = %s"),
            (event.stream_id, b["code"]),
        )

    @handles(Shift.FillRecorded, Shift.CreditRecorded)
    def slip(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        b = event.body
        kind = "fills" if event.event_type == Shift.FillRecorded.event_type else "credits"
        cursor.execute(self.sql("INSERT INTO {report_slips} VALUES (%s, %s, %s, %s, false)"),
                       (event.stream_id, b["slip"], kind, b["amount"]))
        self._shift(cursor, event, f"{kind} = {kind} + %(amount)s", {"amount": b["amount"]})

    @handles(Shift.SlipVoided)
    def slip_voided(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        row = cursor.execute(
            self.sql("UPDATE {report_slips} SET voided = true WHERE shift_id = %s AND slip = %s "
                     "RETURNING kind, amount"), (event.stream_id, event.body["slip"]),
        ).fetchone()
        if row is not None:
            kind, amount = row
            self._shift(cursor, event, f"{kind} = {kind} - %(amount)s", {"amount": amount})

    @handles(Shift.DropEntered, Shift.DropAdjusted)
    def drop(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._shift(cursor, event, "drop_cash = %(cash)s, drop_markers = %(markers)s, "
                    "drop_entered = true, drop_after_close = drop_after_close OR %(late)s",
                    {"cash": event.body["cash"], "markers": event.body["markers"],
                     "late": bool(event.body.get("after_close"))})

    @handles(Shift.Closed)
    def shift_closed(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._shift(cursor, event, "closing_total = %(total)s, status = 'closed'",
                    {"total": event.body["total"]})
        cursor.execute(
            self.sql("UPDATE {report_tables} SET open_shift = NULL WHERE open_shift = %s"),
            (event.stream_id,),
        )

    def _shift(self, cursor: Cursor[Any], event: StoredEvent, assignments: str,
               params: dict[str, Any], shift_id: Any = None) -> None:
        cursor.execute(
            self.sql(f"UPDATE {{report_shifts}} SET {assignments}, "
                     "updated_position = %(position)s WHERE shift_id = %(shift)s"),
            {**params, "position": event.position, "shift": shift_id or event.stream_id},
        )

    # -- rounds -----------------------------------------------------------------------------
    @handles(Round.Opened)
    def round_opened(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        if event.body.get("demonstration"):
            return  # baccarat art. 2(2): no bets, in no shift's figures nor among the unassigned
        body = event.body
        terms = terms_of(body["rule_set"], body["settings"])
        cursor.execute(
            self.sql("INSERT INTO {report_terms} VALUES (%s, %s, %s, %s) "
                     "ON CONFLICT (terms) DO NOTHING"),
            (terms, body["game"], body["rule_set"], Jsonb(body["settings"])),
        )
        cursor.execute(
            self.sql("INSERT INTO {report_rounds} (round_id, table_code, shift_id, number, "
                     "opened_at, dealer, terms) SELECT %(round)s, %(code)s, open_shift, "
                     "%(number)s, %(at)s, %(dealer)s, %(terms)s "
                     "FROM (SELECT 1) one LEFT JOIN {report_tables} ON table_code = %(code)s"),
            {"round": event.stream_id, "code": body["table"], "number": body["number"],
             "at": body["by"]["at"], "dealer": body["by"]["actor"]["staff_id"], "terms": terms},
        )

    def _round_shift(self, cursor: Cursor[Any], round_id: Any) -> Any:
        row = cursor.execute(
            self.sql("SELECT shift_id FROM {report_rounds} WHERE round_id = %s"), (round_id,)
        ).fetchone()
        return row[0] if row else None

    def _round(self, cursor: Cursor[Any], event: StoredEvent, assignments: str,
               params: dict[str, Any], round_id: Any = None) -> Any:
        shift = self._round_shift(cursor, round_id or event.stream_id)
        if shift is not None:
            self._shift(cursor, event, assignments, params, shift)
        return shift

    @handles(Round.BetSettled)
    def bet_settled(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        bet = event.body["bet"]
        stake = Decimal(bet["stake"])
        if bet["spot"] == "jackpot":
            self._round(cursor, event, "jackpot_stakes = jackpot_stakes + %(stake)s",
                        {"stake": stake if bet["outcome"] != "carried" else 0})
            return
        win = stake - Decimal(bet["returned"]) - Decimal(bet["payout"]) + Decimal(bet["commission"])
        shift = self._round(
            cursor, event, "payouts = payouts + %(payout)s, commission = commission + "
            "%(commission)s, table_win = table_win + %(win)s",
            {"payout": bet["payout"], "commission": bet["commission"], "win": win},
        )
        if shift is not None and bet["outcome"] != "returned":
            cursor.execute(
                self.sql(
                    "INSERT INTO {report_handle} VALUES (%(shift)s, %(spot)s, 1, %(stake)s, "
                    "%(square)s, %(win)s) ON CONFLICT (shift_id, spot) DO UPDATE SET "
                    "bets = {report_handle}.bets + 1, handle = {report_handle}.handle + "
                    "EXCLUDED.handle, sum_of_squares = {report_handle}.sum_of_squares + "
                    "EXCLUDED.sum_of_squares, table_win = {report_handle}.table_win + "
                    "EXCLUDED.table_win"
                ),
                {"shift": shift, "spot": bet["spot"], "stake": stake, "square": stake * stake,
                 "win": win},
            )
            cursor.execute(
                self.sql(
                    "INSERT INTO {report_stakes} SELECT %(shift)s, coalesce(dealer, ''), "
                    "coalesce(terms, ''), %(spot)s, 1, %(stake)s, %(square)s, %(win)s "
                    "FROM {report_rounds} WHERE round_id = %(round)s "
                    "ON CONFLICT (shift_id, dealer, terms, spot) DO UPDATE SET "
                    "bets = {report_stakes}.bets + 1, handle = {report_stakes}.handle + "
                    "EXCLUDED.handle, sum_of_squares = {report_stakes}.sum_of_squares + "
                    "EXCLUDED.sum_of_squares, table_win = {report_stakes}.table_win + "
                    "EXCLUDED.table_win"
                ),
                {"shift": shift, "spot": bet["spot"], "stake": stake, "square": stake * stake,
                 "win": win, "round": event.stream_id},
            )
            cursor.execute(self.sql(round_pairs.STAKE), {"round": event.stream_id,
                           "box": bet["box"], "spot": bet["spot"], "stake": stake})

    @handles(Round.Settled)
    def round_settled(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._round(cursor, event, "rounds_played = rounds_played + 1", {})
        cursor.execute(self.sql(round_pairs.ONE_ROUND), {"round": event.stream_id})

    @handles(Round.Voided)
    def round_voided(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._round(cursor, event, "rounds_voided = rounds_voided + 1", {})
        cursor.execute(self.sql(round_pairs.ONE_ROUND), {"round": event.stream_id})

    @handles(Round.IrregularityRecorded, Round.CardExposed)
    def irregularity(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._round(cursor, event, "irregularities = irregularities + 1", {})

    @handles(Round.JackpotPrizeAwarded)
    def jackpot_prize(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._round(cursor, event, "jackpot_prizes = jackpot_prizes + %(amount)s",
                    {"amount": event.body["amount"]})

    @handles(Round.Adjusted)
    def adjusted(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        late = event.body["amount"] if event.body.get("after_close") else "0"
        self._round(cursor, event, "adjustments = adjustments + %(amount)s, "
                    "adjustments_after_close = adjustments_after_close + %(late)s",
                    {"amount": event.body["amount"], "late": late})

    @handles(JackpotPool.ContributionReceived)
    def contribution(self, event: StoredEvent, cursor: Cursor[Any]) -> None:
        self._round(cursor, event, "jackpot_contributions = jackpot_contributions + %(amount)s",
                    {"amount": event.body["to_pool"]}, round_id=event.body["round_id"])

    @folds(*shift_report_fold.TYPES)
    def fold_round_figures(self, cursor: Cursor[Any], lo: int, hi: int) -> None:
        """The batch's round figures added to their shifts at its end, in one statement
        (`projections.shifts.report_fold`): what the handlers above add, one by one."""
        cursor.execute(self.sql(shift_report_fold.FOLD), {"lo": lo, "hi": hi})
        cursor.execute(self.sql(round_pairs.FOLD_STAKES), {"lo": lo, "hi": hi})
        cursor.execute(self.sql(round_pairs.FOLD_FINISHED), {"lo": lo, "hi": hi})

