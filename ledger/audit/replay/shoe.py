"""The shoe a replayed round came from: its shuffle, cut and burns, and the commitment proof."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from psycopg import Connection

from ledger.audit.replay.check import Frozen, ShoeProof, order_problems, prove_shoe
from ledger.audit.replay.played import Played
from ledger.audit.replay.store import RecordedEvent, read_stream
from ledger.core.cards import Card
from ledger.domain.shoe import Shoe

PREPARATION = (Shoe.Shuffled.event_type, Shoe.CutMade.event_type)


class ShoeView(Frozen):
    shoe_id: UUID
    table: str
    game: str
    decks: int
    method: str
    shuffler_serial: str | None
    commitment: str | None
    cut_by: str | None = None
    cut_card_position: int | None = None
    burned: int = 0
    burned_cards: list[str] = []  # noqa: RUF012 - a pydantic field, copied per model
    closed: bool = False
    proof: ShoeProof


def drawn_cards(events: list[RecordedEvent]) -> list[tuple[int, Card]]:
    """Every (position, card) the shoe's events record leaving it: draws and named burns."""
    drawn: list[tuple[int, Card]] = []
    for recorded in events:
        event = recorded.event
        if recorded.event_type == Shoe.CardDrawn.event_type:
            drawn.append((event.position, event.card))
        elif recorded.event_type == Shoe.CardsBurned.event_type:
            drawn += [(event.first_position + n, card) for n, card in enumerate(event.cards)]
    return drawn


def replay_shoe(conn: Connection[Any],
                played: Played) -> tuple[ShoeView | None, list[RecordedEvent]]:
    """The round's shoe, and the shoe events the replay shows or relies on."""
    shoe_id = played.round_.shoe_id
    events = read_stream(conn, shoe_id) if shoe_id is not None else []
    if shoe_id is None or not events:
        return None, []
    opened, last = played.events[0].position, played.events[-1].position
    used = [e for e in events
            if e.event_type in PREPARATION or e.event_type == Shoe.Closed.event_type
            or (e.event_type == Shoe.CardsBurned.event_type and e.position < opened)
            or (e.event_type == Shoe.CardDrawn.event_type and e.event.round_id == played.round_.id)
            or (e.event_type == Shoe.CutCardReached.event_type and opened <= e.position <= last)]
    shuffled = events[0].event
    cut = next((e.event for e in events if e.event_type == Shoe.CutMade.event_type), None)
    burns = [e.event for e in events
             if e.event_type == Shoe.CardsBurned.event_type and e.position < opened]
    closed = next((e.event for e in events if e.event_type == Shoe.Closed.event_type), None)
    order = closed.revealed_order if closed else None
    secret = closed.secret if closed else None
    automatic = str(shuffled.method) == "automatic_shuffler_dealer"
    problems = (order_problems(shuffled.decks, automatic, order, drawn_cards(events))
                if order is not None and shuffled.commitment else [])
    round_cards = [(c.shoe_position, c.card) for c in played.round_.cards
                   if c.shoe_position is not None]
    proof = prove_shoe(shuffled.commitment, order, secret,
                       closed.commitment_holds if closed else None, problems, round_cards)
    view = ShoeView(
        shoe_id=shoe_id, table=shuffled.table, game=shuffled.game, decks=shuffled.decks,
        method=str(shuffled.method), shuffler_serial=shuffled.shuffler_serial,
        commitment=shuffled.commitment, cut_by=cut.cut_by if cut else None,
        cut_card_position=cut.cut_card_position if cut else None,
        burned=sum(burn.count for burn in burns),
        burned_cards=[str(card) for burn in burns for card in burn.cards],
        closed=closed is not None, proof=proof)
    return view, used
