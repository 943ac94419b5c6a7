"""`ledger edges TABLE` (or `--game GAME`): each bet's house edge and standard deviation under
the rules and house settings in force, and how each figure was computed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from ledger.cli.console import JsonOption, WideOption, console, print_json
from ledger.core import clock
from ledger.core.formatting import MACAU
from ledger.presentation.wording import rule_set

if TYPE_CHECKING:  # the CLI imports the domain only when the command runs
    from ledger.domain.jackpot_pool import JackpotPool
    from ledger.games.settings import HouseSettings


def edges(
    table: Annotated[str | None, typer.Argument(
        help="A table: its rules and the house settings in force today.")] = None,
    game: Annotated[str | None, typer.Option(
        help="A game under its standard settings instead: stud-poker, q-poker, fortune-8 or "
             "baccarat, or its name (\"Fortune 8\").")] = None,
    jackpot_bet: Annotated[str | None, typer.Option(
        help="A table's jackpot bet, e.g. 10.00: its figures depend on the stake and the "
             "pool's amount now.")] = None,
    as_json: JsonOption = False,
    wide: WideOption = False,
) -> None:
    """Each bet's house edge and standard deviation under a table's rules and settings.

    Per unit staked, computed from the regulation (or a game's standard settings), with how
    each figure was computed."""
    from ledger.core.errors import InvalidInput
    from ledger.games.registry import game as game_of
    from ledger.games.registry import game_code, standard_settings

    if (table is None) == (game is None):
        raise InvalidInput("name a table, or a game with --game (not both).")
    pool: JackpotPool | None = None
    if game is not None:
        code = game_code(game)
        settings, where = standard_settings(code), "standard settings"
    else:
        code, settings, where, pool = _table_terms(str(table))
    odds = game_of(code).bet_odds(settings)
    if pool is not None and jackpot_bet is not None:
        from decimal import Decimal, InvalidOperation

        try:
            stake = Decimal(jackpot_bet)
        except InvalidOperation:
            raise InvalidInput(f"--jackpot-bet '{jackpot_bet}' is not an amount.") from None
        found = game_of(code).jackpot_odds(pool.settings, stake, pool.amount)
        odds = (*odds, found) if found is not None else odds
    elif pool is not None:
        where += (f"; its jackpot pool stands at {pool.amount}: give --jackpot-bet AMOUNT for "
                  "the jackpot bet's figures")
    said: dict[str, Any] = {
        "game": code, "terms": where, "settings": settings.model_dump(mode="json"),
        "bets": [{"spot": bet.spot, "edge": str(bet.edge), "variance": str(bet.variance),
                  "deviation": str(bet.deviation), "error": str(bet.error),
                  "method": bet.method} for bet in odds]}
    if as_json:
        print_json(said)
        return
    from ledger.presentation.columns import Grid, figure, text

    console.print(f"{game_of(code).name}, {where}", highlight=False)
    grid = Grid(text("bet"), figure("house edge"), figure("std. deviation"),
                text("how", wraps=True), show_lines=True)
    for bet in odds:
        edge = f"{bet.edge * 100:.4f}%" + (f" ± {bet.error * 100:.4f}" if bet.error else "")
        grid.add_row(bet.spot, edge, f"{bet.deviation:.4f}", bet.method)
    grid.print(console, wide=wide)


def _table_terms(code: str) -> tuple[str, HouseSettings, str, JackpotPool | None]:
    from ledger.cli.common import reading
    from ledger.domain.jackpot_pool import JackpotPool
    from ledger.domain.table import Table, check_table_code, table_id
    from ledger.games.rulesets import parse_settings, settings_in_force

    code = check_table_code(code)
    with reading() as rt:
        table = rt.ledger.load(Table, table_id(code), f"table {code}")
        pool = rt.ledger.load(JackpotPool, table.pool, "jackpot pool") if table.pool else None
    history = [parse_settings(table.rule_set, data) for data in table.settings_history]
    settings = settings_in_force(history, clock.now().astimezone(MACAU).date())
    where = (f"table {code}: {rule_set(table.rule_set, with_game=False)}, settings in force from "
             f"{settings.effective_from} ({settings.authorisation})")
    return table.game, settings, where, pool
