"""Game recall: the last rounds of a table, with their hands, results and payouts.

Read from the event store alone (the table's RoundStarted events name its rounds; each round's
own stream says what happened), so a recall is as true as a replay, at a glance per round.
Each round's win is its table win, its jackpot stakes and prizes apart
(`ledger.reports.round_win`): a table's rounds in a shift add up to the shift report's ledger
win.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from psycopg import Connection
from pydantic import Field

from ledger.audit.replay.check import BetLine, Frozen, PrizeLine
from ledger.audit.replay.played import load_round
from ledger.audit.replay.round import HandView, hands_of
from ledger.audit.replay.store import closed_after, held_table, rounds_started
from ledger.domain.round import Round
from ledger.domain.table import table_id
from ledger.games.common import ZERO
from ledger.reports.round_win import Prize, RoundWin, round_win

FORMAT = "round-ledger/recall/1"


class RecalledRound(Frozen):
    number: int
    round_id: UUID
    status: str
    opened_at: datetime | None
    finished_at: datetime | None
    hands: list[HandView]
    outcome: dict[str, Any]
    results: list[BetLine]
    stakes: Decimal
    returned: Decimal
    payouts: Decimal = Field(description="winnings paid on top of returned stakes")
    commission: Decimal
    house_win: Decimal | None = Field(description="as the settlement recorded it: every bet, "
                                      "jackpot bets included (the round's win is `win`)")
    jackpot_prizes: list[PrizeLine]
    adjustments: Decimal = Field(description="paid to players by later adjustments")
    win: RoundWin | None = Field(default=None, description="the round's table win (what the "
                                 "shift report's ledger win adds up), its jackpot stakes and "
                                 "prizes apart")


class Recall(Frozen):
    format: str = FORMAT
    table: str
    rounds: list[RecalledRound] = Field(description="newest first")
    closed_after: int | None = Field(default=None, description="None while the table is open; "
                                     "once closed, its last round's number (0: none)")

    def closed_said(self) -> str | None:
        """`table closed after round 15`, or None while the table is open."""
        if self.closed_after is None:
            return None
        if self.closed_after == 0:
            return "table closed before its first round"
        return f"table closed after round {self.closed_after}"


def recall(conn: Connection[Any], table: str, last: int = 10) -> Recall:
    """The last `last` rounds of `table`, newest first; a demonstration coup (baccarat art.
    2(2)) is no round a player bet on, so it is left out."""
    code = held_table(conn, table)
    started = rounds_started(conn, table_id(code), limit=last, demonstrations=False)
    return Recall(table=code, rounds=[_recalled(conn, e.event.round_id) for e in started],
                  closed_after=closed_after(conn, table_id(code)))


def _recalled(conn: Connection[Any], rid: UUID) -> RecalledRound:
    played = load_round(conn, rid)
    round_ = played.round_
    lines = [BetLine.of(bet) for bet in round_.results]
    settled, voided = played.last(Round.Settled), played.last(Round.Voided)
    finished = next((e for e in reversed(played.events)
                     if e.event_type in (Round.Settled.event_type, Round.Voided.event_type)), None)
    opened = played.events[0].by
    prizes = [PrizeLine(box=e.event.box, category=e.event.category, amount=e.event.amount,
                        paid_by_pool=e.event.paid_by_pool, paid_by_house=e.event.paid_by_house)
              for e in played.events if e.event_type == Round.JackpotPrizeAwarded.event_type]
    return RecalledRound(
        number=round_.number, round_id=rid, status=str(round_.phase),
        opened_at=opened.at if opened else None,
        finished_at=finished.by.at if finished and finished.by else None,
        hands=hands_of(round_), outcome=settled.outcome if settled else (
            {"void": voided.reason} if voided else {}),
        results=lines,
        stakes=sum((line.stake for line in lines), ZERO),
        returned=sum((line.returned for line in lines), ZERO),
        payouts=sum((line.payout for line in lines), ZERO),
        commission=sum((line.commission for line in lines), ZERO),
        house_win=settled.house_win if settled else (ZERO if voided else None),
        jackpot_prizes=prizes,
        adjustments=sum((e.event.amount for e in played.events
                         if e.event_type == Round.Adjusted.event_type), ZERO),
        win=round_win(round_, map(Prize.of, prizes)),
    )
