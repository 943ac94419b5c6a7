"""Opening and closing tables; dealers signing in and out."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from ledger.application.handlers.unit_of_work import Handlers, UnitOfWork, handles
from ledger.commands.table import (
    ChangeTableSettings,
    CloseTable,
    OpenTable,
    SignInDealer,
    SignOutDealer,
)
from ledger.domain.base import require_supervisor
from ledger.domain.table import Table, check_limits, check_table_code, table_id
from ledger.games import registry, rulesets
from ledger.games.rulesets import RuleSet


def load_table(uow: UnitOfWork, code: str) -> Table:
    code = check_table_code(code)
    return uow.load(Table, table_id(code), f"table {code}")


def house_settings(
    rule_set: RuleSet, given: dict[str, Any], *, min_bet: Decimal, max_bet: Decimal,
    effective_from: date, authorisation: str | None,
) -> dict[str, Any]:
    """The validated house settings of a table, as JSON to record."""
    data = {
        **registry.game(rule_set.game).default_settings,  # when the house names nothing else
        **given, "min_bet": min_bet, "max_bet": max_bet,
        "effective_from": effective_from, "authorisation": authorisation or "house standard",
    }
    settings: dict[str, Any] = rulesets.parse_settings(rule_set.id, data).model_dump(mode="json")
    return settings


def open_table(command: OpenTable, uow: UnitOfWork) -> tuple[Table, ...]:
    code = check_table_code(command.table)
    rule_set = rulesets.resolve(command.game, command.rule_set)
    check_limits(command.min_bet, command.max_bet)
    settings = house_settings(
        rule_set, command.settings, min_bet=command.min_bet, max_bet=command.max_bet,
        effective_from=command.at.date(), authorisation=command.authorisation,
    )
    opening: dict[str, Any] = {
        "game": rule_set.game, "rule_set": rule_set.id, "min_bet": command.min_bet,
        "max_bet": command.max_bet, "pit": command.pit, "settings": settings,
        "by": command.provenance}
    if not uow.exists(table_id(code)):
        return (Table(code=code, **opening),)
    table = load_table(uow, code)
    table.check_can_reopen()
    table.reopen(**opening)
    return (table,)


def change_table_settings(command: ChangeTableSettings, uow: UnitOfWork) -> tuple[Table, ...]:
    require_supervisor(command.provenance.actor, "changing a table's house settings")
    table = load_table(uow, command.table)
    current = table.settings_history[-1]
    given = {k: v for k, v in {**current, **command.settings}.items()
             if k not in ("effective_from", "authorisation", "rule_version")}
    settings = house_settings(
        rulesets.rule_set(table.rule_set), given, min_bet=Decimal(given.pop("min_bet")),
        max_bet=Decimal(given.pop("max_bet")), effective_from=command.effective_from,
        authorisation=command.authorisation,
    )
    table.change_settings(settings=settings, by=command.provenance)
    return (table,)


def close_table(command: CloseTable, uow: UnitOfWork) -> tuple[Table, ...]:
    table = load_table(uow, command.table)
    table.check_can_close()
    if table.dealer is not None:
        table.sign_out(dealer_id=table.dealer, by=command.provenance)
    table.close(by=command.provenance)
    return (table,)


def sign_in_dealer(command: SignInDealer, uow: UnitOfWork) -> tuple[Table, ...]:
    table = load_table(uow, command.table)
    table.check_can_sign_in(command.dealer_id)
    table.sign_in(dealer_id=command.dealer_id, by=command.provenance)
    return (table,)


def sign_out_dealer(command: SignOutDealer, uow: UnitOfWork) -> tuple[Table, ...]:
    table = load_table(uow, command.table)
    table.check_can_sign_out(command.dealer_id)
    table.sign_out(dealer_id=command.dealer_id, by=command.provenance)
    return (table,)


HANDLERS: Handlers = (
    handles(OpenTable, open_table),
    handles(ChangeTableSettings, change_table_settings),
    handles(CloseTable, close_table),
    handles(SignInDealer, sign_in_dealer),
    handles(SignOutDealer, sign_out_dealer),
)
