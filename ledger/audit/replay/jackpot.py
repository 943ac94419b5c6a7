"""A replayed Stud Poker round's jackpot: the pool as it stood, the contribution, the prizes.

The pool is taken at the version just before the round's contribution (the amount its latest
earlier event left), and art. 10 is applied again to the round's recorded hands. The figures
the pool recorded and the awards the round recorded are both compared with it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from uuid import UUID

from psycopg import Connection

from ledger.audit.replay.check import (
    Difference,
    Frozen,
    JackpotFigures,
    PrizeLine,
    compare_jackpot,
    recompute_jackpot,
)
from ledger.audit.replay.played import Played
from ledger.audit.replay.store import (
    RecordedEvent,
    pool_amount_before,
    read_stream,
    settlement_pool_events,
)
from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.round import Phase, Round
from ledger.games.common import ZERO
from ledger.games.jackpot import JackpotPoolSettings
from ledger.games.registry import game, procedure_for


class JackpotView(Frozen):
    pool_id: UUID
    pool: str
    recorded: JackpotFigures | None = None
    recomputed: JackpotFigures | None = None
    awards: list[PrizeLine] = []  # noqa: RUF012 - a pydantic field, copied per model; as the round recorded them (Round.JackpotPrizeAwarded)
    differences: list[Difference] = []  # noqa: RUF012 - a pydantic field, copied per model


def replay_jackpot(conn: Connection[Any],
                   played: Played) -> tuple[JackpotView | None, list[RecordedEvent]]:
    round_ = played.round_
    if round_.pool_id is None or not game(round_.game).takes_jackpot_bets:
        return None, []
    created = read_stream(conn, round_.pool_id, limit=1)
    if not created:
        return JackpotView(pool_id=round_.pool_id, pool="?", differences=[Difference(
            subject="jackpot pool", field="stream", recorded=None,
            recomputed=f"pool {round_.pool_id}, which the round names")]), []
    name, settings = created[0].event.name, JackpotPoolSettings.model_validate(
        created[0].event.settings)
    awards = [PrizeLine(box=e.event.box, category=e.event.category, amount=e.event.amount,
                        paid_by_pool=e.event.paid_by_pool, paid_by_house=e.event.paid_by_house)
              for e in played.events if e.event_type == Round.JackpotPrizeAwarded.event_type]
    view = JackpotView(pool_id=round_.pool_id, pool=name, awards=awards)
    settle = played.settlement
    if round_.phase is not Phase.SETTLED or settle is None or settle.by is None:
        unexpected = [Difference(subject=f"jackpot award (box {a.box})", field="prize",
                                 recorded=f"{a.category} {a.amount}", recomputed=None)
                      for a in awards]
        return view.model_copy(update={"differences": unexpected}), []
    events = settlement_pool_events(conn, round_.pool_id, round_.id, settle.by.command_id,
                                    settle.position)
    before = pool_amount_before(conn, round_.pool_id, events[0].version) if events else None
    if before is None:
        return view.model_copy(update={"differences": _nothing_recorded(played)}), events
    recorded = recorded_figures(events, before[0])
    recomputed = recompute_jackpot(played.facts, settings, before[0])
    differences = compare_jackpot(recorded, recomputed) + _compare_awards(awards, recomputed)
    return view.model_copy(update={"recorded": recorded, "recomputed": recomputed,
                                   "differences": differences}), events


def recorded_figures(events: list[RecordedEvent], pool_before: Decimal) -> JackpotFigures:
    """What the pool's events say this round did to it."""
    contribution = next((e.event for e in events
                         if e.event_type == JackpotPool.ContributionReceived.event_type), None)
    hits = [e.event for e in events if e.event_type == JackpotPool.JackpotHit.event_type]
    after = [getattr(e.event, "pool_after", None) for e in events]
    return JackpotFigures(
        pool_before=pool_before,
        stakes=contribution.stakes if contribution else ZERO,
        to_pool=contribution.to_pool if contribution else ZERO,
        to_reserve=contribution.to_reserve if contribution else ZERO,
        prizes=[PrizeLine(box=h.box, category=h.category, amount=h.prize,
                          paid_by_pool=h.paid_by_pool, paid_by_house=h.paid_by_house,
                          pool_before=h.pool_before, pool_after=h.pool_after) for h in hits],
        reset_to_seed=any(e.event_type == JackpotPool.ResetToSeed.event_type for e in events),
        pool_after=next((a for a in reversed(after) if a is not None), pool_before),
    )


def _compare_awards(awards: list[PrizeLine], due: JackpotFigures) -> list[Difference]:
    """The round's own record of each prize against the re-computed one."""
    keys = ("box", "category", "amount", "paid_by_pool", "paid_by_house")
    differences = []
    for index in range(max(len(awards), len(due.prizes))):
        was = awards[index] if index < len(awards) else None
        should = due.prizes[index] if index < len(due.prizes) else None
        subject = f"jackpot award {index + 1} on the round"
        if was is None or should is None:
            differences.append(Difference(
                subject=subject, field="prize",
                recorded=f"box {was.box} {was.category} {was.amount}" if was else None,
                recomputed=f"box {should.box} {should.category} {should.amount}"
                if should else None))
            continue
        differences += [Difference(subject=subject, field=key, recorded=str(getattr(was, key)),
                                   recomputed=str(getattr(should, key)))
                        for key in keys if getattr(was, key) != getattr(should, key)]
    return differences


def _nothing_recorded(played: Played) -> list[Difference]:
    """No pool event for a settled round: name what art. 10 says was due all the same."""
    procedure: Any = procedure_for(played.round_.game)
    stakes = sum(procedure.jackpot_stakes(played.facts), ZERO)
    due = [c for c in procedure.jackpot_claims(played.facts) if c.eligible]
    differences = [Difference(subject="jackpot contribution", field="stakes", recorded=None,
                              recomputed=str(stakes))] if stakes else []
    return differences + [Difference(subject=f"jackpot prize (box {c.box})", field="prize",
                                     recorded=None, recomputed=str(c.category)) for c in due]
