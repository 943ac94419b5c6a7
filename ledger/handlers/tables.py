"""Opening and closing tables; dealers signing in and out."""

from __future__ import annotations

from ledger.application import Ledger
from ledger.commands import CloseTable, OpenTable, SignInDealer, SignOutDealer
from ledger.domain.table import Table, check_limits, check_table_code, table_id
from ledger.games import rulesets


def load_table(ledger: Ledger, code: str) -> Table:
    code = check_table_code(code)
    table: Table = ledger.load(table_id(code), f"table {code}")
    return table


@Ledger.handles(OpenTable)
def open_table(ledger: Ledger, command: OpenTable) -> tuple[Table, ...]:
    code = check_table_code(command.table)
    rule_set = rulesets.resolve(command.game, command.rule_set)
    check_limits(command.min_bet, command.max_bet)
    if not ledger.exists(table_id(code)):
        return (
            Table(
                code=code, game=rule_set.game, rule_set=rule_set.id, min_bet=command.min_bet,
                max_bet=command.max_bet, pit=command.pit, by=command.provenance,
            ),
        )
    table = load_table(ledger, code)
    table.check_can_reopen()
    table.reopen(
        game=rule_set.game, rule_set=rule_set.id, min_bet=command.min_bet,
        max_bet=command.max_bet, pit=command.pit, by=command.provenance,
    )
    return (table,)


@Ledger.handles(CloseTable)
def close_table(ledger: Ledger, command: CloseTable) -> tuple[Table, ...]:
    table = load_table(ledger, command.table)
    table.check_can_close()
    if table.dealer is not None:
        table.sign_out(dealer_id=table.dealer, by=command.provenance)
    table.close(by=command.provenance)
    return (table,)


@Ledger.handles(SignInDealer)
def sign_in_dealer(ledger: Ledger, command: SignInDealer) -> tuple[Table, ...]:
    table = load_table(ledger, command.table)
    table.check_can_sign_in(command.dealer_id)
    table.sign_in(dealer_id=command.dealer_id, by=command.provenance)
    return (table,)


@Ledger.handles(SignOutDealer)
def sign_out_dealer(ledger: Ledger, command: SignOutDealer) -> tuple[Table, ...]:
    table = load_table(ledger, command.table)
    table.check_can_sign_out(command.dealer_id)
    table.sign_out(dealer_id=command.dealer_id, by=command.provenance)
    return (table,)
