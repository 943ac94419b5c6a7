"""`ledger table open|close|show|list|sign-in|sign-out`."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

import typer
from rich.table import Table as RichTable

from ledger.application.bus import TABLE
from ledger.audit.verification.open_rounds import open_rounds
from ledger.cli.common import JsonOption, console, print_json, runtime, sender
from ledger.cli.console import WideOption
from ledger.commands.table import CloseTable, OpenTable, SignInDealer, SignOutDealer
from ledger.core.errors import InvalidInput
from ledger.core.formatting import amount, heading
from ledger.presentation.columns import Grid, figure, text
from ledger.presentation.render import safe
from ledger.presentation.wording import game, label, round_reached, rule_set, shown
from ledger.reports.floor import floor_tables, table_view
from projections.queries import TableState, demonstration_coups, ended_rounds

send = sender(TABLE)
"""Sends a command of the table area (its handlers alone are loaded)."""

app = typer.Typer(help="Open and close tables; dealers in and out.", no_args_is_help=True)
Code = Annotated[str, typer.Argument(help="Table code, e.g. BAC-01.")]


def _settings(pairs: list[str]) -> dict[str, bool | int | str]:
    settings: dict[str, bool | int | str] = {}
    for pair in pairs:
        key, sign, value = pair.partition("=")
        if not sign or not key.strip():
            raise InvalidInput(
                f"'{pair}' is not a house setting: write KEY=VALUE, e.g. royal_odds=80."
            )
        settings[key.strip()] = value.strip()
    return settings


@app.command("open")
def open_(
    table: Code,
    game: Annotated[str, typer.Option(
        help="stud-poker, q-poker, fortune-8 or baccarat, or its name (\"Fortune 8\").")],
    min_bet: Annotated[Decimal, typer.Option("--min", help="Table minimum (patacas).")],
    max_bet: Annotated[Decimal, typer.Option("--max", help="Table maximum (patacas).")],
    rules: Annotated[str | None, typer.Option(help="Rule set, e.g. stud-poker/2003.")] = None,
    pit: Annotated[str, typer.Option(help="Pit the table belongs to.")] = "MAIN",
    setting: Annotated[list[str] | None, typer.Option(
        "--setting", help="A house setting, KEY=VALUE (royal_odds=80, max_payout=100000).",
    )] = None,
    authorisation: Annotated[str | None, typer.Option(
        help="The DICJ authorisation of the house settings.")] = None,
) -> None:
    """Open a table (or re-open it for a new gaming day)."""
    from ledger.games.registry import game_code

    command = OpenTable(
        table=table, game=game_code(game), rule_set=rules, min_bet=min_bet, max_bet=max_bet, pit=pit,
        settings=_settings(setting or []), authorisation=authorisation,
    )
    send(command)


@app.command()
def close(table: Code) -> None:
    """Close a table (its dealer is signed out)."""
    send(CloseTable(table=table))


@app.command("sign-in")
def sign_in(
    table: Code, dealer: Annotated[str, typer.Argument(help="Dealer's staff id.")],
) -> None:
    """Sign a dealer in at a table (a dealer badges in themselves; a supervisor may for them)."""
    send(SignInDealer(table=table, dealer_id=dealer))


@app.command("sign-out")
def sign_out(
    table: Code, dealer: Annotated[str, typer.Argument(help="Dealer's staff id.")],
) -> None:
    """Sign a dealer out of a table."""
    send(SignOutDealer(table=table, dealer_id=dealer))


@app.command()
def show(table: Code, as_json: JsonOption = False) -> None:
    """A table as its events say it stands."""
    with runtime() as rt:
        view = table_view(rt.ledger, table)
    if as_json:
        print_json(view)
        return
    grid = RichTable(show_header=False, box=None)
    for name, value in view.model_dump().items():
        said = (game(value) if name == "game" else rule_set(value) if name == "rule_set"
                else shown(value))
        grid.add_row(label(name), safe(said))
    console.print(grid, highlight=False)


@app.command("list")
def list_(as_json: JsonOption = False, wide: WideOption = False) -> None:
    """Every table: the table-state projection, brought up to date first. Too narrow a
    terminal leaves out the rule set first, then the shoe, the pit and the dealer."""
    with runtime() as rt:
        states = floor_tables(rt.database)
        with rt.database.connect() as conn:
            since = {r.table: r for r in open_rounds(conn)}
            coups = demonstration_coups(conn)
            ended = ended_rounds(conn)
    if as_json:
        print_json([{**s.model_dump(), "open_round": since[s.code].describe()
                     if s.code in since and since[s.code].is_stale() else None,
                     "demonstration_coups": coups.get(s.code, 0),
                     "rounds_settled": ended.get(s.code, (0, 0))[0],
                     "rounds_voided": ended.get(s.code, (0, 0))[1],
                     "said": {"game": game(s.game), "rule_set": rule_set(s.rule_set),
                              "round": _rounds(s, coups, ended)}}
                    for s in states])
        return
    grid = Grid(text("table"), text("game"), text("rule set", 5), figure(heading("limits")),
                text("pit", 3), text("state"), text("dealer", 2), text("round"),
                figure("shoe left", 4))
    for s in states:
        open_round = since.get(s.code)
        grid.add_row(
            safe(s.code), safe(game(s.game)), safe(rule_set(s.rule_set, with_game=False)),
            f"{amount(s.min_bet)}-{amount(s.max_bet)}", safe(s.pit),
            "[green]open[/]" if s.is_open else "closed", safe(s.dealer),
            _rounds(s, coups, ended)
            + (f"\n[yellow]{safe(open_round.describe())}[/]" if open_round
               and open_round.is_stale() else ""),
            "-" if s.shoe_cards_remaining is None else str(s.shoe_cards_remaining),
        )
    grid.print(console, wide=wide)


def _rounds(state: TableState, coups: dict[str, int], ended: dict[str, tuple[int, int]]) -> str:
    """`14 settled, 1 void`: a table's rounds in words."""
    settled, voided = ended.get(state.code, (0, 0))
    return round_reached(state.round_number, state.round_phase, coups.get(state.code, 0),
                         settled=settled, voided=voided)
