"""Cross-stream checks: streams that speak of each other must agree.

A deletion of one stream's events leaves the streams that mention them saying otherwise, so
these name it even where the seal has not reached: a table's started rounds exist; its
finished rounds are settled or voided in their own streams, and every settled or voided round
is finished at its table; each pool's hit is a prize its round awarded from that pool, and the
other way round; a round opened while its table's shift was open ends before that shift closes,
and every round opened inside a shift of its table (one recorded before the ledger refused
rounds outside the books is in no shift's report). Each failure names the streams and versions.

One read of the few event types involved (bodies only for those), joined here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from psycopg import Connection

from ledger.domain.base import event_types
from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.round import Round
from ledger.domain.shift import Shift
from ledger.domain.table import Table

TYPES = list(event_types(Table.RoundStarted, Table.RoundFinished, Round.Opened, Round.Settled,
                         Round.Voided, Round.JackpotPrizeAwarded, JackpotPool.JackpotHit,
                         Shift.Opened, Shift.Closed))
ENDED = event_types(Round.Settled, Round.Voided)


@dataclass(frozen=True)
class Seen:
    position: int
    stream: str
    version: int
    kind: str
    body: dict[str, Any]

    @property
    def where(self) -> str:
        return f"stream {self.stream} version {self.version}"


def _read(conn: Connection[Any], after: int, context: list[Seen]) -> dict[str, list[Seen]]:
    by_kind: dict[str, list[Seen]] = defaultdict(list)
    for event in sorted(context, key=lambda e: e.position):
        by_kind[event.kind].append(event)
    rows = conn.execute("SELECT position, stream_id, version, event_type, body "
                        "FROM ledger_event_log WHERE event_type = ANY(%s) AND position > %s "
                        "ORDER BY position", (TYPES, after)).fetchall()
    for position, stream, version, kind, body in rows:
        by_kind[kind].append(Seen(position, str(stream), version, kind, body))
    return by_kind


def context_at(seen: dict[str, list[Seen]], boundary: int) -> list[Seen]:
    """What a later verification needs of the events up to `boundary`: the rounds still open
    there, and each table's latest shift (opened, and closed if it was)."""
    ended = {e.stream for kind in ENDED for e in seen[kind] if e.position <= boundary}
    context = [e for e in seen[Round.Opened.event_type]
               if e.position <= boundary and e.stream not in ended]
    latest: dict[str, Seen] = {}
    for shift in seen[Shift.Opened.event_type]:
        if shift.position <= boundary:
            latest[shift.body["code"]] = shift
    context += latest.values()
    streams = {shift.stream for shift in latest.values()}
    context += [e for e in seen[Shift.Closed.event_type]
                if e.position <= boundary and e.stream in streams]
    return context


def cross_stream_problems(conn: Connection[Any], *, after: int = 0,
                          context: list[Seen] | None = None,
                          boundary: int | None = None) -> tuple[list[tuple[str, str]], list[Seen]]:
    """(subject, reason) for each disagreement between streams, and the context at
    `boundary` for the next verification. `after` and `context`: a verification that held
    reached `after` and carried its context; only what came after is read."""
    seen = _read(conn, after, context or [])
    carried = context_at(seen, boundary) if boundary is not None else []
    found: list[tuple[str, str]] = []
    opened = {e.stream: e for e in seen[Round.Opened.event_type]}
    ended = {e.stream: e for kind in ENDED for e in seen[kind]}
    finished = {e.body["round_id"]: e for e in seen[Table.RoundFinished.event_type]}
    for event in seen[Table.RoundStarted.event_type] + seen[Table.RoundFinished.event_type]:
        round_id = event.body["round_id"]
        if round_id not in opened:
            found.append((f"table {event.where}", (f"names round {round_id}, whose stream has "
                          f"no {Round.Opened.event_type}: deleted")))
        elif event.kind == Table.RoundFinished.event_type and round_id not in ended:
            found.append((f"table {event.where}", (f"says round {round_id} finished, but its "
                          "stream is neither settled nor voided: its ending was deleted")))
    for round_id, event in ended.items():
        if round_id not in finished:
            found.append((f"round {event.where}", (f"{event.kind.split('.')[1].lower()}, but its "
                          "table never recorded the round finished")))
    found += _jackpots(seen)
    found += _shifts(seen, opened, ended)
    return found, carried


def _jackpots(seen: dict[str, list[Seen]]) -> list[tuple[str, str]]:
    def key(pool: str, round_id: str, body: dict[str, Any], amount: str) -> tuple[Any, ...]:
        return pool, round_id, body["box"], body["category"], Decimal(str(amount)).normalize()

    hits = {key(h.stream, h.body["round_id"], h.body, h.body["prize"]): h
            for h in seen[JackpotPool.JackpotHit.event_type]}
    prizes = {key(p.body["pool_id"], p.stream, p.body, p.body["amount"]): p
              for p in seen[Round.JackpotPrizeAwarded.event_type]}
    found = []
    for missing in hits.keys() - prizes.keys():
        hit = hits[missing]
        found.append((f"pool {hit.where}", (f"a {hit.body['category']} hit of "
                      f"{hit.body['prize']} on box {hit.body['box']} of round "
                      f"{hit.body['round_id']}, which that round's stream does not award")))
    for missing in prizes.keys() - hits.keys():
        prize = prizes[missing]
        found.append((f"round {prize.where}", (f"a {prize.body['category']} prize of "
                      f"{prize.body['amount']} on box {prize.body['box']} that pool "
                      f"{prize.body['pool_id']} never recorded as hit")))
    return found


def _shifts(seen: dict[str, list[Seen]], opened: dict[str, Seen],
            ended: dict[str, Seen]) -> list[tuple[str, str]]:
    closed = {e.stream: e for e in seen[Shift.Closed.event_type]}
    spans: dict[str, list[tuple[Seen, Seen | None]]] = defaultdict(list)
    for shift in seen[Shift.Opened.event_type]:
        spans[shift.body["code"]].append((shift, closed.get(shift.stream)))
    found = []
    for round_id, start in opened.items():
        inside = False
        for shift, close in spans.get(start.body["table"], ()):
            if not shift.position < start.position < (
                    close.position if close is not None else start.position + 1):
                continue
            inside = True
            if close is None:
                continue
            end = ended.get(round_id)
            if end is None or end.position > close.position:
                found.append((f"round stream {round_id}", f"opened during shift {shift.stream}, "
                              f"which closed at position {close.position} (stream "
                              f"{close.stream} version {close.version}) while the round "
                              + ("never ended" if end is None
                                 else f"ended later, at position {end.position}")))
        if not inside:
            found.append((f"round stream {round_id}", (f"round {start.body['number']} of table "
                          f"{start.body['table']}, opened at position {start.position}, was "
                          "played outside every shift of its table: it is in no shift report")))
    return found
