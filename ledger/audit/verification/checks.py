"""What `ledger verify` checks beyond the hash chains, over the whole ledger.

- **Shoes**: every closed shoe that was shuffled with a commitment revealed an order and a
  secret that hash to it, an order the shoe could hold, and every card drawn from it is where
  the order says; every card a round records dealt from a shoe position is the card the shoe
  records drawing there, for that round.
- **Money**: in every finished round the bets settled are the bets placed (antes, raises,
  carried jackpot bets included), and stakes = returned + payouts - commission + house win; a
  void round returns every stake (or carries a jackpot bet).
- **Pools**: every jackpot pool, event by event, equals its seed + contributions - prizes
  paid by the pool (the house-paid part never touches it) + seeds added at resets +
  adjustments; a reset only from exactly zero, to the seed.
- **Projections** are compared in `projection_check`.

Bodies are read as JSON, not through the domain classes, so a forged or malformed body is
reported as a failure rather than stopping the run.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any
from uuid import UUID

from psycopg import Connection, sql

from ledger.audit.replay.check import order_problems
from ledger.audit.verification.findings import Failure, LedgerReport
from ledger.core.cards import parse_cards
from ledger.core.errors import InvalidInput
from ledger.domain.base import event_types
from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.round import Round
from ledger.domain.shoe import Shoe, commitment_of

ZERO = Decimal("0.00")
TYPES = event_types(
    Shoe.Shuffled, Shoe.CardDrawn, Shoe.CardsBurned, Shoe.Closed,
    Round.Opened, Round.BetPlaced, Round.DecisionMade, Round.CardDealt,
    Round.BetSettled, Round.Settled, Round.Voided,
    JackpotPool.Created, JackpotPool.ContributionReceived, JackpotPool.JackpotHit,
    JackpotPool.JackpotReduced, JackpotPool.ResetToSeed, JackpotPool.Adjusted,
)
STREAMS = sql.SQL(
    "SELECT originator_id, originator_version, split_part(topic, ':', 2), state, notification_id "
    "FROM ledger_events WHERE split_part(topic, ':', 2) = ANY(%(types)s) "
    "ORDER BY originator_id, originator_version")
# After a verification that held: every round and shoe stream with an event after it, whole
# (they are short), with the shoes those rounds deal from; a pool's events after it only (its
# running balance is carried).
STREAMS_SINCE = sql.SQL(
    "WITH touched AS (SELECT DISTINCT originator_id FROM ledger_events "
    "  WHERE notification_id > %(after)s AND split_part(topic, ':', 2) = ANY(%(types)s) "
    "    AND split_part(topic, ':', 2) NOT LIKE 'JackpotPool.%%'), "
    "shoes AS (SELECT DISTINCT (convert_from(e.state, 'UTF8')::jsonb ->> 'shoe_id')::uuid AS id "
    "  FROM ledger_events e JOIN touched t ON e.originator_id = t.originator_id "
    "  WHERE split_part(e.topic, ':', 2) = %(opened)s "
    "    AND convert_from(e.state, 'UTF8')::jsonb ->> 'shoe_id' IS NOT NULL), "
    "ids AS (SELECT originator_id AS id FROM touched UNION SELECT id FROM shoes) "
    "SELECT e.originator_id, e.originator_version, split_part(e.topic, ':', 2), e.state, "
    "e.notification_id FROM ids JOIN ledger_events e ON e.originator_id = ids.id "
    "WHERE split_part(e.topic, ':', 2) = ANY(%(types)s) "
    "  AND split_part(e.topic, ':', 2) NOT LIKE 'JackpotPool.%%' "
    "UNION ALL SELECT originator_id, originator_version, split_part(topic, ':', 2), state, "
    "notification_id FROM ledger_events WHERE notification_id > %(after)s "
    "  AND split_part(topic, ':', 2) LIKE 'JackpotPool.%%' "
    "ORDER BY 1, 2")

Event = tuple[int, str, dict[str, Any]]  # version, event type, body


def _money(body: dict[str, Any], key: str) -> Decimal:
    try:
        return Decimal(str(body[key]))
    except (KeyError, InvalidOperation):
        raise InvalidInput(f"has no amount '{key}'") from None


def _streams(conn: Connection[Any], after: int = 0,
             batch: int = 10_000) -> Iterator[tuple[UUID, list[Event], list[int]]]:
    """Each stream's events of the types checked, in version order, one stream at a time,
    with their positions."""
    current: UUID | None = None
    events: list[Event] = []
    positions: list[int] = []
    with conn.transaction(), conn.cursor(name="ledger_verify_streams") as cursor:
        cursor.itersize = batch
        cursor.execute(STREAMS_SINCE if after else STREAMS,
                       {"types": list(TYPES), "after": after,
                        "opened": Round.Opened.event_type})
        for stream_id, version, event_type, state, position in cursor:
            if stream_id != current:
                if current is not None:
                    yield current, events, positions
                current, events, positions = stream_id, [], []
            try:
                body = json.loads(bytes(state))
            except ValueError:
                body = {"__unreadable__": True}
            events.append((version, event_type, body))
            positions.append(position)
    if current is not None:
        yield current, events, positions


@dataclass
class Seen:
    """What the streams said, kept for the checks that cross from one stream to another."""

    failures: list[Failure] = field(default_factory=list)
    draws: dict[UUID, dict[int, tuple[str, str | None]]] = field(default_factory=dict)
    dealt: dict[UUID, tuple[str, UUID | None, list[tuple[int, str]]]] = field(default_factory=dict)
    checked: dict[str, int] = field(default_factory=lambda: {"shoes": 0, "rounds": 0, "pools": 0})

    def fail(self, check: str, subject: str, reason: str) -> None:
        self.failures.append(Failure(check, subject, reason))


def check_streams(conn: Connection[Any], report: LedgerReport, *, after: int = 0,
                  pools: dict[UUID, PoolState] | None = None,
                  boundary: int | None = None) -> dict[UUID, PoolState]:
    """Shoes, money and pools (module docstring). `after` and `pools`: a verification that
    held reached `after` and carried each pool's running balance; only what came after is
    checked. Returns each pool's running balance at `boundary`, for the next one."""
    seen = Seen()
    carried = dict(pools or {})
    for stream_id, events, positions in _streams(conn, after):
        kind = events[0][1].split(".")[0]
        try:
            if kind == "JackpotPool":
                state = _pool(seen, stream_id, events, positions, carried.get(stream_id),
                              boundary)
                if state is not None:
                    carried[stream_id] = state
                else:
                    carried.pop(stream_id, None)
            elif kind in ("Shoe", "Round"):
                (_shoe if kind == "Shoe" else _round)(seen, stream_id, events)
        except (InvalidInput, KeyError, TypeError, ValueError) as error:
            seen.fail(kind.lower(), f"{kind} {stream_id}", f"an event cannot be read: {error}")
    _dealt_from_shoes(seen)
    report.failures += seen.failures
    report.checked.update(seen.checked)
    return carried


# -- shoes ------------------------------------------------------------------------------------


def _shoe(seen: Seen, shoe_id: UUID, events: list[Event]) -> None:
    shuffled = next((body for _, kind, body in events if kind == Shoe.Shuffled.event_type), None)
    if shuffled is None:
        return
    subject = f"shoe {shoe_id} (table {shuffled.get('table')})"
    draws: dict[int, tuple[str, str | None]] = {}
    drawn: list[tuple[int, Any]] = []
    closed = None
    for _, kind, body in events:
        if kind == Shoe.CardDrawn.event_type:
            draws[body["position"]] = (body["card"], body.get("round_id"))
            drawn.append((body["position"], parse_cards([body["card"]])[0]))
        elif kind == Shoe.CardsBurned.event_type:
            drawn += [(body["first_position"] + n, card)
                      for n, card in enumerate(parse_cards(body.get("cards", [])))]
        elif kind == Shoe.Closed.event_type:
            closed = body
    seen.draws[shoe_id] = draws
    seen.checked["shoes"] += 1
    commitment = shuffled.get("commitment")
    if closed is None or not commitment:
        return
    order, secret = closed.get("revealed_order"), closed.get("secret")
    if order is None or secret is None:
        seen.fail("shoe", subject, "closed without revealing the order its shuffle committed to")
        return
    cards = list(parse_cards(order))
    holds = commitment_of(cards, secret) == commitment
    if not holds:
        seen.fail("shoe", subject, "the revealed order and secret do not hash to the "
                                     f"commitment {commitment[:16]}... recorded at the shuffle")
    if closed.get("commitment_holds") is not holds:
        seen.fail("shoe", subject, f"the close recorded commitment_holds "
                                     f"{closed.get('commitment_holds')}, it is {holds}")
    automatic = shuffled.get("method") == "automatic_shuffler_dealer"
    for problem in order_problems(int(shuffled["decks"]), automatic, cards, drawn):
        seen.fail("shoe", subject, problem)


def _dealt_from_shoes(seen: Seen) -> None:
    """Each card a round records from a shoe position is the card the shoe drew there."""
    for round_id, (label, shoe_id, cards) in seen.dealt.items():
        if shoe_id is None or not cards:
            continue
        draws = seen.draws.get(shoe_id)
        if draws is None:
            seen.fail("shoe", label, f"deals from shoe {shoe_id}, which is not in the ledger")
            continue
        for position, card in cards:
            drawn = draws.get(position)
            if drawn is None:
                seen.fail("shoe", label, f"{card} dealt from shoe position {position}, which "
                                           "the shoe never recorded drawing")
            elif drawn != (card, str(round_id)):
                seen.fail("shoe", label, f"{card} dealt from shoe position {position}; the "
                                           f"shoe drew {drawn[0]} there for round {drawn[1]}")


# -- money ------------------------------------------------------------------------------------


def _round(seen: Seen, round_id: UUID, events: list[Event]) -> None:
    opened = next((body for _, kind, body in events if kind == Round.Opened.event_type), None)
    if opened is None:
        return
    label = f"round {round_id} ({opened.get('table')} round {opened.get('number')})"
    shoe_id = UUID(opened["shoe_id"]) if opened.get("shoe_id") else None
    dealt = [(body["shoe_position"], body["card"]) for _, kind, body in events
             if kind == Round.CardDealt.event_type and body.get("shoe_position") is not None]
    seen.dealt[round_id] = (label, shoe_id, dealt)
    placed = sum((_money(bet, "amount") for bet in opened.get("carried_jackpot_bets", [])), ZERO)
    bets, settled, voided = [], None, None
    for _, kind, body in events:
        if kind == Round.BetPlaced.event_type or (kind == Round.DecisionMade.event_type
                                         and body.get("decision") == "raise"):
            placed += _money(body, "amount")
        elif kind == Round.BetSettled.event_type:
            bets.append(body["bet"])
        elif kind == Round.Settled.event_type:
            settled = body
        elif kind == Round.Voided.event_type:
            voided = body
    if settled is None and voided is None:
        return
    seen.checked["rounds"] += 1
    for reason in _money_problems(placed, bets, settled, voided is not None):
        seen.fail("money", label, reason)


def _money_problems(placed: Decimal, bets: list[dict[str, Any]], settled: dict[str, Any] | None,
                    void: bool) -> list[str]:
    stakes = sum((_money(b, "stake") for b in bets), ZERO)
    returned = sum((_money(b, "returned") for b in bets), ZERO)
    payouts = sum((_money(b, "payout") for b in bets), ZERO)
    commission = sum((_money(b, "commission") for b in bets), ZERO)
    problems = [] if stakes == placed else [
        f"bets placed {placed} (raises and carried jackpot bets included), bets settled {stakes}"]
    problems += [f"box {b.get('box')} {b.get('spot')}: returned {b['returned']} of a stake of "
                 f"{b['stake']}" for b in bets if _money(b, "returned") > _money(b, "stake")]
    problems += [f"box {b.get('box')} {b.get('spot')}: a negative amount"
                 for b in bets if min(_money(b, k) for k in ("returned", "payout", "commission"))
                 < 0]
    if settled is not None:
        house = stakes - returned - payouts + commission
        if _money(settled, "house_win") != house:
            problems.append(
                f"money not conserved: stakes {stakes} = returned {returned} + payouts {payouts}"
                f" - commission {commission} + house win {settled['house_win']} does not hold "
                f"(the bets give a house win of {house})")
    if void:
        problems += [f"box {b.get('box')} {b.get('spot')}: {b.get('outcome')} in a void round"
                     for b in bets if b.get("outcome") not in ("returned", "carried")
                     or _money(b, "returned") != _money(b, "stake")]
    return problems


# -- pools ------------------------------------------------------------------------------------


@dataclass
class _Pool:
    amount: Decimal
    contributions: Decimal = ZERO
    prizes: Decimal = ZERO
    seeds: Decimal = ZERO
    adjustments: Decimal = ZERO
    hits: Decimal = ZERO  # paid by the pool since the last reduction
    hit_amount: Decimal | None = None  # where the hits of the round in progress have left it


@dataclass
class PoolState:
    """A pool's running balance, carried from one verification to the next."""

    pool: _Pool
    opening: Decimal
    seed: Decimal
    subject: str


def _pool(seen: Seen, pool_id: UUID, events: list[Event], positions: list[int],
          start: PoolState | None, boundary: int | None) -> PoolState | None:
    """The pool checked event by event; its running balance as it stood at `boundary`."""
    if start is None:
        created = events[0][2] if events[0][1] == JackpotPool.Created.event_type else None
        if created is None:
            return None
        state = PoolState(_Pool(amount=_money(created, "amount")), _money(created, "amount"),
                          _money(created["settings"], "seed"),
                          f"pool {created.get('name')} ({pool_id})")
        born_after = boundary is not None and positions[0] > boundary
        events, positions = events[1:], positions[1:]
    else:
        born_after = False
        state = copy.deepcopy(start)
    carried = None  # the balance at the boundary: copied when an event passes it
    pool = state.pool
    seen.checked["pools"] += 1
    for (version, kind, body), position in zip(events, positions, strict=True):
        if boundary is not None and carried is None and position > boundary:
            carried = copy.deepcopy(state)
        for reason in _pool_event(pool, kind, body, state.seed):
            seen.fail("pool", state.subject, f"version {version} ({kind}): {reason}")
    if carried is None:
        carried = copy.deepcopy(state)
    subject, opening = state.subject, state.opening
    expected = (opening + pool.contributions - pool.prizes + pool.seeds + pool.adjustments)
    if pool.amount != expected:
        seen.fail("pool", subject, (
            f"does not add up: it holds {pool.amount}, but seed {opening} + contributions "
            f"{pool.contributions} - prizes paid by the pool {pool.prizes} + seeds added at "
            f"resets {pool.seeds} + adjustments {pool.adjustments} = {expected}"))
    return None if born_after else carried


def _pool_event(pool: _Pool, kind: str, body: dict[str, Any], seed: Decimal) -> list[str]:
    """Apply one event to the running pool; what it says that the running pool contradicts.
    The pool then carries on from what the event recorded, so one bad event is named once."""
    if kind == JackpotPool.JackpotHit.event_type:
        return _hit(pool, body)
    problems: list[str] = []
    if kind == JackpotPool.ContributionReceived.event_type:
        to_pool, to_reserve = _money(body, "to_pool"), _money(body, "to_reserve")
        pool.contributions += to_pool
        due = pool.amount + to_pool
        if to_pool < 0 or to_reserve < 0 or to_pool + to_reserve > _money(body, "stakes"):
            problems.append(f"{to_pool} to the pool and {to_reserve} to the reserve out of "
                            f"{body['stakes']} in jackpot bets")
    elif kind == JackpotPool.JackpotReduced.event_type:
        reduced = _money(body, "amount")
        pool.prizes += reduced
        if reduced != pool.hits:
            problems.append(f"reduced by {reduced}, but its hits paid {pool.hits} from the pool")
        pool.hits, pool.hit_amount = ZERO, None
        due = pool.amount - reduced
    elif kind == JackpotPool.ResetToSeed.event_type:
        if pool.amount != 0:
            problems.append(f"restarted at the seed while holding {pool.amount}")
        pool.seeds += seed
        due = pool.amount + seed
    elif kind == JackpotPool.Adjusted.event_type:
        pool.adjustments += _money(body, "amount")
        due = pool.amount + _money(body, "amount")
    else:
        return problems
    after = _money(body, "pool_after")
    if after != due:
        problems.append(f"pool after {after}, but the pool held {pool.amount} and this event "
                        f"makes it {due}")
    pool.amount = after
    return problems


def _hit(pool: _Pool, body: dict[str, Any]) -> list[str]:
    """A prize: paid from what the pool holds after the round's earlier prizes, the rest by
    the house; the pool itself changes only at the reduction that follows."""
    problems = []
    before = pool.hit_amount if pool.hit_amount is not None else pool.amount
    by_pool, by_house = _money(body, "paid_by_pool"), _money(body, "paid_by_house")
    if _money(body, "pool_before") != before:
        problems.append(f"pool before {body['pool_before']}, but the pool held {before}")
    if by_pool + by_house != _money(body, "prize") or by_pool > before:
        problems.append(f"a prize of {body['prize']} paid {by_pool} by the pool (holding "
                        f"{before}) and {by_house} by the house")
    pool.hits += by_pool
    pool.hit_amount = due = before - by_pool
    after = _money(body, "pool_after")
    if after != due:
        problems.append(f"pool after {after}, but {before} - {by_pool} = {due}")
    return problems


# -- projections ------------------------------------------------------------------------------
