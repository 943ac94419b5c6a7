"""What happened on the floor in a shift, in the words its alerts say it: each irregularity
with its table, round and dealer, each void with its reason, read from the events of the
shift's rounds (`ledger.infrastructure.event_log.happenings_in`).

A floor read asks again only when a shift's count of irregularities or voids has moved: the
shift report counts them as they are recorded, so an unchanged count means nothing new
happened and the sentences already made still hold.
"""

from __future__ import annotations

from typing import Any

from psycopg import Connection

from ledger.domain.round import Round
from ledger.infrastructure.event_log import happenings_in
from ledger.presentation.wording import term, void_reason
from projections.shifts.read import TableShift

Said = dict[str, list[str]]
"""Sentences by table code, in the order they happened."""


class Happenings:
    """The sentences of the shifts a floor shows, kept between reads until a count moves."""

    def __init__(self) -> None:
        self._counted: tuple[Any, ...] = ()
        self._said: Said = {}

    def of(self, conn: Connection[Any], lines: list[TableShift]) -> Said:
        counted = tuple(sorted((line.table, line.gaming_day, line.shift, line.irregularities,
                                line.rounds_voided) for line in lines))
        if counted != self._counted:
            self._said = said(conn, [line for line in lines
                                     if line.irregularities or line.rounds_voided])
            self._counted = counted
        return self._said


def said(conn: Connection[Any], lines: list[TableShift]) -> Said:
    """Each table's irregularities and voids in `lines`' shifts, in words."""
    told: Said = {}
    for table, number, dealer, kind, body in happenings_in(
            conn, [(line.table, line.gaming_day, line.shift) for line in lines]):
        told.setdefault(table, []).append(sentence(number, dealer, kind, body))
    return told


def sentence(number: int | None, dealer: str | None, kind: str, body: dict[str, Any]) -> str:
    """`round 9 voided: shuffler failure`; `round 4, dealer D-BAC-01-1: card face up (9S to
    player), round continues`; `round 9, dealer D-QP-01-1: shuffler failure (the shuffler
    SHF-1 stopped before any card was dealt; replaced), round void`."""
    where = f"round {number}" if number is not None else "a round"
    if kind == Round.Voided.event_type:
        return f"{where} voided: {void_reason(str(body.get('reason') or 'no reason given'))}"
    by = f", dealer {dealer}" if dealer else ""
    if kind == Round.CardExposed.event_type:
        detail = f"{body.get('card')} to {term(str(body.get('to', ''))).replace(':', ' ')}"
    else:
        cards = " ".join(body.get("cards") or [])
        box = f"box {body['box']}" if body.get("box") is not None else ""
        detail = "; ".join(part for part in (body.get("note") or "", box, cards) if part)
    what = term(str(body.get("kind", "irregularity")))
    return (f"{where}{by}: {what}" + (f" ({detail})" if detail else "")
            + f", {term(str(body.get('consequence', '')))}")
