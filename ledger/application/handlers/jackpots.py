"""Jackpot pools: creating, linking tables, adjustments, and a round's contribution and prizes."""

from __future__ import annotations

from pydantic import ValidationError

from ledger.application.handlers.tables import load_table
from ledger.application.handlers.unit_of_work import Handlers, UnitOfWork, handles
from ledger.commands.jackpot import AdjustPool, CreatePool, LinkTable
from ledger.core.errors import InvalidInput, RuleViolation, WrongState, describe_validation_error
from ledger.domain.base import Aggregate, Provenance, require_supervisor
from ledger.domain.jackpot_pool import JackpotPool, pool_id
from ledger.domain.round import Round
from ledger.domain.table import Table
from ledger.games import registry
from ledger.games.common import AVO
from ledger.games.facts import RoundFacts
from ledger.games.jackpot import JackpotPoolSettings, JackpotProcedure, contribute, pay_jackpot
from ledger.games.registry import procedure_for


def load_pool(uow: UnitOfWork, name: str) -> JackpotPool:
    return uow.load(JackpotPool, pool_id(name), f"jackpot pool {name}")


POOL_AMOUNTS = ("seed", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
                "cap")


def _in_avos(settings: JackpotPoolSettings) -> JackpotPoolSettings:
    """The pool's amounts as every amount of the ledger is stored: with exactly two places."""
    return settings.model_copy(update={
        name: getattr(settings, name).quantize(AVO)
        for name in POOL_AMOUNTS if getattr(settings, name) is not None
    })


def create_pool(command: CreatePool, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    require_supervisor(command.provenance.actor, "creating a jackpot pool")
    if uow.exists(pool_id(command.pool)):
        raise WrongState(f"jackpot pool {command.pool} already exists.")
    data = {"effective_from": command.at.date().isoformat(), **command.settings}
    try:
        settings = _in_avos(JackpotPoolSettings.model_validate(data))
    except ValidationError as error:
        raise InvalidInput(f"pool settings: {describe_validation_error(error)}") from None
    pool = JackpotPool(name=command.pool, settings=settings.model_dump(mode="json"),
                       amount=settings.seed, by=command.provenance)
    return (pool,)


def link_table(command: LinkTable, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    require_supervisor(command.provenance.actor, "linking a table to a jackpot pool")
    pool = load_pool(uow, command.pool)
    table = load_table(uow, command.table)
    if not registry.game(table.game).takes_jackpot_bets:
        raise RuleViolation(f"table {table.code} plays {table.game}, which has no jackpot.")
    if table.pool is not None:
        raise WrongState(f"table {table.code} is already linked to a jackpot pool.")
    pool.link(table=table.code, by=command.provenance)
    table.link_pool(pool_id=pool.id, pool=pool.name, by=command.provenance)
    return pool, table


def adjust_pool(command: AdjustPool, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    require_supervisor(command.provenance.actor, "adjusting a jackpot pool")
    pool = load_pool(uow, command.pool)
    pool.check_adjustment(command.amount, command.reason)
    pool.adjust(amount=command.amount, reason=command.reason,
                pool_after=pool.amount + command.amount, by=command.provenance)
    return (pool,)


def settle_jackpot(uow: UnitOfWork, table: Table, round_: Round, facts: RoundFacts,
                   by: Provenance) -> list[Aggregate]:
    """The round's contribution to the pool, then its prizes on the pool as it then stands."""
    procedure = procedure_for(round_.game)
    if not isinstance(procedure, JackpotProcedure):
        raise RuleViolation(f"{round_.game} has no jackpot.")
    stakes = procedure.jackpot_stakes(facts)
    if round_.pool_id is None:
        return []
    pool = uow.load(JackpotPool, round_.pool_id, "the table's jackpot pool")
    settings = pool.settings
    if stakes:
        share = contribute(pool.amount, stakes, settings)
        pool.receive(table=table.code, round_id=round_.id, stakes=share.stakes,
                     to_pool=share.to_pool, to_reserve=share.to_reserve,
                     pool_after=pool.amount + share.to_pool, by=by)
    payout = pay_jackpot(pool.amount, procedure.jackpot_claims(facts), settings)
    pool.apply_payout(table.code, round_.id, payout, by)
    for prize in payout.prizes:
        round_.award_jackpot(box=prize.box, category=str(prize.category), amount=prize.amount,
                             paid_by_pool=prize.paid_by_pool, paid_by_house=prize.paid_by_house,
                             pool_id=pool.id, by=by)
    return [pool] if stakes or payout.prizes else []


HANDLERS: Handlers = (
    handles(CreatePool, create_pool),
    handles(LinkTable, link_table),
    handles(AdjustPool, adjust_pool),
)
