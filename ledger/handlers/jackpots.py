"""Jackpot pools: creating, linking tables, adjustments, and a round's contribution and prizes."""

from __future__ import annotations

from typing import cast

from pydantic import ValidationError

from ledger.application import Ledger
from ledger.commands import AdjustPool, CreatePool, LinkTable
from ledger.domain.base import Aggregate, Provenance, require_supervisor
from ledger.domain.jackpot_pool import JackpotPool, pool_id
from ledger.domain.round import Round
from ledger.domain.table import Table
from ledger.errors import InvalidInput, RuleViolation, WrongState, describe_validation_error
from ledger.games import registry
from ledger.games.common import AVO
from ledger.games.facts import RoundFacts
from ledger.games.jackpot import JackpotPoolSettings, contribute, pay_jackpot
from ledger.games.registry import procedure_for
from ledger.handlers.tables import load_table


def load_pool(ledger: Ledger, name: str) -> JackpotPool:
    return cast(JackpotPool, ledger.load(pool_id(name), f"jackpot pool {name}"))


POOL_AMOUNTS = ("seed", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
                "cap")


def _in_avos(settings: JackpotPoolSettings) -> JackpotPoolSettings:
    """The pool's amounts as every amount of the ledger is stored: with exactly two places."""
    return settings.model_copy(update={
        name: getattr(settings, name).quantize(AVO)
        for name in POOL_AMOUNTS if getattr(settings, name) is not None
    })


@Ledger.handles(CreatePool)
def create_pool(ledger: Ledger, command: CreatePool) -> tuple[Aggregate, ...]:
    require_supervisor(command.actor, "creating a jackpot pool")
    if ledger.exists(pool_id(command.pool)):
        raise WrongState(f"jackpot pool {command.pool} already exists.")
    data = {"effective_from": command.at.date().isoformat(), **command.settings}
    try:
        settings = _in_avos(JackpotPoolSettings.model_validate(data))
    except ValidationError as error:
        raise InvalidInput(f"pool settings: {describe_validation_error(error)}") from None
    pool = JackpotPool(name=command.pool, settings=settings.model_dump(mode="json"),
                       amount=settings.seed, by=command.provenance)
    return (pool,)


@Ledger.handles(LinkTable)
def link_table(ledger: Ledger, command: LinkTable) -> tuple[Aggregate, ...]:
    require_supervisor(command.actor, "linking a table to a jackpot pool")
    pool = load_pool(ledger, command.pool)
    table = load_table(ledger, command.table)
    if not registry.game(table.game).takes_jackpot_bets:
        raise RuleViolation(f"table {table.code} plays {table.game}, which has no jackpot.")
    if table.pool is not None:
        raise WrongState(f"table {table.code} is already linked to a jackpot pool.")
    pool.link(table=table.code, by=command.provenance)
    table.link_pool(pool_id=pool.id, pool=pool.name, by=command.provenance)
    return pool, table


@Ledger.handles(AdjustPool)
def adjust_pool(ledger: Ledger, command: AdjustPool) -> tuple[Aggregate, ...]:
    require_supervisor(command.actor, "adjusting a jackpot pool")
    pool = load_pool(ledger, command.pool)
    pool.check_adjustment(command.amount, command.reason)
    pool.adjust(amount=command.amount, reason=command.reason,
                pool_after=pool.amount + command.amount, by=command.provenance)
    return (pool,)


def settle_jackpot(ledger: Ledger, table: Table, round_: Round, facts: RoundFacts,
                   by: Provenance) -> list[Aggregate]:
    """The round's contribution to the pool, then its prizes on the pool as it then stands."""
    procedure = procedure_for(round_.game)
    stakes = procedure.jackpot_stakes(facts)  # type: ignore[attr-defined]
    if round_.pool_id is None:
        return []
    pool = cast(JackpotPool, ledger.load(round_.pool_id, "the table's jackpot pool"))
    settings = pool.settings
    if stakes:
        share = contribute(pool.amount, stakes, settings)
        pool.receive(table=table.code, round_id=round_.id, stakes=share.stakes,
                     to_pool=share.to_pool, to_reserve=share.to_reserve,
                     pool_after=pool.amount + share.to_pool, by=by)
    payout = pay_jackpot(pool.amount, procedure.jackpot_claims(facts), settings)  # type: ignore[attr-defined]
    pool.apply_payout(table.code, round_.id, payout, by)
    for prize in payout.prizes:
        round_.award_jackpot(box=prize.box, category=str(prize.category), amount=prize.amount,
                             paid_by_pool=prize.paid_by_pool, paid_by_house=prize.paid_by_house,
                             pool_id=pool.id, by=by)
    return [pool] if stakes or payout.prizes else []


