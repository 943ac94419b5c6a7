"""A progressive jackpot pool (Stud Poker art. 10), linked to one or more tables.

Rounds are applied to the pool one at a time: a round's contribution, then its prizes,
each computed on the pool as it then stood. Two tables settling at the same moment race for
the pool's next version; the loser is re-run on the new pool, so no hit is lost and the order
of the hits is the order of the pool's versions.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from ledger.core.errors import RuleViolation
from ledger.core.formatting import money
from ledger.domain.base import Aggregate, Provenance, applies
from ledger.domain.grammar import kept_ids, normal_identifier
from ledger.games.common import MAX_AMOUNT
from ledger.games.jackpot import JackpotPayout, JackpotPoolSettings

POOL_NAMESPACE = uuid5(NAMESPACE_URL, "https://round-ledger/jackpot-pool")


@kept_ids
def pool_id(name: str) -> UUID:
    """A pool's stream follows from its name in normal form: `stud-pool` is `STUD-POOL`."""
    return uuid5(POOL_NAMESPACE, normal_identifier(name, "a pool name"))


class JackpotPool(Aggregate):
    class Created(Aggregate.Created):
        name: str
        settings: dict[str, Any]
        amount: Decimal
        by: Provenance

    @staticmethod
    def create_id(name: str, **_: object) -> UUID:
        return pool_id(name)

    @event(Created)
    def __init__(self, name: str, settings: dict[str, Any], amount: Decimal,
                 by: Provenance) -> None:
        self.name = name
        self.settings_data = settings
        self.amount = amount
        self.reserve = Decimal("0.00")
        self.contributions = Decimal("0.00")
        self.tables: list[str] = []
        self.hits = 0

    @property
    def settings(self) -> JackpotPoolSettings:
        return JackpotPoolSettings.model_validate(self.settings_data)

    class TableLinked(Aggregate.Event):
        table: str
        by: Provenance

    @applies(TableLinked)
    def link(self, table: str, by: Provenance) -> None:
        self.tables.append(table)

    class ContributionReceived(Aggregate.Event):
        table: str
        round_id: UUID
        stakes: Decimal
        to_pool: Decimal
        to_reserve: Decimal
        pool_after: Decimal
        by: Provenance

    @applies(ContributionReceived)
    def receive(self, table: str, round_id: UUID, stakes: Decimal, to_pool: Decimal,
                to_reserve: Decimal, pool_after: Decimal, by: Provenance) -> None:
        self.amount = pool_after
        self.reserve += to_reserve
        self.contributions += to_pool

    class JackpotHit(Aggregate.Event):
        sequence: int
        table: str
        round_id: UUID
        box: int
        category: str
        prize: Decimal
        pool_before: Decimal
        paid_by_pool: Decimal
        paid_by_house: Decimal
        pool_after: Decimal
        by: Provenance

    @applies(JackpotHit)
    def hit(self, sequence: int, table: str, round_id: UUID, box: int, category: str,
            prize: Decimal, pool_before: Decimal, paid_by_pool: Decimal, paid_by_house: Decimal,
            pool_after: Decimal, by: Provenance) -> None:
        self.hits = sequence

    class JackpotReduced(Aggregate.Event):
        round_id: UUID
        amount: Decimal
        pool_after: Decimal
        by: Provenance

    @applies(JackpotReduced)
    def reduce(self, round_id: UUID, amount: Decimal, pool_after: Decimal, by: Provenance) -> None:
        self.amount = pool_after

    class ResetToSeed(Aggregate.Event):
        seed: Decimal
        pool_after: Decimal
        by: Provenance

    @applies(ResetToSeed)
    def reset(self, seed: Decimal, pool_after: Decimal, by: Provenance) -> None:
        self.amount = pool_after

    class Adjusted(Aggregate.Event):
        amount: Decimal
        reason: str
        pool_after: Decimal
        by: Provenance

    @applies(Adjusted)
    def adjust(self, amount: Decimal, reason: str, pool_after: Decimal, by: Provenance) -> None:
        self.amount = pool_after

    # -- applying a round -----------------------------------------------------------------
    def apply_payout(self, table: str, round_id: UUID, payout: JackpotPayout,
                     by: Provenance) -> None:
        """Record each prize as a hit, then the reduction, then the reset when emptied."""
        for prize in payout.prizes:
            self.hit(sequence=self.hits + 1, table=table, round_id=round_id, box=prize.box,
                     category=str(prize.category), prize=prize.amount,
                     pool_before=prize.pool_before, paid_by_pool=prize.paid_by_pool,
                     paid_by_house=prize.paid_by_house, pool_after=prize.pool_after, by=by)
        if payout.prizes:
            self.reduce(round_id=round_id, amount=payout.paid_by_pool,
                        pool_after=payout.pool_after_payments, by=by)
        if payout.reset_to_seed:
            self.reset(seed=self.settings.seed, pool_after=payout.pool_after, by=by)

    def check_adjustment(self, amount: Decimal, reason: str) -> None:
        if not reason.strip():
            raise RuleViolation("a pool adjustment needs a reason.")
        if self.amount + amount > MAX_AMOUNT:
            raise RuleViolation(
                f"an adjustment of {money(amount)} would take pool {self.name} to "
                f"{money(self.amount + amount)}, beyond the {money(MAX_AMOUNT)} a pool may hold.")
        if self.amount + amount < 0:
            raise RuleViolation(
                f"an adjustment of {amount} would leave pool {self.name} below zero "
                f"(it holds {self.amount})."
            )
